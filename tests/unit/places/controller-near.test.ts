/**
 * "Near a place" in the places controller, over the real places client (in jsdom the engine
 * answers on the page) and a stand-in for the map: a typed town through the site's geocoder, one
 * of the map's own place names when the geocoder finds nothing, the visitor's own position, what
 * the visitor is told when nothing is found or the lookup fails, the address that carries the
 * search (a new history entry, or the same one), the back button, and a page opened on a search.
 * The e2e spec front-near.spec.ts runs the same on mapbox-gl against the real site.
 */
import { act, createElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';

import { parseMapConfig } from '../../../packages/map/src/config';
import { createPlacesClient } from '../../../packages/map/src/places/client';
import {
	PlacesController,
	placesEngineOptions,
	type PlacesState,
} from '../../../packages/map/src/places/controller';
import { PlacesPanel } from '../../../packages/map/src/places/panel';
import type { PopupController } from '../../../packages/map/src/popup';
import { StandInMap, type BBox } from './stand-in-map';
import { untilState } from './until-state';

const PARIS: BBox = [ 2.2, 48.8, 2.4, 48.9 ];
const FEED_URL = 'https://example.test/feed';
const GEOCODE_URL = 'https://example.test/wp-json/cairn/v1/geocode/visitor';
/** Where the stand-in geocoder puts "Saint-Germain": Les Deux Magots. */
const SAINT_GERMAIN = { lng: 2.3333, lat: 48.8539 };

const FEED = {
	type: 'FeatureCollection',
	features: (
		[
			[ 1, 'Café de Flore', 2.3327, 48.854 ],
			[ 2, 'Les Deux Magots', 2.3333, 48.8539 ],
			[ 3, 'Jardin du Luxembourg', 2.3372, 48.8462 ],
			[ 4, 'Parc Monceau', 2.3088, 48.8795 ],
			[ 5, 'Vigeland Park', 10.7, 59.927 ],
		] as Array< [ number, string, number, number ] >
	 ).map( ( [ id, title, lng, lat ] ) => ( {
		type: 'Feature',
		id,
		geometry: { type: 'Point', coordinates: [ lng, lat ] },
		properties: { title, groups: [] },
	} ) ),
};

/** What the stand-in geocoder answers for a query: a status and a body. */
let geocoder: ( q: string ) => { status: number; body: unknown };
let asked: string[] = [];

beforeEach( () => {
	asked = [];
	geocoder = ( q ) =>
		q === 'Saint-Germain'
			? { status: 200, body: { results: [ SAINT_GERMAIN ] } }
			: { status: 200, body: { results: [] } };
	( globalThis as unknown as { fetch: unknown } ).fetch = jest.fn(
		async ( url: string ) => {
			asked.push( url );
			const { status, body } = url.startsWith( GEOCODE_URL )
				? geocoder( new URL( url ).searchParams.get( 'q' ) ?? '' )
				: { status: 200, body: FEED };
			return { ok: status < 300, status, json: async () => body };
		}
	);
	document.body.innerHTML = '';
	document.documentElement.lang = 'en';
	window.history.replaceState( null, '', '/maps/' );
} );

(
	globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }
 ).IS_REACT_ACT_ENVIRONMENT = true;

const started: PlacesController[] = [];
const roots: Root[] = [];
afterEach( () => {
	roots.splice( 0 ).forEach( ( root ) => act( () => root.unmount() ) );
	started.splice( 0 ).forEach( ( places ) => places.destroy() );
	delete ( window.navigator as { geolocation?: unknown } ).geolocation;
} );

