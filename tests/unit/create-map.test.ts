/**
 * The runtime's failure paths, at the level no page can reach: a missing container, a secret or
 * temporary token handed to `createMap` directly (the server never renders one), and how mapbox-gl's
 * error events become error codes. mapbox-gl itself cannot load in jsdom (no WebGL, no
 * TextDecoder), so a small stand-in records what the runtime asks of it; the real library is
 * covered by the e2e specs.
 */
import { TextDecoder as NodeTextDecoder } from 'node:util';

import mapboxgl from 'mapbox-gl';

import { createMap as createRuntimeMap } from '../../src/blocks/map/runtime';
import { firstGroupIs } from '../../packages/map/src/markers-layer';
import shapesFeed from '../fixtures/shapes-feed.json';
import type { MapErrorCode } from '../../packages/map/src/types';

/**
 * The runtime's createMap with the stand-in mapbox-gl below in hand, as the loader passes the
 * library it loaded from Mapbox's distribution (which jsdom cannot load).
 * @param container
 * @param config
 * @param options
 */
const createMap = (
	container: unknown,
	config: unknown,
	options: Parameters< typeof createRuntimeMap >[ 2 ] = {}
) => createRuntimeMap( container, config, { mapLib: mapboxgl, ...options } );

// jsdom lacks TextDecoder (the token check decodes the payload); every supported browser has it.
if ( typeof globalThis.TextDecoder === 'undefined' ) {
	Object.assign( globalThis, { TextDecoder: NodeTextDecoder } );
}

type Listener = ( event?: unknown ) => void;

/** What mapbox-gl does asynchronously, the stand-in does after the current task (no timer). */
const later = ( callback: () => void ) => {
	Promise.resolve().then( callback );
};

/**
 * One turn of the event loop: every promise callback already due has run. Not a duration: the
 * waits below check a condition turn after turn until it holds, however slow the machine (jest's
 * timeout bounds them), so they never depend on how long a promise chain takes.
 */
const nextTurn = () =>
	new Promise< void >( ( resolve ) => setImmediate( resolve ) );

/**
 * Resolves once the condition holds.
 * @param condition
 */
async function until( condition: () => unknown ): Promise< void > {
	while ( ! condition() ) {
		await nextTurn();
	}
}

interface MockMapbox {
	supported: boolean;
	throwOnCreate: Error | null;
	maps: MockMap[];
	images: Record< string, Error | null >;
	/** The options of each ScaleControl made. */
	scales: unknown[];
	/** Each popup opened: where, and its content. */
	popups: Array< { lngLat: unknown; content: HTMLElement | null } >;
}

class MockMap {
	listeners: Record< string, Listener[] > = {};
	removed = 0;
	layers: Record<
		string,
		{ paint: Record< string, unknown >; layout: Record< string, unknown > }
	> = {};
	sources: Record< string, Record< string, unknown > > = {};
	style: Record< string, unknown > = { layers: [] };
	images: string[] = [];
	/** Images mapbox-gl has answered for (loaded or failed). */
	imagesAnswered = 0;
	constructor( readonly options: Record< string, unknown > ) {}
	on( type: string, ...rest: unknown[] ) {
		const listener = rest[ rest.length - 1 ] as Listener;
		( this.listeners[ type ] ??= [] ).push( listener );
		return this;
	}
	off() {
		return this;
	}
	once( type: string, listener: Listener ) {
		return this.on( type, listener );
	}
	fire( type: string, event?: unknown ) {
		( this.listeners[ type ] ?? [] ).forEach( ( listener ) =>
			listener( event )
		);
	}
	remove() {
		this.removed++;
	}
	getContainer() {
		return this.options.container as HTMLElement;
	}
	getCanvas() {
		return document.createElement( 'canvas' );
	}
	getStyle() {
		return this.style;
	}
	addControl() {
		return this;
	}
	hasControl() {
		return false;
	}
	getMinZoom() {
		return 0;
	}
	getMaxZoom() {
		return 22;
	}
	addSource( id: string, source: Record< string, unknown > ) {
		this.sources[ id ] = source;
		return this;
	}
	getSource( id: string ) {
		const source = this.sources[ id ];
		return source
			? {
					type: source.type,
					setData: ( data: unknown ) => {
						source.data = data;
						// mapbox-gl reports the new data taken in, later.
						later( () =>
							this.fire( 'sourcedata', {
								sourceId: id,
								sourceDataType: 'content',
							} )
						);
					},
				}
			: undefined;
	}
	getBounds() {
		return {
			getWest: () => -180,
			getEast: () => 180,
			getSouth: () => -85,
			getNorth: () => 85,
		};
	}
	getZoom() {
		return 2;
	}
	triggerRepaint() {
		later( () => this.fire( 'render' ) );
	}
	isStyleLoaded() {
		return true;
	}
	isSourceLoaded() {
		return true;
	}
	setLanguage() {}
	addLayer(
		layer: {
			id: string;
			paint?: Record< string, unknown >;
			layout?: Record< string, unknown >;
			filter?: unknown;
		},
		beforeId?: string
	) {
		this.layers[ layer.id ] = {
			paint: { ...layer.paint },
			layout: { ...layer.layout },
		};
		this.filters[ layer.id ] = layer.filter;
		// The style's layer order, as mapbox-gl keeps it (beneath `beforeId`, else on top).
		const order = this.style.layers as Array< { id: string } > | undefined;
		if ( Array.isArray( order ) ) {
			const at = order.findIndex( ( item ) => item.id === beforeId );
			order.splice( at < 0 ? order.length : at, 0, {
				id: layer.id,
			} );
		}
		return this;
	}
	filters: Record< string, unknown > = {};
	featureState: Record< string, Record< string, unknown > > = {};
	fitted: unknown[] = [];
	setFeatureState(
		feature: { source: string; id: number },
		state: Record< string, unknown >
	) {
		const key = `${ feature.source }/${ feature.id }`;
		this.featureState[ key ] = { ...this.featureState[ key ], ...state };
	}
	queryRenderedFeatures() {
		return [];
	}
	fitBounds( bounds: unknown, _options?: unknown, eventData?: object ) {
		this.fitted.push( bounds );
		later( () => this.fire( 'moveend', { ...eventData } ) );
	}
	getCanvasContainer() {
		return this.getContainer();
	}
	getLayer( id: string ) {
		return this.layers[ id ];
	}
	setPaintProperty( id: string, name: string, value: unknown ) {
		const layer = this.layers[ id ];
		if ( layer ) {
			layer.paint[ name ] = value;
		}
	}
	setFilter( id: string, filter: unknown ) {
		this.filters[ id ] = filter;
	}
	setLayoutProperty() {}
	getLayoutProperty() {
		return undefined;
	}
	hasImage( id: string ) {
		return this.images.includes( id );
	}
	addImage( id: string ) {
		this.images.push( id );
	}
	loadImage(
		url: string,
		callback: ( error: Error | null, image?: unknown ) => void
	) {
		const error = fake().images[ url ] ?? null;
		later( () => {
			this.imagesAnswered++;
			callback( error, error ? undefined : { width: 56, height: 56 } );
		} );
	}
}

