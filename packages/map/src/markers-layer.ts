/**
 * Markers as a clustered GeoJSON source drawn by mapbox-gl on the GPU: clustering runs in
 * mapbox-gl's worker (Supercluster), so no marker ever becomes a DOM element.
 *
 * Group looks: a marker takes the colour and icon of its first group (`properties.groups[0]`).
 * Icons are PNG or JPEG images loaded with `map.loadImage`; one that cannot be loaded (an SVG, a
 * broken URL) is reported as `image-type` and its markers keep the default symbol. Every point
 * stays in the circle layer (invisible under an icon), so clicks, the editor's selection and the
 * screen-reader summary work the same with or without icons.
 */
import type {
	ExpressionSpecification,
	FilterSpecification,
	GeoJSONSource,
	Map as MapboxMap,
	MapMouseEvent,
} from 'mapbox-gl';

import { engineOf } from './engine/registry';
import type { ClusterConfig, GroupStyle } from './types';
import { LIMITS } from './limits';
import {
	CLUSTER_COUNT_LAYER,
	CLUSTERS_LAYER,
	ICONS_LAYER,
	MARKERS_SOURCE,
	POINTS_LAYER,
} from './layer-ids';

export {
	CLUSTER_COUNT_LAYER,
	CLUSTERS_LAYER,
	ICONS_LAYER,
	MARKERS_SOURCE,
	POINTS_LAYER,
};

export const DEFAULT_COLOR = '#d1495b';
const POINT_RADIUS = 7;
/** Icons are drawn this many CSS pixels across (their longer side). */
const ICON_SIZE = 28;

export interface MarkersLayerOptions {
	cluster: ClusterConfig;
	groupStyles?: GroupStyle[];
	onPointClick?: ( id: number, lngLat: { lng: number; lat: number } ) => void;
	/** A group icon could not be loaded (not a PNG/JPEG, or unreachable). */
	onImageError?: () => void;
	/**
	 * Clusters come from elsewhere (the places worker) and are put in the source already made:
	 * the source does not cluster, and a cluster's click asks this for its expansion.
	 */
	onClusterClick?: ( clusterId: number, center: [ number, number ] ) => void;
}

/** Mapbox Standard's own label font: its glyphs are already loaded for the base map. */
const STANDARD_FONT = [ 'DIN Pro Medium', 'Arial Unicode MS Regular' ];

/**
 * The font for the cluster counts: one the style already draws its labels with, so the counts
 * need no glyph download of their own (which would come last, after the clusters are computed).
 * Styles that import another (Mapbox Standard) use Standard's font; a style without labels
 * leaves mapbox-gl's default.
 *
 * @param map The map, its style loaded.
 */
export function labelFont( map: MapboxMap ): string[] | undefined {
	const style = map.getStyle();
	for ( const layer of style?.layers ?? [] ) {
		const font =
			layer.type === 'symbol'
				? ( layer.layout as { 'text-font'?: unknown } | undefined )?.[
						'text-font'
					]
				: undefined;
		if (
			Array.isArray( font ) &&
			font.length > 0 &&
			font.every( ( name ) => typeof name === 'string' )
		) {
			return font as string[];
		}
	}
	return style?.imports?.length ? STANDARD_FONT : undefined;
}

/**
 * Whether the style can draw text: it names a glyphs URL, or imports a style that does (Mapbox
 * Standard). mapbox-gl refuses a text layer in a style without glyphs, and that error would fail
 * the whole map: such a style gets its clusters without their counts.
 *
 * @param map The map, its style loaded.
 */
export function drawsText( map: MapboxMap ): boolean {
	const style = map.getStyle();
	return Boolean( style?.glyphs ) || Boolean( style?.imports?.length );
}

/**
 * True when the marker's first group is `slug`.
 *
 * `groups` is an array in the feed, but array properties can reach expressions as their JSON text
 * (geojson-vt and the tile encoding keep only scalars), so both forms are compared as JSON text:
 * `["slug",…` starts with `["slug"`. Slugs are `[a-z0-9_-]` and term keys `taxonomy:slug` (with `%`), so they need no escaping.
 *
 * @param slug Group slug.
 */
export function firstGroupIs( slug: string ): ExpressionSpecification {
	return [
		'==',
		[ 'index-of', `["${ slug }"`, [ 'to-string', [ 'get', 'groups' ] ] ],
		0,
	];
}

/** `['case', first group is a, value a, …, fallback]`, or just the fallback. */
function byFirstGroup< T extends string | number >(
	values: Array< [ string, T ] >,
	fallback: T
): ExpressionSpecification | T {
	if ( values.length === 0 ) {
		return fallback;
	}
	return [
		'case',
		...values.flatMap( ( [ slug, value ] ) => [
			firstGroupIs( slug ),
			value,
		] ),
		fallback,
	] as ExpressionSpecification;
}

