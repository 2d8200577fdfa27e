/**
 * Consent travels in the configuration (`config.consent`, from `GET /cairn/v1/posts/<id>/maps`,
 * the `cairn_maps` field or `data-cairn-config`), and `createMap()` and `<CairnMap>` honour it:
 * with `required` the map shows the theme's "Load map" placeholder and neither loads mapbox-gl nor
 * makes any request before the visitor agrees — by the button, or through the WP Consent API.
 *
 * mapbox-gl is a stand-in module that counts its loads and whose `supported()` says no: the
 * runtime stops with `webgl` right after it used the library, which shows *when* it was used.
 */
import {
	TextDecoder as NodeTextDecoder,
	TextEncoder as NodeTextEncoder,
} from 'node:util';

// jsdom lacks both (the token check decodes; react-dom/server encodes); browsers have them.
if ( typeof globalThis.TextDecoder === 'undefined' ) {
	Object.assign( globalThis, { TextDecoder: NodeTextDecoder } );
}
if ( typeof globalThis.TextEncoder === 'undefined' ) {
	Object.assign( globalThis, { TextEncoder: NodeTextEncoder } );
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

const CONFIG = {
	accessToken: PUBLIC,
	markersUrl: 'https://example.com/wp-json/cairn/v1/markers',
	style: 'mapbox://styles/mapbox/standard',
};

const requests: unknown[] = [];

beforeEach( () => {
	document.body.innerHTML = '';
	requests.length = 0;
	loads.count = 0;
	jest.resetModules();
	// Any request the map would make (its feed, its style) is seen here.
	globalThis.fetch = jest.fn( ( input: unknown ) => {
		requests.push( input );
		return Promise.reject( new TypeError( 'offline' ) );
	} ) as unknown as typeof fetch;
	for ( const name of [
		'wp_has_consent',
		'wp_set_consent',
		'wp_consent_type',
	] ) {
		delete ( window as unknown as Record< string, unknown > )[ name ];
	}
} );

function container() {
	const host = document.createElement( 'div' );
	host.className = 'wp-block-cairn-map';
	const map = document.createElement( 'div' );
	map.className = 'wp-block-cairn-map__map';
	host.append( map );
	document.body.append( host );
	return { host, map };
}

const button = ( host: HTMLElement ) =>
	host.querySelector< HTMLButtonElement >(
		'.wp-block-cairn-map__consent button'
	);

/** One turn of the event loop: every promise callback already due has run. */
const nextTurn = () =>
	new Promise< void >( ( resolve ) => setImmediate( resolve ) );

/**
 * Resolves once the condition holds, turn after turn (jest's timeout bounds it): a wait for
 * something to happen, never for a length of time.
 * @param condition
 */
async function until( condition: () => unknown ): Promise< void > {
	while ( ! condition() ) {
		await nextTurn();
	}
}

/**
 * Commented exception to "wait for conditions": before asserting that something did NOT happen
 * (no load before consent), let a few turns of the event loop pass so that anything the code had
 * already set in motion (the lazy import, the promises after it) has had its chance. Counted
 * turns, not a duration; the positive checks in this file use until().
 */
const settle = async () => {
	for ( let i = 0; i < 5; i++ ) {
		await nextTurn();
	}
};

describe( 'createMap with config.consent', () => {
	it( 'waits behind "Load map": no mapbox-gl, no request before the click', async () => {
		const { createMap } = await import( '../../../packages/map/src/index' );
		const { host, map } = container();
		const cairn = createMap(
			map,
			{ ...CONFIG, consent: { required: true, category: '' } },
			{ host }
		);
		await until( () => button( host ) );
		await settle();
		expect( host.dataset.cairnConsent ).toBe( 'required' );
		expect( host.dataset.cairnState ).toBe( 'loading' );
		expect( button( host )?.textContent ).toBe( 'Load map' );
		expect(
			host.querySelector( '.wp-block-cairn-map__consent-note' )
				?.textContent
		).toContain( 'connects your browser to Mapbox' );
		expect( loads.count ).toBe( 0 );
		expect( requests ).toEqual( [] );
		expect( cairn.map ).toBeNull();

		button( host )?.click();
		await expect( cairn.ready ).rejects.toMatchObject( { code: 'webgl' } );
		expect( loads.count ).toBe( 1 );
		expect( host.dataset.cairnConsent ).toBe( 'given' );
		expect( button( host ) ).toBeNull();
		expect( map.ownerDocument.activeElement ).toBe( map );
	} );

	it( 'starts at once without the requirement, or when the host says consent is given', async () => {
		const { createMap } = await import( '../../../packages/map/src/index' );
		const open = container();
		const free = createMap(
			open.map,
			{ ...CONFIG, consent: { required: false, category: '' } },
			{ host: open.host }
		);
		await expect( free.ready ).rejects.toMatchObject( { code: 'webgl' } );
		expect( button( open.host ) ).toBeNull();

		const agreed = container();
		const given = createMap(
			agreed.map,
			{ ...CONFIG, consent: { required: true, category: '' } },
			{ host: agreed.host, consentGiven: true }
		);
		await expect( given.ready ).rejects.toMatchObject( { code: 'webgl' } );
		expect( button( agreed.host ) ).toBeNull();
		expect( loads.count ).toBe( 1 );
	} );

	it( 'follows the WP Consent API: starts when the banner records consent, and the button records it', async () => {
		const { createMap } = await import( '../../../packages/map/src/index' );
		const given: Record< string, string > = {};
		Object.assign( window, {
			wp_consent_type: 'optin',
			wp_has_consent: ( category: string ) =>
				given[ category ] === 'allow',
			wp_set_consent: ( category: string, value: string ) => {
				given[ category ] = value;
			},
		} );
		const consent = { required: true, category: 'marketing' };
		const first = container();
		const byBanner = createMap(
			first.map,
			{ ...CONFIG, consent },
			{ host: first.host }
		);
		await until( () =>
			first.host.querySelector( '.wp-block-cairn-map__consent-note' )
		);
		expect( first.host.dataset.cairnConsentCategory ).toBe( 'marketing' );
		expect(
			first.host.querySelector( '.wp-block-cairn-map__consent-note' )
				?.textContent
		).toContain( '“Marketing”' );
		expect( loads.count ).toBe( 0 );
		// Another category says nothing about this one.
		document.dispatchEvent(
			new CustomEvent( 'wp_listen_for_consent_change', {
				detail: { statistics: 'allow' },
			} )
		);
		await settle();
		expect( loads.count ).toBe( 0 );
		given.marketing = 'allow';
		document.dispatchEvent(
			new CustomEvent( 'wp_listen_for_consent_change', {
				detail: { marketing: 'allow' },
			} )
		);
		await expect( byBanner.ready ).rejects.toMatchObject( {
			code: 'webgl',
		} );
		expect( first.host.dataset.cairnConsent ).toBe( 'given' );

		// Consent recorded before: the next map starts without a placeholder.
		const second = container();
		const known = createMap(
			second.map,
			{ ...CONFIG, consent },
			{ host: second.host }
		);
		expect( button( second.host ) ).toBeNull();
		await expect( known.ready ).rejects.toMatchObject( { code: 'webgl' } );

		// The button records the visitor's choice through the API.
		delete given.marketing;
		const third = container();
		createMap( third.map, { ...CONFIG, consent }, { host: third.host } );
		await until( () => button( third.host ) );
		button( third.host )?.click();
		expect( given.marketing ).toBe( 'allow' );
	} );

	it( 'a map removed before consent never starts', async () => {
		const { createMap } = await import( '../../../packages/map/src/index' );
		const { host, map } = container();
		const cairn = createMap(
			map,
			{ ...CONFIG, consent: { required: true, category: '' } },
			{ host }
		);
		await until( () => button( host ) );
		const gate = button( host );
		expect( gate ).not.toBeNull();
		cairn.destroy();
		expect( button( host ) ).toBeNull();
		gate?.click();
		await settle();
		expect( loads.count ).toBe( 0 );
	} );
} );

describe( '<CairnMap> with config.consent', () => {
	it( 'shows the placeholder and loads nothing before the click', async () => {
		(
			globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }
		 ).IS_REACT_ACT_ENVIRONMENT = true;
		// After jest.resetModules(): the same React as the component's.
		const { act, createElement } = await import( 'react' );
		const { createRoot } = await import( 'react-dom/client' );
		const { CairnMap } = await import( '../../../packages/map/src/react' );
		const mount = document.createElement( 'div' );
		document.body.append( mount );
		const root = createRoot( mount );
		const errors: string[] = [];
		await act( async () => {
			root.render(
				createElement( CairnMap, {
					config: {
						...CONFIG,
						consent: { required: true, category: '' },
					},
					onError: ( code ) => errors.push( code ),
				} )
			);
		} );
		await act( async () => {
			await until( () =>
				mount.querySelector( '.wp-block-cairn-map__consent button' )
			);
			await settle();
		} );
		const host = mount.querySelector< HTMLElement >(
			'.wp-block-cairn-map'
		);
		expect( host?.dataset.cairnConsent ).toBe( 'required' );
		expect(
			mount.querySelectorAll( '.wp-block-cairn-map__consent' )
		).toHaveLength( 1 );
		expect( loads.count ).toBe( 0 );
		expect( requests ).toEqual( [] );

		await act( async () => {
			button( host as HTMLElement )?.click();
			await until( () => errors.length > 0 );
		} );
		expect( loads.count ).toBe( 1 );
		expect( errors ).toEqual( [ 'webgl' ] );
		expect( host?.dataset.cairnConsent ).toBe( 'given' );
		await act( async () => root.unmount() );
	} );
} );

