/**
 * The state behind the shape tools: the shape (controlled by the caller), an undo history of
 * geometry snapshots (the drawing library keeps none), and the drawing session on the map,
 * started the first time an editor draws or edits.
 */
import type { Map as MapboxMap } from 'mapbox-gl';
import { useCallback, useEffect, useRef, useState } from '@wordpress/element';

import type { DrawMode, DrawSession } from './draw-session';
import { readShape, type ShapeGeometry, type ShapeKind } from './geometry';
import { removeShapePreview, showShapePreview } from './shape-preview';

/** Undo steps kept. */
const HISTORY = 50;

export function useShapeDraw(
	map: MapboxMap | null,
	value: unknown,
	onChange: ( geometry: ShapeGeometry | null ) => void
) {
	const shape = readShape( value );
	const [ past, setPast ] = useState< Array< ShapeGeometry | null > >( [] );
	const [ mode, setMode ] = useState< DrawMode >( 'idle' );
	const [ loading, setLoading ] = useState( false );
	const [ failed, setFailed ] = useState( false );
	const session = useRef< DrawSession | null >( null );
	const starting = useRef< Promise< DrawSession > | null >( null );
	const latest = useRef( { shape, onChange } );
	latest.current = { shape, onChange };
	/**
	 * Counts the lives of the tools on a map (a new map, the tools gone, or React running the
	 * effect again in strict mode): a session that finishes loading in a life that has ended is
	 * taken off at once.
	 */
	const life = useRef( 0 );

	/** A new shape (or none): the one before becomes an undo step. */
	const commit = useCallback( ( next: ShapeGeometry | null ) => {
		const before = latest.current.shape;
		setPast( ( steps ) => [ ...steps, before ].slice( -HISTORY ) );
		latest.current.onChange( next );
	}, [] );

	// The session lives as long as the map; the preview stands in for it until it starts.
	useEffect( () => {
		life.current += 1;
		if ( ! map ) {
			return undefined;
		}
		return () => {
			life.current += 1;
			session.current?.remove();
			session.current = null;
			starting.current = null;
			// The tools may go while the map stays (a marker deselected on the block's preview).
			removeShapePreview( map );
			setMode( 'idle' );
		};
	}, [ map ] );

	const shapeJson = JSON.stringify( shape );
	useEffect( () => {
		if ( ! map ) {
			return;
		}
		if ( session.current ) {
			if ( mode === 'idle' ) {
				session.current.show( latest.current.shape );
			}
			return;
		}
		showShapePreview( map, latest.current.shape );
		// The mode matters only for the session: a shape reported while editing is on the map.
		// eslint-disable-next-line react-hooks/exhaustive-deps
	}, [ map, shapeJson ] );

	const withSession = useCallback(
		( use: ( started: DrawSession ) => void ) => {
			if ( ! map ) {
				return;
			}
			if ( ! starting.current ) {
				const started = life.current;
				setLoading( true );
				// The session and the drawing library: one chunk, loaded the first time.
				starting.current = import(
					/* webpackChunkName: "cairn-shape-draw" */ './draw-session'
				).then( ( { startDrawSession } ) =>
					startDrawSession( map, latest.current.shape, {
						onChange: commit,
						onMode: setMode,
					} )
				);
				starting.current.then(
					( ready ) => {
						// The map went (or the tools did) while the library loaded.
						if ( life.current !== started ) {
							ready.remove();
							return;
						}
						removeShapePreview( map );
						session.current = ready;
						setLoading( false );
					},
					() => {
						starting.current = null;
						setLoading( false );
						setFailed( true );
					}
				);
			}
			starting.current.then(
				( started ) => {
					// Not for a map that went meanwhile.
					if ( session.current === started ) {
						use( started );
					}
				},
				() => undefined
			);
		},
		[ map, commit ]
	);

	const undo = useCallback( () => {
		if ( mode === 'drawing' ) {
			// A drawing not finished yet: the step to undo is the drawing itself.
			session.current?.show( latest.current.shape );
			return;
		}
		if ( past.length === 0 ) {
			return;
		}
		const previous = past[ past.length - 1 ] ?? null;
		setPast( past.slice( 0, -1 ) );
		session.current?.show( previous );
		latest.current.onChange( previous );
	}, [ mode, past ] );

	return {
		shape,
		mode,
		loading,
		/** The drawing library could not be loaded. */
		failed,
		canUndo: mode === 'drawing' || past.length > 0,
		undo,
		/** Sets a shape from elsewhere (pasted), as an undo step. */
		replace: ( next: ShapeGeometry | null ) => {
			session.current?.show( next );
			commit( next );
		},
		draw: ( kind: ShapeKind ) =>
			withSession( ( started ) => started.draw( kind ) ),
		edit: () => withSession( ( started ) => started.edit() ),
		finish: () => session.current?.finish(),
	};
}