class MockControl {
	on() {
		return this;
	}
	off() {
		return this;
	}
}

function fake(): MockMapbox {
	return ( globalThis as unknown as { fakeMapbox: MockMapbox } ).fakeMapbox;
}

jest.mock( 'mapbox-gl', () => {
	const state: MockMapbox = {
		supported: true,
		throwOnCreate: null,
		maps: [],
		images: {},
		scales: [],
		popups: [],
	};
	( globalThis as unknown as { fakeMapbox: MockMapbox } ).fakeMapbox = state;
	class Popup {
		private opened: { lngLat: unknown; content: HTMLElement | null } = {
			lngLat: null,
			content: null,
		};
		setLngLat( lngLat: unknown ) {
			this.opened.lngLat = lngLat;
			return this;
		}
		setDOMContent( content: HTMLElement ) {
			this.opened.content = content;
			return this;
		}
		on() {
			return this;
		}
		getElement() {
			return null;
		}
		addTo() {
			state.popups.push( this.opened );
			return this;
		}
		remove() {
			return this;
		}
	}
	return {
		__esModule: true,
		default: {
			supported: () => state.supported,
			Popup,
			// Constructors that hand back the stand-ins (classes are read when called: the
			// factory runs before they are defined).
			Map: class {
				constructor( options: Record< string, unknown > ) {
					if ( state.throwOnCreate ) {
						throw state.throwOnCreate;
					}
					const map = new MockMap( options );
					state.maps.push( map );
					return map;
				}
			},
			NavigationControl: class {
				constructor() {
					return new MockControl();
				}
			},
			FullscreenControl: class {
				constructor() {
					return new MockControl();
				}
			},
			GeolocateControl: class {
				constructor() {
					return new MockControl();
				}
			},
			ScaleControl: class {
				constructor( options?: unknown ) {
					state.scales.push( options );
					return new MockControl();
				}
			},
		},
	};
} );

const PUBLIC = `pk.${ Buffer.from(
	JSON.stringify( { u: 'cairn-test', a: 'x' } )
).toString( 'base64url' ) }.sig`;

function block() {
	const host = document.createElement( 'div' );
	host.className = 'wp-block-cairn-map';
	host.innerHTML =
		'<div class="wp-block-cairn-map__map"></div><div class="wp-block-cairn-map__markers"><ul><li data-cairn-marker-id="1" data-lng="1" data-lat="2">A</li></ul></div>';
	document.body.appendChild( host );
	const container = host.querySelector(
		'.wp-block-cairn-map__map'
	) as HTMLElement;
	const events: Array< { code: MapErrorCode; message: string } > = [];
	host.addEventListener( 'cairn:map-error', ( event ) =>
		events.push( ( event as CustomEvent ).detail )
	);
	return { host, container, events };
}

function alerts( host: HTMLElement ) {
	return Array.from( host.querySelectorAll( '[role="alert"]' ) ).map(
		( alert ) => ( alert as HTMLElement ).dataset.cairnError
	);
}

/** The feed's requests (the places engine reads it with fetch where nothing was prefetched). */
let fetched: string[] = [];
beforeEach( () => {
	( globalThis as unknown as { fetch: unknown } ).fetch = jest.fn(
		async ( url: string ) => {
			fetched.push( url );
			return {
				ok: true,
				status: 200,
				json: async () => ( {
					type: 'FeatureCollection',
					features: [],
				} ),
			};
		}
	);
} );

// jsdom has no WebGL: the runtime's probe for parallel shader linking finds none.
HTMLCanvasElement.prototype.getContext = ( () =>
	null ) as unknown as HTMLCanvasElement[ 'getContext' ];

beforeEach( () => {
	fake().supported = true;
	fake().throwOnCreate = null;
	fake().maps.length = 0;
	fake().images = {};
	fake().scales.length = 0;
	fake().popups.length = 0;
	document.body.innerHTML = '';
} );

