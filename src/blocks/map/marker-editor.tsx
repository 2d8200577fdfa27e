/**
 * Markers placed and edited on the live preview.
 *
 * - "Add marker" mode: a click on the map asks for a title (and optional text) inline, then creates
 *   a published `cairn_marker` through the REST API and adds it to the block's selection.
 * - A click on a marker selects it: edit its title, text and group, open its full edit screen,
 *   drag it to a new place, or move it to the trash after a confirmation.
 * Failed saves show a notice and leave nothing half-created (the server refuses bad coordinates
 * before it stores anything).
 */
import type {
	Map as MapboxMap,
	MapMouseEvent,
	Marker as MapboxMarker,
} from 'mapbox-gl';
import {
	Button,
	Notice,
	SelectControl,
	TextControl,
	TextareaControl,
} from '@wordpress/components';
import { store as coreStore } from '@wordpress/core-data';
import { useDispatch, useSelect } from '@wordpress/data';
import { useEffect, useRef, useState } from '@wordpress/element';
import { __, sprintf } from '@wordpress/i18n';
import type { MarkerSelection } from '@cairn-maps/map';
import { POINTS_LAYER } from '@cairn-maps/map/plugin';

import { loadMapboxGl } from './load-mapbox-gl';
import { roundTo } from './validation';

interface GroupTerm {
	id: number;
	slug: string;
	name: string;
}

interface MarkerRecord {
	id: number;
	title: { raw?: string; rendered: string };
	content: { raw?: string; rendered: string };
	meta: { cairn_lat?: number; cairn_lng?: number };
	'cairn-marker-groups'?: number[];
}

export interface MarkerEditorProps {
	map: MapboxMap | null;
	markers: MarkerSelection;
	setMarkers: ( markers: MarkerSelection ) => void;
	/** Called after any change, so the preview reloads the marker data. */
	onChanged: () => void;
	/** Called with the id of every marker this editor creates. */
	onCreated: ( id: number ) => void;
	editUrl: string;
	adding: boolean;
	setAdding: ( adding: boolean ) => void;
}

function errorText( error: unknown ): string {
	const message =
		typeof error === 'object' && error !== null && 'message' in error
			? String( ( error as { message: unknown } ).message )
			: '';
	return message || __( 'The marker could not be saved.', 'cairn-maps' );
}

