/**
 * The package's runtime as an app uses it: mapbox-gl arrives late (a promise, or the package's own
 * lazy import) or never, a headless app swaps in its own token, and `hydrate()` starts the maps of
 * server-rendered HTML the way the theme's loader does (consent included).
 *
 * The map library here is a stand-in whose `supported()` says no: the runtime then stops with
 * `webgl` right after it used the library, which shows *when* the library was used without a
 * WebGL map (jsdom has none; the e2e specs run the real one).
 */
import { TextDecoder as NodeTextDecoder } from 'node:util';

import type { MapLib } from '../../../packages/map/src/types';

if ( typeof globalThis.TextDecoder === 'undefined' ) {
	Object.assign( globalThis, { TextDecoder: NodeTextDecoder } );
}

const loads = { count: 0 };
jest.mock( 'mapbox-gl', () => {
	( globalThis as unknown as { mapboxLoads: typeof loads } ).mapboxLoads
		.count++;
	return { __esModule: true, default: { supported: () => false } };
} );
( globalThis as unknown as { mapboxLoads: typeof loads } ).mapboxLoads = loads;

const PUBLIC = `pk.${ Buffer.from(
	JSON.stringify( { u: 'cairn-test', a: 'x' } )
).toString( 'base64url' ) }.sig`;
const SECRET = 'sk.eyJ1IjoiYSJ9.sig';

function unsupported(): { lib: MapLib; calls: () => number } {
	let calls = 0;
	const lib = {
		supported: () => {
			calls++;
			return false;
		},
	} as unknown as MapLib;
	return { lib, calls: () => calls };
}

/** A map as the server renders it: its key in `data-cairn-key` and in the script inside it. */
let keys = 0;
function serverKey( host: HTMLElement ): string {
	const key = ( ++keys ).toString( 16 ).padStart( 32, '0' );
	host.dataset.cairnKey = key;
	return `<script type="application/json" class="wp-block-cairn-map__key">"${ key }"</script>`;
}

function block( config: Record< string, unknown > = {}, consent = false ) {
	const host = document.createElement( 'div' );
	host.className = 'wp-block-cairn-map';
	host.dataset.cairnState = 'loading';
	host.dataset.cairnConfig = JSON.stringify( {
		accessToken: PUBLIC,
		...config,
	} );
	if ( consent ) {
		host.dataset.cairnConsent = 'required';
	}
	host.innerHTML =
		serverKey( host ) +
		'<div class="wp-block-cairn-map__map">' +
		( consent
			? '<div class="wp-block-cairn-map__consent"><button type="button">Load map</button></div>'
			: '' ) +
		'</div><div class="wp-block-cairn-map__markers"></div>';
	document.body.appendChild( host );
	return host;
}

const alertOf = ( host: HTMLElement ) =>
	host.querySelector< HTMLElement >( '[role="alert"]' )?.dataset.cairnError ??
	null;

beforeEach( () => {
	document.body.innerHTML = '';
} );