function iconId( slug: string ): string {
	return `cairn-icon-${ slug }`;
}

const NOT_CLUSTER: FilterSpecification = [ '!', [ 'has', 'point_count' ] ];

/** Whether the layer was taken off the map: late callbacks then do nothing. */
interface LayerLife {
	removed: boolean;
}

export function addMarkersLayer(
	map: MapboxMap,
	data: string | GeoJSON.FeatureCollection,
	options: MarkersLayerOptions
): () => void {
	const styles = options.groupStyles ?? [];
	const font = labelFont( map );
	const life: LayerLife = { removed: false };
	addMarkersSource( map, data, options );
	addClusterLayers( map, drawsText( map ) ? font : null );
	addPointsLayer( map, styles );
	loadGroupIcons( map, styles, life, options.onImageError );
	const stopListening = listenToClicks( map, options, life );
	return () => {
		life.removed = true;
		stopListening();
	};
}

/**
 * The GeoJSON source: clustered by mapbox-gl, or holding clusters made elsewhere as they come.
 * @param map
 * @param data
 * @param options
 * @param options.cluster
 * @param options.onClusterClick
 */
function addMarkersSource(
	map: MapboxMap,
	data: string | GeoJSON.FeatureCollection,
	{ cluster, onClusterClick }: MarkersLayerOptions
) {
	map.addSource(
		MARKERS_SOURCE,
		onClusterClick
			? { type: 'geojson', data }
			: {
					type: 'geojson',
					data,
					cluster: cluster.enabled,
					clusterRadius: cluster.radius,
					clusterMaxZoom: LIMITS.cluster.maxZoom,
				}
	);
}

/**
 * Clusters as circles sized by their count, with the count on top when the style can draw text.
 * @param map
 * @param font The counts' font (undefined: mapbox-gl's default); null: no counts.
 */
function addClusterLayers( map: MapboxMap, font: string[] | undefined | null ) {
	map.addLayer( {
		id: CLUSTERS_LAYER,
		type: 'circle',
		source: MARKERS_SOURCE,
		filter: [ 'has', 'point_count' ],
		paint: {
			'circle-color': '#1e5f74',
			'circle-opacity': 0.9,
			'circle-stroke-color': '#ffffff',
			'circle-stroke-width': 2,
			'circle-radius': [
				'step',
				[ 'get', 'point_count' ],
				16,
				100,
				22,
				1000,
				28,
			],
		},
	} );
	if ( font === null ) {
		return;
	}
	map.addLayer( {
		id: CLUSTER_COUNT_LAYER,
		type: 'symbol',
		source: MARKERS_SOURCE,
		filter: [ 'has', 'point_count' ],
		layout: {
			'text-field': [ 'get', 'point_count_abbreviated' ],
			...( font ? { 'text-font': font } : {} ),
			'text-size': 13,
			'text-allow-overlap': true,
		},
		paint: { 'text-color': '#ffffff' },
	} );
}

/**
 * Single markers as circles in their first group's colour.
 * @param map
 * @param styles
 */
function addPointsLayer( map: MapboxMap, styles: GroupStyle[] ) {
	map.addLayer( {
		id: POINTS_LAYER,
		type: 'circle',
		source: MARKERS_SOURCE,
		filter: NOT_CLUSTER,
		paint: {
			'circle-color': byFirstGroup(
				styles
					.filter( ( style ) => style.color )
					.map( ( style ): [ string, string ] => [
						style.slug,
						style.color,
					] ),
				DEFAULT_COLOR
			),
			'circle-radius': POINT_RADIUS,
			'circle-stroke-color': '#ffffff',
			'circle-stroke-width': 2,
		},
	} );
}

/**
 * Icons: each group's image is loaded on its own; its markers switch over once it is there. The
 * first image that cannot be loaded is reported, once.
 * @param map
 * @param styles
 * @param life
 * @param onImageError
 */
function loadGroupIcons(
	map: MapboxMap,
	styles: GroupStyle[],
	life: LayerLife,
	onImageError: MarkersLayerOptions[ 'onImageError' ]
) {
	const shown: string[] = [];
	let imageErrorReported = false;
	for ( const style of styles ) {
		if ( ! style.icon ) {
			continue;
		}
		const loaded = (
			image: HTMLImageElement | ImageBitmap | ImageData | null
		) => {
			if ( life.removed ) {
				return;
			}
			if ( ! image ) {
				if ( ! imageErrorReported ) {
					imageErrorReported = true;
					onImageError?.();
				}
				return;
			}
			const id = iconId( style.slug );
			if ( ! map.hasImage( id ) ) {
				map.addImage( id, image, {
					pixelRatio: Math.max(
						1,
						Math.max( image.width, image.height ) / ICON_SIZE
					),
				} );
			}
			shown.push( style.slug );
			drawIcons( map, shown );
		};
		engineOf( map )
			.loadImage( map, style.icon )
			.then( loaded, () => loaded( null ) );
	}
}

