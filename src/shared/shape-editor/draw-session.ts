/**
 * A drawing session on a live map: `@mapbox/mapbox-gl-draw` (ISC), added to the map we pass (it
 * imports no mapbox-gl of its own, so it works with the copy the plugin loads from Mapbox). This
 * module and the library are one chunk, loaded on demand (use-shape-draw.ts) the first time an
 * editor draws or edits a shape.
 *
 * The session holds at most one feature, the marker's shape. It reports each finished drawing,
 * vertex edit or deletion as the new geometry; the caller keeps the history and the meta.
 */
import type { Map as MapboxMap } from 'mapbox-gl';
import MapboxDraw from '@mapbox/mapbox-gl-draw';
import { engineOf } from '@cairn-maps/map/plugin';

import {
	roundShape,
	readShape,
	type ShapeGeometry,
	type ShapeKind,
} from './geometry';

/** What the session is doing: nothing, drawing a new shape, or moving a shape's vertices. */
export type DrawMode = 'idle' | 'drawing' | 'editing';

export interface DrawSession {
	/** Starts drawing a new shape of that kind (the shape shown so far is taken off). */
	draw: ( kind: ShapeKind ) => void;
	/** Shows the shape's vertices for dragging; false when there is nothing to edit. */
	edit: () => boolean;
	/**
	 * Ends drawing or editing. A drawing with enough points is kept (reported as a change), one
	 * without is dropped.
	 */
	finish: () => void;
	/** Shows `geometry` (or nothing) without reporting it, and leaves any drawing unfinished. */
	show: ( geometry: ShapeGeometry | null ) => void;
	/** Takes the tool off the map. */
	remove: () => void;
}

export interface DrawSessionOptions {
	/** A drawing finished, vertices moved or the shape was deleted on the map. */
	onChange: ( geometry: ShapeGeometry | null ) => void;
	onMode: ( mode: DrawMode ) => void;
}

/** The session on each map: a map has one drawing tool at most (two would add the same sources). */
const sessions = new WeakMap< MapboxMap, DrawSession >();

/**
 * mapbox-gl-draw names its control with mapbox-gl's classes; on a MapLibre map it takes the
 * engine's own (`maplibregl-ctrl…`), so the map's control styles apply to it. Set before each
 * tool is added: its constants are the library's, and each control reads them when it is added.
 * @param map
 */
export function applyClassesOf( map: MapboxMap ) {
	const prefix = engineOf( map ).classPrefix;
	const classes = (
		MapboxDraw as unknown as {
			constants?: { classes?: Record< string, string > };
		}
	 ).constants?.classes;
	if ( ! classes ) {
		return;
	}
	classes.CONTROL_BASE = `${ prefix }ctrl`;
	classes.CONTROL_PREFIX = `${ prefix }ctrl-`;
	classes.CONTROL_GROUP = `${ prefix }ctrl-group`;
	classes.ATTRIBUTION = `${ prefix }ctrl-attrib`;
	// Its keys (Delete, Backspace) answer only on the element of this class: the engine's canvas.
	classes.CANVAS = `${ prefix }canvas`;
}

/**
 * Adds the drawing tool to `map` (taking off one a previous session left there).
 * @param map     The ready map.
 * @param shape   The shape to show at first.
 * @param options Where changes and mode switches go.
 */
