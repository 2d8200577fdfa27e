/**
 * The engine rule, on the vectors PHP's Basemap::engine_for() reads too (tests/fixtures/styles.json):
 * the server and the browser must agree which engine draws a style, and which references are refused.
 */
import vectors from '../../fixtures/styles.json';
import {
	archiveUrl,
	engineForStyle,
} from '../../../packages/map/src/engine/style-engine';
import { parseMapConfig } from '../../../packages/map/src/config';

describe( 'engineForStyle', () => {
	it( 'has vectors for both engines and for refusals', () => {
		const engines = new Set( vectors.map( ( vector ) => vector.engine ) );
		expect( engines ).toEqual( new Set( [ 'mapbox', 'maplibre', null ] ) );
	} );

	it.each( vectors.map( ( v ) => [ v.why, v.style, v.engine ] ) )(
		'%s: %j → %p',
		( _why, style, engine ) => {
			expect( engineForStyle( style ) ).toBe( engine );
		}
	);

	it( 'refuses what is not a string, and references over 2,048 characters', () => {
		expect( engineForStyle( undefined ) ).toBeNull();
		expect( engineForStyle( 42 ) ).toBeNull();
		expect(
			engineForStyle( `https://example.org/${ 'a'.repeat( 2048 ) }` )
		).toBeNull();
	} );

	it( 'gives the archive URL of a self-hosted reference only', () => {
		expect(
			archiveUrl( 'pmtiles://https://example.org/world.pmtiles' )
		).toBe( 'https://example.org/world.pmtiles' );
		expect( archiveUrl( 'pmtiles://ftp://example.org/w.pmtiles' ) ).toBe(
			''
		);
		expect(
			archiveUrl( 'https://tiles.openfreemap.org/styles/liberty' )
		).toBe( '' );
	} );
} );

describe( 'parseMapConfig: engine and basemap', () => {
	it( 'reads a configuration without them as today’s Mapbox map', () => {
		const config = parseMapConfig( {
			style: 'mapbox://styles/mapbox/streets-v12',
		} );
		expect( config.engine ).toBe( 'mapbox' );
		expect( config.basemap ).toEqual( {
			provider: 'mapbox',
			glyphs: '',
			hosts: [],
			attribution: '',
		} );
	} );

	it( 'keeps every style the rule accepts, and falls back to the default for what no engine can draw', () => {
		for ( const { style } of vectors.filter( ( v ) => v.engine ) ) {
			expect( parseMapConfig( { style } ).style ).toBe( style );
		}
		for ( const style of [
			'http://tiles.openfreemap.org/styles/liberty',
			'javascript:alert(1)',
			'data:application/json,{}',
			'pmtiles:///wp-content/uploads/world.pmtiles',
			'pmtiles://ftp://example.org/world.pmtiles',
			'pmtiles://javascript:alert(1)',
			'',
		] ) {
			expect( parseMapConfig( { style } ).style ).toBe(
				'mapbox://styles/mapbox/standard'
			);
		}
	} );

	it( 'takes the defaults of each provider from the style alone', () => {
		expect(
			parseMapConfig( {
				engine: 'maplibre',
				style: 'https://tiles.openfreemap.org/styles/liberty',
			} ).basemap
		).toMatchObject( {
			provider: 'openfreemap',
			hosts: [ 'tiles.openfreemap.org' ],
		} );
		expect(
			parseMapConfig( {
				engine: 'maplibre',
				style: 'https://tiles.versatiles.org/assets/styles/colorful/style.json',
			} ).basemap
		).toMatchObject( {
			provider: 'style-url',
			hosts: [ 'tiles.versatiles.org' ],
		} );
		expect(
			parseMapConfig( {
				engine: 'maplibre',
				style: 'pmtiles://https://site.example/world.pmtiles',
			} ).basemap
		).toMatchObject( { provider: 'self-hosted', hosts: [] } );
	} );

	it( 'checks each key the server sends', () => {
		const config = parseMapConfig( {
			engine: 'maplibre',
			style: 'pmtiles://https://site.example/world.pmtiles',
			basemap: {
				provider: 'self-hosted',
				glyphs: 'https://site.example/glyphs/{fontstack}/{range}.pbf',
				hosts: [ 'Tiles.Example.org', 'bad host', 7 ],
				attribution: '  © Natural Earth ',
			},
		} );
		expect( config.basemap ).toEqual( {
			provider: 'self-hosted',
			glyphs: 'https://site.example/glyphs/{fontstack}/{range}.pbf',
			hosts: [ 'tiles.example.org' ],
			attribution: '© Natural Earth',
		} );
		expect(
			parseMapConfig( {
				engine: 'maplibre',
				style: 'pmtiles://https://site.example/world.pmtiles',
				basemap: { glyphs: 'javascript:alert(1)' },
			} ).basemap.glyphs
		).toBe( '' );
		expect( parseMapConfig( { engine: 'leaflet' } ).engine ).toBe(
			'mapbox'
		);
	} );
} );
