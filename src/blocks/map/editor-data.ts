/**
 * Reads `window.cairnMapsEditor`, printed by plugin/Blocks/Editor_Data.php.
 */
import type {
	BasemapConfig,
	DirectionsApp,
	DirectionsChoice,
	GroupStyle,
	MapConfig,
	MapErrorCode,
} from '@cairn-maps/map';
import {
	directionsApp,
	engineForStyle,
	groupStyles,
	isRecord,
	LIMITS,
	urlParts,
} from '@cairn-maps/map/plugin';

export interface EditorData {
	accessToken: string;
	tokenError: MapErrorCode | '';
	canManageOptions: boolean;
	settingsUrl: string;
	markersUrl: string;
	/** The shapes feed's address (`…/cairn/v1/shapes`), for the preview's routes and areas. */
	shapesUrl: string;
	markerUrl: string;
	markerEditUrl: string;
	/** Group colours and icons, so the preview draws markers as visitors see them. */
	groupStyles: GroupStyle[];
	/** The hosts a block's https style may be on (the server's Map_Attributes::style_hosts()). */
	styleHosts: string[];
	/** The hosts of the site's addresses, which a block's `pmtiles://` archive must be on. */
	localHosts: string[];
	/** Post types a map can show (enabled for locations), with their taxonomies. */
	postTypes: ContentPostType[];
	/** What a block whose `mapStyle` is block.json's default draws: the site's basemap. */
	siteStyle: string;
	/** The self-hosted glyph URL template (a `pmtiles://` map's `basemap.glyphs`). */
	glyphsUrl: string;
	/** The server's `basemap` for the site's style and the OpenFreeMap styles, by style. */
	basemaps: Record< string, BasemapConfig >;
	/**
	 * The site's units, as every map's `config.units` on the page carries them (the server's
	 * Map_Block::units(): miles and feet where the site's language measures in them). @since 0.9.0
	 */
	units: MapConfig[ 'units' ];
	/** The site's app of the "Directions" links (setting `cairn_maps_directions`). @since 0.9.0 */
	directions: DirectionsApp;
}

/**
 * The app a block's "Directions" links open, as the server resolves it for the page: the
 * block's own, or the site's for `site`.
 * @param choice The block's `directions`.
 * @param site   The site's app (EditorData's).
 */
export function previewDirections(
	choice: DirectionsChoice | undefined,
	site: DirectionsApp
): DirectionsApp {
	return choice === undefined || choice === 'site' ? site : choice;
}

/** What the preview draws for a block's `mapStyle`, as the server renders it for visitors. */
export interface PreviewBasemap {
	style: string;
	engine: 'mapbox' | 'maplibre';
	basemap: BasemapConfig;
	/** Whether this map needs the site's Mapbox token (the token placeholder shows without one). */
	needsToken: boolean;
}

/** block.json's default style: such a block draws the site's basemap (Map_Attributes::style()). */
export const DEFAULT_STYLE = 'mapbox://styles/mapbox/standard';

const PROVIDERS: ReadonlyArray< BasemapConfig[ 'provider' ] > = [
	'mapbox',
	'openfreemap',
	'style-url',
	'self-hosted',
];

function basemapConfig( value: unknown ): BasemapConfig | null {
	if ( ! isRecord( value ) ) {
		return null;
	}
	const provider = PROVIDERS.find( ( name ) => name === value.provider );
	return provider
		? {
				provider,
				glyphs: text( value.glyphs ),
				hosts: (
					( Array.isArray( value.hosts )
						? value.hosts
						: [] ) as unknown[]
				 ).filter(
					( host ): host is string =>
						typeof host === 'string' && /^[a-z0-9.-]+$/.test( host )
				),
				attribution: text( value.attribution ),
			}
		: null;
}

function basemaps( value: unknown ): Record< string, BasemapConfig > {
	const clean: Record< string, BasemapConfig > = {};
	if ( isRecord( value ) ) {
		for ( const [ style, raw ] of Object.entries( value ) ) {
			const basemap = basemapConfig( raw );
			if ( basemap ) {
				clean[ style ] = basemap;
			}
		}
	}
	return clean;
}

/**
 * The basemap a block previews: its own style, or the site's for block.json's default (and for a
 * style the rule refuses), with the `basemap` the server would render — the server's own for the
 * styles it described, else built by the same rule (Basemap::describe()).
 * @param mapStyle The block's `mapStyle`.
 * @param data     The editor's data.
 */
export function previewBasemap(
	mapStyle: string,
	data: Pick< EditorData, 'siteStyle' | 'glyphsUrl' | 'basemaps' >
): PreviewBasemap {
	const own = mapStyle !== DEFAULT_STYLE ? engineForStyle( mapStyle ) : null;
	const style = own ? mapStyle : data.siteStyle || DEFAULT_STYLE;
	const engine = engineForStyle( style ) ?? 'mapbox';
	// The engine rule's own reading of the address (lower-case host, no port).
	const host = urlParts( style )?.host;
	let basemap = data.basemaps[ style ];
	if ( ! basemap ) {
		if ( engine === 'mapbox' ) {
			basemap = {
				provider: 'mapbox',
				glyphs: '',
				hosts: [],
				attribution: '',
			};
		} else if ( style.startsWith( 'pmtiles://' ) ) {
			basemap = {
				provider: 'self-hosted',
				glyphs: data.glyphsUrl,
				hosts: [],
				attribution: '',
			};
		} else {
			basemap = {
				provider:
					host === 'tiles.openfreemap.org'
						? 'openfreemap'
						: 'style-url',
				glyphs: '',
				hosts: host ? [ host ] : [],
				attribution: '',
			};
		}
	}
	return {
		style,
		engine,
		basemap,
		needsToken: basemap.provider === 'mapbox',
	};
}