describe( 'createMap with a map library that is not there yet', () => {
	it( 'waits for a promised library, then uses it', async () => {
		const { createMap } = await import( '../../../packages/map/src/start' );
		const host = block();
		const { lib, calls } = unsupported();
		let arrive: ( value: MapLib ) => void = () => undefined;
		const pending = new Promise< MapLib >( ( resolve ) => {
			arrive = resolve;
		} );
		const cairn = createMap(
			host.querySelector( '.wp-block-cairn-map__map' ),
			JSON.parse( host.dataset.cairnConfig ?? '' ),
			{ host, mapLib: pending }
		);
		expect( host.dataset.cairnState ).toBe( 'loading' );
		expect( cairn.map ).toBeNull();
		expect( calls() ).toBe( 0 );
		arrive( lib );
		await expect( cairn.ready ).rejects.toMatchObject( { code: 'webgl' } );
		expect( calls() ).toBe( 1 );
		expect( alertOf( host ) ).toBe( 'webgl' );
	} );

	it( 'accepts a module namespace ({ default })', async () => {
		const { createMap } = await import( '../../../packages/map/src/start' );
		const host = block();
		const { lib, calls } = unsupported();
		const cairn = createMap(
			host.querySelector( '.wp-block-cairn-map__map' ),
			{ accessToken: PUBLIC },
			{ host, mapLib: Promise.resolve( { default: lib } ) }
		);
		await expect( cairn.ready ).rejects.toMatchObject( { code: 'webgl' } );
		expect( calls() ).toBe( 1 );
	} );

	it( 'shows the style error when the library cannot be downloaded', async () => {
		const { createMap } = await import( '../../../packages/map/src/start' );
		const host = block();
		const errors: string[] = [];
		host.addEventListener( 'cairn:map-error', ( event ) =>
			errors.push( ( event as CustomEvent ).detail.code )
		);
		const cairn = createMap(
			host.querySelector( '.wp-block-cairn-map__map' ),
			{ accessToken: PUBLIC },
			{
				host,
				mapLib: Promise.reject( new TypeError( 'Failed to fetch' ) ),
			}
		);
		await expect( cairn.ready ).rejects.toMatchObject( { code: 'style' } );
		expect( host.dataset.cairnState ).toBe( 'error' );
		expect( alertOf( host ) ).toBe( 'style' );
		expect( host.querySelector( '[role="alert"]' )?.textContent ).toBe(
			'The map could not be loaded. Please try again later.'
		);
		expect( errors ).toEqual( [ 'style' ] );
	} );

	it( 'never starts a map destroyed before its library arrived', async () => {
		const { createMap } = await import( '../../../packages/map/src/start' );
		const host = block();
		const { lib, calls } = unsupported();
		const cairn = createMap(
			host.querySelector( '.wp-block-cairn-map__map' ),
			{ accessToken: PUBLIC },
			{ host, mapLib: Promise.resolve( lib ) }
		);
		cairn.destroy();
		await expect( cairn.ready ).rejects.toThrow();
		expect( calls() ).toBe( 0 );
		expect( alertOf( host ) ).toBeNull();
	} );

	it( 'imports mapbox-gl only when the first map needs it', async () => {
		const before = loads.count;
		const entry = await import( '../../../packages/map/src/index' );
		expect( loads.count ).toBe( before );
		const host = block();
		const cairn = entry.createMap(
			host.querySelector( '.wp-block-cairn-map__map' ),
			{ accessToken: PUBLIC },
			{ host }
		);
		await expect( cairn.ready ).rejects.toMatchObject( { code: 'webgl' } );
		expect( loads.count ).toBe( before + 1 );
	} );
} );

describe( 'the access token a headless app passes', () => {
	it.each( [
		[
			'replaces a site token the app may not use',
			SECRET,
			PUBLIC,
			'webgl',
		],
		[
			'is checked like any other (no secret tokens)',
			PUBLIC,
			SECRET,
			'secret-token',
		],
		[ 'fills in a missing one', '', PUBLIC, 'webgl' ],
	] )( '%s', async ( _label, siteToken, appToken, code ) => {
		const { createMap } = await import( '../../../packages/map/src/start' );
		const host = block();
		const cairn = createMap(
			host.querySelector( '.wp-block-cairn-map__map' ),
			{ accessToken: siteToken },
			{ host, mapLib: unsupported().lib, accessToken: appToken }
		);
		await expect( cairn.ready ).rejects.toMatchObject( { code } );
		expect( alertOf( host ) ).toBe( code );
	} );
} );