function start(
	config: Record< string, unknown > = {},
	{ panel = false } = {}
) {
	const parsed = parseMapConfig( {
		markersUrl: FEED_URL,
		geocoder: 'site',
		geocodeUrl: GEOCODE_URL,
		...config,
	} );
	const host = document.createElement( 'div' );
	host.className = 'wp-block-cairn-map';
	document.body.appendChild( host );
	const map = new StandInMap( PARIS );
	const client = createPlacesClient();
	const places = new PlacesController( {
		map: map as never,
		host,
		config: parsed,
		client,
		popups: { open: jest.fn() } as unknown as PopupController,
		loading: client.load(
			parsed.markersUrl,
			placesEngineOptions( parsed )
		),
		onError: jest.fn(),
		onLoaded: () => undefined,
		onFirstDraw: () => undefined,
	} );
	started.push( places );
	if ( panel ) {
		const region = document.createElement( 'div' );
		region.className = 'wp-block-cairn-map__places';
		host.appendChild( region );
		const root = createRoot( region );
		roots.push( root );
		act( () => root.render( createElement( PlacesPanel, { places } ) ) );
	}
	const until = ( condition: ( state: PlacesState ) => boolean ) =>
		untilState( places, condition );
	const ready = () =>
		until( ( state ) => state.status === 'ready' && state.list.total > 0 );
	const status = () =>
		host.querySelector( '[role="status"]' )?.textContent ?? '';
	const ids = () => places.getState().list.items.map( ( item ) => item.id );
	return { places, map, host, ready, until, status, ids };
}

const address = () => new URL( window.location.href );

describe( 'near a typed place', () => {
	it( 'asks the site’s geocoder, lists the places within the radius nearest first, announces them and writes the address', async () => {
		const { places, map, ready, until, status, ids } = start();
		await ready();
		const entries = window.history.length;
		await act( () => places.searchNear( '  Saint-Germain ', 1000 ) );
		await until( ( state ) => state.mode === 'near' );
		expect( places.getState() ).toMatchObject( {
			near: { ...SAINT_GERMAIN, radius: 1000, text: 'Saint-Germain' },
			nearStatus: 'idle',
			mode: 'near',
		} );
		// Les Deux Magots (0 m), Café de Flore (≈ 60 m), Jardin du Luxembourg (≈ 900 m).
		expect( ids() ).toEqual( [ 2, 1, 3 ] );
		expect( status() ).toBe( '3 places within 1 km of “Saint-Germain”.' );
		expect(
			asked.filter( ( url ) => url.startsWith( GEOCODE_URL ) )
		).toEqual( [ `${ GEOCODE_URL }?q=Saint-Germain` ] );
		// The map fits the places found.
		expect( map.fitBounds ).toHaveBeenLastCalledWith(
			[
				[ 2.3327, 48.8462 ],
				[ 2.3372, 48.854 ],
			],
			expect.objectContaining( { padding: 40 } ),
			expect.anything()
		);
		// A new history entry: the back button undoes the search.
		expect( window.history.length ).toBe( entries + 1 );
		expect( address().searchParams.get( 'cairn-near' ) ).toBe(
			'2.3333,48.8539|Saint-Germain'
		);
		expect( address().searchParams.get( 'cairn-radius' ) ).toBe( '1' );
	} );

	it( 'falls back on the map’s own place names when the geocoder finds nothing', async () => {
		const { places, ready, until, ids } = start();
		await ready();
		await act( () => places.searchNear( 'Vigeland', 5000 ) );
		await until( ( state ) => state.mode === 'near' );
		expect( places.getState().near ).toEqual( {
			lng: 10.7,
			lat: 59.927,
			radius: 5000,
			text: 'Vigeland',
		} );
		expect( ids() ).toEqual( [ 5 ] );
	} );

	it( 'says so when no place has that name, and keeps the map as it was', async () => {
		const { places, ready, until, status } = start();
		await ready();
		const before = window.location.href;
		await act( () => places.searchNear( 'Atlantis', 5000 ) );
		await until( ( state ) => state.nearStatus === 'not-found' );
		expect( status() ).toBe( 'No place called “Atlantis” was found.' );
		expect( places.getState().near ).toBeNull();
		expect( window.location.href ).toBe( before );
	} );

	it( 'says so when the lookup fails', async () => {
		geocoder = () => ( { status: 429, body: { code: 'rate' } } );
		const { places, ready, until, status } = start();
		await ready();
		await act( () => places.searchNear( 'Saint-Germain', 5000 ) );
		await until( ( state ) => state.nearStatus === 'failed' );
		expect( status() ).toBe(
			'The place could not be looked up. Try again later.'
		);
		expect( places.getState().near ).toBeNull();
	} );

	it( 'an empty text clears the search: every place again, and the address without it', async () => {
		const { places, ready, until, ids } = start();
		await ready();
		await act( () => places.searchNear( 'Saint-Germain', 1000 ) );
		await until( ( state ) => state.mode === 'near' );
		await act( () => places.searchNear( '   ', 1000 ) );
		await until( ( state ) => state.mode !== 'near' );
		expect( places.getState().near ).toBeNull();
		expect( address().searchParams.has( 'cairn-near' ) ).toBe( false );
		expect( address().searchParams.has( 'cairn-radius' ) ).toBe( false );
		expect( ids() ).toEqual( [ 1, 3, 2, 4 ] );
		// Nothing to clear: no history entry.
		const entries = window.history.length;
		act( () => places.clearNear() );
		expect( window.history.length ).toBe( entries );
		expect( places.getState().nearStatus ).toBe( 'idle' );
	} );

	it( 'rewrites the current history entry when asked to (a search the page was opened with)', async () => {
		const { places, ready, until } = start();
		await ready();
		const entries = window.history.length;
		await act( () => places.searchNear( 'Saint-Germain', 0, false, true ) );
		await until( ( state ) => state.mode === 'near' );
		expect( window.history.length ).toBe( entries );
		expect( address().searchParams.get( 'cairn-near' ) ).toBe(
			'2.3333,48.8539|Saint-Germain'
		);
		// Any distance: no radius in the address, every place nearest first.
		expect( address().searchParams.has( 'cairn-radius' ) ).toBe( false );
	} );
} );

