/**
 * The consent gate with the WP Consent API on the page (packages/map/src/watch-maps.ts): the maps
 * follow the visitor's choice for the owner's category, the button stays and records the choice,
 * and an API that is missing or half there never costs the visitor the button.
 *
 * The API here is a stand-in of its documented browser surface (`wp_has_consent`,
 * `wp_set_consent`, `wp_consent_type`, the `wp_listen_for_consent_change` event); the e2e spec
 * runs a stand-in plugin in a real browser.
 */
import { watchMaps } from '../../../packages/map/src/watch-maps';

type Choice = 'allow' | 'deny';

interface ApiWindow {
	wp_has_consent?: unknown;
	wp_set_consent?: unknown;
	wp_consent_type?: unknown;
	IntersectionObserver?: unknown;
}

const api = window as unknown as ApiWindow;

/** A stand-in of the API's browser functions, keeping choices in memory instead of cookies. */
function installApi( choices: Record< string, Choice > = {}, type = 'optin' ) {
	const calls: Array< [ string, string ] > = [];
	api.wp_consent_type = type;
	// As the API answers: yes without a consent type; opt-out regions until refused; else only
	// after an explicit allow.
	api.wp_has_consent = ( category: string ) =>
		! api.wp_consent_type ||
		choices[ category ] === 'allow' ||
		( api.wp_consent_type === 'optout' && ! choices[ category ] );
	api.wp_set_consent = ( category: string, value: Choice ) => {
		calls.push( [ category, value ] );
		const changed = choices[ category ] !== value;
		choices[ category ] = value;
		if ( changed ) {
			announce( { [ category ]: value } );
		}
	};
	return { calls };
}

function announce( detail: Record< string, Choice > ) {
	document.dispatchEvent(
		new CustomEvent( 'wp_listen_for_consent_change', { detail } )
	);
}

/** A map as the server renders it: its key in `data-cairn-key` and in the script inside it. */
let keys = 0;
function serverKey( host: HTMLElement ): string {
	const key = ( ++keys ).toString( 16 ).padStart( 32, '0' );
	host.dataset.cairnKey = key;
	return `<script type="application/json" class="wp-block-cairn-map__key">"${ key }"</script>`;
}

function gatedMap( category: string | null = 'marketing' ): HTMLElement {
	const host = document.createElement( 'div' );
	host.className = 'wp-block-cairn-map';
	host.dataset.cairnState = 'loading';
	host.dataset.cairnConfig = '{}';
	host.dataset.cairnConsent = 'required';
	if ( category ) {
		host.dataset.cairnConsentCategory = category;
	}
	host.innerHTML =
		serverKey( host ) +
		'<div class="wp-block-cairn-map__map"><div class="wp-block-cairn-map__consent">' +
		'<button type="button">Load map</button></div></div>';
	document.body.appendChild( host );
	return host;
}

function start( eager = true ) {
	const started: HTMLElement[] = [];
	const stop = watchMaps(
		document,
		( { host } ) => {
			started.push( host );
		},
		{ eager }
	);
	return { started, stop };
}

const button = ( host: HTMLElement ) =>
	host.querySelector( 'button' ) as HTMLButtonElement;

let stopWatching: () => void = () => undefined;

afterEach( () => {
	stopWatching();
	document.body.innerHTML = '';
	delete api.wp_has_consent;
	delete api.wp_set_consent;
	delete api.wp_consent_type;
	delete api.IntersectionObserver;
} );

