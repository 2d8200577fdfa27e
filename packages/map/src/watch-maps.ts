/**
 * Finds the server-rendered Cairn maps in a document or part of one and starts each when it nears
 * the viewport, honouring the consent gate. Shared by the plugin's front-end loader and the
 * package's `hydrate()`; free of mapbox-gl and of the runtime, so the loader stays small.
 *
 * With "Load maps only after the visitor agrees" the server renders `data-cairn-consent="required"`
 * and a "Load map" button: nothing is started, and no Mapbox host contacted, before that click. One
 * click is consent for the page: the other maps then start as they come into view.
 */

const WAITING = '.wp-block-cairn-map[data-cairn-state="loading"]';
const FAILED = '.wp-block-cairn-map[data-cairn-state="error"]';
const CONSENT = '.wp-block-cairn-map__consent';

/** A server-rendered map, ready to start: its wrapper, the element to draw in, its configuration. */
export interface RenderedMap {
	host: HTMLElement;
	/** `.wp-block-cairn-map__map`, or null (the runtime then reports `bad-container`). */
	container: Element | null;
	/** `data-cairn-config` decoded, or null when it is not JSON (the runtime's checks report it). */
	config: unknown;
}

function readMap( host: HTMLElement ): RenderedMap {
	let config: unknown = null;
	try {
		config = JSON.parse( host.dataset.cairnConfig ?? '' );
	} catch {
		// Left to parseMapConfig's fallbacks and the token check, which say what is missing.
	}
	return {
		host,
		container: host.querySelector( '.wp-block-cairn-map__map' ),
		config,
	};
}

export interface WatchMapsOptions {
	/** Start every map at once rather than when it nears the viewport. */
	eager?: boolean;
}

/**
 * Errors the server already found (no token, a zoom range the wrong way round) are in the markup;
 * integrators hear of them through the same event the runtime dispatches.
 * @param root
 */
function announceServerErrors(
	root: ParentNode,
	view: Window & typeof globalThis
): void {
	for ( const host of root.querySelectorAll< HTMLElement >( FAILED ) ) {
		const alert = host.querySelector< HTMLElement >(
			':scope > [role="alert"][data-cairn-error]'
		);
		if ( alert ) {
			host.dispatchEvent(
				new view.CustomEvent( 'cairn:map-error', {
					bubbles: true,
					detail: {
						code: alert.dataset.cairnError,
						message: alert.textContent ?? '',
					},
				} )
			);
		}
	}
}

/**
 * Watches the maps under `root` and calls `launch` once for each when it should start.
 *
 * @param root    A document or an element holding server-rendered blocks.
 * @param launch  Starts one map.
 * @param options Options.
 * @return A function that stops watching (maps already started are the caller's to destroy).
 */
export function watchMaps(
	root: ParentNode & Node,
	launch: ( map: RenderedMap ) => void,
	options: WatchMapsOptions = {}
): () => void {
	const doc = root.ownerDocument ?? ( root as Document );
	const view = doc.defaultView;
	if ( ! view ) {
		return () => undefined;
	}
	announceServerErrors( root, view );
	const hosts = Array.from( root.querySelectorAll< HTMLElement >( WAITING ) );
	const releases: Array< () => void > = [];
	const observer: IntersectionObserver | null =
		! options.eager && 'IntersectionObserver' in view
			? new view.IntersectionObserver(
					( entries ) => {
						for ( const entry of entries ) {
							if ( entry.isIntersecting ) {
								observer?.unobserve( entry.target );
								launch(
									readMap( entry.target as HTMLElement )
								);
							}
						}
					},
					{ rootMargin: '200px 0px' }
				)
			: null;
	if ( observer ) {
		releases.push( () => observer.disconnect() );
	}
	const watch = ( host: HTMLElement ) =>
		observer ? observer.observe( host ) : launch( readMap( host ) );
	const waiting = hosts.filter(
		( host ) => host.dataset.cairnConsent === 'required'
	);
	const agree = ( clicked: HTMLElement ) => {
		for ( const host of waiting ) {
			host.dataset.cairnConsent = 'given';
			host.querySelector( CONSENT )?.remove();
			if ( host !== clicked ) {
				watch( host );
			}
		}
		waiting.length = 0;
		// The button is gone: keep keyboard users where they were, on the map.
		const region = clicked.querySelector< HTMLElement >(
			'.wp-block-cairn-map__map'
		);
		region?.setAttribute( 'tabindex', '-1' );
		region?.focus();
		launch( readMap( clicked ) );
	};
	for ( const host of hosts ) {
		if ( host.dataset.cairnConsent !== 'required' ) {
			watch( host );
			continue;
		}
		const button = host.querySelector( `${ CONSENT } button` );
		if ( button ) {
			const onClick = () => {
				if ( waiting.includes( host ) ) {
					agree( host );
				}
			};
			button.addEventListener( 'click', onClick, { once: true } );
			releases.push( () =>
				button.removeEventListener( 'click', onClick )
			);
		}
	}
	return () => releases.forEach( ( release ) => release() );
}
