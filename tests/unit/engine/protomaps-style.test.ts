/**
 * The self-hosted basemap's style, built in the browser over a PMTiles archive on the site: the
 * Protomaps layers in the map's language, the site's DejaVu glyphs, no icons (no sprite), the
 * archive's attribution or the configuration's or Protomaps' own, the `pmtiles` protocol added
 * once per library; an archive that cannot be read rejects (the map's `style` alert).
 */
import { parseMapConfig } from '../../../packages/map/src/config';
import {
	DEFAULT_ATTRIBUTION,
	protomapsStyle,
} from '../../../packages/map/src/engine/protomaps-style';
import type { MaplibreExtras } from '../../../packages/map/src/engine/maplibre';
import { ensureWebApis, rangeFetch, tinyArchive } from './tiny-pmtiles';

const SITE = 'https://site.example';
const GLYPHS = `${ SITE }/wp-content/plugins/cairn-maps/assets/basemap/glyphs/{fontstack}/{range}.pbf`;

function config( archive: string, attribution = '' ) {
	return parseMapConfig( {
		engine: 'maplibre',
		style: `pmtiles://${ archive }`,
		basemap: {
			provider: 'self-hosted',
			glyphs: GLYPHS,
			hosts: [],
			attribution,
		},
	} );
}

function library() {
	const protocols: string[] = [];
	const lib: MaplibreExtras = {
		addProtocol: ( scheme ) => {
			protocols.push( scheme );
		},
	};
	return { lib, protocols };
}

let requests: string[] = [];
ensureWebApis();
beforeEach( () => {
	requests = [];
	const files = {
		[ `${ SITE }/world.pmtiles` ]: tinyArchive( {
			metadata: { attribution: '© Natural Earth' },
		} ),
		[ `${ SITE }/plain.pmtiles` ]: tinyArchive(),
		[ `${ SITE }/truncated.pmtiles` ]: tinyArchive().slice( 0, 180 ),
		[ `${ SITE }/not-an-archive.pmtiles` ]: new TextEncoder().encode(
			'<!doctype html><title>Not found</title>'.repeat( 10 )
		),
		[ `${ SITE }/raster.pmtiles` ]: tinyArchive( { tileType: 2 } ),
	};
	( globalThis as unknown as { fetch: unknown } ).fetch = rangeFetch(
		files,
		requests
	);
} );

describe( 'protomapsStyle', () => {
	it( 'builds the Protomaps layers over the archive with the site’s glyphs and DejaVu fonts', async () => {
		const { lib, protocols } = library();
		const style = await protomapsStyle(
			lib,
			config( `${ SITE }/world.pmtiles` ),
			'de'
		);
		expect( style.glyphs ).toBe( GLYPHS );
		expect( style.sprite ).toBeUndefined();
		expect( style.sources.protomaps ).toEqual( {
			type: 'vector',
			url: `pmtiles://${ SITE }/world.pmtiles`,
			attribution: '© Natural Earth',
		} );
		const text = JSON.stringify( style.layers );
		expect( style.layers.length ).toBeGreaterThan( 30 );
		expect( text ).not.toContain( 'Noto Sans' );
		expect( text ).toContain( 'DejaVuSans-Book' );
		expect( text ).not.toContain( 'icon-image' );
		// Labels in the map's language.
		expect( text ).toContain( '"name:de"' );
		// The place labels keep their text when their town dots go.
		expect(
			style.layers.find( ( layer ) => layer.id === 'places_locality' )
		).toBeDefined();
		expect( protocols ).toEqual( [ 'pmtiles' ] );
		// Every request went to the archive on the site.
		expect(
			requests.every( ( url ) => url === `${ SITE }/world.pmtiles` )
		).toBe( true );
	} );

	it( 'adds the protocol once per library', async () => {
		const { lib, protocols } = library();
		await protomapsStyle( lib, config( `${ SITE }/world.pmtiles` ), 'en' );
		await protomapsStyle( lib, config( `${ SITE }/plain.pmtiles` ), 'en' );
		expect( protocols ).toEqual( [ 'pmtiles' ] );
	} );

	it( 'attributes the configuration’s text, else Protomaps and OpenStreetMap', async () => {
		const { lib } = library();
		const given = await protomapsStyle(
			lib,
			config( `${ SITE }/plain.pmtiles`, 'Map data © OpenStreetMap' ),
			'en'
		);
		expect(
			( given.sources.protomaps as { attribution?: string } ).attribution
		).toBe( 'Map data © OpenStreetMap' );
		const fallback = await protomapsStyle(
			lib,
			config( `${ SITE }/plain.pmtiles` ),
			'en'
		);
		expect(
			( fallback.sources.protomaps as { attribution?: string } )
				.attribution
		).toBe( DEFAULT_ATTRIBUTION );
		expect( DEFAULT_ATTRIBUTION ).toBe( 'Protomaps © OpenStreetMap' );
	} );

	it.each( [
		[ 'a truncated file', 'truncated.pmtiles' ],
		[ 'a file that is not an archive', 'not-an-archive.pmtiles' ],
		[ 'an archive of images, not vector tiles', 'raster.pmtiles' ],
		[ 'a file that is not there', 'missing.pmtiles' ],
	] )( 'rejects %s', async ( _label, file ) => {
		const { lib } = library();
		await expect(
			protomapsStyle( lib, config( `${ SITE }/${ file }` ), 'en' )
		).rejects.toThrow();
	} );
} );
