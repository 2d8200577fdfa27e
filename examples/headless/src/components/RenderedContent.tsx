/**
 * The "html" way: the page's `content.rendered` as it is, its map blocks started by the package's
 * `hydrate()` exactly as the theme page starts them (as they near the viewport, after consent when
 * the site asks for it; the list of places becomes buttons that open popups).
 */
import { useEffect, useMemo, useRef } from 'react';
import { hydrate } from '@cairn-maps/map';

import { sanitizeContent } from '../sanitize';

export interface RenderedContentProps {
	/** `content.rendered`. */
	html: string;
	/** An access token to use instead of the site's. */
	accessToken?: string;
}

/**
 * Give it a `key` that changes with `html` and `accessToken`: the runtime marks a started map
 * `ready`, and `hydrate()` only starts maps still `loading`, so a change needs fresh markup.
 */
export function RenderedContent( { html, accessToken }: RenderedContentProps ) {
	const ref = useRef< HTMLDivElement >( null );
	const content = useMemo( () => sanitizeContent( html ), [ html ] );
	useEffect( () => {
		const root = ref.current;
		// The returned cleanup stops watching and removes the maps (unmount, Strict Mode's rerun).
		return root ? hydrate( root, { accessToken } ) : undefined;
	}, [ content, accessToken ] );

	return (
		// The site's HTML without anything that runs (sanitize.ts); the map blocks' markup and
		// data attributes stay for hydrate(). Never text typed here.
		<div
			ref={ ref }
			className="entry-content"
			dangerouslySetInnerHTML={ { __html: content } }
		/>
	);
}