describe( 'near the visitor', () => {
	it( 'asks the browser for the position, and with any distance centres the map there, close enough to see', async () => {
		const getCurrentPosition = jest.fn<
			void,
			[ ( position: unknown ) => void, unknown?, PositionOptions? ]
		>( ( found ) =>
			found( { coords: { longitude: 2.3088, latitude: 48.8795 } } )
		);
		( window.navigator as { geolocation?: unknown } ).geolocation = {
			getCurrentPosition,
		};
		const { places, map, ready, until, status, ids } = start();
		await ready();
		map.jumpTo.mockClear();
		await act( () => places.searchNear( '', 0, true ) );
		await until( ( state ) => state.mode === 'near' );
		expect( getCurrentPosition ).toHaveBeenCalledTimes( 1 );
		expect( getCurrentPosition.mock.calls[ 0 ]![ 2 ] ).toMatchObject( {
			maximumAge: 60_000,
		} );
		expect( places.getState().near ).toEqual( {
			lng: 2.3088,
			lat: 48.8795,
			radius: 0,
			text: '',
		} );
		expect( ids()[ 0 ] ).toBe( 4 );
		expect( status() ).toBe( '5 places, nearest to you first.' );
		expect( map.jumpTo ).toHaveBeenLastCalledWith(
			{ center: [ 2.3088, 48.8795 ], zoom: 10 },
			expect.anything()
		);
		expect( address().searchParams.get( 'cairn-near' ) ).toBe(
			'2.3088,48.8795|'
		);
		// The visitor's position never reaches the geocoder.
		expect( asked.some( ( url ) => url.startsWith( GEOCODE_URL ) ) ).toBe(
			false
		);
	} );

	it( 'says so when the browser has no position to give', async () => {
		const { places, ready, until, status } = start();
		await ready();
		await act( () => places.searchNear( '', 5000, true ) );
		await until( ( state ) => state.nearStatus === 'failed' );
		expect( status() ).toBe( 'Your location is not available.' );
	} );
} );

