/**
 * The marker's shape on a sidebar map while nobody draws: a plain GeoJSON source with a fill and
 * a line, so seeing a shape does not load the drawing library.
 */
import type { GeoJSONSource, Map as MapboxMap } from 'mapbox-gl';

import type { ShapeGeometry } from './geometry';

const SOURCE = 'cairn-shape-preview';
const FILL = 'cairn-shape-preview-fill';
const LINE = 'cairn-shape-preview-line';
const COLOR = '#2271b1';

function data( geometry: ShapeGeometry | null ) {
	return {
		type: 'FeatureCollection' as const,
		features: geometry
			? [ { type: 'Feature' as const, properties: {}, geometry } ]
			: [],
	};
}

/**
 * Shows `geometry` (null: nothing) on the map.
 * @param map
 * @param geometry
 */
export function showShapePreview(
	map: MapboxMap,
	geometry: ShapeGeometry | null
): void {
	const source = map.getSource( SOURCE ) as GeoJSONSource | undefined;
	if ( source ) {
		source.setData( data( geometry ) );
		return;
	}
	if ( ! geometry ) {
		return;
	}
	map.addSource( SOURCE, { type: 'geojson', data: data( geometry ) } );
	map.addLayer( {
		id: FILL,
		type: 'fill',
		source: SOURCE,
		filter: [ '==', [ 'geometry-type' ], 'Polygon' ],
		paint: { 'fill-color': COLOR, 'fill-opacity': 0.2 },
	} );
	map.addLayer( {
		id: LINE,
		type: 'line',
		source: SOURCE,
		paint: { 'line-color': COLOR, 'line-width': 3 },
	} );
}

/**
 * Takes the preview off the map (the drawing tool shows the shape instead).
 * @param map
 */
export function removeShapePreview( map: MapboxMap ): void {
	// The map may be gone already (a rebuild): its style then has nothing of ours.
	if ( ! map.getStyle() ) {
		return;
	}
	for ( const layer of [ LINE, FILL ] ) {
		if ( map.getLayer( layer ) ) {
			map.removeLayer( layer );
		}
	}
	if ( map.getSource( SOURCE ) ) {
		map.removeSource( SOURCE );
	}
}
