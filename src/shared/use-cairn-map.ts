/**
 * `useCairnMap()`: the editor's one map lifecycle around the `createMap` runtime, shared by the
 * block's live preview and the marker sidebar's Location map.
 *
 * One effect owns the map's whole life (react-map-gl's way): it loads the runtime chunk and
 * mapbox-gl on demand, creates the map in the host's container (the runtime handles a container in the canvas
 * iframe), hands the ready map to its caller and always destroys it. A change of `rebuildKey`
 * recreates the map; everything else is the caller's to apply to the running map. Errors are the
 * runtime's to show, in the host (`data-cairn-state`, the alert), so none is handled here.
 */
import type { Map as MapboxMap } from 'mapbox-gl';
import { useEffect, useRef, useState } from '@wordpress/element';
import type { MutableRefObject, RefObject } from 'react';

import type { MapboxGl } from '../blocks/map/load-mapbox-gl';
import { configEngine, loadMapLibrary } from '../blocks/map/load-map-library';
import type { CairnMap } from '../blocks/map/runtime';

/**
 * The map's library as the runtime uses it (mapbox-gl, or maplibre-gl with the same API for these
 * objects): for the caller's own objects (a draggable pin).
 */
export type { MapboxGl };

export interface UseCairnMapOptions {
	/**
	 * The configuration for `createMap`, called each time the map is (re)built, with the props of
	 * the latest render.
	 */
	config: () => unknown;
	/** What recreates the map when it changes (the settings mapbox-gl cannot change in place). */
	rebuildKey: string;
	/**
	 * Called once the map is ready (not when it failed: the runtime shows that). May return what
	 * undoes it, called before the map is destroyed.
	 */
	onReady?: ( map: MapboxMap, mapboxgl: MapboxGl ) => void | ( () => void );
	/** Called when the map goes (a rebuild, the component unmounted), ready or not. */
	onRemove?: () => void;
}

export interface CairnMapHandle {
	/** The element that carries `data-cairn-state` and the alert. */
	hostRef: RefObject< HTMLDivElement >;
	/** The element the map draws in. */
	containerRef: RefObject< HTMLDivElement >;
	/** The ready map, null while it loads, after a failure and once it is gone. */
	map: MapboxMap | null;
	/** The running map (its places, for one), or null. */
	cairn: MutableRefObject< CairnMap | null >;
}

export function useCairnMap( {
	config,
	rebuildKey,
	onReady,
	onRemove,
}: UseCairnMapOptions ): CairnMapHandle {
	const hostRef = useRef< HTMLDivElement >( null );
	const containerRef = useRef< HTMLDivElement >( null );
	const cairnRef = useRef< CairnMap | null >( null );
	const [ map, setMap ] = useState< MapboxMap | null >( null );
	// The latest callbacks, for a map built or made ready after later renders.
	const latest = useRef( { config, onReady, onRemove } );
	latest.current = { config, onReady, onRemove };

	useEffect( () => {
		const host = hostRef.current;
		const container = containerRef.current;
		if ( ! host || ! container ) {
			return undefined;
		}
		let cairn: CairnMap | null = null;
		let undoReady: void | ( () => void );
		let cancelled = false;
		const input = latest.current.config();
		// The configuration's library (once per page) downloads while the runtime does.
		const library = loadMapLibrary(
			configEngine( input ),
			host.ownerDocument
		) as unknown as Promise< MapboxGl >;
		Promise.all( [
			import(
				/* webpackChunkName: "cairn-map-runtime" */ '../blocks/map/runtime'
			),
			library.catch( () => null ),
		] ).then( ( [ { createMap }, mapboxgl ] ) => {
			if ( cancelled ) {
				return;
			}
			// A library that could not be loaded is the runtime's `style` alert in the host.
			cairn = cairnRef.current = createMap( container, input, {
				host,
				mapLib: mapboxgl ?? library,
			} );
			cairn.ready.then(
				( ready ) => {
					if ( cancelled || ! mapboxgl ) {
						return;
					}
					undoReady = latest.current.onReady?.( ready, mapboxgl );
					setMap( ready );
				},
				() => undefined // The runtime shows the error in the host.
			);
		} );
		return () => {
			cancelled = true;
			setMap( null );
			latest.current.onRemove?.();
			undoReady?.();
			cairn?.destroy();
			if ( cairnRef.current === cairn ) {
				cairnRef.current = null;
			}
		};
	}, [ rebuildKey ] );

	return { hostRef, containerRef, map, cairn: cairnRef };
}