describe( 'the search in the address', () => {
	it( 'back takes the search away and forward brings it back (popstate)', async () => {
		const { places, ready, until, ids } = start();
		await ready();
		await act( () => places.searchNear( 'Saint-Germain', 1000 ) );
		await until( ( state ) => state.mode === 'near' );
		const searched = window.location.href;
		window.history.replaceState( null, '', '/maps/' );
		window.dispatchEvent( new PopStateEvent( 'popstate' ) );
		await until(
			( state ) => state.near === null && state.mode !== 'near'
		);
		expect( ids() ).toEqual( [ 1, 3, 2, 4 ] );
		window.history.replaceState( null, '', searched );
		window.dispatchEvent( new PopStateEvent( 'popstate' ) );
		await until( ( state ) => state.mode === 'near' );
		expect( ids() ).toEqual( [ 2, 1, 3 ] );
	} );

	it( 'a page opened on a search shows it without asking the geocoder', async () => {
		window.history.replaceState(
			null,
			'',
			'/maps/?cairn-near=2.3333,48.8539|Saint-Germain&cairn-radius=1'
		);
		const { places, until, ids } = start();
		await until(
			( state ) => state.mode === 'near' && state.list.total > 0
		);
		expect( places.getState().near ).toEqual( {
			...SAINT_GERMAIN,
			radius: 1000,
			text: 'Saint-Germain',
		} );
		expect( ids() ).toEqual( [ 2, 1, 3 ] );
		expect( asked.some( ( url ) => url.startsWith( GEOCODE_URL ) ) ).toBe(
			false
		);
	} );

	it( 'a page opened on a typed name alone (the no-JavaScript form’s) looks it up and puts the point in the same entry', async () => {
		window.history.replaceState(
			null,
			'',
			'/maps/?cairn-near=Saint-Germain&cairn-radius=1'
		);
		const entries = window.history.length;
		const { until, ids } = start();
		await until(
			( state ) => state.mode === 'near' && state.list.total > 0
		);
		expect( ids() ).toEqual( [ 2, 1, 3 ] );
		expect( window.history.length ).toBe( entries );
		expect( address().searchParams.get( 'cairn-near' ) ).toBe(
			'2.3333,48.8539|Saint-Germain'
		);
	} );
} );