describe( 'the consent gate with the WP Consent API', () => {
	it( 'starts at once, without the button, when the visitor already agreed', () => {
		installApi( { marketing: 'allow' } );
		const host = gatedMap();
		const { started, stop } = start();
		stopWatching = stop;

		expect( started ).toEqual( [ host ] );
		expect( host.dataset.cairnConsent ).toBe( 'given' );
		expect( host.querySelector( 'button' ) ).toBeNull();
	} );

	it( 'waits while the category is not accepted, and starts on the banner’s event', () => {
		const { calls } = installApi( { marketing: 'deny' } );
		const host = gatedMap();
		const { started, stop } = start();
		stopWatching = stop;
		expect( started ).toEqual( [] );
		expect( host.dataset.cairnConsent ).toBe( 'required' );

		// As a consent banner does when the visitor accepts marketing.
		( api.wp_set_consent as ( c: string, v: Choice ) => void )(
			'marketing',
			'allow'
		);

		expect( started ).toEqual( [ host ] );
		expect( host.dataset.cairnConsent ).toBe( 'given' );
		expect( calls ).toEqual( [ [ 'marketing', 'allow' ] ] );
	} );

	it.each( [
		[ 'another category accepted', { statistics: 'allow' } ],
		[ 'the category refused', { marketing: 'deny' } ],
	] as Array< [ string, Record< string, Choice > ] > )(
		'keeps waiting with %s',
		( _, detail ) => {
			installApi();
			const host = gatedMap();
			const { started, stop } = start();
			stopWatching = stop;
			announce( detail );
			expect( started ).toEqual( [] );
			expect( host.dataset.cairnConsent ).toBe( 'required' );
			expect( button( host ) ).not.toBeNull();
		}
	);

	it( 'follows the owner’s category, not marketing', () => {
		installApi( { marketing: 'allow' } );
		const host = gatedMap( 'statistics' );
		const { started, stop } = start();
		stopWatching = stop;
		announce( { marketing: 'allow' } );
		expect( started ).toEqual( [] );

		announce( { statistics: 'allow' } );
		expect( started ).toEqual( [ host ] );
	} );

	it( 'the button records the consent through the API and starts the map', () => {
		const { calls } = installApi();
		const host = gatedMap();
		const { started, stop } = start();
		stopWatching = stop;

		button( host ).click();

		expect( calls ).toEqual( [ [ 'marketing', 'allow' ] ] );
		expect( started ).toEqual( [ host ] );
		expect( host.dataset.cairnConsent ).toBe( 'given' );
	} );

	it( 'without a consent type (no banner plugin) the API’s blanket yes does not start the map', () => {
		// The API answers true for every category when no consent type is set.
		installApi( {}, '' );
		const host = gatedMap();
		const { started, stop } = start();
		stopWatching = stop;
		expect( started ).toEqual( [] );

		// A banner that decides the consent type late says so with an event.
		api.wp_consent_type = 'optout';
		document.dispatchEvent( new Event( 'wp_consent_type_defined' ) );
		expect( started ).toEqual( [ host ] );
	} );

	it.each( [
		[ 'no API on the page', () => undefined, () => gatedMap() ],
		[
			'the API’s functions throwing (its settings missing)',
			() => {
				api.wp_consent_type = 'optin';
				api.wp_has_consent = () => {
					throw new ReferenceError( 'consent_api is not defined' );
				};
			},
			() => gatedMap(),
		],
		[
			'a server that found no API (no category)',
			() => installApi( { marketing: 'allow' } ),
			() => gatedMap( null ),
		],
	] as Array< [ string, () => unknown, () => HTMLElement ] > )(
		'with %s, today’s “Load map” button still works',
		( _, setUp, make ) => {
			setUp();
			const host = make();
			const { started, stop } = start();
			stopWatching = stop;
			expect( started ).toEqual( [] );
			expect( () => button( host ).click() ).not.toThrow();
			expect( started ).toEqual( [ host ] );
			expect( host.dataset.cairnConsent ).toBe( 'given' );
		}
	);

	it( 'withdrawn consent keeps a running map and gates the maps not started yet', () => {
		const observed = new Set< Element >();
		let intersect: ( target: Element ) => void = () => undefined;
		api.IntersectionObserver = class {
			private callback: IntersectionObserverCallback;
			constructor( callback: IntersectionObserverCallback ) {
				this.callback = callback;
				intersect = ( target ) =>
					observed.has( target ) &&
					this.callback(
						[
							{
								target,
								isIntersecting: true,
							} as unknown as IntersectionObserverEntry,
						],
						this as unknown as IntersectionObserver
					);
			}
			observe( target: Element ) {
				observed.add( target );
			}
			unobserve( target: Element ) {
				observed.delete( target );
			}
			disconnect() {
				observed.clear();
			}
		};
		installApi();
		const near = gatedMap();
		const far = gatedMap();
		const { started, stop } = start( false );
		stopWatching = stop;

		announce( { marketing: 'allow' } );
		intersect( near );
		expect( started ).toEqual( [ near ] );

		announce( { marketing: 'deny' } );
		intersect( far );
		expect( started ).toEqual( [ near ] );
		expect( near.dataset.cairnConsent ).toBe( 'given' );
		expect( far.dataset.cairnConsent ).toBe( 'required' );
		expect( button( far ) ).not.toBeNull();

		// Its button is the way in again.
		button( far ).click();
		expect( started ).toEqual( [ near, far ] );
	} );
} );