export interface ContentTaxonomy {
	name: string;
	label: string;
	hierarchical: boolean;
}

export interface ContentPostType {
	name: string;
	label: string;
	taxonomies: ContentTaxonomy[];
}

const NAME = /^[a-z0-9_-]{1,32}$/;

function postTypes( value: unknown ): ContentPostType[] {
	return ( Array.isArray( value ) ? value : [] )
		.filter( isRecord )
		.flatMap( ( type ) =>
			typeof type.name === 'string' && NAME.test( type.name )
				? [
						{
							name: type.name,
							label: text( type.label ) || type.name,
							taxonomies: (
								( Array.isArray( type.taxonomies )
									? type.taxonomies
									: [] ) as unknown[]
							 )
								.filter( isRecord )
								.flatMap( ( taxonomy ) =>
									typeof taxonomy.name === 'string' &&
									NAME.test( taxonomy.name )
										? [
												{
													name: taxonomy.name,
													label:
														text(
															taxonomy.label
														) || taxonomy.name,
													hierarchical:
														taxonomy.hierarchical ===
														true,
												},
											]
										: []
								),
						},
					]
				: []
		);
}

const TOKEN_ERRORS: ReadonlyArray< string > = [
	'missing-token',
	'secret-token',
	'invalid-token',
];

function text( value: unknown ): string {
	return typeof value === 'string' ? value : '';
}

/**
 * The host names of a list (lower-case names only; anything else dropped).
 * @param value Untrusted input.
 */
function hostList( value: unknown ): string[] {
	return Array.isArray( value )
		? value.filter(
				( host ): host is string =>
					typeof host === 'string' && /^[a-z0-9.-]+$/.test( host )
			)
		: [];
}

export function getEditorData(): EditorData {
	const raw: unknown = ( window as { cairnMapsEditor?: unknown } )
		.cairnMapsEditor;
	const data =
		typeof raw === 'object' && raw !== null
			? ( raw as Record< string, unknown > )
			: {};
	const tokenError = text( data.tokenError );
	return {
		accessToken: text( data.accessToken ),
		tokenError: TOKEN_ERRORS.includes( tokenError )
			? ( tokenError as MapErrorCode )
			: '',
		canManageOptions: data.canManageOptions === true,
		settingsUrl: text( data.settingsUrl ),
		markersUrl: text( data.markersUrl ),
		shapesUrl: text( data.shapesUrl ),
		markerUrl: text( data.markerUrl ),
		markerEditUrl: text( data.markerEditUrl ),
		groupStyles: groupStyles( data.groupStyles ),
		styleHosts: Array.isArray( data.styleHosts )
			? hostList( data.styleHosts )
			: LIMITS.mapStyle.hosts,
		localHosts: hostList( data.localHosts ),
		postTypes: postTypes( data.postTypes ),
		siteStyle: text( data.siteStyle ),
		glyphsUrl: text( data.glyphsUrl ),
		basemaps: basemaps( data.basemaps ),
		units: data.units === 'imperial' ? 'imperial' : 'metric',
		directions: directionsApp( data.directions ),
	};
}

// The feed URLs are the package's rule (one rule, shared with the server's Feed_Url).
export { markersFeedUrl, postsFeedUrl } from '@cairn-maps/map/plugin';

/** CRC-32 (IEEE), as PHP's crc32(): the legend colour of a term is chosen by it on both sides. */
/* eslint-disable no-bitwise -- a checksum is bit arithmetic. */
export function crc32( input: string ): number {
	let crc = 0xffffffff;
	// Term keys are ASCII (`taxonomy:slug`, slugs percent-encoded beyond it): one byte a character.
	for ( let i = 0; i < input.length; i++ ) {
		crc ^= input.charCodeAt( i ) & 0xff;
		for ( let bit = 0; bit < 8; bit++ ) {
			crc = ( crc >>> 1 ) ^ ( 0xedb88320 & -( crc & 1 ) );
		}
	}
	return ( crc ^ 0xffffffff ) >>> 0;
}
/* eslint-enable no-bitwise */

/**
 * A term's legend entry as the server makes it (Content_Places::legend()): the `taxonomy:slug`
 * key, the name, the palette colour the key picks, no icon.
 * @param taxonomy
 * @param slug
 * @param name
 */
export function termStyle(
	taxonomy: string,
	slug: string,
	name: string
): GroupStyle {
	const key = `${ taxonomy }:${ slug }`;
	const palette = LIMITS.content.termPalette;
	return {
		slug: key,
		name: name || slug,
		color: palette[ crc32( key ) % palette.length ] ?? '',
		icon: '',
		lineColor: '',
		lineWidth: LIMITS.groupLine.width,
		fillOpacity: LIMITS.groupLine.fillOpacity,
	};
}