describe( 'the panel’s Near form', () => {
	/** Sets a form field's value as typing or choosing would, so React sees it. */
	function enter(
		field: HTMLInputElement | HTMLSelectElement,
		value: string
	) {
		const prototype =
			field instanceof HTMLSelectElement
				? HTMLSelectElement.prototype
				: HTMLInputElement.prototype;
		Object.getOwnPropertyDescriptor( prototype, 'value' )!.set!.call(
			field,
			value
		);
		field.dispatchEvent(
			new Event(
				field instanceof HTMLSelectElement ? 'change' : 'input',
				{
					bubbles: true,
				}
			)
		);
	}

	function form( host: HTMLElement ) {
		const near = host.querySelector< HTMLFormElement >(
			'form.wp-block-cairn-map__near'
		)!;
		const byLabel = ( text: string ) => {
			const label = Array.from( near.querySelectorAll( 'label' ) ).find(
				( element ) => element.textContent === text
			)!;
			return near.ownerDocument.getElementById(
				label.htmlFor
			) as HTMLInputElement & HTMLSelectElement;
		};
		const button = ( text: string ) =>
			Array.from( near.querySelectorAll( 'button' ) ).find(
				( element ) => element.textContent === text
			);
		return {
			near,
			text: byLabel( 'Near' ),
			radius: byLabel( 'within' ),
			button,
		};
	}

	it( 'offers any distance and 1–100 in the map’s units, finds what is typed, and clears it', async () => {
		const { places, host, ready, until, ids } = start(
			{ units: 'imperial' },
			{ panel: true }
		);
		await ready();
		const { near, text, radius, button } = form( host );
		expect( near.getAttribute( 'role' ) ).toBe( 'search' );
		expect( near.getAttribute( 'aria-label' ) ).toBe( 'Places near' );
		expect(
			Array.from( radius.options ).map( ( option ) => option.textContent )
		).toEqual( [
			'any distance',
			'1 mi',
			'5 mi',
			'10 mi',
			'25 mi',
			'50 mi',
			'100 mi',
		] );
		expect( button( 'Clear' ) ).toBeUndefined();
		act( () => enter( text, 'Saint-Germain' ) );
		act( () => enter( radius, radius.options[ 1 ]!.value ) );
		await act( async () => {
			near.requestSubmit();
		} );
		await until( ( state ) => state.mode === 'near' );
		expect( places.getState().near ).toMatchObject( {
			text: 'Saint-Germain',
			radius: 1609,
		} );
		expect( ids() ).toEqual( [ 2, 1, 3 ] );
		expect(
			host.querySelector( '.wp-block-cairn-map__list-title' )?.textContent
		).toBe( 'Places within 1 mi of “Saint-Germain”, nearest first' );

		// Another distance searches again at once.
		act( () => enter( radius, radius.options[ 2 ]!.value ) );
		await until( ( state ) => state.near?.radius === 8047 );
		expect( form( host ).radius.value ).toBe( '8047' );

		await act( async () => {
			form( host ).button( 'Clear' )!.click();
		} );
		await until(
			( state ) => state.near === null && state.mode !== 'near'
		);
		expect( form( host ).text.value ).toBe( '' );
		expect( form( host ).button( 'Clear' ) ).toBeUndefined();
	} );

	it( 'says in the form when nothing is found or the lookup fails', async () => {
		const { host, ready, until } = start( {}, { panel: true } );
		await ready();
		const { near, text } = form( host );
		act( () => enter( text, 'Atlantis' ) );
		await act( async () => {
			near.requestSubmit();
		} );
		await until( ( state ) => state.nearStatus === 'not-found' );
		expect(
			host.querySelector( '.wp-block-cairn-map__near-status' )
				?.textContent
		).toBe(
			'No such place was found. Try a town, a postcode or a fuller address.'
		);
		geocoder = () => ( { status: 500, body: {} } );
		act( () => enter( form( host ).text, 'Saint-Germain' ) );
		await act( async () => {
			form( host ).near.requestSubmit();
		} );
		await until( ( state ) => state.nearStatus === 'failed' );
		expect(
			host.querySelector( '.wp-block-cairn-map__near-status' )
				?.textContent
		).toBe( 'The place could not be looked up. Try again later.' );
	} );

	it( '“My location” searches near the visitor, and the fields show a search the address brings', async () => {
		( window.navigator as { geolocation?: unknown } ).geolocation = {
			getCurrentPosition: ( found: ( position: unknown ) => void ) =>
				found( { coords: { longitude: 2.3088, latitude: 48.8795 } } ),
		};
		const { host, ready, until } = start( {}, { panel: true } );
		await ready();
		await act( async () => {
			form( host ).button( 'My location' )!.click();
		} );
		await until( ( state ) => state.mode === 'near' );
		expect(
			host.querySelector( '.wp-block-cairn-map__list-title' )?.textContent
		).toBe( 'Places, nearest first' );
		window.history.replaceState(
			null,
			'',
			'/maps/?cairn-near=2.3333,48.8539|Saint-Germain&cairn-radius=25'
		);
		await act( async () => {
			window.dispatchEvent( new PopStateEvent( 'popstate' ) );
		} );
		await until( ( state ) => state.near?.text === 'Saint-Germain' );
		expect( form( host ).text.value ).toBe( 'Saint-Germain' );
		expect( form( host ).radius.value ).toBe( '25000' );
		expect(
			host.querySelector( '.wp-block-cairn-map__list-title' )?.textContent
		).toBe( 'Places within 25 km of “Saint-Germain”, nearest first' );
	} );
} );