export function startDrawSession(
	map: MapboxMap,
	shape: ShapeGeometry | null,
	options: DrawSessionOptions
): DrawSession {
	sessions.get( map )?.remove();
	applyClassesOf( map );
	const draw = new MapboxDraw( {
		displayControlsDefault: false,
		// Our own buttons; the library's keys stay on (Enter finishes, Escape cancels,
		// Delete removes the selected shape) for the canvas when it has the focus.
		controls: { trash: true },
		keybindings: true,
		boxSelect: false,
	} );
	// The types name mapbox-gl's IControl of another copy of the typings.
	map.addControl(
		draw as unknown as Parameters< MapboxMap[ 'addControl' ] >[ 0 ]
	);

	let mode: DrawMode = 'idle';
	// The library marks its modes with classes for its own stylesheet, which we do not load:
	// the crosshair while drawing is set here, and the map's own cursor put back after.
	const canvas = map.getCanvas();
	let cursor = canvas.style.cursor;
	const setMode = ( next: DrawMode ) => {
		if ( next === 'drawing' && mode !== 'drawing' ) {
			cursor = canvas.style.cursor;
			canvas.style.cursor = 'crosshair';
		} else if ( next !== 'drawing' && mode === 'drawing' ) {
			canvas.style.cursor = cursor;
		}
		mode = next;
		options.onMode( next );
	};
	const current = (): ShapeGeometry | null => {
		const [ feature ] = draw.getAll().features;
		const geometry = readShape( feature?.geometry );
		return geometry ? roundShape( geometry ) : null;
	};
	// The shape as last shown or reported: what a cancelled drawing puts back.
	let kept = shape;
	const show = ( geometry: ShapeGeometry | null ) => {
		kept = geometry;
		draw.deleteAll();
		if ( geometry ) {
			draw.add( { type: 'Feature', properties: {}, geometry } );
		}
	};
	show( shape );

	const changed = () => {
		kept = current();
		options.onChange( kept );
	};
	const created = () => {
		changed();
		setMode( 'idle' );
	};
	// The library left a mode by itself (a drawing finished or cancelled with Escape).
	const modeChanged = ( event: { mode: string } ) => {
		if ( event.mode !== 'simple_select' || mode === 'idle' ) {
			return;
		}
		if ( mode === 'drawing' && draw.getAll().features.length === 0 ) {
			show( kept );
		}
		setMode( 'idle' );
	};
	map.on( 'draw.create', created );
	map.on( 'draw.update', changed );
	map.on( 'draw.delete', changed );
	map.on( 'draw.modechange', modeChanged );

	const session: DrawSession = {
		draw: ( kind ) => {
			draw.deleteAll();
			setMode( 'drawing' );
			if ( kind === 'line' ) {
				draw.changeMode( 'draw_line_string' );
			} else {
				draw.changeMode( 'draw_polygon' );
			}
		},
		edit: () => {
			const [ feature ] = draw.getAll().features;
			if ( ! feature?.id ) {
				return false;
			}
			setMode( 'editing' );
			draw.changeMode( 'direct_select', {
				featureId: String( feature.id ),
			} );
			return true;
		},
		finish: () => {
			// Leaving a drawing mode keeps a valid drawing (`draw.create`) and drops the rest.
			const drawing = mode === 'drawing';
			draw.changeMode( 'simple_select' );
			if ( drawing && draw.getAll().features.length === 0 ) {
				show( kept );
			}
			setMode( 'idle' );
		},
		show: ( geometry ) => {
			// An edit under way goes on with the shape shown (an undo while editing).
			const editing = mode === 'editing';
			// Off first, so leaving a drawing mode reports nothing.
			draw.deleteAll();
			if ( mode === 'drawing' ) {
				draw.changeMode( 'simple_select' );
			}
			show( geometry );
			const [ feature ] = draw.getAll().features;
			if ( editing && feature?.id ) {
				draw.changeMode( 'direct_select', {
					featureId: String( feature.id ),
				} );
			} else if ( mode !== 'idle' ) {
				draw.changeMode( 'simple_select' );
				setMode( 'idle' );
			}
		},
		remove: () => {
			map.off( 'draw.create', created );
			map.off( 'draw.update', changed );
			map.off( 'draw.delete', changed );
			map.off( 'draw.modechange', modeChanged );
			// The map may already be gone (its own removal takes the controls with it).
			if (
				map.hasControl(
					draw as unknown as Parameters<
						MapboxMap[ 'hasControl' ]
					>[ 0 ]
				)
			) {
				map.removeControl(
					draw as unknown as Parameters<
						MapboxMap[ 'removeControl' ]
					>[ 0 ]
				);
			}
			if ( sessions.get( map ) === session ) {
				sessions.delete( map );
			}
		},
	};
	sessions.set( map, session );
	return session;
}
