/**
 * Routes and areas on the map: one GeoJSON source and three layers beneath the clustered points
 * (areas filled, a halo for the highlighted shape, then every line: routes and area outlines),
 * painted by group (paint.ts). A click on a shape, or on a few pixels around a thin line, opens
 * its popup; the pointer over a shape highlights it (feature-state).
 * @since 0.5.0
 */
import type {
	ExpressionSpecification,
	FilterSpecification,
	GeoJSONSource,
	Map as MapboxMap,
	MapMouseEvent,
} from 'mapbox-gl';

import {
	CLUSTER_COUNT_LAYER,
	CLUSTERS_LAYER,
	ICONS_LAYER,
	POINTS_LAYER,
} from '../layer-ids';
import {
	SHAPES_FILL_LAYER,
	SHAPES_HALO_LAYER,
	SHAPES_LINE_LAYER,
	SHAPES_SOURCE,
} from './ids';
import type { GroupStyle } from '../types';
import type { ShapeFeature } from './feed';
import {
	fillOpacity,
	haloWidth,
	HIGHLIGHTED,
	lineColor,
	lineWidth,
} from './paint';

/** The point layers, lowest first: shapes go beneath the first of them on the map. */
const POINT_LAYERS = [
	CLUSTERS_LAYER,
	POINTS_LAYER,
	ICONS_LAYER,
	CLUSTER_COUNT_LAYER,
];
const SHAPE_LAYERS = [ SHAPES_FILL_LAYER, SHAPES_LINE_LAYER ];
const IS_AREA: ExpressionSpecification = [ '==', [ 'get', 'kind' ], 'area' ];
/** Pixels around the pointer a click may miss a thin line by. */
const CLICK_SLOP = 4;

export interface ShapesLayerOptions {
	groupStyles: readonly GroupStyle[];
	/** The points' default colour. */
	defaultColor: string;
	onClick: ( id: number, lngLat: { lng: number; lat: number } ) => void;
}

export interface ShapesLayers {
	/** Draws these shapes instead (the shape tiles of a new view came in). @since 0.7.0 */
	update: ( shapes: readonly ShapeFeature[] ) => void;
	/** Shows these shapes only (null: all). */
	show: ( ids: readonly number[] | null ) => void;
	/** Highlights one shape for the keyboard (its list entry, its popup), or none. */
	focus: ( id: number | null ) => void;
	remove: () => void;
}

/**
 * The source's features: the shape with its first group and its kind as flat properties.
 * @param shapes
 */
export function shapesCollection(
	shapes: readonly ShapeFeature[]
): GeoJSON.FeatureCollection {
	return {
		type: 'FeatureCollection',
		features: shapes.map( ( shape ) => ( {
			type: 'Feature',
			id: shape.id,
			geometry: shape.geometry as GeoJSON.Geometry,
			properties: {
				title: shape.title,
				group: shape.groups[ 0 ] ?? '',
				kind: /Polygon$/.test( shape.geometry.type ) ? 'area' : 'line',
			},
		} ) ),
	};
}

/**
 * The lowest point layer on the map, which the shapes go beneath; undefined (the top) before
 * the points are added: they are added above anything already there.
 * @param map
 */
export function pointsLayerBelow( map: MapboxMap ): string | undefined {
	const order = ( map.getStyle()?.layers ?? [] ).map( ( layer ) => layer.id );
	return order.find( ( id ) => POINT_LAYERS.includes( id ) );
}

function withFilter(
	base: ExpressionSpecification | null,
	ids: readonly number[] | null
): FilterSpecification | null {
	const visible: ExpressionSpecification | null = ids
		? [ 'in', [ 'id' ], [ 'literal', [ ...ids ] ] ]
		: null;
	if ( base && visible ) {
		return [ 'all', base, visible ];
	}
	return base ?? visible;
}

/**
 * Adds the source and layers.
 * @param map     The map, its style loaded.
 * @param shapes  The shapes.
 * @param options Looks and the click.
 */
