/**
 * Markers as a clustered GeoJSON source drawn by mapbox-gl on the GPU: clustering runs in
 * mapbox-gl's worker (Supercluster), so no marker ever becomes a DOM element.
 */
import type { GeoJSONSource, Map as MapboxMap, MapMouseEvent } from 'mapbox-gl';

import type { ClusterConfig } from './types';
import { LIMITS } from './limits';

export const MARKERS_SOURCE = 'cairn-markers';
export const CLUSTERS_LAYER = 'cairn-clusters';
export const CLUSTER_COUNT_LAYER = 'cairn-cluster-count';
export const POINTS_LAYER = 'cairn-points';

export function addMarkersLayer(
	map: MapboxMap,
	url: string,
	cluster: ClusterConfig,
	onPointClick?: ( id: number, lngLat: { lng: number; lat: number } ) => void
): () => void {
	map.addSource( MARKERS_SOURCE, {
		type: 'geojson',
		data: url,
		cluster: cluster.enabled,
		clusterRadius: cluster.radius,
		clusterMaxZoom: LIMITS.cluster.maxZoom,
	} );
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
	map.addLayer( {
		id: CLUSTER_COUNT_LAYER,
		type: 'symbol',
		source: MARKERS_SOURCE,
		filter: [ 'has', 'point_count' ],
		layout: {
			'text-field': [ 'get', 'point_count_abbreviated' ],
			'text-size': 13,
			'text-allow-overlap': true,
		},
		paint: { 'text-color': '#ffffff' },
	} );
	map.addLayer( {
		id: POINTS_LAYER,
		type: 'circle',
		source: MARKERS_SOURCE,
		filter: [ '!', [ 'has', 'point_count' ] ],
		paint: {
			'circle-color': '#d1495b',
			'circle-radius': 7,
			'circle-stroke-color': '#ffffff',
			'circle-stroke-width': 2,
		},
	} );

	const expandCluster = ( event: MapMouseEvent ) => {
		const feature = event.features?.[ 0 ];
		const clusterId = feature?.properties?.cluster_id;
		const source = map.getSource< GeoJSONSource >( MARKERS_SOURCE );
		if ( typeof clusterId !== 'number' || ! source || ! feature ) {
			return;
		}
		source.getClusterExpansionZoom( clusterId, ( error, zoom ) => {
			if ( error || typeof zoom !== 'number' ) {
				return;
			}
			const geometry = feature.geometry;
			if ( geometry.type === 'Point' ) {
				map.easeTo( {
					center: geometry.coordinates as [ number, number ],
					zoom,
				} );
			}
		} );
	};
	const openPoint = ( event: MapMouseEvent ) => {
		const feature = event.features?.[ 0 ];
		const id = Number( feature?.id );
		if ( onPointClick && feature && Number.isInteger( id ) && id > 0 ) {
			const geometry = feature.geometry;
			const [ lng = 0, lat = 0 ] =
				geometry.type === 'Point' ? geometry.coordinates : [];
			onPointClick( id, { lng, lat } );
		}
	};
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