describe( 'hydrate', () => {
	it( 'starts the rendered maps, and a consent-gated one only after the click', async () => {
		const { hydrate } = await import( '../../../packages/map/src/hydrate' );
		const open = block();
		const gated = block( {}, true );
		const { lib, calls } = unsupported();
		const started: HTMLElement[] = [];
		const stop = hydrate( document, {
			mapLib: lib,
			eager: true,
			onMap: ( _map, host ) => started.push( host ),
		} );
		expect( started ).toEqual( [ open ] );
		expect( alertOf( open ) ).toBe( 'webgl' );
		expect( alertOf( gated ) ).toBeNull();
		expect( calls() ).toBe( 1 );

		gated.querySelector( 'button' )?.click();
		expect( started ).toEqual( [ open, gated ] );
		expect( gated.dataset.cairnConsent ).toBe( 'given' );
		expect(
			gated.querySelector( '.wp-block-cairn-map__consent' )
		).toBeNull();
		expect( alertOf( gated ) ).toBe( 'webgl' );
		stop();
		// The markup is as the server rendered it again: hydrating it once more starts both maps.
		expect( [ open.dataset.cairnState, gated.dataset.cairnState ] ).toEqual(
			[ 'loading', 'loading' ]
		);
		started.length = 0;
		hydrate( document, {
			mapLib: lib,
			eager: true,
			onMap: ( _map, host ) => started.push( host ),
		} );
		expect( started ).toEqual( [ open, gated ] );
	} );

	it( 'uses the app token over the rendered one', async () => {
		const { hydrate } = await import( '../../../packages/map/src/hydrate' );
		const host = block( { accessToken: SECRET } );
		hydrate( document.body, {
			mapLib: unsupported().lib,
			eager: true,
			accessToken: PUBLIC,
		} );
		expect( alertOf( host ) ).toBe( 'webgl' );
	} );

	it( 'reports errors the server rendered through cairn:map-error', async () => {
		const { hydrate } = await import( '../../../packages/map/src/hydrate' );
		const host = block();
		host.dataset.cairnState = 'error';
		host.insertAdjacentHTML(
			'afterbegin',
			'<div role="alert" data-cairn-error="missing-token">No token.</div>'
		);
		const codes: string[] = [];
		document.addEventListener( 'cairn:map-error', ( event ) =>
			codes.push( ( event as CustomEvent ).detail.code )
		);
		hydrate( document, { mapLib: unsupported().lib, eager: true } );
		expect( codes ).toEqual( [ 'missing-token' ] );
	} );

	it.each( [
		[
			'no key',
			( host: HTMLElement ) => host.querySelector( 'script' )?.remove(),
		],
		[
			'a key the script does not hold',
			( host: HTMLElement ) => {
				host.dataset.cairnKey = 'f'.repeat( 32 );
			},
		],
		[
			'the key in an element an author can write',
			( host: HTMLElement ) => {
				const script = host.querySelector( 'script' ) as HTMLElement;
				const div = document.createElement( 'div' );
				div.className = script.className;
				div.setAttribute( 'type', 'application/json' );
				div.textContent = script.textContent;
				script.replaceWith( div );
			},
		],
		[
			'the script of a real map inside it, not its own',
			( host: HTMLElement ) => {
				const inner = block();
				const script = host.querySelector( 'script' ) as HTMLElement;
				script.remove();
				host.dataset.cairnKey = inner.dataset.cairnKey;
				host.appendChild( inner );
				inner.dataset.cairnState = 'ready';
			},
		],
		[
			"no key at all, an author's plain wrapper",
			( host: HTMLElement ) => {
				host.querySelector( 'script' )?.remove();
				delete host.dataset.cairnKey;
			},
		],
	] )(
		'leaves a look-alike wrapper inert (%s): no library, no event, still loading',
		async ( _case, forge ) => {
			const { hydrate } =
				await import( '../../../packages/map/src/hydrate' );
			const real = block();
			const fake = block( {
				mapStyle: 'https://evil.example/style.json',
			} );
			forge( fake );
			const { lib, calls } = unsupported();
			const started: HTMLElement[] = [];
			const events: string[] = [];
			fake.addEventListener( 'cairn:map-error', () =>
				events.push( 'error' )
			);
			hydrate( document, {
				mapLib: lib,
				eager: true,
				onMap: ( _map, host ) => started.push( host ),
			} );
			expect( started ).toEqual( [ real ] );
			expect( calls() ).toBe( 1 );
			expect( fake.dataset.cairnState ).toBe( 'loading' );
			expect( alertOf( fake ) ).toBeNull();
			expect( events ).toEqual( [] );
		}
	);

	it( 'starts every wrapper with trustAllMaps (HTML whose writers the app trusts)', async () => {
		const { hydrate } = await import( '../../../packages/map/src/hydrate' );
		const real = block();
		const sanitised = block();
		sanitised.querySelector( 'script' )?.remove();
		const started: HTMLElement[] = [];
		hydrate( document, {
			mapLib: unsupported().lib,
			eager: true,
			trustAllMaps: true,
			onMap: ( _map, host ) => started.push( host ),
		} );
		expect( started ).toEqual( [ real, sanitised ] );
	} );

	it( 'waits for the map to near the viewport unless told not to', async () => {
		const { hydrate } = await import( '../../../packages/map/src/hydrate' );
		const observed: Element[] = [];
		class FakeObserver {
			observe( element: Element ) {
				observed.push( element );
			}
			unobserve() {}
			disconnect() {}
		}
		Object.assign( window, { IntersectionObserver: FakeObserver } );
		const host = block();
		const { lib, calls } = unsupported();
		hydrate( document, { mapLib: lib } );
		expect( observed ).toEqual( [ host ] );
		expect( calls() ).toBe( 0 );
		delete ( window as Partial< typeof window > ).IntersectionObserver;
	} );
} );
