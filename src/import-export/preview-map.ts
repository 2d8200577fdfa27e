/**
 * The import preview's map: what a dry run will import, drawn on the site's own basemap (the one
 * Settings → Cairn Maps chose: OpenFreeMap on MapLibre, Mapbox with a token, a self-hosted
 * archive…) through the plugin's map runtime, as the block editor's preview draws it. The data
 * comes from `window.cairnMapsEditor` (Blocks\Editor_Data, printed before the page's script).
 *
 * Areas are filled, routes drawn as lines, markers as circles, titles as the map's own text (a
 * symbol layer, where the style has glyphs): the file's content never becomes markup. When the
 * map cannot draw (no WebGL, a basemap that fails, a Mapbox basemap without a token) the
 * runtime's alert says why and the SVG sketch takes the map's place, so the owner still sees
 * what will be imported.
 */
import type {
	ExpressionSpecification,
	GeoJSONSourceSpecification,
	Map as MapboxMap,
} from 'mapbox-gl';
import { _n, sprintf } from '@wordpress/i18n';
import { drawsText, labelFont } from '@cairn-maps/map/plugin';

import {
	DEFAULT_STYLE,
	previewBasemap,
	type EditorData,
} from '../blocks/map/editor-data';
import type { CairnMap, PluginMapOptions } from '../blocks/map/runtime';
import {
	featureBounds,
	previewCamera,
	PREVIEW_MAX_ZOOM,
	sketch,
	type PreviewFeature,
} from './preview';

/** The source and layers the preview adds to the basemap (e2e specs read them). */
export const PREVIEW_SOURCE = 'cairn-import-preview';
export const PREVIEW_LAYERS = {
	fill: 'cairn-import-preview-fill',
	line: 'cairn-import-preview-line',
	points: 'cairn-import-preview-points',
	labels: 'cairn-import-preview-labels',
} as const;

/** The runtime's `createMap`, as the `cairn-map-runtime` chunk exports it. */
type CreateMap = (
	container: unknown,
	config: unknown,
	options?: PluginMapOptions
) => CairnMap;

/** Loads the runtime chunk (tests pass their own). */
export type LoadRuntime = () => Promise< { createMap: CreateMap } >;

const loadRuntime: LoadRuntime = () =>
	import(
		/* webpackChunkName: "cairn-map-runtime" */ '../blocks/map/runtime'
	);

export interface PreviewMap {
	/** The map's host: the map, or the runtime's alert and the sketch. */
	element: HTMLElement;
	/** Removes the map (its WebGL context with it), or keeps it from starting. Idempotent. */
	destroy: () => void;
}

/**
 * Room around the places, in px: titles hang below markers, the zoom buttons are top right and
 * the attribution runs along the bottom.
 */
const PADDING = { top: 32, right: 56, bottom: 72, left: 48 };
/** The map's size when its box has none yet (the stylesheet's). */
const SIZE = { width: 480, height: 320 };

const KIND: Record< PreviewFeature[ 'type' ], string > = {
	Point: 'marker',
	LineString: 'route',
	MultiLineString: 'route',
	Polygon: 'area',
	MultiPolygon: 'area',
};

const isKind = ( kind: string ): ExpressionSpecification => [
	'==',
	[ 'get', 'kind' ],
	kind,
];

/**
 * The accessible name of the map: how many places it shows, and of how many.
 *
 * @param drawn    Places on the map.
 * @param imported Places the import will write (some have no coordinates yet, and the preview
 *                 holds the first 2,000 at most).
 * @return E.g. "Map of the 3 places that will be imported".
 */
export function previewMapLabel( drawn: number, imported: number ): string {
	return imported > drawn
		? sprintf(
				/* translators: 1: number of places on the map, 2: number of places the import writes. */
				_n(
					'Map of %1$s of the %2$s places that will be imported',
					'Map of %1$s of the %2$s places that will be imported',
					imported,
					'cairn-maps'
				),
				drawn.toLocaleString(),
				imported.toLocaleString()
			)
		: sprintf(
				/* translators: %s: number of places on the map. */
				_n(
					'Map of the %s place that will be imported',
					'Map of the %s places that will be imported',
					drawn,
					'cairn-maps'
				),
				drawn.toLocaleString()
			);
}

/**
 * The features as the source draws them: numbered from 0 in the preview's order, with their kind
 * and title as properties.
 *
 * @param features The preview's features.
 * @return The source's data.
 */
export function previewCollection(
	features: PreviewFeature[]
): GeoJSON.FeatureCollection {
	return {
		type: 'FeatureCollection',
		features: features.map( ( feature, index ) => ( {
			type: 'Feature',
			id: index,
			geometry: {
				type: feature.type,
				coordinates: feature.coordinates,
			} as GeoJSON.Geometry,
			properties: { kind: KIND[ feature.type ], title: feature.title },
		} ) ),
	};
}

/**
 * The preview's source and layers on a ready map: areas, then lines (routes and area outlines),
 * markers, and their titles when the style can draw text (in its own font: no glyphs of ours).
 *
 * @param map      The ready map (either library: they share this API).
 * @param features The preview's features.
 */
