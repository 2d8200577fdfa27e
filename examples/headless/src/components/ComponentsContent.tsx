/**
 * The "components" way: the page's content without the server-rendered map blocks, and each map of
 * `cairn_maps` drawn by `<CairnMap>` where its block was (the maps and the blocks come in the same
 * document order). A map without a place in the content (there should be none) follows it.
 */
import { Fragment, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { CairnMap } from '@cairn-maps/map/react';
import type { PostMap } from '@cairn-maps/map';

import { sanitizeContent } from '../sanitize';

const MAP_BLOCK = '.wp-block-cairn-map';
const SLOT = 'data-headless-map-slot';

/**
 * The content with each map block replaced by an empty slot, sanitised. Parsed in an inert
 * DOMParser document (nothing in it runs or loads while it is rewritten), and sanitised last, so
 * that the string inserted is the one DOMPurify returned.
 *
 * @param html `content.rendered`.
 */
function withMapSlots( html: string ): string {
	const doc = new DOMParser().parseFromString( html, 'text/html' );
	let count = 0;
	for ( const block of doc.body.querySelectorAll( MAP_BLOCK ) ) {
		// A map block inside another one (none today) goes with it.
		if ( ! block.parentElement?.closest( MAP_BLOCK ) ) {
			const slot = doc.createElement( 'div' );
			slot.setAttribute( SLOT, String( count++ ) );
			block.replaceWith( slot );
		}
	}
	return sanitizeContent( doc.body.innerHTML );
}

export interface ComponentsContentProps {
	/** `content.rendered`. */
	html: string;
	maps: PostMap[];
	/** An access token to use instead of the site's. */
	accessToken?: string;
}

export function ComponentsContent( {
	html,
	maps,
	accessToken,
}: ComponentsContentProps ) {
	const content = useMemo( () => withMapSlots( html ), [ html ] );
	const contentRef = useRef< HTMLDivElement >( null );
	// The slots exist once the content is in the document; the maps wait for them, so that
	// none is started in one place and moved to another.
	const [ slots, setSlots ] = useState< HTMLElement[] | null >( null );
	useLayoutEffect( () => {
		setSlots(
			Array.from(
				contentRef.current?.querySelectorAll< HTMLElement >(
					`[${ SLOT }]`
				) ?? []
			)
		);
	}, [ content ] );

	return (
		<>
			{ /* The site's HTML without anything that runs (sanitize.ts), map slots in place of
			the map blocks. Never text typed here. */ }
			<div
				ref={ contentRef }
				className="entry-content"
				dangerouslySetInnerHTML={ { __html: content } }
			/>
			{ slots &&
				maps.map( ( map, index ) => {
					const element = (
						<CairnMap
							config={ map.config }
							places={ map.places }
							error={ map.error }
							accessToken={ accessToken }
						/>
					);
					const key = `${ index }:${ map.id }`;
					const slot = slots[ index ];
					return slot ? (
						createPortal( element, slot, key )
					) : (
						<Fragment key={ key }>{ element }</Fragment>
					);
				} ) }
		</>
	);
}
