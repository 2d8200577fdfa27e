/**
 * The style of a self-hosted (`pmtiles://`) basemap, built in the browser: the Protomaps basemap
 * layers (`@protomaps/basemaps`, flavor `light`, labels in the map's language) over the archive,
 * read through `pmtiles`' protocol (registered once per library). Glyphs come from the site
 * (`config.basemap.glyphs`, the DejaVu stacks of the contract); there is no sprite, so icons are
 * left out (layers that only draw icons are dropped, labels keep their text). Attribution: the
 * archive's own, else the configuration's, else "Protomaps © OpenStreetMap". An archive that
 * cannot be read (truncated, not an archive, not vector tiles) rejects: the map's `style` failure.
 */
import { layers, namedFlavor } from '@protomaps/basemaps';
import { PMTiles, Protocol, TileType } from 'pmtiles';
import type { StyleSpecification } from 'mapbox-gl';

import type { MapConfig } from '../types';
import type { MaplibreExtras } from './maplibre';
import { archiveUrl, PMTILES_PREFIX } from './style-engine';

/** The source's id in the built style. */
export const PROTOMAPS_SOURCE = 'protomaps';
export const DEFAULT_ATTRIBUTION = 'Protomaps © OpenStreetMap';
const BOOK = 'DejaVuSans-Book';
const BOLD = 'DejaVuSans-Bold';

let protocol: Protocol | null = null;
const registered = new WeakSet< object >();

/**
 * Every Protomaps font (`Noto Sans Regular/Medium/Italic`, …) as the site's DejaVu stack.
 * @param value A layer, or any part of it.
 */
export function dejaVuFonts( value: unknown ): unknown {
	if ( typeof value === 'string' && /^Noto Sans/.test( value ) ) {
		return /Bold/.test( value ) ? BOLD : BOOK;
	}
	if ( Array.isArray( value ) ) {
		return value.map( dejaVuFonts );
	}
	if ( value && typeof value === 'object' ) {
		return Object.fromEntries(
			Object.entries( value ).map( ( [ key, part ] ) => [
				key,
				dejaVuFonts( part ),
			] )
		);
	}
	return value;
}

type Layer = ReturnType< typeof layers >[ number ];

/**
 * A layer without its icons (the style has no sprite): null for a layer that draws nothing else.
 * @param layer
 */
export function withoutIcons( layer: Layer ): Layer | null {
	const layout = ( layer as { layout?: Record< string, unknown > } ).layout;
	const paint = ( layer as { paint?: Record< string, unknown > } ).paint;
	if (
		paint &&
		Object.keys( paint ).some( ( key ) => /-pattern$/.test( key ) )
	) {
		return null;
	}
	if ( ! layout || ! ( 'icon-image' in layout ) ) {
		return layer;
	}
	if ( ! ( 'text-field' in layout ) ) {
		return null;
	}
	const strip = ( part: Record< string, unknown > | undefined ) =>
		part &&
		Object.fromEntries(
			Object.entries( part ).filter(
				( [ key ] ) => ! key.startsWith( 'icon-' )
			)
		);
	return {
		...layer,
		layout: strip( layout ),
		paint: strip( paint ),
	} as Layer;
}

/**
 * The Protomaps layers over a source, for a language, fitted to the site's glyphs.
 * @param lang
 */
export function protomapsLayers( lang: string ): Layer[] {
	return layers( PROTOMAPS_SOURCE, namedFlavor( 'light' ), { lang } )
		.map( withoutIcons )
		.filter( ( layer ): layer is Layer => layer !== null )
		.map( ( layer ) => dejaVuFonts( layer ) as Layer );
}

/**
 * The archive's own attribution (its metadata's `attribution`), or ''.
 * @param metadata
 */
function attributionOf( metadata: unknown ): string {
	const value = ( metadata as { attribution?: unknown } | null )?.attribution;
	return typeof value === 'string' ? value.trim() : '';
}

/**
 * The style for a `pmtiles://` configuration.
 * @param lib    maplibre-gl (its `addProtocol`).
 * @param config
 * @param lang   The label language.
 */
export async function protomapsStyle(
	lib: MaplibreExtras,
	config: Pick< MapConfig, 'style' | 'basemap' >,
	lang: string
): Promise< StyleSpecification > {
	const url = archiveUrl( config.style );
	if ( ! url ) {
		throw new Error( 'Not an archive reference.' );
	}
	protocol ??= new Protocol( { metadata: true } );
	if ( ! registered.has( lib ) ) {
		lib.addProtocol( 'pmtiles', protocol.tile as never );
		registered.add( lib );
	}
	let archive = protocol.get( url );
	if ( ! archive ) {
		archive = new PMTiles( url );
		protocol.add( archive );
	}
	// A truncated file or one that is no archive fails here (its header cannot be read).
	const header = await archive.getHeader();
	if ( header.tileType !== TileType.Mvt ) {
		throw new Error( 'The archive holds no vector tiles.' );
	}
	// A truncated file: its last tile's byte is not there (the server answers 416).
	const end = header.tileDataOffset + ( header.tileDataLength ?? 0 );
	if ( end > header.tileDataOffset ) {
		await archive.source.getBytes( end - 1, 1 );
	}
	const metadata = await archive.getMetadata().catch( () => null );
	const attribution =
		attributionOf( metadata ) ||
		config.basemap.attribution ||
		DEFAULT_ATTRIBUTION;
	// Without the site's glyphs no label can be drawn (maplibre-gl refuses text layers then).
	const drawn = protomapsLayers( lang ).filter(
		( layer ) => config.basemap.glyphs !== '' || layer.type !== 'symbol'
	);
	return {
		version: 8,
		...( config.basemap.glyphs ? { glyphs: config.basemap.glyphs } : {} ),
		sources: {
			[ PROTOMAPS_SOURCE ]: {
				type: 'vector',
				url: PMTILES_PREFIX + url,
				attribution,
			},
		},
		layers: drawn as StyleSpecification[ 'layers' ],
	};
}
