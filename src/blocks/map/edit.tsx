/**
 * The map block in the editor: a live preview through the shared runtime, the settings sidebar,
 * and markers placed on the map.
 */
import type { Map as MapboxMap } from 'mapbox-gl';
import { BlockControls, useBlockProps } from '@wordpress/block-editor';
import type { BlockEditProps } from '@wordpress/blocks';
import { ToolbarButton, ToolbarGroup } from '@wordpress/components';
import { store as coreStore } from '@wordpress/core-data';
import { useDispatch } from '@wordpress/data';
import {
	useCallback,
	useEffect,
	useMemo,
	useRef,
	useState,
} from '@wordpress/element';
import { __ } from '@wordpress/i18n';

import { blockGapStyle } from './block-gap';
import { getEditorData, markersFeedUrl } from './editor-data';
import { Inspector } from './inspector';
import { MarkerEditor } from './marker-editor';
import { MapPreview } from './preview';
import { TokenPlaceholder, useTokenStatus } from './token-placeholder';
import type { MapBlockAttributes } from './types';

export default function Edit( {
	attributes,
	setAttributes,
}: BlockEditProps< MapBlockAttributes > ) {
	const blockProps = useBlockProps( { style: blockGapStyle( attributes ) } );
	const data = useMemo( getEditorData, [] );
	// Live: a token pasted into any map's placeholder reaches every map on the screen.
	const token = useTokenStatus();
	const [ map, setMap ] = useState< MapboxMap | null >( null );
	const [ adding, setAdding ] = useState( false );
	const [ feedVersion, setFeedVersion ] = useState( 0 );
	const created = useRef( new Set< number >() );
	const { deleteEntityRecord, saveEntityRecord } = useDispatch( coreStore );

	const feed = markersFeedUrl( data.markersUrl, attributes.markers );
	// A fresh URL after each change in the editor, so neither the browser nor a CDN serves old data.
	const markersUrl = feed
		? `${ feed }${ feed.includes( '?' ) ? '&' : '?' }cairn_v=${ feedVersion }`
		: '';
	const refresh = useCallback(
		() => setFeedVersion( ( version ) => version + 1 ),
		[]
	);

	// Undo of "marker added to this map" must not leave an orphan: a marker this editor created
	// that leaves the hand-picked selection goes to the trash, and comes back on redo.
	const { source, ids } = attributes.markers;
	const previousIds = useRef( ids );
	useEffect( () => {
		if ( source !== 'ids' ) {
			previousIds.current = ids;
			return;
		}
		for ( const id of previousIds.current ) {
			if ( created.current.has( id ) && ! ids.includes( id ) ) {
				deleteEntityRecord( 'postType', 'cairn_marker', id, {} ).then(
					refresh
				);
			}
		}
		for ( const id of ids ) {
			if (
				created.current.has( id ) &&
				! previousIds.current.includes( id )
			) {
				saveEntityRecord( 'postType', 'cairn_marker', {
					id,
					status: 'publish',
				} ).then( refresh );
			}
		}
		previousIds.current = ids;
	}, [ source, ids, deleteEntityRecord, saveEntityRecord, refresh ] );

	if ( token.status !== 'ok' ) {
		return (
			<div { ...blockProps }>
				<TokenPlaceholder />
			</div>
		);
	}

	return (
		<div { ...blockProps }>
			<BlockControls>
				<ToolbarGroup>
					<ToolbarButton
						icon="location"
						label={ __( 'Add marker', 'cairn-maps' ) }
						isPressed={ adding }
						disabled={ ! map }
						onClick={ () => setAdding( ! adding ) }
					>
						{ __( 'Add marker', 'cairn-maps' ) }
					</ToolbarButton>
				</ToolbarGroup>
			</BlockControls>
			<Inspector
				attributes={ attributes }
				setAttributes={ setAttributes }
				map={ map }
				accessToken={ token.accessToken }
			/>
			<MapPreview
				attributes={ attributes }
				accessToken={ token.accessToken }
				markersUrl={ markersUrl }
				markerUrl={ data.markerUrl }
				groupStyles={ data.groupStyles }
				onMap={ setMap }
			/>
			<MarkerEditor
				map={ map }
				markers={ attributes.markers }
				setMarkers={ ( markers ) => setAttributes( { markers } ) }
				onChanged={ refresh }
				onCreated={ ( id ) => created.current.add( id ) }
				editUrl={ data.markerEditUrl }
				adding={ adding }
				setAdding={ setAdding }
			/>
		</div>
	);
}
