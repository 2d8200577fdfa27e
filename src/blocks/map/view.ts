/**
 * The front-end loader. Small on purpose: it waits until a map block nears the viewport and only
 * then loads mapbox-gl and the runtime (a separate chunk). Blocks rendered in an error state by the
 * server (no token, bad configuration) never load mapbox-gl.
 */
const SELECTOR = '.wp-block-cairn-map[data-cairn-state="loading"]';

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
	const { createMap } = await import(
		/* webpackChunkName: "cairn-map-runtime" */ '../../map/create-map'
	);
	createMap( container, parseConfig( host ), { host } );
}

function failToLoad( host: HTMLElement ): void {
	// The runtime chunk itself failed to download: report it without the runtime.
	import( /* webpackChunkName: "cairn-map-runtime" */ '../../map/create-map' )
		.then( ( { showError } ) => showError( host, 'style' ) )
		.catch( () => {
			host.dataset.cairnState = 'error';
		} );
}

function init(): void {
	const hosts = Array.from(
		document.querySelectorAll< HTMLElement >( SELECTOR )
	);
	if ( hosts.length === 0 ) {
		return;
	}
	const launch = ( host: HTMLElement ) =>
		start( host ).catch( () => failToLoad( host ) );
	if ( ! ( 'IntersectionObserver' in window ) ) {
		hosts.forEach( launch );
		return;
	}
	const observer = new IntersectionObserver(
		( entries ) => {
			for ( const entry of entries ) {
				if ( entry.isIntersecting ) {
					observer.unobserve( entry.target );
					launch( entry.target as HTMLElement );
				}
			}
		},
		{ rootMargin: '200px 0px' }
	);
	hosts.forEach( ( host ) => observer.observe( host ) );
}

if ( document.readyState === 'loading' ) {
	document.addEventListener( 'DOMContentLoaded', init );
} else {
	init();
}
