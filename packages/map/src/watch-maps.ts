/**
 * Finds the server-rendered Cairn maps in a document or part of one and starts each when it nears
 * the viewport, honouring the consent gate. Shared by the plugin's front-end loader and the
 * package's `hydrate()`; free of mapbox-gl and of the runtime, so the loader stays small.
 *
 * With "Load maps only after the visitor agrees" the server renders `data-cairn-consent="required"`
 * and a "Load map" button: nothing is started, and no Mapbox host contacted, before that click. One
 * click is consent for the page: the other maps then start as they come into view.
 *
 * When the site runs the WP Consent API the server also names the consent category the owner chose
 * (`data-cairn-consent-category`), and the visitor's choice in the site's consent banner counts
 * too: the maps start at once when the API already says yes (a cached page with the gate still
 * starts without a click) or as soon as the banner records consent; the button stays as the
 * visitor's way in and records its consent through the API. Consent withdrawn later on the page
 * leaves running maps alone (Mapbox was already contacted; taking the map away would only lose the
 * visitor's place) but maps that have not started yet wait behind their button again.
 *
 * Only maps the server rendered start (isServerRendered()): kses lets an author write a wrapper
 * with the block's class and a `data-cairn-config` of their own (any style host, feed or token,
 * no consent gate) in a Custom HTML block, so the markup alone proves nothing. Each rendered map
 * carries a key made afresh on every render, in `data-cairn-key` and in a
 * `<script type="application/json">` inside the wrapper — a script no author can write. A wrapper
 * without both is left inert: no request, no event.
 */
import {
	CONSENT_CHANGE_EVENT,
	CONSENT_TYPE_EVENT,
	consentCategoryOf,
	consentChangeFor,
	giveConsent,
	hasConsent,
	type ConsentCategory,
} from './consent-api';

const WAITING = '.wp-block-cairn-map[data-cairn-state="loading"]';
const FAILED = '.wp-block-cairn-map[data-cairn-state="error"]';
const CONSENT = '.wp-block-cairn-map__consent';
/** The server's script holding a rendered map's key (plugin/Blocks/Map_Block.php). */
const KEY_SCRIPT = 'wp-block-cairn-map__key';

/**
 * Whether the server rendered this map: its `data-cairn-key` is a key of 32 hex digits and a
 * `<script type="application/json" class="wp-block-cairn-map__key">` among the wrapper's own
 * children holds the same key.
 * @param host A `.wp-block-cairn-map` wrapper.
 */
export function isServerRendered( host: HTMLElement ): boolean {
	const key = host.dataset.cairnKey ?? '';
	if ( ! /^[0-9a-f]{32}$/.test( key ) ) {
		return false;
	}
	for ( const child of Array.from( host.children ) ) {
		if (
			child.localName === 'script' &&
			child.classList.contains( KEY_SCRIPT ) &&
			child.getAttribute( 'type' ) === 'application/json'
		) {
			try {
				return JSON.parse( child.textContent ?? '' ) === key;
			} catch {
				return false;
			}
		}
	}
	return false;
}

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
	/**
	 * Start every map wrapper, not only those the server rendered (isServerRendered()): for HTML
	 * whose every writer you trust, from which a sanitiser removed the key scripts.
	 */
	trustAllMaps?: boolean;
}

/**
 * Errors the server already found (no token, a zoom range the wrong way round) are in the markup;
 * integrators hear of them through the same event the runtime dispatches.
 * @param root
 */
