/**
 * Starts the Cairn maps found in server-rendered HTML — a post's `content.rendered` placed in a
 * headless page — exactly as the WordPress theme page does: each map when it nears the viewport,
 * after the visitor's consent when the site asks for it, with the marker list as its keyboard way in.
 *
 * What it trusts: like the theme page, only the maps the server rendered (each carries a fresh key
 * in `data-cairn-key` and in a `<script type="application/json">` inside it, which no author can
 * write); a look-alike wrapper an author wrote in a Custom HTML block stays inert. A sanitiser that
 * removes those scripts leaves no map to start: keep them, or pass `trustAllMaps` for HTML whose
 * every writer you trust (maps from `fetchPostMaps()` and `<CairnMap>` need neither).
 */
import { createMap } from './start';
import type { CairnMap } from './create-map';
import type { MapLibSource } from './types';
import { watchMaps } from './watch-maps';

export interface HydrateOptions {
	/** The map library, or a promise of it; by default the config's engine's is imported when a map starts. */
	mapLib?: MapLibSource;
	/** An access token to use instead of the site's (tokens are often restricted to one domain). */
	accessToken?: string;
	/** Start every map at once rather than when it nears the viewport. */
	eager?: boolean;
	/**
	 * Start every map wrapper in `root`, not only those the server rendered: only for HTML whose
	 * every writer you trust (a look-alike wrapper can name any style host, feed and token, and
	 * skip the consent gate).
	 */
	trustAllMaps?: boolean;
	/** Told of each map as it starts. */
	onMap?: ( map: CairnMap, host: HTMLElement ) => void;
}

/**
 * Starts every Cairn map under `root`.
 *
 * @param root    The element holding the rendered HTML, or a document.
 * @param options Map library, access token, when to start.
 * @return A function that stops watching and removes the maps it started.
 */
export function hydrate(
	root: ParentNode & Node,
	options: HydrateOptions = {}
): () => void {
	const started: Array< { map: CairnMap; host: HTMLElement } > = [];
	const stopWatching = watchMaps(
		root,
		( { host, container, config } ) => {
			const map = createMap( container, config, {
				host,
				mapLib: options.mapLib,
				accessToken: options.accessToken,
				// watchMaps started it after the consent the server's markup asks for.
				consentGiven: true,
			} );
			started.push( { map, host } );
			options.onMap?.( map, host );
		},
		{ eager: options.eager, trustAllMaps: options.trustAllMaps }
	);
	return () => {
		stopWatching();
		// Back to what the server rendered, so the same markup can be hydrated again.
		for ( const { map, host } of started.splice( 0 ) ) {
			map.destroy();
			host.dataset.cairnState = 'loading';
		}
	};
}