export function addShapesLayers(
	map: MapboxMap,
	shapes: readonly ShapeFeature[],
	options: ShapesLayerOptions
): ShapesLayers {
	const styles = options.groupStyles;
	const before = pointsLayerBelow( map );
	map.addSource( SHAPES_SOURCE, {
		type: 'geojson',
		data: shapesCollection( shapes ),
	} );
	map.addLayer(
		{
			id: SHAPES_FILL_LAYER,
			type: 'fill',
			source: SHAPES_SOURCE,
			filter: IS_AREA,
			paint: {
				'fill-color': lineColor( styles, options.defaultColor ),
				'fill-opacity': fillOpacity( styles ),
			},
		},
		before
	);
	map.addLayer(
		{
			id: SHAPES_HALO_LAYER,
			type: 'line',
			source: SHAPES_SOURCE,
			layout: { 'line-join': 'round', 'line-cap': 'round' },
			paint: {
				'line-color': '#1d2327',
				'line-width': haloWidth( styles ),
				'line-opacity': [ 'case', HIGHLIGHTED, 0.55, 0 ],
			},
		},
		before
	);
	map.addLayer(
		{
			id: SHAPES_LINE_LAYER,
			type: 'line',
			source: SHAPES_SOURCE,
			layout: { 'line-join': 'round', 'line-cap': 'round' },
			paint: {
				'line-color': lineColor( styles, options.defaultColor ),
				'line-width': lineWidth( styles ),
			},
		},
		before
	);
	const stopListening = listen( map, options );
	let focused: number | null = null;
	return {
		update: ( next ) =>
			map
				.getSource< GeoJSONSource >( SHAPES_SOURCE )
				?.setData( shapesCollection( next ) ),
		show: ( ids ) => {
			map.setFilter( SHAPES_FILL_LAYER, withFilter( IS_AREA, ids ) );
			map.setFilter( SHAPES_HALO_LAYER, withFilter( null, ids ) );
			map.setFilter( SHAPES_LINE_LAYER, withFilter( null, ids ) );
		},
		focus: ( id ) => {
			if ( focused !== null ) {
				map.setFeatureState(
					{ source: SHAPES_SOURCE, id: focused },
					{ focus: false }
				);
			}
			focused = id;
			if ( id !== null ) {
				map.setFeatureState(
					{ source: SHAPES_SOURCE, id },
					{ focus: true }
				);
			}
		},
		remove: () => {
			stopListening();
			for ( const layer of [
				SHAPES_LINE_LAYER,
				SHAPES_HALO_LAYER,
				SHAPES_FILL_LAYER,
			] ) {
				if ( map.getLayer( layer ) ) {
					map.removeLayer( layer );
				}
			}
			if ( map.getSource< GeoJSONSource >( SHAPES_SOURCE ) ) {
				map.removeSource( SHAPES_SOURCE );
			}
		},
	};
}

/**
 * Whether a point or cluster is under the pointer: it is drawn on top, so it takes the click.
 * @param map
 * @param event
 */
function pointAt( map: MapboxMap, event: MapMouseEvent ): boolean {
	const points = POINT_LAYERS.filter( ( id ) => map.getLayer( id ) );
	return (
		points.length > 0 &&
		map.queryRenderedFeatures( event.point, { layers: points } ).length > 0
	);
}

/**
 * The shape under the pointer (a few pixels around it for thin lines), unless a point is there.
 * @param map
 * @param event
 */
function shapeAt( map: MapboxMap, event: MapMouseEvent ): number | null {
	const { x, y } = event.point;
	if ( pointAt( map, event ) ) {
		return null;
	}
	const layers = SHAPE_LAYERS.filter( ( id ) => map.getLayer( id ) );
	if ( layers.length === 0 ) {
		return null;
	}
	const [ line ] = map.queryRenderedFeatures(
		[
			[ x - CLICK_SLOP, y - CLICK_SLOP ],
			[ x + CLICK_SLOP, y + CLICK_SLOP ],
		],
		{ layers: [ SHAPES_LINE_LAYER ] }
	);
	const [ hit ] = line
		? [ line ]
		: map.queryRenderedFeatures( event.point, { layers } );
	return typeof hit?.id === 'number' ? hit.id : null;
}

/**
 * Clicks open a shape's popup; the pointer over a shape highlights it and shows a hand.
 * @param map
 * @param options
 */
function listen( map: MapboxMap, options: ShapesLayerOptions ): () => void {
	let hovered: number | null = null;
	const hover = ( id: number | null, event?: MapMouseEvent ) => {
		if ( id === hovered ) {
			return;
		}
		if ( hovered !== null ) {
			map.setFeatureState(
				{ source: SHAPES_SOURCE, id: hovered },
				{ hover: false }
			);
		}
		hovered = id;
		if ( id !== null ) {
			map.setFeatureState(
				{ source: SHAPES_SOURCE, id },
				{ hover: true }
			);
		}
		// Leaving a shape for a point: the points' own pointer stays.
		if ( id !== null || ! event || ! pointAt( map, event ) ) {
			map.getCanvas().style.cursor = id === null ? '' : 'pointer';
		}
	};
	const onClick = ( event: MapMouseEvent ) => {
		const id = shapeAt( map, event );
		if ( id !== null ) {
			options.onClick( id, event.lngLat );
		}
	};
	const onMove = ( event: MapMouseEvent ) =>
		hover( shapeAt( map, event ), event );
	const onOut = () => hover( null );
	map.on( 'click', onClick );
	map.on( 'mousemove', onMove );
	map.on( 'mouseout', onOut );
	return () => {
		map.off( 'click', onClick );
		map.off( 'mousemove', onMove );
		map.off( 'mouseout', onOut );
	};
}