function announceServerErrors(
	root: ParentNode,
	view: Window & typeof globalThis,
	accept: ( host: HTMLElement ) => boolean
): void {
	for ( const host of Array.from(
		root.querySelectorAll< HTMLElement >( FAILED )
	).filter( accept ) ) {
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
	const accept = options.trustAllMaps ? () => true : isServerRendered;
	announceServerErrors( root, view, accept );
	const hosts = Array.from(
		root.querySelectorAll< HTMLElement >( WAITING )
	).filter( accept );
	const releases: Array< () => void > = [];
	const launched = new Set< HTMLElement >();
	const begin = ( host: HTMLElement ) => {
		if ( launched.has( host ) ) {
			return;
		}
		launched.add( host );
		launch( readMap( host ) );
	};
	const observer: IntersectionObserver | null =
		! options.eager && 'IntersectionObserver' in view
			? new view.IntersectionObserver(
					( entries ) => {
						for ( const entry of entries ) {
							if ( entry.isIntersecting ) {
								observer?.unobserve( entry.target );
								begin( entry.target as HTMLElement );
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
		observer ? observer.observe( host ) : begin( host );
	const gated = hosts.filter(
		( host ) => host.dataset.cairnConsent === 'required'
	);
	const waiting = [ ...gated ];
	/** Each gated map's placeholder, kept to put back if consent is withdrawn before it starts. */
	const placeholders = new Map< HTMLElement, Element >();
	const agree = ( clicked?: HTMLElement ) => {
		for ( const host of waiting ) {
			host.dataset.cairnConsent = 'given';
			const placeholder = host.querySelector( CONSENT );
			if ( placeholder ) {
				placeholders.set( host, placeholder );
				placeholder.remove();
			}
			if ( host !== clicked ) {
				watch( host );
			}
		}
		waiting.length = 0;
		if ( ! clicked ) {
			return;
		}
		// The button is gone: keep keyboard users where they were, on the map.
		const region = clicked.querySelector< HTMLElement >(
			'.wp-block-cairn-map__map'
		);
		region?.setAttribute( 'tabindex', '-1' );
		region?.focus();
		begin( clicked );
	};
	const withdraw = () => {
		for ( const host of gated ) {
			if ( launched.has( host ) || waiting.includes( host ) ) {
				continue;
			}
			observer?.unobserve( host );
			host.dataset.cairnConsent = 'required';
			const placeholder = placeholders.get( host );
			if ( placeholder ) {
				host.querySelector( '.wp-block-cairn-map__map' )?.append(
					placeholder
				);
			}
			waiting.push( host );
		}
	};
	// The same category for every map of a page (one site setting); none without the consent API.
	const first = gated[ 0 ];
	const category: ConsentCategory | null = first
		? consentCategoryOf( first )
		: null;
	for ( const host of hosts ) {
		if ( host.dataset.cairnConsent !== 'required' ) {
			watch( host );
			continue;
		}
		const button = host.querySelector( `${ CONSENT } button` );
		if ( button ) {
			const onClick = () => {
				if ( ! waiting.includes( host ) ) {
					return;
				}
				// The click is consent for these maps whatever the consent plugin makes of it…
				agree( host );
				if ( category ) {
					// …and the consent plugin records it: its banner and other plugins hear of it.
					giveConsent( view, category );
				}
			};
			button.addEventListener( 'click', onClick );
			releases.push( () =>
				button.removeEventListener( 'click', onClick )
			);
		}
	}
	if ( category ) {
		const onChange = ( event: Event ) => {
			const change = consentChangeFor( event, category );
			if ( change === 'deny' ) {
				withdraw();
			} else if (
				waiting.length &&
				( change === 'allow' || hasConsent( view, category ) )
			) {
				agree();
			}
		};
		const onTypeDefined = () => {
			if ( waiting.length && hasConsent( view, category ) ) {
				agree();
			}
		};
		doc.addEventListener( CONSENT_CHANGE_EVENT, onChange );
		doc.addEventListener( CONSENT_TYPE_EVENT, onTypeDefined );
		releases.push( () => {
			doc.removeEventListener( CONSENT_CHANGE_EVENT, onChange );
			doc.removeEventListener( CONSENT_TYPE_EVENT, onTypeDefined );
		} );
		// Given on an earlier page (the consent plugin's cookie), or on this one before we ran.
		if ( hasConsent( view, category ) ) {
			agree();
		}
	}
	return () => releases.forEach( ( release ) => release() );
}
