/**
 * The front-end loader. Small on purpose: it waits until a map block nears the viewport and only
 * then loads mapbox-gl and the runtime (a separate chunk). Blocks rendered in an error state by the
 * server (no token, bad configuration) never load mapbox-gl.
 *
 * With "Load maps only after the visitor agrees" the server renders `data-cairn-consent="required"`
 * and a "Load map" button: nothing is imported, and no Mapbox host contacted, before that click.
 * One click is consent for the page: the other maps on it then load as they come into view.
 */
import { prefetchMarkers } from '../../map/prefetch-markers';

const SELECTOR = '.wp-block-cairn-map[data-cairn-state="loading"]';
const CONSENT = '.wp-block-cairn-map__consent';

function parseConfig( host: HTMLElement ): unknown {
	try {
		return JSON.parse( host.dataset.cairnConfig ?? '' );
	} catch {
		// Reported by the runtime as a configuration error through parseMapConfig's fallbacks.
		return null;
	}
}

async function start( host: HTMLElement ): Promise< void > {
	const container = host.querySelector( '.wp-block-cairn-map__map' );
	const config = parseConfig( host );
	// The feed downloads while mapbox-gl does, instead of after it.
	const markers = prefetchMarkers(
		( config as { markersUrl?: unknown } | null )?.markersUrl
	);
	const release = () => markers.then( ( feed ) => feed?.release() );
	try {
		const { createMap } = await import(
			/* webpackChunkName: "cairn-map-runtime" */ '../../map/create-map'
		);
		// A map that could not start (no WebGL, a bad token) has no use for the feed.
		if ( ! createMap( container, config, { host, markers } ).map ) {
			release();
		}
	} catch ( error ) {
		release();
		throw error;
	}
}

function failToLoad( host: HTMLElement ): void {
	// The runtime chunk itself failed to download: report it without the runtime.
	import( /* webpackChunkName: "cairn-map-runtime" */ '../../map/create-map' )
		.then( ( { showError } ) => showError( host, 'style' ) )
		.catch( () => {
			host.dataset.cairnState = 'error';
		} );
}

/**
 * Errors the server already found (no token, a zoom range the wrong way round) are in the markup;
 * integrators hear of them through the same event the runtime dispatches.
 */
function announceServerErrors(): void {
	const failed = document.querySelectorAll< HTMLElement >(
		'.wp-block-cairn-map[data-cairn-state="error"]'
	);
	for ( const host of failed ) {
		const alert = host.querySelector< HTMLElement >(
			':scope > [role="alert"][data-cairn-error]'
		);
		if ( alert ) {
			host.dispatchEvent(
				new CustomEvent( 'cairn:map-error', {
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

function init(): void {
	announceServerErrors();
	const hosts = Array.from(
		document.querySelectorAll< HTMLElement >( SELECTOR )
	);
	if ( hosts.length === 0 ) {
		return;
	}
	const launch = ( host: HTMLElement ) =>
		start( host ).catch( () => failToLoad( host ) );
	const observer: IntersectionObserver | null =
		'IntersectionObserver' in window
			? new IntersectionObserver(
					( entries ) => {
						for ( const entry of entries ) {
							if ( entry.isIntersecting ) {
								observer?.unobserve( entry.target );
								launch( entry.target as HTMLElement );
							}
						}
					},
					{ rootMargin: '200px 0px' }
				)
			: null;
	const watch = ( host: HTMLElement ) =>
		observer ? observer.observe( host ) : launch( host );
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
		launch( clicked );
	};
	for ( const host of hosts ) {
		if ( host.dataset.cairnConsent === 'required' ) {
			host.querySelector( `${ CONSENT } button` )?.addEventListener(
				'click',
				() => agree( host ),
				{ once: true }
			);
		} else {
			watch( host );
		}
	}
}

if ( document.readyState === 'loading' ) {
	document.addEventListener( 'DOMContentLoaded', init );
} else {
	init();
}
