/**
 * bench:draw's session on terra-draw (candidates b and c), behind the interface gl-draw.js
 * offers: point, line and polygon modes with their default keys (Enter finishes, Escape cancels),
 * and a select mode whose flags let a line's or an area's vertices be dragged, added (midpoints)
 * and deleted, and a selected feature deleted (Delete), as the plugin's shape tools need.
 */
import {
	TerraDraw,
	TerraDrawLineStringMode,
	TerraDrawPointMode,
	TerraDrawPolygonMode,
	TerraDrawSelectMode,
} from 'terra-draw';

const MODES = { point: 'point', line: 'linestring', polygon: 'polygon' };
/**
 * A drawn feature's geometry by its mode; the modes' guidance points (closing, selection,
 * midpoints) are Points in the same store, with the mode of the feature they serve.
 */
const GEOMETRY = {
	point: 'Point',
	linestring: 'LineString',
	polygon: 'Polygon',
};

const editable = {
	feature: {
		draggable: false,
		coordinates: { draggable: true, midpoints: true, deletable: true },
	},
};

/**
 * @param {*} adapter The engine's terra-draw adapter, made for the loaded map.
 */
export function session( adapter ) {
	const draw = new TerraDraw( {
		adapter,
		modes: [
			new TerraDrawPointMode(),
			new TerraDrawLineStringMode(),
			new TerraDrawPolygonMode(),
			new TerraDrawSelectMode( {
				flags: {
					point: { feature: { draggable: true } },
					linestring: editable,
					polygon: editable,
				},
			} ),
		],
	} );
	const finished = [];
	const changes = [];
	const ready = new Promise( ( resolve ) => draw.on( 'ready', resolve ) );
	draw.on( 'finish', ( id, context ) => {
		if ( context?.action === 'draw' ) {
			finished.push( draw.getSnapshotFeature( id ) );
		} else {
			changes.push( context?.action ?? 'finish' );
		}
	} );
	draw.on( 'change', ( ids, type ) => {
		if ( type === 'delete' ) {
			changes.push( 'delete' );
		}
	} );
	draw.start();
	draw.setMode( 'select' );
	/** The drawn features, without the guidance points the modes add to the store. */
	const features = () =>
		draw
			.getSnapshot()
			.filter(
				( f ) =>
					GEOMETRY[ f.properties.mode ] === f.geometry.type &&
					! f.properties.closingPoint &&
					! f.properties.snappingPoint &&
					! f.properties.coordinatePoint
			);
	return {
		ready,
		finished,
		changes,
		draw: ( kind ) => draw.setMode( MODES[ kind ] ),
		mode: () =>
			draw.getModeState() === 'drawing' ? 'drawing' : draw.getMode(),
		placed() {
			const feature = features().at( -1 );
			const g = feature?.geometry;
			if ( ! g ) {
				return [];
			}
			if ( g.type === 'Point' ) {
				return [ g.coordinates ];
			}
			const drawing = Boolean( feature.properties.currentlyDrawing );
			const committed = feature.properties.committedCoordinateCount;
			if ( g.type === 'LineString' ) {
				return drawing
					? g.coordinates.slice(
							0,
							committed ?? g.coordinates.length - 1
						)
					: g.coordinates;
			}
			const ring = g.coordinates[ 0 ];
			return drawing
				? ring.slice( 0, committed ?? ring.length - 2 )
				: ring.slice( 0, -1 );
		},
		features,
		edit() {
			draw.setMode( 'select' );
			draw.selectFeature( features().at( -1 ).id );
		},
		select: () => draw.setMode( 'select' ),
		selectedVertices: () => null,
		trash() {
			const ids = features().map( ( f ) => f.id );
			draw.removeFeatures( ids );
		},
		clear() {
			draw.clear();
			draw.setMode( 'select' );
		},
		remove: () => draw.stop(),
	};
}