describe( 'createMap refuses before mapbox-gl is constructed', () => {
	it.each( [
		[ 'no container', null ],
		[ 'a string', '#map' ],
		[ 'a text node', document.createTextNode( 'map' ) ],
		[ 'a plain object', { nodeType: 1 } ],
	] )( 'bad-container for %s', async ( _label, container ) => {
		const { host, events } = block();
		const cairn = createMap( container, { accessToken: PUBLIC }, { host } );
		await expect( cairn.ready ).rejects.toMatchObject( {
			code: 'bad-container',
		} );
		expect( cairn.map ).toBeNull();
		expect( host.dataset.cairnState ).toBe( 'error' );
		expect( alerts( host ) ).toEqual( [ 'bad-container' ] );
		expect( events.map( ( event ) => event.code ) ).toEqual( [
			'bad-container',
		] );
		expect( host.querySelector( 'li' ) ).not.toBeNull();
		expect( fake().maps ).toHaveLength( 0 );
	} );

	it( 'rejects bad-container without a host, touching nothing', async () => {
		const cairn = createMap( undefined, { accessToken: PUBLIC } );
		await expect( cairn.ready ).rejects.toMatchObject( {
			code: 'bad-container',
		} );
	} );

	it.each< [ string, string, MapErrorCode ] >( [
		[ 'an empty token', '', 'missing-token' ],
		[ 'a secret token', 'sk.eyJ1IjoiYSJ9.sig', 'secret-token' ],
		[ 'a temporary token', 'tk.eyJ1IjoiYSJ9.sig', 'secret-token' ],
		[ 'a malformed token', 'pk.not-json.sig', 'invalid-token' ],
	] )( '%s gives %s', async ( label, accessToken, code ) => {
		const { host, container, events } = block();
		const cairn = createMap( container, { accessToken }, { host } );
		await expect( cairn.ready ).rejects.toMatchObject( { code } );
		expect( alerts( host ) ).toEqual( [ code ] );
		expect( events ).toHaveLength( 1 );
		// The token never reaches mapbox-gl, nor the page.
		expect( fake().maps ).toHaveLength( 0 );
		expect( host.textContent ).not.toContain( accessToken || label );
	} );

	it( 'zoom-range for a minimum zoom above the maximum', async () => {
		const { host, container } = block();
		const cairn = createMap(
			container,
			{ accessToken: PUBLIC, minZoom: 10, maxZoom: 5 },
			{ host }
		);
		await expect( cairn.ready ).rejects.toMatchObject( {
			code: 'zoom-range',
		} );
		expect( fake().maps ).toHaveLength( 0 );
	} );

	it( 'webgl when the browser cannot draw', async () => {
		fake().supported = false;
		const { host, container } = block();
		const cairn = createMap( container, { accessToken: PUBLIC }, { host } );
		await expect( cairn.ready ).rejects.toMatchObject( { code: 'webgl' } );
	} );

	it( 'asks mapbox-gl to precompile shaders only where they link in parallel', () => {
		const { host, container } = block();
		createMap( container, { accessToken: PUBLIC }, { host } );
		// jsdom: no WebGL, so no KHR_parallel_shader_compile.
		expect( fake().maps[ 0 ]!.options.precompilePrograms ).toBe( false );
		expect( fake().maps[ 0 ]!.options.performanceMetricsCollection ).toBe(
			false
		);
	} );

	it( 'webgl when the constructor cannot start a context', async () => {
		fake().throwOnCreate = new Error( 'Failed to initialize WebGL.' );
		const { host, container } = block();
		const cairn = createMap( container, { accessToken: PUBLIC }, { host } );
		await expect( cairn.ready ).rejects.toMatchObject( { code: 'webgl' } );
		expect( alerts( host ) ).toEqual( [ 'webgl' ] );
	} );
} );

