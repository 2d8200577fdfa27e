/**
 * The basemap the block's preview draws (editor-data's previewBasemap): what a visitor gets for
 * the same block, so a site without a Mapbox token previews its keyless basemap instead of the
 * token placeholder, and only a Mapbox map asks for the token.
 */
import {
	DEFAULT_STYLE,
	getEditorData,
	previewBasemap,
} from '../../src/blocks/map/editor-data';

const LIBERTY = 'https://tiles.openfreemap.org/styles/liberty';
const OPENFREEMAP = {
	provider: 'openfreemap',
	glyphs: '',
	hosts: [ 'tiles.openfreemap.org' ],
	attribution: '',
};
const GLYPHS =
	'https://site.test/wp-content/plugins/cairn-maps/assets/basemap/glyphs/{fontstack}/{range}.pbf';

function editorData( siteStyle: string ) {
	( window as { cairnMapsEditor?: unknown } ).cairnMapsEditor = {
		siteStyle,
		glyphsUrl: GLYPHS,
		basemaps: {
			[ LIBERTY ]: OPENFREEMAP,
			'javascript:alert(1)': { provider: 'evil' },
		},
	};
	return getEditorData();
}

afterEach( () => {
	delete ( window as { cairnMapsEditor?: unknown } ).cairnMapsEditor;
} );

describe( 'previewBasemap', () => {
	it( "draws the site's keyless basemap for block.json's default style, without a token", () => {
		const data = editorData( LIBERTY );
		expect( data.basemaps ).toEqual( { [ LIBERTY ]: OPENFREEMAP } );
		expect( previewBasemap( DEFAULT_STYLE, data ) ).toEqual( {
			style: LIBERTY,
			engine: 'maplibre',
			basemap: OPENFREEMAP,
			needsToken: false,
		} );
	} );

	it( 'keeps a block that names a Mapbox style on Mapbox, with the token', () => {
		expect(
			previewBasemap(
				'mapbox://styles/mapbox/outdoors-v12',
				editorData( LIBERTY )
			)
		).toEqual( {
			style: 'mapbox://styles/mapbox/outdoors-v12',
			engine: 'mapbox',
			basemap: {
				provider: 'mapbox',
				glyphs: '',
				hosts: [],
				attribution: '',
			},
			needsToken: true,
		} );
	} );

	it( "draws Mapbox Standard for the default style when that is the site's basemap", () => {
		expect(
			previewBasemap( DEFAULT_STYLE, editorData( DEFAULT_STYLE ) )
		).toMatchObject( {
			style: DEFAULT_STYLE,
			engine: 'mapbox',
			needsToken: true,
		} );
	} );

	it( 'builds the basemap of a style the server did not describe by the same rule', () => {
		const data = editorData( LIBERTY );
		expect(
			previewBasemap(
				'pmtiles://https://site.test/wp-content/uploads/world.pmtiles',
				data
			)
		).toEqual( {
			style: 'pmtiles://https://site.test/wp-content/uploads/world.pmtiles',
			engine: 'maplibre',
			basemap: {
				provider: 'self-hosted',
				glyphs: GLYPHS,
				hosts: [],
				attribution: '',
			},
			needsToken: false,
		} );
		expect(
			previewBasemap( 'https://Tiles.Example.org/style.json', data )
		).toMatchObject( {
			engine: 'maplibre',
			basemap: { provider: 'style-url', hosts: [ 'tiles.example.org' ] },
			needsToken: false,
		} );
	} );

	it.each( [
		'http://tiles.example.org/style.json',
		'javascript:alert(1)',
		'',
	] )(
		"draws the site's basemap for a refused style (%p), as the server does",
		( style ) => {
			expect(
				previewBasemap( style, editorData( LIBERTY ) )
			).toMatchObject( {
				style: LIBERTY,
				engine: 'maplibre',
				needsToken: false,
			} );
		}
	);
} );
