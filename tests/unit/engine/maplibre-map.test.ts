/**
 * `createMap()` with maplibre-gl: no token is needed and no token code appears, the map is made
 * with MapLibre's own options (request check, gesture locale), its labels are rewritten to the
 * editor's language, a request to a host the owner did not choose fails the map with `style`, and
 * a self-hosted map is drawn from a style built over its archive (an archive that cannot be read
 * is the `style` alert). maplibre-gl cannot run in jsdom (ES module only, WebGL 2): the library
 * here is a stand-in with maplibre-gl's API shape (promises, `addProtocol`, no `supported()`).
 */
import liberty from '../../fixtures/styles/openfreemap-liberty.json';
import { createMap } from '../../../packages/map/src/create-map';
import type { MapLib } from '../../../packages/map/src/types';
import { ensureWebApis, rangeFetch, tinyArchive } from './tiny-pmtiles';

ensureWebApis();

type Listener = ( event?: unknown ) => void;

class FakeMap {
	listeners: Record< string, Listener[] > = {};
	removed = 0;
	layout = new Map< string, Record< string, unknown > >();
	constructor( readonly options: Record< string, unknown > ) {
		for ( const layer of (
			liberty as {
				layers: Array< {
					id: string;
					layout?: Record< string, unknown >;
				} >;
			}
		 ).layers ) {
			this.layout.set( layer.id, { ...layer.layout } );
		}
		maps.push( this );
	}
	on( type: string, ...rest: unknown[] ) {
		( this.listeners[ type ] ??= [] ).push(
			rest[ rest.length - 1 ] as Listener
		);
		return this;
	}
	once( type: string, listener: Listener ) {
		return this.on( type, listener );
	}
	off() {
		return this;
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
	getCanvasContainer() {
		return this.getContainer();
	}
	getStyle() {
		return liberty;
	}
	getLayoutProperty( id: string, name: string ) {
		return this.layout.get( id )?.[ name ];
	}
	setLayoutProperty( id: string, name: string, value: unknown ) {
		const layout = this.layout.get( id );
		if ( layout ) {
			layout[ name ] = value;
		}
	}
	addControl() {
		return this;
	}
	hasControl() {
		return false;
	}
	request( url: string ) {
		const transform = this.options.transformRequest as (
			url: string,
			type?: string
		) => { url: string };
		return transform( url, 'Tile' ).url;
	}
}

let maps: FakeMap[] = [];
class Control {
	on() {
		return this;
	}
	off() {
		return this;
	}
}
const protocols: string[] = [];
const maplibre = {
	addProtocol: ( scheme: string ) => protocols.push( scheme ),
	setWorkerUrl: () => undefined,
	Map: FakeMap,
	Popup: class {},
	NavigationControl: Control,
	FullscreenControl: Control,
	GeolocateControl: Control,
	ScaleControl: Control,
} as unknown as MapLib;

const SITE = 'https://site.example';

function block() {
	const host = document.createElement( 'div' );
	host.innerHTML = '<div class="wp-block-cairn-map__map"></div>';
	document.body.appendChild( host );
	const container = host.firstElementChild as HTMLElement;
	return { host, container };
}

const alerts = ( host: HTMLElement ) =>
	Array.from( host.querySelectorAll( '[role="alert"]' ) ).map(
		( alert ) => ( alert as HTMLElement ).dataset.cairnError
	);

const openFreeMap = ( extra: Record< string, unknown > = {} ) => ( {
	engine: 'maplibre',
	accessToken: '',
	style: 'https://tiles.openfreemap.org/styles/liberty',
	basemap: {
		provider: 'openfreemap',
		glyphs: '',
		hosts: [ 'tiles.openfreemap.org' ],
		attribution: '',
	},
	...extra,
} );

const nextTurn = () => new Promise< void >( ( r ) => setImmediate( r ) );
async function until( condition: () => unknown ) {
	while ( ! condition() ) {
		await nextTurn();
	}
}

// jsdom has no WebGL 2: the adapter's probe is told it has.
const realGetContext = HTMLCanvasElement.prototype.getContext;
beforeEach( () => {
	maps = [];
	document.body.innerHTML = '';
	HTMLCanvasElement.prototype.getContext = ( () => ( {
		getExtension: () => null,
	} ) ) as unknown as HTMLCanvasElement[ 'getContext' ];
} );
afterAll( () => {
	HTMLCanvasElement.prototype.getContext = realGetContext;
} );

describe( 'createMap on maplibre-gl', () => {
	it( 'needs no token and makes the map with MapLibre’s own options', async () => {
		const { host, container } = block();
		const cairn = createMap( container, openFreeMap(), {
			host,
			mapLib: maplibre,
		} );
		// maplibre-gl's adapter comes with its own chunk.
		await until( () => maps.length > 0 );
		const [ map ] = maps;
		expect( map ).toBeDefined();
		expect( map?.options.accessToken ).toBeUndefined();
		expect( map?.options.style ).toBe(
			'https://tiles.openfreemap.org/styles/liberty'
		);
		expect( Object.keys( map?.options.locale as object ) ).toEqual(
			expect.arrayContaining( [
				'CooperativeGesturesHandler.WindowsHelpText',
				'CooperativeGesturesHandler.MobileHelpText',
			] )
		);
		map?.fire( 'style.load' );
		map?.fire( 'load' );
		await expect( cairn.ready ).resolves.toBe( map );
		expect( host.dataset.cairnState ).toBe( 'ready' );
		expect( alerts( host ) ).toEqual( [] );
	} );

	it( 'shows the labels in the editor’s language, and the page’s for `auto`', async () => {
		const { host, container } = block();
		createMap( container, openFreeMap( { language: 'de' } ), {
			host,
			mapLib: maplibre,
		} );
		await until( () => maps.length > 0 );
		maps[ 0 ]?.fire( 'style.load' );
		expect(
			maps[ 0 ]?.getLayoutProperty( 'label_city', 'text-field' )
		).toEqual( [ 'coalesce', [ 'get', 'name:de' ], [ 'get', 'name' ] ] );
		document.documentElement.lang = 'fr-FR';
		const second = block();
		createMap( second.container, openFreeMap( { language: 'auto' } ), {
			host: second.host,
			mapLib: maplibre,
		} );
		await until( () => maps.length > 1 );
		maps[ 1 ]?.fire( 'style.load' );
		expect(
			maps[ 1 ]?.getLayoutProperty( 'label_city', 'text-field' )
		).toEqual( [ 'coalesce', [ 'get', 'name:fr' ], [ 'get', 'name' ] ] );
		document.documentElement.lang = '';
	} );

	it( 'fails with `style`, never a token code, when the style answers 401', async () => {
		const { host, container } = block();
		const cairn = createMap( container, openFreeMap(), {
			host,
			mapLib: maplibre,
		} );
		await until( () => maps.length > 0 );
		maps[ 0 ]?.fire( 'error', { error: { status: 401 } } );
		await expect( cairn.ready ).rejects.toMatchObject( { code: 'style' } );
		expect( alerts( host ) ).toEqual( [ 'style' ] );
	} );

	it( 'refuses a request to a host the owner did not choose and fails the map with `style`', async () => {
		const { host, container } = block();
		const cairn = createMap( container, openFreeMap(), {
			host,
			mapLib: maplibre,
		} );
		await until( () => maps.length > 0 );
		const map = maps[ 0 ] as FakeMap;
		expect(
			map.request( 'https://tiles.openfreemap.org/planet/0/0/0.pbf' )
		).toBe( 'https://tiles.openfreemap.org/planet/0/0/0.pbf' );
		expect( map.request( 'https://tracker.example.com/0/0/0.pbf' ) ).toBe(
			'about:blank'
		);
		await expect( cairn.ready ).rejects.toMatchObject( { code: 'style' } );
		expect( alerts( host ) ).toEqual( [ 'style' ] );
		await until( () => map.removed > 0 );
	} );

	it( 'draws a self-hosted map from a style built over its archive', async () => {
		const requests: string[] = [];
		( globalThis as unknown as { fetch: unknown } ).fetch = rangeFetch(
			{ [ `${ SITE }/world.pmtiles` ]: tinyArchive() },
			requests
		);
		const { host, container } = block();
		createMap(
			container,
			{
				engine: 'maplibre',
				style: `pmtiles://${ SITE }/world.pmtiles`,
				basemap: {
					provider: 'self-hosted',
					glyphs: `${ SITE }/glyphs/{fontstack}/{range}.pbf`,
					hosts: [],
					attribution: '',
				},
			},
			{ host, mapLib: maplibre }
		);
		expect( host.dataset.cairnState ).toBe( 'loading' );
		await until( () => maps.length > 0 );
		const style = maps[ 0 ]?.options.style as {
			sources: Record< string, { url: string } >;
			glyphs: string;
		};
		expect( style.sources.protomaps?.url ).toBe(
			`pmtiles://${ SITE }/world.pmtiles`
		);
		expect( style.glyphs ).toBe(
			`${ SITE }/glyphs/{fontstack}/{range}.pbf`
		);
		expect( protocols ).toContain( 'pmtiles' );
		expect( requests.every( ( url ) => url.startsWith( SITE ) ) ).toBe(
			true
		);
	} );

	it( 'shows `style` for an archive that cannot be read, and makes no map', async () => {
		( globalThis as unknown as { fetch: unknown } ).fetch = rangeFetch( {
			[ `${ SITE }/truncated.pmtiles` ]: tinyArchive().slice( 0, 150 ),
		} );
		const { host, container } = block();
		const cairn = createMap(
			container,
			{
				engine: 'maplibre',
				style: `pmtiles://${ SITE }/truncated.pmtiles`,
			},
			{ host, mapLib: maplibre }
		);
		await expect( cairn.ready ).rejects.toMatchObject( { code: 'style' } );
		expect( alerts( host ) ).toEqual( [ 'style' ] );
		expect( maps ).toEqual( [] );
	} );
} );