describe( 'mapbox-gl error events', () => {
	function started( config: Record< string, unknown > = {} ) {
		const parts = block();
		const cairn = createMap(
			parts.container,
			{
				accessToken: PUBLIC,
				markersUrl: 'https://example.test/markers',
				...config,
			},
			{ host: parts.host }
		);
		const map = fake().maps[ 0 ] as MockMap;
		return { ...parts, cairn, map };
	}

	it.each< [ string, unknown, MapErrorCode ] >( [
		[ '401', { error: { status: 401 } }, 'invalid-token' ],
		[ '403', { error: { status: 403 } }, 'invalid-token' ],
		[ '429 before load', { error: { status: 429 } }, 'style' ],
		[ 'a network failure before load', { error: new Error() }, 'style' ],
	] )( '%s gives %s and stops the map', async ( _label, event, code ) => {
		const { host, cairn, map, events } = started();
		map.fire( 'error', event );
		await expect( cairn.ready ).rejects.toMatchObject( { code } );
		await until( () => map.removed > 0 );
		expect( map.removed ).toBe( 1 );
		expect( alerts( host ) ).toEqual( [ code ] );
		expect( events ).toHaveLength( 1 );
		cairn.destroy();
		expect( map.removed ).toBe( 1 );
	} );

	it( 'ignores a single tile that fails while the map loads', async () => {
		const { host, cairn, map } = started();
		map.fire( 'style.load' );
		map.fire( 'error', {
			error: { status: 500 },
			sourceId: 'composite',
			tile: {},
		} );
		map.fire( 'load' );
		await expect( cairn.ready ).resolves.toBe( map );
		expect( host.dataset.cairnState ).toBe( 'ready' );
		expect( alerts( host ) ).toEqual( [] );
	} );

	it( 'gives up with style when the style does not arrive in time', async () => {
		jest.useFakeTimers();
		try {
			const parts = block();
			const cairn = createMap(
				parts.container,
				{ accessToken: PUBLIC },
				{ host: parts.host, loadTimeout: 1000 }
			);
			jest.advanceTimersByTime( 1001 );
			await expect( cairn.ready ).rejects.toMatchObject( {
				code: 'style',
			} );
		} finally {
			jest.useRealTimers();
		}
	} );

	it( 'does not give up once the style is there, however long the markers take', async () => {
		jest.useFakeTimers();
		try {
			const parts = block();
			createMap(
				parts.container,
				{ accessToken: PUBLIC, markersUrl: 'https://example.test/m' },
				{ host: parts.host, loadTimeout: 1000 }
			);
			( fake().maps[ 0 ] as MockMap ).fire( 'style.load' );
			jest.advanceTimersByTime( 5000 );
			expect( parts.host.dataset.cairnState ).toBe( 'loading' );
			expect( alerts( parts.host ) ).toEqual( [] );
		} finally {
			jest.useRealTimers();
		}
	} );

	it( 'ignores a tile failure after load', async () => {
		const { host, cairn, map } = started();
		map.fire( 'style.load' );
		map.fire( 'load' );
		await expect( cairn.ready ).resolves.toBe( map );
		map.fire( 'error', { error: { status: 500 }, sourceId: 'composite' } );
		expect( host.dataset.cairnState ).toBe( 'ready' );
		expect( alerts( host ) ).toEqual( [] );
	} );

	it( 'reports the marker feed without stopping the map', async () => {
		const { host, map, events, cairn } = started();
		const ready = jest.fn();
		host.addEventListener( 'cairn:map-ready', ready );
		map.fire( 'style.load' );
		// The feed can fail before the base map has finished loading.
		map.fire( 'error', {
			error: { status: 500 },
			sourceId: 'cairn-markers',
		} );
		map.fire( 'load' );
		// The map works: it is handed over, but the state keeps the alert.
		await expect( cairn.ready ).resolves.toBe( map );
		expect( ready ).toHaveBeenCalledTimes( 1 );
		await until( () => host.dataset.cairnState === 'error' );
		expect( alerts( host ) ).toEqual( [ 'markers' ] );
		expect( events.map( ( event ) => event.code ) ).toEqual( [
			'markers',
		] );
		expect( map.removed ).toBe( 0 );
		// A fatal failure afterwards replaces the message: still one alert.
		map.fire( 'error', { error: { status: 401 } } );
		await until( () => map.removed > 0 );
		expect( alerts( host ) ).toEqual( [ 'invalid-token' ] );
		expect( map.removed ).toBe( 1 );
	} );

	it( 'reports an icon that is not a PNG/JPEG once, keeping the default symbol', async () => {
		fake().images = {
			'https://example.test/a.svg': new Error( 'Could not load image' ),
			'https://example.test/b.png': null,
			'https://example.test/c.svg': new Error( 'Could not load image' ),
		};
		const { host, map, events } = started( {
			groupStyles: [
				{
					slug: 'a',
					color: '#112233',
					icon: 'https://example.test/a.svg',
				},
				{ slug: 'b', color: '', icon: 'https://example.test/b.png' },
				{ slug: 'c', color: '', icon: 'https://example.test/c.svg' },
			],
		} );
		map.fire( 'style.load' );
		map.fire( 'load' );
		// Every icon answered: the two failures make one report.
		await until( () => map.imagesAnswered === 3 );
		expect( alerts( host ) ).toEqual( [ 'image-type' ] );
		expect( events.map( ( event ) => event.code ) ).toEqual( [
			'image-type',
		] );
		expect( map.removed ).toBe( 0 );
		// Only the PNG became an icon; group a keeps its colour on the default circle.
		expect( map.images ).toEqual( [ 'cairn-icon-b' ] );
		expect( map.layers[ 'cairn-point-icons' ] ).toBeDefined();
		expect(
			JSON.stringify(
				map.layers[ 'cairn-points' ]?.paint[ 'circle-color' ]
			)
		).toContain( '#112233' );
		expect(
			map.layers[ 'cairn-points' ]?.paint[ 'circle-opacity' ]
		).toEqual( [ 'case', firstGroupIs( 'b' ), 0, 1 ] );
	} );
} );