export function MarkerEditor( {
	map,
	markers,
	setMarkers,
	onChanged,
	onCreated,
	editUrl,
	adding,
	setAdding,
}: MarkerEditorProps ) {
	const [ pending, setPending ] = useState< {
		lng: number;
		lat: number;
	} | null >( null );
	const [ title, setTitle ] = useState( '' );
	const [ text, setText ] = useState( '' );
	const [ selectedId, setSelectedId ] = useState< number | null >( null );
	const [ error, setError ] = useState( '' );
	const [ busy, setBusy ] = useState( false );
	const [ confirmTrash, setConfirmTrash ] = useState( false );
	const dragMarker = useRef< MapboxMarker | null >( null );

	const { saveEntityRecord, deleteEntityRecord } = useDispatch( coreStore );
	const { groups, selected } = useSelect(
		( select ) => {
			const store = select( coreStore );
			return {
				groups:
					( store.getEntityRecords(
						'taxonomy',
						'cairn_marker_group',
						{
							per_page: 100,
							_fields: 'id,slug,name',
						}
					) as GroupTerm[] | null ) ?? [],
				selected: selectedId
					? ( store.getEntityRecord(
							'postType',
							'cairn_marker',
							selectedId,
							{ context: 'edit' }
						) as MarkerRecord | undefined )
					: undefined,
			};
		},
		[ selectedId ]
	);
	const [ draft, setDraft ] = useState( {
		title: '',
		content: '',
		group: 0,
	} );
	useEffect( () => {
		if ( selected ) {
			setDraft( {
				title: selected.title.raw ?? '',
				content: selected.content.raw ?? '',
				group: selected[ 'cairn-marker-groups' ]?.[ 0 ] ?? 0,
			} );
		}
	}, [ selected ] );

	// Map clicks: place a new marker, or select an existing one.
	useEffect( () => {
		if ( ! map ) {
			return undefined;
		}
		const onClick = ( event: MapMouseEvent ) => {
			if ( adding ) {
				setPending( {
					lng: roundTo( event.lngLat.wrap().lng, 6 ),
					lat: roundTo( event.lngLat.lat, 6 ),
				} );
				setSelectedId( null );
				setError( '' );
				return;
			}
			const [ feature ] = map.getLayer( POINTS_LAYER )
				? map.queryRenderedFeatures( event.point, {
						layers: [ POINTS_LAYER ],
					} )
				: [];
			const id = Number( feature?.id ?? feature?.properties?.id );
			setConfirmTrash( false );
			setSelectedId( Number.isInteger( id ) && id > 0 ? id : null );
		};
		const canvas = map.getCanvas();
		map.on( 'click', onClick );
		canvas.style.cursor = adding ? 'crosshair' : '';
		return () => {
			// The map may already be removed (style change, block removed): touch only our canvas.
			map.off( 'click', onClick );
			canvas.style.cursor = '';
		};
	}, [ map, adding ] );

	// The selected marker can be dragged to a new place.
	const lat = selected?.meta?.cairn_lat;
	const lng = selected?.meta?.cairn_lng;
	useEffect( () => {
		if ( ! map || ! selectedId || lat === undefined || lng === undefined ) {
			return undefined;
		}
		let cancelled = false;
		// Loaded already: the map is there (one download per page, see load-mapbox-gl.ts).
		loadMapboxGl( map.getContainer().ownerDocument ).then(
			( mapboxgl ) => {
				if ( cancelled ) {
					return;
				}
				const element = map
					.getContainer()
					.ownerDocument.createElement( 'div' );
				element.className = 'cairn-maps-drag-handle';
				element.setAttribute(
					'aria-label',
					__( 'Selected marker: drag to move it', 'cairn-maps' )
				);
				const marker = new mapboxgl.Marker( { element } )
					.setLngLat( [ lng, lat ] )
					.addTo( map );
				// Our own pointer dragging: mapbox-gl's draggable markers follow the mouse through
				// the document it was loaded in, which in the iframed editor is not the canvas's.
				const save = () => {
					const position = marker.getLngLat().wrap();
					setBusy( true );
					saveEntityRecord(
						'postType',
						'cairn_marker',
						{
							id: selectedId,
							meta: {
								cairn_lat: roundTo( position.lat, 6 ),
								cairn_lng: roundTo( position.lng, 6 ),
							},
						},
						{ throwOnError: true }
					)
						.then( onChanged )
						.catch( ( reason: unknown ) => {
							setError( errorText( reason ) );
							marker.setLngLat( [ lng, lat ] );
						} )
						.finally( () => setBusy( false ) );
				};
				const follow = ( event: PointerEvent ) => {
					const box = map.getContainer().getBoundingClientRect();
					marker.setLngLat(
						map.unproject( [
							event.clientX - box.left,
							event.clientY - box.top,
						] )
					);
				};
				element.addEventListener( 'pointerdown', ( event ) => {
					event.preventDefault();
					event.stopPropagation();
					element.setPointerCapture( event.pointerId );
					element.addEventListener( 'pointermove', follow );
				} );
				element.addEventListener( 'pointerup', ( event ) => {
					if ( ! element.hasPointerCapture( event.pointerId ) ) {
						return;
					}
					element.releasePointerCapture( event.pointerId );
					element.removeEventListener( 'pointermove', follow );
					follow( event );
					save();
				} );
				dragMarker.current = marker;
			},
			() => undefined // Not expected: the map exists, so mapbox-gl is here.
		);
		return () => {
			cancelled = true;
			dragMarker.current?.remove();
			dragMarker.current = null;
		};
	}, [ map, selectedId, lat, lng, saveEntityRecord, onChanged ] );

	const groupIdForNewMarker = (): number[] => {
		if ( markers.source !== 'groups' ) {
			return [];
		}
		const group = groups.find( ( term ) =>
			markers.groups.includes( term.slug )
		);
		return group ? [ group.id ] : [];
	};

	const create = async () => {
		if ( ! pending || ! title.trim() ) {
			return;
		}
		setBusy( true );
		setError( '' );
		try {
			const record = ( await saveEntityRecord(
				'postType',
				'cairn_marker',
				{
					title: title.trim(),
					content: text,
					status: 'publish',
					meta: { cairn_lat: pending.lat, cairn_lng: pending.lng },
					'cairn-marker-groups': groupIdForNewMarker(),
				},
				{ throwOnError: true }
			) ) as MarkerRecord;
			onCreated( record.id );
			if ( markers.source === 'ids' ) {
				setMarkers( {
					...markers,
					ids: [ ...markers.ids, record.id ],
				} );
			}
			setPending( null );
			setTitle( '' );
			setText( '' );
			setAdding( false );
			onChanged();
		} catch ( reason ) {
			setError( errorText( reason ) );
		} finally {
			setBusy( false );
		}
	};

	const update = async () => {
		if ( ! selectedId || ! draft.title.trim() ) {
			return;
		}
		setBusy( true );
		setError( '' );
		try {
			await saveEntityRecord(
				'postType',
				'cairn_marker',
				{
					id: selectedId,
					title: draft.title.trim(),
					content: draft.content,
					'cairn-marker-groups': draft.group ? [ draft.group ] : [],
				},
				{ throwOnError: true }
			);
			onChanged();
		} catch ( reason ) {
			setError( errorText( reason ) );
		} finally {
			setBusy( false );
		}
	};

	const trash = async () => {
		if ( ! selectedId ) {
			return;
		}
		setBusy( true );
		try {
			await deleteEntityRecord(
				'postType',
				'cairn_marker',
				selectedId,
				{},
				{ throwOnError: true }
			);
			if ( markers.ids.includes( selectedId ) ) {
				setMarkers( {
					...markers,
					ids: markers.ids.filter( ( id ) => id !== selectedId ),
				} );
			}
			setSelectedId( null );
			setConfirmTrash( false );
			onChanged();
		} catch ( reason ) {
			setError( errorText( reason ) );
		} finally {
			setBusy( false );
		}
	};

	if ( ! pending && ! selectedId && ! error && ! adding ) {
		return null;
	}

	return (
		<div
			className="cairn-maps-marker-editor"
			role="group"
			aria-label={ __( 'Marker', 'cairn-maps' ) }
		>
			{ error && (
				<Notice status="error" onRemove={ () => setError( '' ) }>
					{ error }
				</Notice>
			) }
			{ adding && ! pending && (
				<p role="status">
					{ __(
						'Click the map where the new marker belongs.',
						'cairn-maps'
					) }
				</p>
			) }
			{ pending && (
				<form
					onSubmit={ ( event ) => {
						event.preventDefault();
						create();
					} }
				>
					<p>
						{ sprintf(
							/* translators: 1: latitude, 2: longitude. */
							__( 'New marker at %1$s, %2$s', 'cairn-maps' ),
							pending.lat.toFixed( 5 ),
							pending.lng.toFixed( 5 )
						) }
					</p>
					<TextControl
						__next40pxDefaultSize
						__nextHasNoMarginBottom
						label={ __( 'Marker title', 'cairn-maps' ) }
						value={ title }
						onChange={ setTitle }
						required
					/>
					<TextareaControl
						__nextHasNoMarginBottom
						label={ __( 'Text (optional)', 'cairn-maps' ) }
						value={ text }
						onChange={ setText }
					/>
					<Button
						variant="primary"
						type="submit"
						isBusy={ busy }
						disabled={ busy || ! title.trim() }
					>
						{ __( 'Save marker', 'cairn-maps' ) }
					</Button>
					<Button
						variant="tertiary"
						onClick={ () => {
							setPending( null );
							setAdding( false );
						} }
					>
						{ __( 'Cancel', 'cairn-maps' ) }
					</Button>
				</form>
			) }
			{ selectedId && ! pending && (
				<form
					onSubmit={ ( event ) => {
						event.preventDefault();
						update();
					} }
				>
					{ ! selected ? (
						<p>{ __( 'Loading marker…', 'cairn-maps' ) }</p>
					) : (
						<>
							<TextControl
								__next40pxDefaultSize
								__nextHasNoMarginBottom
								label={ __( 'Marker title', 'cairn-maps' ) }
								value={ draft.title }
								onChange={ ( value: string ) =>
									setDraft( { ...draft, title: value } )
								}
							/>
							<TextareaControl
								__nextHasNoMarginBottom
								label={ __( 'Text', 'cairn-maps' ) }
								value={ draft.content }
								onChange={ ( value: string ) =>
									setDraft( { ...draft, content: value } )
								}
							/>
							<SelectControl
								__next40pxDefaultSize
								__nextHasNoMarginBottom
								label={ __( 'Group', 'cairn-maps' ) }
								value={ String( draft.group ) }
								options={ [
									{
										value: '0',
										label: __( 'No group', 'cairn-maps' ),
									},
									...groups.map( ( group ) => ( {
										value: String( group.id ),
										label: group.name,
									} ) ),
								] }
								onChange={ ( value: string ) =>
									setDraft( {
										...draft,
										group: Number( value ),
									} )
								}
							/>
							<p className="cairn-maps-help">
								{ __(
									'Drag the highlighted marker on the map to move it.',
									'cairn-maps'
								) }
							</p>
							<Button
								variant="primary"
								type="submit"
								isBusy={ busy }
								disabled={ busy || ! draft.title.trim() }
							>
								{ __( 'Save marker', 'cairn-maps' ) }
							</Button>
							<Button
								variant="link"
								href={ editUrl + selectedId }
								target="_blank"
							>
								{ __( 'Open full editor', 'cairn-maps' ) }
							</Button>
							{ confirmTrash ? (
								<>
									<Button
										variant="secondary"
										isDestructive
										onClick={ trash }
										disabled={ busy }
									>
										{ __(
											'Yes, move to trash',
											'cairn-maps'
										) }
									</Button>
									<Button
										variant="tertiary"
										onClick={ () =>
											setConfirmTrash( false )
										}
									>
										{ __( 'Keep it', 'cairn-maps' ) }
									</Button>
								</>
							) : (
								<Button
									variant="link"
									isDestructive
									onClick={ () => setConfirmTrash( true ) }
								>
									{ __( 'Move to trash', 'cairn-maps' ) }
								</Button>
							) }
						</>
					) }
					<Button
						variant="tertiary"
						onClick={ () => setSelectedId( null ) }
					>
						{ __( 'Close', 'cairn-maps' ) }
					</Button>
				</form>
			) }
		</div>
	);
}
