/**
 * The addresses the editor's preview reads its places from, and the legend of the posts' terms:
 * fresh after every change made in the editor, so neither the browser nor a CDN serves old data.
 */
import { store as coreStore } from '@wordpress/core-data';
import { useSelect } from '@wordpress/data';
import { useCallback, useMemo, useState } from '@wordpress/element';

import { parseContentSelection, shapesFeedUrl } from '@cairn-maps/map/plugin';
import type { GroupStyle } from '@cairn-maps/map';
import {
	markersFeedUrl,
	postsFeedUrl,
	termStyle,
	type EditorData,
} from './editor-data';
import type { MapBlockAttributes } from './types';

/** Block context (block.json `usesContext`): the post a map's "this post" shows. */
export interface MapContext {
	postId?: number;
	postType?: string;
}

export interface PreviewFeeds {
	/** The markers feed ('' for none). */
	markersUrl: string;
	/** The posts feed ('' for none). */
	postsUrl: string;
	/** The shapes feed of the block's markers ('' for none). */
	shapesUrl: string;
	/** The site's group looks, then the legend of the posts' terms. */
	groupStyles: GroupStyle[];
	/** Reads both feeds again (after a marker was saved). */
	refresh: () => void;
	/** Reads the shapes again (after a shape was saved or its marker trashed). */
	refreshShapes: () => void;
}

/**
 * The legend of the posts' terms, as the server makes it: the named terms, else the most used
 * terms of the chosen types' hierarchical taxonomies. Read as one string, so an unchanged store
 * gives an unchanged value.
 * @param content The block's `content`, parsed.
 * @param data    The editor data (the post types and their taxonomies).
 */
function useTermRecords(
	content: ReturnType< typeof parseContentSelection >,
	data: EditorData
): string {
	const contentKey = JSON.stringify( content );
	return useSelect(
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
}

export function usePreviewFeeds(
	attributes: MapBlockAttributes,
	context: MapContext | undefined,
	data: EditorData
): PreviewFeeds {
	const [ feedVersion, setFeedVersion ] = useState( 0 );
	const refresh = useCallback(
		() => setFeedVersion( ( version ) => version + 1 ),
		[]
	);

	// Shapes change less often than points: their own version, so a moved point does not
	// reload them (the preview rebuilds its map for new shapes).
	const [ shapesVersion, setShapesVersion ] = useState( 0 );
	const refreshShapes = useCallback(
		() => setShapesVersion( ( version ) => version + 1 ),
		[]
	);
	const shapes = data.shapesUrl
		? shapesFeedUrl( data.shapesUrl, attributes.markers )
		: '';
	const shapesUrl = shapes
		? `${ shapes }${ shapes.includes( '?' ) ? '&' : '?' }cairn_v=${ shapesVersion }`
		: '';

	const feed = markersFeedUrl( data.markersUrl, attributes.markers );
	const markersUrl = feed
		? `${ feed }${ feed.includes( '?' ) ? '&' : '?' }cairn_v=${ feedVersion }`
		: '';

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
	const termRecords = useTermRecords( content, data );
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

	return {
		markersUrl,
		postsUrl,
		shapesUrl,
		groupStyles,
		refresh,
		refreshShapes,
	};
}