describe( '<CairnMap> hydrates what the server rendered', () => {
	it( 'keeps the server list through hydration, then starts the map', async () => {
		(
			globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }
		 ).IS_REACT_ACT_ENVIRONMENT = true;
		const { act, createElement } = await import( 'react' );
		const { hydrateRoot } = await import( 'react-dom/client' );
		const { renderToString } = await import( 'react-dom/server' );
		const { CairnMap } = await import( '../../../packages/map/src/react' );
		const element = createElement( CairnMap, {
			config: CONFIG,
			places: {
				items: [ { id: 7, title: 'Hut', lng: 7.25, lat: 46.5 } ],
				total: 1,
				page: 1,
				perPage: 50,
			},
		} );
		const mount = document.createElement( 'div' );
		mount.innerHTML = renderToString( element );
		document.body.append( mount );
		const entry = mount.querySelector( 'li[data-cairn-marker-id="7"]' );
		expect( entry?.textContent ).toBe( 'Hut' );
		const mismatches: unknown[] = [];
		await act( async () => {
			hydrateRoot( mount, element, {
				onRecoverableError: ( error ) => mismatches.push( error ),
			} );
			await settle();
		} );
		await until(
			() =>
				mount.querySelector< HTMLElement >( '.wp-block-cairn-map' )
					?.dataset.cairnState === 'error'
		);
		expect( mismatches ).toEqual( [] );
		// The same node: hydrated, not rendered again; the map started (webgl: jsdom has none).
		expect( mount.querySelector( 'li[data-cairn-marker-id="7"]' ) ).toBe(
			entry
		);
		expect( loads.count ).toBe( 1 );
		expect(
			mount.querySelector< HTMLElement >( '.wp-block-cairn-map' )?.dataset
				.cairnState
		).toBe( 'error' );
	} );
} );