/**
 * The icons layer for the groups whose icon is loaded; their circles stay, invisible and as large
 * as the icon: they take the clicks.
 * @param map
 * @param shown
 */
function drawIcons( map: MapboxMap, shown: string[] ) {
	const hidden = byFirstGroup(
		shown.map( ( slug ): [ string, number ] => [ slug, 0 ] ),
		1
	);
	map.setPaintProperty( POINTS_LAYER, 'circle-opacity', hidden );
	map.setPaintProperty( POINTS_LAYER, 'circle-stroke-opacity', hidden );
	map.setPaintProperty(
		POINTS_LAYER,
		'circle-radius',
		byFirstGroup(
			shown.map( ( slug ): [ string, number ] => [
				slug,
				ICON_SIZE / 2,
			] ),
			POINT_RADIUS
		)
	);
	const filter: FilterSpecification = [
		'all',
		NOT_CLUSTER,
		[ 'any', ...shown.map( firstGroupIs ) ],
	];
	const image = byFirstGroup(
		shown.map( ( slug ): [ string, string ] => [ slug, iconId( slug ) ] ),
		''
	);
	if ( map.getLayer( ICONS_LAYER ) ) {
		map.setFilter( ICONS_LAYER, filter );
		map.setLayoutProperty( ICONS_LAYER, 'icon-image', image );
		return;
	}
	map.addLayer( {
		id: ICONS_LAYER,
		type: 'symbol',
		source: MARKERS_SOURCE,
		filter,
		layout: {
			'icon-image': image,
			'icon-allow-overlap': true,
			'icon-ignore-placement': true,
		},
	} );
}

/**
 * A cluster's click: its expansion asked of whoever makes the clusters, else mapbox-gl's own.
 * @param map
 * @param onClusterClick
 * @param life
 */
function clusterClick(
	map: MapboxMap,
	onClusterClick: MarkersLayerOptions[ 'onClusterClick' ],
	life: LayerLife
) {
	return ( event: MapMouseEvent ) => {
		const feature = event.features?.[ 0 ];
		const clusterId = feature?.properties?.cluster_id;
		const source = map.getSource< GeoJSONSource >( MARKERS_SOURCE );
		if ( typeof clusterId !== 'number' || ! source || ! feature ) {
			return;
		}
		if ( onClusterClick ) {
			const geometry = feature.geometry;
			if ( geometry.type === 'Point' ) {
				onClusterClick(
					clusterId,
					geometry.coordinates as [ number, number ]
				);
			}
			return;
		}
		engineOf( map )
			.clusterExpansionZoom( source, clusterId )
			.then(
				( zoom ) => {
					if ( life.removed || typeof zoom !== 'number' ) {
						return;
					}
					const geometry = feature.geometry;
					if ( geometry.type === 'Point' ) {
						map.easeTo( {
							center: geometry.coordinates as [ number, number ],
							zoom,
						} );
					}
				},
				() => undefined
			);
	};
}

/**
 * A marker's click: its id and position to `onPointClick`.
 * @param onPointClick
 */
function pointClick( onPointClick: MarkersLayerOptions[ 'onPointClick' ] ) {
	return ( event: MapMouseEvent ) => {
		const feature = event.features?.[ 0 ];
		const id = Number( feature?.id );
		if ( onPointClick && feature && Number.isInteger( id ) && id > 0 ) {
			const geometry = feature.geometry;
			const [ lng = 0, lat = 0 ] =
				geometry.type === 'Point' ? geometry.coordinates : [];
			onPointClick( id, { lng, lat } );
		}
	};
}

/**
 * Clicks on clusters and markers, and the pointer over them. Returns what stops listening.
 * @param map
 * @param options
 * @param life
 */
function listenToClicks(
	map: MapboxMap,
	options: MarkersLayerOptions,
	life: LayerLife
): () => void {
	const expandCluster = clusterClick( map, options.onClusterClick, life );
	const openPoint = pointClick( options.onPointClick );
	const pointer = () => {
		map.getCanvas().style.cursor = 'pointer';
	};
	const noPointer = () => {
		map.getCanvas().style.cursor = '';
	};
	map.on( 'click', CLUSTERS_LAYER, expandCluster );
	map.on( 'click', POINTS_LAYER, openPoint );
	for ( const layer of [ CLUSTERS_LAYER, POINTS_LAYER ] ) {
		map.on( 'mouseenter', layer, pointer );
		map.on( 'mouseleave', layer, noPointer );
	}
	return () => {
		map.off( 'click', CLUSTERS_LAYER, expandCluster );
		map.off( 'click', POINTS_LAYER, openPoint );
		for ( const layer of [ CLUSTERS_LAYER, POINTS_LAYER ] ) {
			map.off( 'mouseenter', layer, pointer );
			map.off( 'mouseleave', layer, noPointer );
		}
	};
}
