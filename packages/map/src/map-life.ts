/**
 * A map's life and the handles createMap gives back: the started map's (`MapLife`: what it frees
 * when it stops, its `ready` promise, its one alert), a map that could not start (`failed`), and
 * a map that starts later, once its library, its built style or the visitor's consent is in
 * (`whenLoaded`, `laterMap`). Split from create-map.ts, which wires a map's parts together.
 */
import type { Map as MapboxMap } from 'mapbox-gl';

import type { CairnMap } from './create-map';
import { MapError, isNonFatal, showError } from './errors';
import type { PlacesController } from './places/controller';
import type { ShapesHandle } from './shapes/handle';
import type { MapErrorCode } from './types';

export function setState(
	host: HTMLElement,
	state: 'loading' | 'ready' | 'error'
) {
	host.dataset.cairnState = state;
}

export function failed(
	host: HTMLElement | null,
	code: MapErrorCode
): CairnMap {
	const error = host ? showError( host, code ) : new MapError( code );
	const ready = Promise.reject( error );
	// Callers that do not await `ready` must not see an unhandled rejection: the error is on the page.
	ready.catch( () => undefined );
	return { map: null, ready, destroy: () => undefined };
}

export function isPromise< T >( value: unknown ): value is Promise< T > {
	return typeof ( value as Promise< T > | null )?.then === 'function';
}

/**
 * A map whose library (or built style) is still on its way: the host shows `loading` meanwhile, a
 * library or style that cannot be loaded is the `style` error (the map could not be loaded), and
 * `destroy()` before it arrives means the map never starts.
 * @param host
 * @param pending
 * @param start
 */
export function whenLoaded< T >(
	host: HTMLElement,
	pending: Promise< T >,
	start: ( value: T ) => CairnMap
): CairnMap {
	let started: CairnMap | null = null;
	let destroyed = false;
	const removed = () => new Error( 'The map was removed before it started.' );
	const ready = pending.then(
		( value ) => {
			if ( destroyed ) {
				throw removed();
			}
			started = start( value );
			return started.ready;
		},
		( cause: unknown ) => {
			if ( destroyed ) {
				throw removed();
			}
			throw Object.assign( showError( host, 'style' ), { cause } );
		}
	);
	ready.catch( () => undefined );
	return laterMap(
		ready,
		() => started,
		() => {
			destroyed = true;
		}
	);
}

/**
 * The handle of a map that starts later (its library or the visitor's consent is on its way):
 * `map` and `places` are the started map's once it is there; `destroy()` stops it, or keeps it
 * from ever starting (`stop` marks that first).
 * @param ready
 * @param started
 * @param stop
 */
export function laterMap(
	ready: Promise< MapboxMap >,
	started: () => CairnMap | null,
	stop: () => void
): CairnMap {
	return {
		get map() {
			return started()?.map ?? null;
		},
		get places() {
			return started()?.places ?? null;
		},
		ready,
		destroy: () => {
			stop();
			started()?.destroy();
		},
	};
}

/**
 * One started map's life: what it frees when it stops, its `ready` promise, its places, and the
 * one alert it shows.
 */
export class MapLife {
	/** mapbox-gl's `load` came: an error from now on is not the style's. */
	loaded = false;
	/** Stopped: listeners and places gone, the map removed. */
	removed = false;
	/** The map's places, once known. */
	places: PlacesController | null = null;
	/** The map's routes and areas once drawn (null: none, or not drawn); null without `shapesUrl`. */
	shapes: Promise< ShapesHandle | null > | null = null;
	readonly ready: Promise< MapboxMap >;
	private destroyed = false;
	private shown: MapErrorCode | null = null;
	private readonly cleanups: Array< () => void > = [];
	private settle: {
		resolve: ( map: MapboxMap ) => void;
		reject: ( e: MapError ) => void;
	} = { resolve: () => undefined, reject: () => undefined };

	constructor(
		readonly host: HTMLElement,
		readonly map: MapboxMap,
		private readonly removeContainer: () => void
	) {
		this.ready = new Promise< MapboxMap >( ( resolve, reject ) => {
			this.settle = { resolve, reject };
		} );
		this.ready.catch( () => undefined );
	}

	/**
	 * Something to undo when the map stops.
	 * @param cleanup
	 */
	onStop( cleanup: () => void ) {
		this.cleanups.push( cleanup );
	}

	stop = () => {
		if ( this.removed ) {
			return;
		}
		this.removed = true;
		this.cleanups.forEach( ( cleanup ) => cleanup() );
		this.map.remove();
		this.removeContainer();
	};

	/**
	 * Reports a failure. A fatal one rejects `ready`, stops the map (no more requests, its
	 * graphics context freed) and replaces an earlier non-fatal message. A non-fatal one
	 * (`image-type`, `markers`) leaves a usable map: `ready` still resolves and `cairn:map-ready`
	 * is still sent, but the state stays `error` with its alert. Either way there is one alert.
	 * @param code
	 */
	fail( code: MapErrorCode ) {
		const fatal = ! isNonFatal( code );
		if (
			this.destroyed ||
			( this.shown && ( ! isNonFatal( this.shown ) || ! fatal ) )
		) {
			return;
		}
		this.shown = code;
		const error = showError( this.host, code );
		if ( fatal ) {
			this.settle.reject( error );
			// Not from inside mapbox-gl's own event dispatch.
			window.setTimeout( this.stop, 0 );
		}
	}

	/**
	 * Resolves `ready` and sends `cairn:map-ready`, unless a fatal failure came first.
	 * @param view
	 */
	announceReady( view: typeof window ) {
		if ( this.removed || ( this.shown && ! isNonFatal( this.shown ) ) ) {
			return;
		}
		if ( ! this.shown ) {
			setState( this.host, 'ready' );
		}
		this.settle.resolve( this.map );
		this.host.dispatchEvent(
			new view.CustomEvent( 'cairn:map-ready', {
				bubbles: true,
				detail: { map: this.map },
			} )
		);
	}

	handle(): CairnMap {
		// The handle's getter reads the live places.
		const life = this;
		return {
			map: this.map,
			ready: this.ready,
			get places() {
				return life.places;
			},
			destroy: () => {
				if ( this.destroyed ) {
					return;
				}
				this.stop();
				this.destroyed = true;
			},
		};
	}
}