describe( 'markers on the map', () => {
	function withFeed(
		markers?: Promise< {
			blob: Blob;
			url: string;
			release: () => void;
		} | null >
	) {
		const parts = block();
		const cairn = createMap(
			parts.container,
			{ accessToken: PUBLIC, markersUrl: 'https://example.test/feed' },
			{ host: parts.host, markers }
		);
		const map = fake().maps[ 0 ] as MockMap;
		const ready = jest.fn();
		parts.host.addEventListener( 'cairn:map-ready', ready );
		return { ...parts, cairn, map, ready };
	}

	const FEED = {
		type: 'FeatureCollection',
		features: [
			{
				type: 'Feature',
				id: 7,
				geometry: { type: 'Point', coordinates: [ 2.35, 48.85 ] },
				properties: { title: 'Paris', groups: [] },
			},
			{
				type: 'Feature',
				id: 8,
				geometry: { type: 'Point', coordinates: [ 2.36, 48.86 ] },
				properties: { title: 'Paris too', groups: [] },
			},
		],
	};
	const feedBlob = () =>
		new Blob( [ JSON.stringify( FEED ) ], { type: 'application/json' } );
	/** What the places engine put in the map's source, once it has. */
	async function drawn( map: MockMap ) {
		const features = () =>
			(
				map.sources[ 'cairn-markers' ]?.data as
					| {
							features: Array< {
								properties: Record< string, unknown >;
							} >;
					  }
					| undefined
			 )?.features ?? [];
		await until( () => features().length > 0 );
		return features();
	}
	beforeEach( () => {
		fetched = [];
		( globalThis as unknown as { fetch: unknown } ).fetch = jest.fn(
			async ( url: string ) => {
				fetched.push( url );
				return { ok: true, status: 200, json: async () => FEED };
			}
		);
	} );

	it( 'reads the feed from its address when nothing was prefetched; the source holds what the places engine clustered', async () => {
		const { map } = withFeed();
		expect( map.sources[ 'cairn-markers' ] ).toBeUndefined();
		map.fire( 'style.load' );
		const features = await drawn( map );
		expect( fetched ).toEqual( [ 'https://example.test/feed' ] );
		// Clustered by the engine, not by mapbox-gl: the two places are one cluster at zoom 2.
		expect( map.sources[ 'cairn-markers' ] ).not.toHaveProperty(
			'cluster'
		);
		expect( features ).toHaveLength( 1 );
		expect( features[ 0 ]!.properties ).toMatchObject( {
			cluster: true,
			point_count: 2,
		} );
	} );

	it( 'reads and clusters the feed while the style is still loading', async () => {
		const { map } = withFeed();
		await until( () => fetched.length > 0 );
		// The feed is read before the style is in; nothing is drawn before it is.
		expect( fetched ).toEqual( [ 'https://example.test/feed' ] );
		expect( map.sources[ 'cairn-markers' ] ).toBeUndefined();
		map.fire( 'style.load' );
		expect( await drawn( map ) ).toHaveLength( 1 );
		expect( fetched ).toHaveLength( 1 );
	} );

	it( 'hands a prefetched feed to the places engine and frees it with the map', async () => {
		const release = jest.fn();
		const { map, cairn } = withFeed(
			Promise.resolve( {
				blob: feedBlob(),
				url: 'blob:https://example.test/1',
				release,
			} )
		);
		map.fire( 'style.load' );
		expect( await drawn( map ) ).toHaveLength( 1 );
		expect( fetched ).toEqual( [] );
		expect( release ).not.toHaveBeenCalled();
		cairn.destroy();
		expect( release ).toHaveBeenCalledTimes( 1 );
	} );

	it( 'falls back to the address when the prefetch failed', async () => {
		const { map } = withFeed( Promise.resolve( null ) );
		map.fire( 'style.load' );
		expect( await drawn( map ) ).toHaveLength( 1 );
		expect( fetched ).toEqual( [ 'https://example.test/feed' ] );
	} );

	it( 'reports `markers` when the feed cannot be read, and the map still works', async () => {
		( globalThis as unknown as { fetch: unknown } ).fetch = jest.fn(
			async () => ( {
				ok: false,
				status: 500,
				json: async () => ( {} ),
			} )
		);
		const { map, host, cairn } = withFeed();
		map.fire( 'style.load' );
		map.fire( 'load' );
		await expect( cairn.ready ).resolves.toBe( map );
		expect( alerts( host ) ).toEqual( [ 'markers' ] );
	} );

	it( 'is ready only once the markers are on the map, even when the base map was quicker', async () => {
		let arrive: ( feed: {
			blob: Blob;
			url: string;
			release: () => void;
		} ) => void = () => undefined;
		const { map, host, ready } = withFeed(
			new Promise( ( resolve ) => ( arrive = resolve ) )
		);
		map.fire( 'style.load' );
		map.fire( 'load' );
		// Whatever the loaded map and the places chunk set going has run: still not ready.
		await nextTurn();
		expect( ready ).not.toHaveBeenCalled();
		expect( host.dataset.cairnState ).toBe( 'loading' );
		arrive( {
			blob: feedBlob(),
			url: 'blob:https://example.test/2',
			release: () => {},
		} );
		expect( await drawn( map ) ).toHaveLength( 1 );
		await until( () => ready.mock.calls.length > 0 );
		expect( ready ).toHaveBeenCalledTimes( 1 );
		expect( host.dataset.cairnState ).toBe( 'ready' );
	} );

	it( 'frees a feed that arrives after the map was removed', async () => {
		const release = jest.fn();
		let arrive: ( feed: {
			blob: Blob;
			url: string;
			release: () => void;
		} ) => void = () => undefined;
		const { map, cairn } = withFeed(
			new Promise( ( resolve ) => ( arrive = resolve ) )
		);
		map.fire( 'style.load' );
		cairn.destroy();
		arrive( {
			blob: feedBlob(),
			url: 'blob:https://example.test/3',
			release,
		} );
		await until( () => release.mock.calls.length > 0 );
		expect( release ).toHaveBeenCalledTimes( 1 );
		expect( map.sources[ 'cairn-markers' ] ).toBeUndefined();
	} );

	it.each( [
		[
			'the first font the style labels with',
			{
				glyphs: 'mapbox://fonts/mapbox/{fontstack}/{range}.pbf',
				layers: [
					{ id: 'water', type: 'fill' },
					{
						id: 'places',
						type: 'symbol',
						layout: { 'text-font': [ 'Roboto Bold', 'Noto Sans' ] },
					},
				],
			},
			[ 'Roboto Bold', 'Noto Sans' ],
		],
		[
			"Standard's font for a style that imports it",
			{ imports: [ { id: 'basemap' } ], layers: [] },
			[ 'DIN Pro Medium', 'Arial Unicode MS Regular' ],
		],
		[
			"mapbox-gl's default without labels",
			{
				glyphs: 'https://example.test/{fontstack}/{range}.pbf',
				layers: [],
			},
			undefined,
		],
	] )( 'cluster counts use %s', async ( _label, style, font ) => {
		const { map } = withFeed();
		map.style = style;
		map.fire( 'style.load' );
		await drawn( map );
		expect(
			map.layers[ 'cairn-cluster-count' ]!.layout[ 'text-font' ]
		).toEqual( font );
	} );

	it( 'draws the clusters of a style without glyphs without their counts, and the map is ready', async () => {
		const { map, host, ready, cairn } = withFeed();
		map.style = {
			layers: [
				{
					id: 'places',
					type: 'symbol',
					layout: { 'text-font': [ 'Roboto Bold' ] },
				},
			],
		};
		map.fire( 'style.load' );
		await drawn( map );
		expect( map.layers ).toHaveProperty( 'cairn-clusters' );
		expect( map.layers ).toHaveProperty( 'cairn-points' );
		// mapbox-gl would refuse a text layer here, failing the whole map with `style`.
		expect( map.layers ).not.toHaveProperty( 'cairn-cluster-count' );
		map.fire( 'load' );
		await expect( cairn.ready ).resolves.toBe( map );
		expect( ready ).toHaveBeenCalledTimes( 1 );
		expect( alerts( host ) ).toEqual( [] );
		expect( host.dataset.cairnState ).toBe( 'ready' );
	} );

	/**
	 * A prefetched feed's body that reads without a timer (jsdom's Blob reads through its
	 * FileReader, on timers, which the test below fakes).
	 * @param body
	 */
	const textBlob = ( body: string ) =>
		Object.assign( new Blob( [ body ] ), { text: async () => body } );

	/**
	 * A map whose feed was prefetched, with a places panel of the host's own.
	 * @param blob The feed's body.
	 */
	function withPanel( blob: Blob = textBlob( JSON.stringify( FEED ) ) ) {
		const parts = block();
		const onPlaces = jest.fn();
		createMap(
			parts.container,
			{ accessToken: PUBLIC, markersUrl: 'https://example.test/feed' },
			{
				host: parts.host,
				markers: Promise.resolve( {
					blob,
					url: 'blob:https://example.test/panel',
					release: () => undefined,
				} ),
				onPlaces,
			}
		);
		return { map: fake().maps[ 0 ] as MockMap, onPlaces };
	}

	it( 'shows the places panel only once the first clusters are drawn and the map is ready', async () => {
		const { map, onPlaces } = withPanel();
		map.fire( 'style.load' );
		expect( await drawn( map ) ).toHaveLength( 1 );
		// Drawn, the base map still loading: the panel (React, the list's layout) waits.
		for ( let turn = 0; turn < 10; turn++ ) {
			await nextTurn();
		}
		expect( onPlaces ).not.toHaveBeenCalled();
		map.fire( 'load' );
		await until( () => onPlaces.mock.calls.length > 0 );
		expect( onPlaces ).toHaveBeenCalledTimes( 1 );
	} );

	it( 'shows the places panel 1.5 s after the first frame with clusters when the base map takes longer', async () => {
		const timers = jest.spyOn( window, 'setTimeout' );
		try {
			const { map, onPlaces } = withPanel();
			map.fire( 'style.load' );
			expect( await drawn( map ) ).toHaveLength( 1 );
			// Frames without the clusters yet (their tiles still being cut): no countdown.
			for ( let turn = 0; turn < 10; turn++ ) {
				map.fire( 'render' );
				await nextTurn();
			}
			expect(
				timers.mock.calls.some( ( [ , ms ] ) => ms === 1500 )
			).toBe( false );
			// The frame that shows them.
			map.queryRenderedFeatures = () => [ { id: 7 } ] as never[];
			map.fire( 'render' );
			await until( () =>
				timers.mock.calls.some( ( [ , ms ] ) => ms === 1500 )
			);
			expect( onPlaces ).not.toHaveBeenCalled();
			// The 1.5 s are up (the base map has still not loaded).
			const [ elapsed ] = timers.mock.calls.find(
				( [ , ms ] ) => ms === 1500
			)!;
			( elapsed as () => void )();
			await until( () => onPlaces.mock.calls.length > 0 );
			expect( onPlaces ).toHaveBeenCalledTimes( 1 );
		} finally {
			timers.mockRestore();
		}
	} );
} );

