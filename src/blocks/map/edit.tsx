/**
 * The map block in the editor: a live preview through the shared runtime, the settings sidebar,
 * and markers placed on the map.
 */
import type { Map as MapboxMap } from 'mapbox-gl';
import { BlockControls, useBlockProps } from '@wordpress/block-editor';
import type { BlockEditProps } from '@wordpress/blocks';
import { ToolbarButton, ToolbarGroup } from '@wordpress/components';
import { store as coreStore } from '@wordpress/core-data';
import { useDispatch, useSelect } from '@wordpress/data';
import {
	useCallback,
	useEffect,
	useMemo,
	useRef,
	useState,
} from '@wordpress/element';
import { __ } from '@wordpress/i18n';
import { parseContentSelection } from '@cairn-maps/map/plugin';

import {
	getEditorData,
	markersFeedUrl,
	postsFeedUrl,
	termStyle,
} from './editor-data';
import { blockGapStyle } from './block-gap';
import { Inspector } from './inspector';
import { MarkerEditor } from './marker-editor';
import { MapPreview } from './preview';
import { TokenPlaceholder, useTokenStatus } from './token-placeholder';
import type { MapBlockAttributes } from './types';

/** Block context (block.json `usesContext`): the post a map's "this post" shows. */
interface MapContext {
	postId?: number;
	postType?: string;
}

export default function Edit( {
	attributes,
	setAttributes,
	context,
}: BlockEditProps< MapBlockAttributes > & { context?: MapContext } ) {
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

	// The posts feed is read again when the post being edited is saved (its place may have
	// changed): the saved modification time is part of its address.
	const postId = context?.postId;
	const postType = context?.postType;
	const saved = useSelect(
		( select ) =>
			postId && postType
				? ( (
						select( coreStore ).getEntityRecord(
							'postType',
							postType,
							postId
						) as { modified?: string } | undefined
					 )?.modified ?? '' )
				: '',
		[ postId, postType ]
	);
	// A hand-written block may hold a partial `content`: read it through the one parser.
	const content = parseContentSelection( attributes.content );
	const contentKey = JSON.stringify( content );
	// The legend of the posts' terms, as the server makes it: the named terms, else the most used
	// terms of the chosen types' hierarchical taxonomies. Read as one string, so an unchanged
	// store gives an unchanged value.
	const termRecords = useSelect(
		( select ) => {
			const { postTypes, terms, current } = JSON.parse(
				contentKey
			) as typeof content;
			if ( current ) {
				return '[]';
			}
			const store = select( coreStore );
			const named = Object.entries( terms );
			const queries: Array< [ string, Record< string, unknown > ] > =
				named.length
					? named.map( ( [ taxonomy, slugs ] ) => [
							taxonomy,
							{ slug: slugs, per_page: 100 },
						] )
					: [
							...new Set(
								data.postTypes
									.filter( ( type ) =>
										postTypes.includes( type.name )
									)
									.flatMap( ( type ) => type.taxonomies )
									.filter(
										( taxonomy ) => taxonomy.hierarchical
									)
									.map( ( taxonomy ) => taxonomy.name )
							),
						].map( ( taxonomy ) => [
							taxonomy,
							{
								per_page: 20,
								orderby: 'count',
								order: 'desc',
								hide_empty: true,
							},
						] );
			return JSON.stringify(
				queries.map( ( [ taxonomy, query ] ) => [
					taxonomy,
					store.getEntityRecords( 'taxonomy', taxonomy, {
						...query,
						_fields: 'id,slug,name',
					} ) ?? [],
				] )
			);
		},
		[ contentKey, data ]
	);
	const groupStyles = useMemo( () => {
		const records = JSON.parse( termRecords ) as Array<
			[ string, Array< { slug: string; name: string } > ]
		>;
		const parser = new window.DOMParser();
		return [
			...data.groupStyles,
			...records.flatMap( ( [ taxonomy, terms ] ) =>
				terms.map( ( term ) =>
					termStyle(
						taxonomy,
						term.slug,
						// Names come as HTML entities from REST.
						parser.parseFromString( term.name, 'text/html' ).body
							.textContent ?? ''
					)
				)
			),
		];
	}, [ termRecords, data ] );
	const posts = postsFeedUrl( data.markersUrl, content, {
		postId,
		postType,
	} );
	const postsUrl = posts
		? `${ posts }&cairn_v=${ feedVersion }-${ encodeURIComponent( saved ) }`
		: '';

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
				hasPostContext={ Boolean( postId ) }
			/>
			<MapPreview
				attributes={ attributes }
				accessToken={ token.accessToken }
				markersUrl={ markersUrl }
				postsUrl={ postsUrl }
				markerUrl={ data.markerUrl }
				groupStyles={ groupStyles }
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
