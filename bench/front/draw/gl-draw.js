/* global requestAnimationFrame */
/**
 * bench:draw's session on @mapbox/mapbox-gl-draw (candidates a and d): the library set up as
 * src/shared/shape-editor/draw-session.ts sets it up (its control classes renamed to the engine's,
 * no stylesheet, trash control and keybindings on, no box select), behind the small interface
 * every candidate of bench/front/draw.mjs offers (see terra-draw.js for the other side).
 */
import MapboxDraw from '@mapbox/mapbox-gl-draw';

const MODES = {
	point: 'draw_point',
	line: 'draw_line_string',
	polygon: 'draw_polygon',
};

/**
 * @param {*}       map                    The engine's map, loaded.
 * @param {Object}  options
 * @param {string}  options.prefix         The engine's class prefix (`maplibregl-`, `mapboxgl-`).
 * @param {boolean} [options.controls]     All the library's buttons, not only the trash.
 * @param {boolean} [options.renameCanvas] Also rename the canvas class the keybindings look for
 *                                         (draw-session.ts does not).
 */
export function start(
	map,
	{ prefix, controls = false, renameCanvas = false }
) {
	const { classes } = MapboxDraw.constants;
	classes.CONTROL_BASE = `${ prefix }ctrl`;
	classes.CONTROL_PREFIX = `${ prefix }ctrl-`;
	classes.CONTROL_GROUP = `${ prefix }ctrl-group`;
	classes.ATTRIBUTION = `${ prefix }ctrl-attrib`;
	classes.CANVAS = renameCanvas ? `${ prefix }canvas` : 'mapboxgl-canvas';
	const draw = new MapboxDraw( {
		displayControlsDefault: false,
		controls: controls
			? { point: true, line_string: true, polygon: true, trash: true }
			: { trash: true },
		keybindings: true,
		boxSelect: false,
	} );
	map.addControl( draw );
	const finished = [];
	const changes = [];
	map.on( 'draw.create', ( e ) => finished.push( e.features[ 0 ] ) );
	map.on( 'draw.update', () => changes.push( 'update' ) );
	map.on( 'draw.delete', () => changes.push( 'delete' ) );
	const ready = new Promise( ( resolve ) => {
		// The library adds its sources when the map is loaded (at once here: it is).
		const check = () =>
			map.getSource( 'mapbox-gl-draw-cold' )
				? resolve()
				: requestAnimationFrame( check );
		check();
	} );
	const drawing = () => draw.getMode().startsWith( 'draw_' );
	return {
		ready,
		finished,
		changes,
		draw: ( kind ) => draw.changeMode( MODES[ kind ] ),
		mode: () => ( drawing() ? 'drawing' : draw.getMode() ),
		/** The positions the library reports as placed (not the one under the pointer). */
		placed() {
			const feature = draw.getAll().features.at( -1 );
			const g = feature?.geometry;
			if ( ! g ) {
				return [];
			}
			if ( g.type === 'Point' ) {
				return g.coordinates.length === 2 ? [ g.coordinates ] : [];
			}
			if ( g.type === 'LineString' ) {
				return drawing() ? g.coordinates.slice( 0, -1 ) : g.coordinates;
			}
			const ring = ( g.coordinates[ 0 ] ?? [] ).filter( Boolean );
			return ring.slice( 0, drawing() ? -2 : -1 );
		},
		features: () => draw.getAll().features,
		edit() {
			const feature = draw.getAll().features.at( -1 );
			draw.changeMode( 'direct_select', {
				featureId: String( feature.id ),
			} );
		},
		select: () => draw.changeMode( 'simple_select', { featureIds: [] } ),
		selectedVertices: () => draw.getSelectedPoints().features.length,
		trash: () => draw.trash(),
		clear() {
			draw.deleteAll();
			draw.changeMode( 'simple_select' );
		},
		remove: () => map.removeControl( draw ),
	};
}