describe( 'the scale bar', () => {
	it.each( [
		[ 'imperial', 'imperial' ],
		[ 'metric', 'metric' ],
		[ undefined, 'metric' ],
		[ 'nautical', 'metric' ],
	] )( 'config units %s: ScaleControl unit %s', ( units, unit ) => {
		const { host, container } = block();
		createMap(
			container,
			{ accessToken: PUBLIC, units, controls: { scale: true } },
			{ host }
		);
		expect( fake().scales ).toEqual( [ { unit } ] );
	} );

	it( 'none when the scale control is off', () => {
		const { host, container } = block();
		createMap(
			container,
			{ accessToken: PUBLIC, units: 'imperial' },
			{ host }
		);
		expect( fake().scales ).toEqual( [] );
	} );
} );

// How often the shapes chunk was loaded (a dynamic import of it runs this factory once).
jest.mock( '../../packages/map/src/shapes/load-shapes', () => {
	const loads = globalThis as unknown as { shapesChunkLoads: number };
	loads.shapesChunkLoads = ( loads.shapesChunkLoads ?? 0 ) + 1;
	return jest.requireActual( '../../packages/map/src/shapes/load-shapes' );
} );

describe( 'routes and areas on the map', () => {
	const MARKERS = 'https://example.test/markers';
	const SHAPES = 'https://example.test/shapes?group=trails';
	/** The anchors of the shapes in the points feed, and one point. */
	const POINTS = {
		type: 'FeatureCollection',
		features: [
			[ 101, 'Ridge trail', [ 7.0, 46.0 ], [ 'trails' ] ],
			[ 102, 'Quiet zone', [ 7.15, 46.15 ], [ 'zones' ] ],
			[ 5, 'Hut', [ 7.5, 46.5 ], [ 'trails' ] ],
		].map( ( [ id, title, coordinates, groups ] ) => ( {
			type: 'Feature',
			id,
			geometry: { type: 'Point', coordinates },
			properties: { title, groups },
		} ) ),
	};
	let shapesAnswer: () => {
		ok: boolean;
		status: number;
		json: () => unknown;
	};

	beforeEach( () => {
		fetched = [];
		shapesAnswer = () => ( {
			ok: true,
			status: 200,
			json: () => shapesFeed,
		} );
		( globalThis as unknown as { fetch: unknown } ).fetch = jest.fn(
			async ( url: string ) => {
				fetched.push( url );
				if ( url === SHAPES ) {
					return shapesAnswer();
				}
				if ( url.startsWith( 'https://example.test/marker/' ) ) {
					return {
						ok: true,
						status: 200,
						json: async () => ( {
							id: 101,
							title: 'Ridge trail',
							content: '<p>Along the ridge.</p>',
							link: '',
							lng: 7,
							lat: 46,
						} ),
					};
				}
				return { ok: true, status: 200, json: async () => POINTS };
			}
		);
	} );

	function start( config: Record< string, unknown > ) {
		const parts = block();
		const cairn = createMap(
			parts.container,
			{
				accessToken: PUBLIC,
				markersUrl: MARKERS,
				markerUrl: 'https://example.test/marker/',
				groupStyles: [
					{ slug: 'trails', color: '#00aa00', lineWidth: 5 },
					{ slug: 'zones', color: '#aa0000', fillOpacity: 0.4 },
				],
				...config,
			},
			{ host: parts.host }
		);
		const map = fake().maps[ 0 ] as MockMap;
		map.style = { layers: [] };
		map.fire( 'style.load' );
		map.fire( 'load' );
		return { ...parts, cairn, map };
	}

	const chunkLoads = () =>
		( globalThis as unknown as { shapesChunkLoads?: number } )
			.shapesChunkLoads ?? 0;

	it( 'a map of points only asks for no shapes and loads no shapes code', async () => {
		const { map, cairn, host } = start( {} );
		await cairn.ready;
		expect( fetched ).toEqual( [ MARKERS ] );
		expect( map.sources ).not.toHaveProperty( 'cairn-shapes' );
		expect( chunkLoads() ).toBe( 0 );
		expect( host.dataset.cairnState ).toBe( 'ready' );
	} );

	it( 'a bad shapes address is no feed at all', async () => {
		const { cairn, map } = start( { shapesUrl: 'javascript:alert(1)' } );
		await cairn.ready;
		expect( fetched ).toEqual( [ MARKERS ] );
		expect( map.sources ).not.toHaveProperty( 'cairn-shapes' );
	} );

	it( 'draws the shapes beneath the points, painted by group, and is ready once they are on the map', async () => {
		const { map, cairn, host } = start( { shapesUrl: SHAPES } );
		await cairn.ready;
		expect( fetched ).toEqual(
			expect.arrayContaining( [ MARKERS, SHAPES ] )
		);
		const data = map.sources[ 'cairn-shapes' ]!.data as {
			features: Array< {
				id: number;
				properties: Record< string, unknown >;
			} >;
		};
		expect(
			data.features.map( ( feature ) => [
				feature.id,
				feature.properties.group,
				feature.properties.kind,
			] )
		).toEqual( [
			[ 101, 'trails', 'line' ],
			[ 102, 'zones', 'area' ],
			[ 103, '', 'line' ],
		] );
		const order = ( map.style.layers as Array< { id: string } > ).map(
			( layer ) => layer.id
		);
		const lowestPoint = order.indexOf( 'cairn-clusters' );
		expect( lowestPoint ).toBeGreaterThan( -1 );
		for ( const id of [
			'cairn-shapes-fill',
			'cairn-shapes-halo',
			'cairn-shapes-line',
		] ) {
			expect( order.indexOf( id ) ).toBeGreaterThan( -1 );
			expect( order.indexOf( id ) ).toBeLessThan( lowestPoint );
		}
		expect(
			map.layers[ 'cairn-shapes-line' ]!.paint[ 'line-width' ]
		).toEqual( [ 'match', [ 'get', 'group' ], 'trails', 5, 3 ] );
		expect( host.dataset.cairnState ).toBe( 'ready' );
	} );

	it( 'a shapes feed that fails leaves the points map working and says so politely', async () => {
		shapesAnswer = () => ( { ok: false, status: 500, json: () => ( {} ) } );
		const { map, cairn, host } = start( { shapesUrl: SHAPES } );
		await expect( cairn.ready ).resolves.toBe( map );
		expect( host.dataset.cairnState ).toBe( 'ready' );
		expect( alerts( host ) ).toEqual( [] );
		expect( map.sources ).not.toHaveProperty( 'cairn-shapes' );
		expect( map.sources ).toHaveProperty( 'cairn-markers' );
		expect(
			host.querySelector( '.wp-block-cairn-map__notice' )?.textContent
		).toBe(
			'The routes and areas of this map could not be loaded. Its places are shown.'
		);
	} );

	it( 'group toggles and search hide the shapes the places filter hides', async () => {
		const { cairn, map } = start( { shapesUrl: SHAPES } );
		await cairn.ready;
		await until( () => cairn.places?.getState().shapes );
		const places = cairn.places!;
		places.toggleGroup( 'zones' );
		expect( map.filters[ 'cairn-shapes-line' ] ).toEqual( [
			'in',
			[ 'id' ],
			[ 'literal', [ 101, 103 ] ],
		] );
		expect( map.filters[ 'cairn-shapes-fill' ] ).toEqual( [
			'all',
			[ '==', [ 'get', 'kind' ], 'area' ],
			[ 'in', [ 'id' ], [ 'literal', [ 101, 103 ] ] ],
		] );
		places.showAllGroups();
		places.setSearch( 'ridge' );
		expect( map.filters[ 'cairn-shapes-line' ] ).toEqual( [
			'in',
			[ 'id' ],
			[ 'literal', [ 101 ] ],
		] );
		places.setSearch( '' );
		expect( map.filters[ 'cairn-shapes-line' ] ).toBeNull();
	} );

	it( 'choosing a route in the list fits the map to it and opens its popup with its facts and profile', async () => {
		const { cairn, map } = start( { shapesUrl: SHAPES } );
		await cairn.ready;
		await until( () => cairn.places?.getState().shapes );
		expect( cairn.places!.shapeSummary( 101 ) ).toBe(
			'12.4 km, 650 m ascent'
		);
		expect( cairn.places!.shapeSummary( 5 ) ).toBe( '' );
		await cairn.places!.choose( 101 );
		await until( () => fake().popups.length > 0 );
		expect( map.fitted ).toEqual( [
			[
				[ 7.0, 46.0 ],
				[ 7.08, 46.03 ],
			],
		] );
		const { content } = fake().popups[ 0 ]!;
		expect( content?.querySelector( 'h2' )?.textContent ).toBe(
			'Ridge trail'
		);
		expect( content?.querySelector( 'dl' )?.textContent ).toBe(
			'Length12.4 kmAscent650 mDescent600 m'
		);
		expect(
			content
				?.querySelector( 'svg[role="img"]' )
				?.getAttribute( 'aria-label' )
		).toBe( 'Elevation profile' );
		expect( content?.querySelector( 'figcaption' )?.textContent ).toMatch(
			/^Elevation profile: lowest point 1,200 m, highest point 1,850 m/
		);
		// The route stands out while its popup is open.
		expect( map.featureState[ 'cairn-shapes/101' ] ).toEqual( {
			focus: true,
		} );
	} );
} );

