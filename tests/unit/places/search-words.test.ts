/**
 * The search's rule (places/words.ts) against the vectors the place index (PHP Place_Words) is
 * tested with: the small map, the tiled map and the shapes mean the same by a search.
 */
import vectors from '../../fixtures/search-words.json';
import {
	clipSearch,
	fold,
	matches,
	queryWords,
	searchText,
	words,
} from '../../../packages/map/src/places/words';

describe( 'the shared search vectors', () => {
	it.each( vectors.words.map( ( vector ) => [ vector.name, vector ] ) )(
		'%s: folded, split and queried as the index does',
		( _name, vector ) => {
			expect( fold( vector.text ) ).toBe( vector.fold );
			expect( words( vector.text ) ).toEqual( vector.words );
			expect( queryWords( vector.text ) ).toEqual( vector.query );
		}
	);

	it.each(
		vectors.matches.map( ( vector ) => [
			`${ vector.query } in ${ vector.title }`,
			vector,
		] )
	)( '%s', ( _name, vector ) => {
		expect(
			matches(
				searchText( vector.title, vector.groups ),
				queryWords( vector.query )
			)
		).toBe( vector.matches );
	} );
} );

describe( 'clipSearch', () => {
	it( 'never cuts a character in half, so the address can still be encoded', () => {
		const search = '🏔'.repeat( 250 );
		const clipped = clipSearch( search );
		expect( Array.from( clipped ) ).toHaveLength( 200 );
		expect( () => encodeURIComponent( clipped ) ).not.toThrow();
	} );

	it( 'keeps a short search as it is', () => {
		expect( clipSearch( 'Café' ) ).toBe( 'Café' );
	} );
} );
