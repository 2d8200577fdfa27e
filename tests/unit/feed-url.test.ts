/**
 * The feed URLs of a map's selections, against the vectors the server's Feed_Url is tested with
 * (tests/fixtures/feed-urls.json): the editor's preview asks for what the page will ask for.
 */
import vectors from '../fixtures/feed-urls.json';
import {
	markersFeedUrl,
	postsFeedUrl,
	shapesFeedUrl,
} from '../../packages/map/src/feed-url';
import type { ContentSelection } from '../../packages/map/src/types';

const BASE = 'https://example.test/wp-json/cairn/v1/markers';
const SHAPES_BASE = 'https://example.test/wp-json/cairn/v1/shapes';

/**
 * The query parameters a URL adds to the feed's address, in order, decoded; null for no URL.
 *
 * @param url  A feed URL, or ''.
 * @param base The feed's address it must start with.
 */
function query( url: string, base = BASE ): string[][] | null {
	if ( url === '' ) {
		return null;
	}
	expect( url.split( '?' )[ 0 ] ).toBe( base );
	return [ ...new URL( url ).searchParams.entries() ];
}

describe( 'markersFeedUrl', () => {
	it.each( vectors.markers.map( ( vector ) => [ vector.name, vector ] ) )(
		'%s',
		( _name, { selection, query: expected } ) => {
			expect( query( markersFeedUrl( BASE, selection ) ) ).toEqual(
				expected
			);
		}
	);

	it( 'has no URL without the feed address', () => {
		expect(
			markersFeedUrl( '', { source: 'all', groups: [], ids: [] } )
		).toBe( '' );
	} );
} );

describe( 'shapesFeedUrl', () => {
	it.each( vectors.shapes.map( ( vector ) => [ vector.name, vector ] ) )(
		'%s',
		( _name, { selection, query: expected } ) => {
			expect(
				query( shapesFeedUrl( SHAPES_BASE, selection ), SHAPES_BASE )
			).toEqual( expected );
		}
	);

	it( 'asks the shapes route what the markers route is asked', () => {
		for ( const { selection } of vectors.markers ) {
			expect(
				shapesFeedUrl( SHAPES_BASE, selection ).replace(
					SHAPES_BASE,
					BASE
				)
			).toBe( markersFeedUrl( BASE, selection ) );
		}
	} );
} );

describe( 'postsFeedUrl', () => {
	it.each( vectors.posts.map( ( vector ) => [ vector.name, vector ] ) )(
		'%s',
		( _name, { content, context, query: expected } ) => {
			expect(
				query(
					postsFeedUrl( BASE, content as ContentSelection, context )
				)
			).toEqual( expected );
		}
	);

	it( 'keeps a base that already has a query (plain permalinks)', () => {
		const url = postsFeedUrl(
			'https://example.test/?rest_route=/cairn/v1/markers',
			{ postTypes: [ 'post' ], terms: {}, current: false },
			{}
		);
		expect( [ ...new URL( url ).searchParams.entries() ] ).toEqual( [
			[ 'rest_route', '/cairn/v1/markers' ],
			[ 'post_type', 'post' ],
		] );
	} );
} );
