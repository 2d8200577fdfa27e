/**
 * Label language on classic styles: which field a language uses, and the layer rewrite.
 */
import {
	nameField,
	resolveLanguage,
	rewriteTextField,
} from '../../packages/map/src/language';

describe( 'resolveLanguage', () => {
	it.each( [
		[ 'de', [ 'fr-FR' ], 'de' ],
		[ 'auto', [ 'fr-FR', 'en' ], 'fr' ],
		[ 'auto', [ 'zh-TW' ], 'zh-Hant' ],
		[ 'auto', [ 'zh-CN' ], 'zh-Hans' ],
		[ 'auto', [], 'en' ],
	] )( '%s with %p → %s', ( language, preferred, expected ) => {
		expect( resolveLanguage( language, preferred ) ).toBe( expected );
	} );
} );

describe( 'rewriteTextField', () => {
	it( 'swaps the English field of a Streets layer for German with a fallback', () => {
		expect(
			rewriteTextField(
				[ 'coalesce', [ 'get', 'name_en' ], [ 'get', 'name' ] ],
				nameField( 'de' )
			)
		).toEqual( [
			'coalesce',
			[ 'coalesce', [ 'get', 'name_de' ], [ 'get', 'name' ] ],
			[ 'coalesce', [ 'get', 'name_de' ], [ 'get', 'name' ] ],
		] );
	} );

	it( 'uses the local name for a language the tiles do not carry', () => {
		expect( nameField( 'fi' ) ).toBeNull();
		expect( rewriteTextField( '{name_en}', nameField( 'fi' ) ) ).toEqual( [
			'get',
			'name',
		] );
	} );

	it( 'leaves other fields alone', () => {
		const shield = [ 'get', 'ref' ];
		expect( rewriteTextField( shield, 'name_de' ) ).toEqual( shield );
		expect(
			rewriteTextField(
				[ 'to-string', [ 'get', 'house_num' ] ],
				'name_de'
			)
		).toEqual( [ 'to-string', [ 'get', 'house_num' ] ] );
	} );
} );