describe( 'a tiled map (the server clusters its places)', () => {
	const TILED = {
		accessToken: PUBLIC,
		center: { lng: 10, lat: 20 },
		zoom: 2,
		markersUrl: 'https://example.test/markers?group=a',
		tilesUrl: 'https://example.test/tiles/{z}/{x}/{y}?group=a&v=1',
		placesUrl: 'https://example.test/places?group=a&v=1',
		summaryUrl: 'https://example.test/places/summary?group=a&v=1',
	};
	function serve( summaryStatus = 200 ) {
		fetched = [];
		( globalThis as unknown as { fetch: unknown } ).fetch = jest.fn(
			async ( url: string ) => {
				fetched.push( url );
				const tile = /\/tiles\/(\d+)\/(\d+)\/(\d+)/.exec( url );
				const body = url.includes( '/summary' )
					? {
							total: 30,
							groups: { a: 30 },
							matches: 30,
							bounds: null,
						}
					: {
							type: 'FeatureCollection',
							features: tile
								? [
										{
											type: 'Feature',
											id:
												Number( tile[ 2 ] ) * 10 +
												Number( tile[ 3 ] ),
											geometry: {
												type: 'Point',
												coordinates: [ 0, 0 ],
											},
											properties: {
												cluster: true,
												cluster_id:
													Number( tile[ 2 ] ) * 10 +
													Number( tile[ 3 ] ),
												point_count: 2,
												point_count_abbreviated: 2,
												expansion_zoom: 4,
											},
										},
									]
								: [],
						};
				const status = url.includes( '/summary' ) ? summaryStatus : 200;
				return { ok: status === 200, status, json: async () => body };
			}
		);
	}
	const sourceFeatures = ( map: MockMap ) =>
		(
			map.sources[ 'cairn-markers' ]?.data as
				{ features: unknown[] } | undefined
		 )?.features ?? [];

	it( 'draws the clusters of its tiles and never downloads the whole feed', async () => {
		serve();
		const { host, container } = block();
		createMap( container, TILED, { host } );
		const map = fake().maps[ 0 ] as MockMap;
		map.fire( 'style.load' );
		await until( () => sourceFeatures( map ).length > 0 );
		// The stand-in's view is the whole world at zoom 2: its 16 tiles, one cluster each.
		expect( sourceFeatures( map ) ).toHaveLength( 16 );
		expect( fetched ).toContain( TILED.summaryUrl );
		expect(
			fetched.filter( ( url ) => url.includes( '/tiles/2/' ) )
		).toHaveLength( 16 );
		expect( fetched.some( ( url ) => url.includes( '/markers' ) ) ).toBe(
			false
		);
	} );

	it( 'starts the first view’s tiles before the style is in, from the centre, zoom and size', async () => {
		serve();
		const { host, container } = block();
		container.getBoundingClientRect = () =>
			( {
				width: 512,
				height: 512,
				top: 0,
				left: 0,
				right: 512,
				bottom: 512,
			} ) as DOMRect;
		createMap( container, TILED, { host } );
		await until( () => fetched.length > 1 );
		expect( fake().maps[ 0 ]!.sources[ 'cairn-markers' ] ).toBeUndefined();
		expect( fetched[ 0 ] ).toBe( TILED.summaryUrl );
		expect(
			fetched.slice( 1 ).every( ( url ) => url.includes( '/tiles/2/' ) )
		).toBe( true );
	} );

	it( 'shows the places alert when the server cannot answer, and the map still works', async () => {
		serve( 500 );
		const { host, container } = block();
		const cairn = createMap( container, TILED, { host } );
		const map = fake().maps[ 0 ] as MockMap;
		map.fire( 'style.load' );
		map.fire( 'load' );
		await expect( cairn.ready ).resolves.toBe( map );
		expect( alerts( host ) ).toEqual( [ 'markers' ] );
		expect( fetched.some( ( url ) => url.includes( '/markers' ) ) ).toBe(
			false
		);
	} );
} );