export function drawPreviewFeatures(
	map: MapboxMap,
	features: PreviewFeature[]
): void {
	const source: GeoJSONSourceSpecification = {
		type: 'geojson',
		data: previewCollection( features ),
	};
	map.addSource( PREVIEW_SOURCE, source );
	map.addLayer( {
		id: PREVIEW_LAYERS.fill,
		type: 'fill',
		source: PREVIEW_SOURCE,
		filter: isKind( 'area' ),
		paint: { 'fill-color': '#2271b1', 'fill-opacity': 0.3 },
	} );
	map.addLayer( {
		id: PREVIEW_LAYERS.line,
		type: 'line',
		source: PREVIEW_SOURCE,
		filter: [ '!=', [ 'get', 'kind' ], 'marker' ],
		layout: { 'line-join': 'round', 'line-cap': 'round' },
		paint: {
			'line-color': [ 'case', isKind( 'area' ), '#2271b1', '#008a20' ],
			'line-width': 3,
		},
	} );
	map.addLayer( {
		id: PREVIEW_LAYERS.points,
		type: 'circle',
		source: PREVIEW_SOURCE,
		filter: isKind( 'marker' ),
		paint: {
			'circle-color': '#d63638',
			'circle-radius': 6,
			'circle-stroke-color': '#ffffff',
			'circle-stroke-width': 2,
		},
	} );
	if ( ! drawsText( map ) ) {
		return; // A style without glyphs would refuse a text layer, and fail the map.
	}
	const font = labelFont( map );
	map.addLayer( {
		id: PREVIEW_LAYERS.labels,
		type: 'symbol',
		source: PREVIEW_SOURCE,
		layout: {
			'text-field': [ 'get', 'title' ],
			...( font ? { 'text-font': font } : {} ),
			'text-size': 12,
			'text-max-width': 12,
			'text-anchor': 'top',
			'text-offset': [ 0, 0.8 ],
			'text-optional': true,
		},
		paint: {
			'text-color': '#1e1e1e',
			'text-halo-color': '#ffffff',
			'text-halo-width': 1.5,
		},
	} );
}

/**
 * A small map of the features on the site's basemap. The map starts once the runtime chunk is in
 * (the element is on the page by then); the runtime loads the engine's library only for a
 * configuration it accepts, so a Mapbox basemap without a token downloads nothing.
 *
 * @param doc      The page's document.
 * @param features The preview's features (at least one with a place).
 * @param imported Places the import will write.
 * @param data     The editor data (the site's basemap and token).
 * @param load     Loads the runtime (tests pass their own).
 * @return The element to show and what removes the map.
 */
export function createPreviewMap(
	doc: Document,
	features: PreviewFeature[],
	imported: number,
	data: Pick<
		EditorData,
		'accessToken' | 'siteStyle' | 'glyphsUrl' | 'basemaps'
	>,
	load: LoadRuntime = loadRuntime
): PreviewMap {
	const host = doc.createElement( 'div' );
	host.className = 'cairn-maps-import-map-host';
	host.dataset.cairnState = 'loading';
	const container = doc.createElement( 'div' );
	container.className = 'cairn-maps-import-map';
	container.setAttribute( 'role', 'region' );
	container.setAttribute(
		'aria-label',
		previewMapLabel( features.length, imported )
	);
	host.append( container );

	let cairn: CairnMap | null = null;
	let destroyed = false;
	// Whatever stops the map shows its alert: the sketch takes the map's place, after it.
	const showSketch = () => {
		if ( container.parentNode === host ) {
			container.remove();
			host.append( sketch( doc, features ) );
		}
	};
	host.addEventListener( 'cairn:map-error', showSketch, { once: true } );

	const bounds = featureBounds( features );
	if ( ! bounds ) {
		// Nothing with a place: no map to start, and no runtime to download for it.
		showSketch();
		return { element: host, destroy: () => undefined };
	}
	const { style, engine, basemap } = previewBasemap( DEFAULT_STYLE, data );
	void load().then(
		( { createMap } ) => {
			if ( destroyed ) {
				return;
			}
			const camera = previewCamera(
				bounds,
				( container.clientWidth || SIZE.width ) -
					PADDING.left -
					PADDING.right,
				( container.clientHeight || SIZE.height ) -
					PADDING.top -
					PADDING.bottom,
				0
			);
			cairn = createMap(
				container,
				{
					style,
					engine,
					basemap,
					accessToken: data.accessToken,
					...camera,
					controls: {
						zoom: true,
						compass: false,
						scale: false,
						fullscreen: false,
						geolocate: false,
					},
					// The Tools page scrolls: wheel zooming needs ctrl/⌘.
					cooperativeGestures: true,
					hash: false,
					markersUrl: '',
				},
				{ host }
			);
			cairn.ready.then(
				( map ) => {
					if ( destroyed ) {
						return;
					}
					drawPreviewFeatures( map, features );
					const [ west, south, east, north ] = bounds;
					map.fitBounds(
						[
							[ west, south ],
							[ east, north ],
						],
						{
							padding: PADDING,
							maxZoom: PREVIEW_MAX_ZOOM,
							duration: 0,
						}
					);
				},
				() => undefined // The runtime's alert and the sketch say it.
			);
		},
		// The runtime's chunk could not be downloaded: the sketch, with no map alert to show.
		() => {
			if ( ! destroyed ) {
				showSketch();
			}
		}
	);

	return {
		element: host,
		destroy: () => {
			destroyed = true;
			host.removeEventListener( 'cairn:map-error', showSketch );
			cairn?.destroy();
			cairn = null;
		},
	};
}
