/**
 * The places controller and its panel, over the real places client (in jsdom no Worker starts, so
 * the engine answers on the page) and a stand-in for the map that records what it is asked: the
 * list modes, the empty states, "Show all results on the map", distances in the site's units and
 * a cluster opened while a group is hidden. The e2e specs run the same with mapbox-gl.
 */
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { resetLocaleData, setLocaleData } from '@wordpress/i18n';

import { parseMapConfig } from '../../../packages/map/src/config';
import { createPlacesClient } from '../../../packages/map/src/places/client';
import {
	PlacesController,
	placesEngineOptions,
	viewBox,
	type PlacesChangeDetail,
	type PlacesState,
} from '../../../packages/map/src/places/controller';
import {
	PlacesPanel,
	formatDistance,
} from '../../../packages/map/src/places/panel';
import type { LoadResult } from '../../../packages/map/src/places/engine';
import type { PopupController } from '../../../packages/map/src/popup';
import { StandInMap, type BBox } from './stand-in-map';
import { untilState } from './until-state';

(
	globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }
 ).IS_REACT_ACT_ENVIRONMENT = true;

const PARIS: BBox = [ 2.2, 48.8, 2.4, 48.9 ];
const OSLO: BBox = [ 10.6, 59.85, 10.85, 59.97 ];
const ATLANTIC: BBox = [ -40, 20, -30, 30 ];

/** The address of a feed without the place that has no group. */
const GROUPED = 'https://example.test/feed?grouped';
/** The address of a feed without the cafés. */
const NO_CAFES = 'https://example.test/feed?no-cafes';
/** The address of a feed of 60 places in Paris. */
const MANY = 'https://example.test/feed?many';

const FEED = {
	type: 'FeatureCollection',
	features: (
		[
			[ 1, 'Café de Flore', 2.3327, 48.854, [ 'cafes' ] ],
			[ 2, 'Les Deux Magots', 2.3333, 48.8539, [ 'cafes' ] ],
			[ 3, 'Jardin du Luxembourg', 2.3372, 48.8462, [ 'parks' ] ],
			[ 4, 'Parc Monceau', 2.3088, 48.8795, [ 'parks' ] ],
			[ 5, 'Vigeland Park', 10.7, 59.927, [ 'parks' ] ],
			[ 6, 'Oslo Opera House', 10.7528, 59.9075, [] ],
		] as Array< [ number, string, number, number, string[] ] >
	 ).map( ( [ id, title, lng, lat, groups ] ) => ( {
		type: 'Feature',
		id,
		geometry: { type: 'Point', coordinates: [ lng, lat ] },
		properties: { title, groups },
	} ) ),
};

function feedAt( url: string ) {
	if ( url === MANY ) {
		return {
			...FEED,
			features: Array.from( { length: 60 }, ( _, index ) => ( {
				type: 'Feature',
				id: index + 1,
				geometry: {
					type: 'Point',
					coordinates: [ 2.3 + index / 1000, 48.85 ],
				},
				properties: {
					title: `Place ${ String( index + 1 ).padStart( 2, '0' ) }`,
					groups: [],
				},
			} ) ),
		};
	}
	const keep = ( groups: string[] ) =>
		( url !== GROUPED || groups.length > 0 ) &&
		( url !== NO_CAFES || ! groups.includes( 'cafes' ) );
	return {
		...FEED,
		features: FEED.features.filter( ( feature ) =>
			keep( feature.properties.groups )
		),
	};
}

let fetched: string[] = [];
beforeEach( () => {
	fetched = [];
	( globalThis as unknown as { fetch: unknown } ).fetch = jest.fn(
		async ( url: string ) => {
			fetched.push( url );
			const body = feedAt( url );
			return { ok: true, status: 200, json: async () => body };
		}
	);
	document.body.innerHTML = '';
	document.documentElement.lang = 'en';
} );

const mounted: Array< { root: Root | null; places: PlacesController } > = [];
afterEach( () => {
	for ( const { root, places } of mounted.splice( 0 ) ) {
		if ( root ) {
			act( () => root.unmount() );
		}
		places.destroy();
	}
} );

function start(
	config: Record< string, unknown > = {},
	{ panel = false } = {}
) {
	const parsed = parseMapConfig( {
		markersUrl: 'https://example.test/feed',
		groupStyles: [
			{ slug: 'cafes', name: 'Cafés', color: '#112233' },
			{ slug: 'parks', name: 'Parks' },
		],
		...config,
	} );
	const host = document.createElement( 'div' );
	host.className = 'wp-block-cairn-map';
	document.body.appendChild( host );
	const map = new StandInMap( PARIS );
	const client = createPlacesClient();
	const popups = { open: jest.fn() };
	const onError = jest.fn();
	const places = new PlacesController( {
		map: map as never,
		host,
		config: parsed,
		client,
		popups: popups as unknown as PopupController,
		loading: client.load(
			parsed.markersUrl,
			placesEngineOptions( parsed )
		),
		onError,
		onLoaded: () => undefined,
		onFirstDraw: () => undefined,
	} );
	let root: Root | null = null;
	if ( panel ) {
		const region = document.createElement( 'div' );
		region.className = 'wp-block-cairn-map__places';
		host.appendChild( region );
		root = createRoot( region );
		act( () => root!.render( <PlacesPanel places={ places } /> ) );
	}
	mounted.push( { root, places } );
	const empty = places.getState().list;
	/**
	 * Resolves once the state satisfies the condition (checked at once and on every change).
	 * @param condition
	 */
	const until = ( condition: ( state: PlacesState ) => boolean ) =>
		untilState( places, condition );
	/** The first list, once the places are in. */
	const listed = () =>
		until( ( state ) => state.status === 'ready' && state.list !== empty );
	/**
	 * Does something, and resolves with what the page is told once the list and the map show it.
	 * @param action
	 */
	const change = ( action: () => void ) =>
		act(
			() =>
				new Promise< PlacesChangeDetail >( ( resolve ) => {
					host.addEventListener(
						'cairn:places-change',
						( event ) => resolve( ( event as CustomEvent ).detail ),
						{ once: true }
					);
					action();
				} )
		);
	const status = () =>
		host.querySelector( '[role="status"]' )?.textContent ?? '';
	const text = ( selector: string ) =>
		host.querySelector( selector )?.textContent ?? null;
	return {
		places,
		map,
		host,
		popups,
		onError,
		until,
		listed,
		change,
		status,
		text,
	};
}

const ids = ( state: PlacesState ) =>
	state.list.items.map( ( item ) => item.id );

describe( 'places controller: what the list shows', () => {
	it( 'follows the map: the places in view, by title, announced after each move', async () => {
		const { places, map, until, listed, change, status } = start();
		await listed();
		expect( places.getState() ).toMatchObject( {
			mode: 'view',
			total: 6,
			matches: 6,
		} );
		expect( ids( places.getState() ) ).toEqual( [ 1, 3, 2, 4 ] );
		expect( fetched ).toEqual( [ 'https://example.test/feed' ] );
		const detail = await change( () => map.moveTo( OSLO ) );
		expect( detail ).toEqual( {
			search: '',
			hiddenGroups: [],
			total: 6,
			inView: 2,
			mode: 'view',
		} );
		expect( ids( places.getState() ) ).toEqual( [ 6, 5 ] );
		expect( status() ).toBe( '2 places in view.' );
		// Its own moves (flying to a chosen place) leave the list as it is.
		const before = places.getState().list;
		map.bbox = ATLANTIC;
		map.fire( 'moveend', { cairnPlaces: true } );
		expect( places.getState().list ).toBe( before );
		// A page of the list is the view's as it is now.
		places.setPage( 0 );
		await until( ( state ) => state.list !== before );
		expect( places.getState().list.total ).toBe( 0 );
	} );

	it( 'lists every place when it does not follow the map', async () => {
		const { places, map, listed, change, status } = start( {
			places: { followMap: false },
		} );
		await listed();
		expect( places.getState().mode ).toBe( 'all' );
		expect( ids( places.getState() ) ).toEqual( [ 1, 3, 2, 6, 4, 5 ] );
		const detail = await change( () => map.moveTo( ATLANTIC ) );
		expect( detail ).toMatchObject( { mode: 'all', inView: 6 } );
		expect( status() ).toBe( '6 places.' );
	} );

	it( 'lists the matches of a search wherever they are, and the view again once it is cleared', async () => {
		const { places, listed, change, status } = start();
		await listed();
		const detail = await change( () => places.setSearch( 'OSLO' ) );
		expect( detail ).toMatchObject( {
			search: 'OSLO',
			mode: 'search',
			total: 1,
			inView: 1,
		} );
		expect( ids( places.getState() ) ).toEqual( [ 6 ] );
		expect( status() ).toBe( '1 place matches “OSLO”.' );
		await change( () => places.setSearch( '' ) );
		expect( places.getState().mode ).toBe( 'view' );
		expect( ids( places.getState() ) ).toEqual( [ 1, 3, 2, 4 ] );
	} );

	it( 'hides a group from the list, the count and the map', async () => {
		const { places, map, listed, change, status } = start();
		await listed();
		const drawnCount = () =>
			map.drawn.reduce(
				( sum, feature ) =>
					sum + ( feature.properties.point_count ?? 1 ),
				0
			);
		// The map's source holds the places around the view (Paris).
		expect( drawnCount() ).toBe( 4 );
		const detail = await change( () => places.toggleGroup( 'cafes' ) );
		expect( detail ).toMatchObject( {
			hiddenGroups: [ 'cafes' ],
			total: 4,
			inView: 2,
		} );
		expect( ids( places.getState() ) ).toEqual( [ 3, 4 ] );
		expect( status() ).toBe( '2 places in view, 1 group hidden.' );
		expect( drawnCount() ).toBe( 2 );
		// A group the map does not have changes nothing.
		places.toggleGroup( 'nope' );
		expect( places.getState().hidden ).toEqual( [ 'cafes' ] );
		await change( () => places.showAllGroups() );
		expect( places.getState().hidden ).toEqual( [] );
		expect( ids( places.getState() ) ).toEqual( [ 1, 3, 2, 4 ] );
	} );

	it( 'reports a feed that cannot be read, and lists nothing', async () => {
		( globalThis as unknown as { fetch: unknown } ).fetch = jest.fn(
			async () => ( { ok: false, status: 500, json: async () => ( {} ) } )
		);
		const { places, onError, until } = start();
		await until( ( state ) => state.status === 'error' );
		expect( onError ).toHaveBeenCalledTimes( 1 );
		expect( places.getState().list.items ).toEqual( [] );
	} );
} );

describe( 'places panel', () => {
	it.each( [
		[
			'the view holds no place',
			{},
			[ ( map: StandInMap ) => map.moveTo( ATLANTIC ) ],
			'No places in view. Zoom out or move the map.',
		],
		[
			'nothing matches the search',
			{},
			[
				( _map: StandInMap, places: PlacesController ) =>
					places.setSearch( 'zzz' ),
			],
			'No place matches your search.',
		],
		[
			'every group is hidden',
			// Every place in a group (a place without one is always shown).
			{ places: { followMap: false }, markersUrl: GROUPED },
			[
				( _map: StandInMap, places: PlacesController ) =>
					places.toggleGroup( 'cafes' ),
				( _map: StandInMap, places: PlacesController ) =>
					places.toggleGroup( 'parks' ),
			],
			'No places to show.',
		],
	] )( 'says so when %s', async ( _label, config, steps, message ) => {
		const { places, map, listed, change, text } = start( config, {
			panel: true,
		} );
		await listed();
		expect( text( '.wp-block-cairn-map__empty' ) ).toBeNull();
		for ( const step of steps ) {
			await change( () => step( map, places ) );
		}
		expect( text( '.wp-block-cairn-map__empty' ) ).toBe( message );
		expect( text( '.wp-block-cairn-map__list' ) ).toBeNull();
	} );

	it( '"Show all results on the map" fits the map to every match, in view or not', async () => {
		const { places, map, host, listed, change } = start(
			{},
			{ panel: true }
		);
		await listed();
		const fit = () =>
			host.querySelector< HTMLButtonElement >(
				'.wp-block-cairn-map__fit'
			);
		expect( fit() ).toBeNull();
		await change( () => places.setSearch( 'park' ) );
		// The places of the group "Parks" (Vigeland Park's title too).
		expect( places.getState().matches ).toBe( 3 );
		act( () => fit()!.click() );
		expect( map.fitBounds ).toHaveBeenCalledTimes( 1 );
		const [ bounds, options ] = map.fitBounds.mock.calls[ 0 ]!;
		// Parc Monceau and the Luxembourg (group "Parks") to Vigeland Park.
		expect( bounds ).toEqual( [
			[ 2.3088, 48.8462 ],
			[ 10.7, 59.927 ],
		] );
		expect( options ).toMatchObject( { padding: 40 } );
		// A hidden group offers it too, for what stays shown.
		await change( () => places.setSearch( '' ) );
		expect( fit() ).toBeNull();
		await change( () => places.toggleGroup( 'parks' ) );
		act( () => fit()!.click() );
		expect( map.fitBounds.mock.calls[ 1 ]![ 0 ] ).toEqual( [
			[ 2.3327, 48.8539 ],
			[ 10.7528, 59.9075 ],
		] );
	} );

	it( 'lists nearest first with distances in feet and miles on an imperial site', async () => {
		const { places, host, listed, change } = start(
			{ units: 'imperial', places: { followMap: false } },
			{ panel: true }
		);
		await listed();
		expect(
			host.querySelector( '.wp-block-cairn-map__distance' )
		).toBeNull();
		// Standing at the Café de Flore.
		await change( () => places.setOrigin( { lng: 2.3327, lat: 48.8541 } ) );
		const entries = Array.from(
			host.querySelectorAll< HTMLElement >( 'li[data-cairn-marker-id]' )
		);
		expect(
			entries.map(
				( entry ) =>
					entry.querySelector( '.wp-block-cairn-map__distance' )
						?.textContent
			)
		).toEqual( [
			' — 36 ft',
			' — 161 ft',
			' — 0.6 mi',
			' — 2.1 mi',
			' — 834 mi',
			' — 834 mi',
		] );
		expect( ids( places.getState() ) ).toEqual( [ 1, 2, 3, 4, 6, 5 ] );
		expect(
			entries[ 0 ]!
				.querySelector( ':scope > button' )!
				.getAttribute( 'aria-label' )
		).toBe( 'Show Café de Flore on the map, 36 ft away' );
		expect( textOf( host, '.wp-block-cairn-map__list-title' ) ).toBe(
			'Places, nearest first'
		);
	} );
} );

function textOf( host: HTMLElement, selector: string ) {
	return host.querySelector( selector )?.textContent ?? null;
}

describe( 'formatDistance', () => {
	it.each< [ number, 'metric' | 'imperial', string ] >( [
		[ 12, 'metric', '10 m' ],
		[ 999, 'metric', '1,000 m' ],
		[ 1000, 'metric', '1 km' ],
		[ 9_940, 'metric', '9.9 km' ],
		[ 12_345, 'metric', '12 km' ],
		[ 30, 'imperial', '98 ft' ],
		[ 160, 'imperial', '525 ft' ],
		[ 161, 'imperial', '0.1 mi' ],
		[ 16_000, 'imperial', '9.9 mi' ],
		[ 16_100, 'imperial', '10 mi' ],
	] )( '%p m, %s: %s', ( metres, units, expected ) => {
		expect( formatDistance( metres, units, 'en' ) ).toBe( expected );
	} );
} );

describe( 'places controller: clusters', () => {
	it( 'opens a cluster drawn while a group is hidden: the map eases to where it breaks apart', async () => {
		const { places, map, listed, change } = start();
		await listed();
		await change( () => places.toggleGroup( 'cafes' ) );
		await change( () => map.moveTo( [ -20, 30, 30, 70 ], 5 ) );
		const cluster = map.drawn.find(
			( feature ) => feature.properties.cluster
		);
		// The Luxembourg and Monceau: the cafés are out of it.
		expect( cluster?.properties.point_count ).toBe( 2 );
		await act( () =>
			places.expandCluster(
				cluster!.properties.cluster_id!,
				cluster!.geometry.coordinates
			)
		);
		expect( map.easeTo ).toHaveBeenCalledTimes( 1 );
		const [ { center, zoom } ] = map.easeTo.mock.calls[ 0 ]!;
		expect( center ).toEqual( cluster!.geometry.coordinates );
		expect( zoom ).toBeGreaterThan( 5 );
	} );
} );

describe( 'places panel: what the visitor uses', () => {
	const click = ( element: Element | null | undefined ) =>
		act( () => ( element as HTMLElement ).click() );
	const button = ( host: HTMLElement, name: string ) =>
		Array.from( host.querySelectorAll( 'button' ) ).find(
			( item ) => item.textContent === name
		);

	it( 'offers search and the legend only where there is something to choose', async () => {
		const full = start( { languages: [ 'en', 'de' ] }, { panel: true } );
		await full.listed();
		expect( full.text( 'h2' ) ).toBe( '6 places on this map' );
		expect(
			full.host.querySelector( 'input[type="search"]' )
		).not.toBeNull();
		expect(
			Array.from(
				full.host.querySelectorAll( '[data-cairn-group]' ),
				( item ) => [
					item.getAttribute( 'data-cairn-group' ),
					item.getAttribute( 'aria-pressed' ),
					item.textContent,
				]
			)
		).toEqual( [
			[ 'cafes', 'true', 'Cafés (2)' ],
			[ 'parks', 'true', 'Parks (3)' ],
		] );
		expect(
			Array.from(
				full.host.querySelectorAll(
					'.wp-block-cairn-map__language select option'
				),
				( option ) => ( option as HTMLOptionElement ).value
			)
		).toEqual( [ '', 'en', 'de' ] );
		const bare = start(
			{ places: { search: false, groupFilter: false } },
			{ panel: true }
		);
		await bare.listed();
		expect( bare.host.querySelector( 'input' ) ).toBeNull();
		expect( bare.host.querySelector( '[data-cairn-group]' ) ).toBeNull();
		expect( bare.host.querySelector( 'select' ) ).toBeNull();
		// One group: no legend.
		const one = start( { markersUrl: NO_CAFES }, { panel: true } );
		await one.listed();
		expect( one.host.querySelector( '[data-cairn-group]' ) ).toBeNull();
	} );

	it( 'searches as the visitor types; Escape clears the search', async () => {
		const { places, host, listed, change, text } = start(
			{},
			{ panel: true }
		);
		await listed();
		const input = host.querySelector< HTMLInputElement >(
			'input[type="search"]'
		)!;
		const type = ( value: string ) => {
			// React listens to the native input event, with the value set the native way.
			Object.getOwnPropertyDescriptor(
				HTMLInputElement.prototype,
				'value'
			)!.set!.call( input, value );
			input.dispatchEvent( new Event( 'input', { bubbles: true } ) );
		};
		await change( () => type( 'monceau' ) );
		expect( places.getState().search ).toBe( 'monceau' );
		expect( text( '.wp-block-cairn-map__list-title' ) ).toBe(
			'Matching places'
		);
		expect( text( '.wp-block-cairn-map__list' ) ).toBe(
			'Parc MonceauParks'
		);
		const escape = () =>
			new KeyboardEvent( 'keydown', {
				key: 'Escape',
				bubbles: true,
				cancelable: true,
			} );
		const first = escape();
		await change( () => input.dispatchEvent( first ) );
		expect( first.defaultPrevented ).toBe( true );
		expect( input.value ).toBe( '' );
		expect( places.getState().search ).toBe( '' );
		expect( text( '.wp-block-cairn-map__list-title' ) ).toBe(
			'Places in view'
		);
		// Escape in an empty field is the page's (a dialog around the map may close).
		const second = escape();
		act( () => {
			input.dispatchEvent( second );
		} );
		expect( second.defaultPrevented ).toBe( false );
	} );

	it( 'toggles groups with their buttons, and shows them all again', async () => {
		const { places, host, listed, change } = start( {}, { panel: true } );
		await listed();
		const cafes = host.querySelector( '[data-cairn-group="cafes"]' );
		const all = () => button( host, 'Show all' )!;
		expect( all().disabled ).toBe( true );
		await change( () => click( cafes ) );
		expect( cafes!.getAttribute( 'aria-pressed' ) ).toBe( 'false' );
		expect( places.getState().hidden ).toEqual( [ 'cafes' ] );
		expect( all().disabled ).toBe( false );
		await change( () => click( all() ) );
		expect( cafes!.getAttribute( 'aria-pressed' ) ).toBe( 'true' );
		expect( all().disabled ).toBe( true );
		// "Show all" with nothing hidden does nothing.
		places.showAllGroups();
		expect( places.getState().hidden ).toEqual( [] );
	} );

	it( 'pages the list by 50: Previous, Next and the range shown', async () => {
		const { places, host, listed, until, text } = start(
			{ markersUrl: MANY, places: { followMap: false } },
			{ panel: true }
		);
		await listed();
		expect( places.pageSize ).toBe( 50 );
		const entries = () =>
			host.querySelectorAll( '.wp-block-cairn-map__list li' );
		expect( entries() ).toHaveLength( 50 );
		expect( text( '.wp-block-cairn-map__page-info' ) ).toBe(
			'Places 1–50 of 60'
		);
		const previous = () => button( host, 'Previous places' )!;
		const next = () => button( host, 'Next places' )!;
		expect( [ previous().disabled, next().disabled ] ).toEqual( [
			true,
			false,
		] );
		click( next() );
		await until( ( state ) => state.list.page === 1 );
		expect( entries() ).toHaveLength( 10 );
		expect( entries()[ 0 ]!.textContent ).toBe( 'Place 51' );
		expect( text( '.wp-block-cairn-map__page-info' ) ).toBe(
			'Places 51–60 of 60'
		);
		expect( [ previous().disabled, next().disabled ] ).toEqual( [
			false,
			true,
		] );
		click( previous() );
		await until( ( state ) => state.list.page === 0 );
		expect( entries()[ 0 ]!.textContent ).toBe( 'Place 01' );
	} );

	it( 'flies to a chosen place and opens its popup; closing it returns focus to the entry', async () => {
		const { map, host, popups, listed } = start( {}, { panel: true } );
		await listed();
		const entry = host.querySelector< HTMLButtonElement >(
			'li[data-cairn-marker-id="3"] button'
		)!;
		expect( entry.getAttribute( 'aria-label' ) ).toBe(
			'Show Jardin du Luxembourg on the map'
		);
		await act( async () => {
			entry.click();
			await new Promise< void >( ( resolve ) =>
				popups.open.mockImplementation( () => resolve() )
			);
		} );
		expect( map.flyTo ).toHaveBeenCalledTimes( 1 );
		const [ flight, data ] = map.flyTo.mock.calls[ 0 ]! as unknown as [
			{ center: [ number, number ]; zoom: number },
			object,
		];
		expect( flight.center ).toEqual( [ 2.3372, 48.8462 ] );
		// Close up (zoom 14 at least), where the place stands alone.
		expect( flight.zoom ).toBeGreaterThanOrEqual( 14 );
		// The panel's own flight: the list stays as it is.
		expect( data ).toEqual( { cairnPlaces: true } );
		const [ id, at, options ] = popups.open.mock.calls[ 0 ]!;
		expect( [ id, at ] ).toEqual( [ 3, { lng: 2.3372, lat: 48.8462 } ] );
		expect( options.returnFocus() ).toBe( entry );
	} );

	it( 'speaks the site language', async () => {
		setLocaleData(
			{
				'': {
					domain: 'cairn-maps',
					plural_forms: 'nplurals=2; plural=(n != 1);',
				},
				'%s place on this map': [
					'%s Ort auf dieser Karte',
					'%s Orte auf dieser Karte',
				],
				'Search places': [ 'Orte suchen' ],
				'Places in view': [ 'Orte im Blick' ],
				'%s place in view': [ '%s Ort im Blick', '%s Orte im Blick' ],
				'%1$s, %2$d group hidden': [
					'%1$s, %2$d Gruppe ausgeblendet',
					'%1$s, %2$d Gruppen ausgeblendet',
				],
				'Show all results on the map': [
					'Alle Treffer auf der Karte zeigen',
				],
			},
			'cairn-maps'
		);
		try {
			const { places, listed, change, text, status } = start(
				{},
				{ panel: true }
			);
			await listed();
			expect( text( 'h2' ) ).toBe( '6 Orte auf dieser Karte' );
			expect( text( '.wp-block-cairn-map__search label' ) ).toBe(
				'Orte suchen'
			);
			expect( text( '.wp-block-cairn-map__list-title' ) ).toBe(
				'Orte im Blick'
			);
			await change( () => places.toggleGroup( 'cafes' ) );
			expect( status() ).toBe(
				'2 Orte im Blick, 1 Gruppe ausgeblendet.'
			);
			expect( text( '.wp-block-cairn-map__fit' ) ).toBe(
				'Alle Treffer auf der Karte zeigen'
			);
		} finally {
			resetLocaleData( undefined, 'cairn-maps' );
		}
	} );
} );

describe( 'places controller: the rest of a visit', () => {
	it( 'reads the places again, keeping the search and dropping a hidden group that is gone', async () => {
		const { places, listed, change, until } = start();
		// Not before the first places are in.
		await places.reload( NO_CAFES );
		expect( fetched ).toEqual( [ 'https://example.test/feed' ] );
		await listed();
		await change( () => places.toggleGroup( 'cafes' ) );
		await change( () => places.setSearch( 'park' ) );
		await change( () => places.reload( NO_CAFES ) );
		await until( ( state ) => state.total === 4 );
		expect( places.getState() ).toMatchObject( {
			search: 'park',
			hidden: [],
			matches: 3,
		} );
		expect(
			places.getState().groups.map( ( group ) => group.slug )
		).toEqual( [ 'parks' ] );
		// A feed that fails leaves the places shown.
		( globalThis as unknown as { fetch: unknown } ).fetch = jest.fn(
			async () => ( { ok: false, status: 500, json: async () => ( {} ) } )
		);
		await act( () => places.reload( 'https://example.test/feed' ) );
		expect( places.getState().total ).toBe( 4 );
	} );

	it( 'switches the label language, remembered for the visit and restored on the next map', async () => {
		window.sessionStorage.clear();
		const first = start( { languages: [ 'en', 'de' ] } );
		await first.listed();
		first.places.setLanguage( 'fr' );
		expect( first.map.setLanguage ).not.toHaveBeenCalled();
		first.places.setLanguage( 'de' );
		expect( first.map.setLanguage ).toHaveBeenCalledWith( 'de' );
		expect( first.places.getState().language ).toBe( 'de' );
		expect( window.sessionStorage.getItem( 'cairn-maps-language' ) ).toBe(
			'de'
		);
		const next = start( { languages: [ 'en', 'de' ] } );
		expect( next.places.getState().language ).toBe( 'de' );
		expect( next.map.setLanguage ).toHaveBeenCalledWith( 'de' );
		// A map that does not offer it keeps its own.
		const other = start( { languages: [ 'en', 'fr' ] } );
		expect( other.places.getState().language ).toBe( '' );
		expect( other.map.setLanguage ).not.toHaveBeenCalled();
		window.sessionStorage.clear();
	} );

	it( 'the address ?cairn-place=<id> opens that place on load', async () => {
		window.history.replaceState( null, '', '/?cairn-place=3' );
		try {
			const { popups } = start();
			await act(
				() =>
					new Promise< void >( ( resolve ) =>
						popups.open.mockImplementation( () => resolve() )
					)
			);
			expect( popups.open.mock.calls[ 0 ] ).toEqual( [
				3,
				{ lng: 2.3372, lat: 48.8462 },
				{ returnFocus: null },
			] );
		} finally {
			window.history.replaceState( null, '', '/' );
		}
	} );

	it.each( [ '3x', '0', '', '99999999999999999' ] )(
		'ignores ?cairn-place=%s',
		async ( value ) => {
			window.history.replaceState( null, '', `/?cairn-place=${ value }` );
			try {
				const { places, popups, listed } = start();
				await listed();
				// A place chosen after the address was read is the first popup asked for.
				await act( () => places.choose( 1 ) );
				expect(
					popups.open.mock.calls.map( ( call ) => call[ 0 ] )
				).toEqual( [ 1 ] );
			} finally {
				window.history.replaceState( null, '', '/' );
			}
		}
	);

	it( "announces through the server's status region, and leaves the page as it was", async () => {
		const host = document.createElement( 'div' );
		const served = document.createElement( 'div' );
		served.className = 'wp-block-cairn-map__status';
		served.setAttribute( 'role', 'status' );
		host.appendChild( served );
		const { places, map, listed, change } = start();
		await listed();
		const created = document.querySelector( '.wp-block-cairn-map__status' );
		expect( created?.getAttribute( 'aria-live' ) ).toBe( 'polite' );
		expect( created?.className ).toBe(
			'wp-block-cairn-map__status screen-reader-text'
		);
		await change( () => places.setSearch( ' '.repeat( 3 ) ) );
		// Spaces are no search: the list follows the map.
		expect( places.getState().mode ).toBe( 'view' );
		await change( () => places.setSearch( 'x'.repeat( 300 ) ) );
		expect( places.getState().search ).toHaveLength( 200 );
		expect( created?.textContent ).toBe(
			`0 places match “${ 'x'.repeat( 100 ) }”.`
		);
		places.destroy();
		expect(
			document.querySelector( '.wp-block-cairn-map__status' )
		).toBeNull();
		expect( map.listeners.move ).toEqual( [] );
		expect( map.listeners.moveend ).toEqual( [] );
		// And the map's own region is used where the server rendered one.
		document.body.appendChild( host );
		const hosted = new PlacesController( {
			map: new StandInMap( PARIS ) as never,
			host,
			config: parseMapConfig( {} ),
			client: createPlacesClient(),
			popups: { open: jest.fn() } as unknown as PopupController,
			loading: new Promise( () => undefined ),
			onError: () => undefined,
			onLoaded: () => undefined,
			onFirstDraw: () => undefined,
		} );
		expect( host.querySelectorAll( '[role="status"]' ) ).toHaveLength( 1 );
		hosted.destroy();
		expect( host.contains( served ) ).toBe( true );
	} );

	it( 'draws the view the map ends at, after moves made while it drew', async () => {
		const { map, listed, change } = start();
		await listed();
		await change( () => {
			map.moveTo( OSLO );
			map.moveTo( PARIS, 6 );
		} );
		const drawnIds = map.drawn.map( ( feature ) => feature.id );
		// Paris's places (or their cluster), not Oslo's.
		expect( drawnIds.some( ( id ) => id === 5 || id === 6 ) ).toBe( false );
		expect( map.drawn.length ).toBeGreaterThan( 0 );
	} );
} );

describe( 'viewBox', () => {
	const on = ( bbox: BBox | null ) =>
		( {
			getBounds: () =>
				bbox && {
					getWest: () => bbox[ 0 ],
					getSouth: () => bbox[ 1 ],
					getEast: () => bbox[ 2 ],
					getNorth: () => bbox[ 3 ],
				},
		} ) as never;

	it.each< [ string, BBox | null, number, BBox ] >( [
		[ 'a view', [ 2, 48, 3, 49 ], 0, [ 2, 48, 3, 49 ] ],
		[ 'a view grown by half', [ 2, 48, 4, 50 ], 0.5, [ 1, 47, 5, 51 ] ],
		[
			'north and south capped',
			[ 0, 80, 10, 89 ],
			0.5,
			[ -5, 75.5, 15, 90 ],
		],
		[
			'across the antimeridian',
			[ 170, 0, 190, 10 ],
			0,
			[ 170, 0, -170, 10 ],
		],
		[
			'east of the antimeridian',
			[ 190, 0, 200, 10 ],
			0,
			[ -170, 0, -160, 10 ],
		],
		[ 'ending on it', [ 170, 0, 180, 10 ], 0, [ 170, 0, 180, 10 ] ],
		[
			'the whole world',
			[ -200, -80, 200, 80 ],
			0,
			[ -180, -80, 180, 80 ],
		],
		[ 'no view yet', null, 0, [ -180, -90, 180, 90 ] ],
	] )( '%s', ( _label, bbox, pad, expected ) => {
		expect( viewBox( on( bbox ), pad ) ).toEqual( expected );
	} );
} );

describe( 'places controller: drawing before telling', () => {
	it( 'tells the page of a change only once the map has taken in the new clusters and loaded them', async () => {
		const { places, map, listed, until, host } = start();
		await listed();
		const told = jest.fn();
		host.addEventListener( 'cairn:places-change', told );
		map.holdData = true;
		map.sourceLoaded = false;
		const draws = map.draws;
		places.setSearch( 'jardin' );
		await until( ( state ) => state.list.total === 1 );
		await until( () => map.draws > draws );
		// Data of another source, or not yet its content: not drawn yet.
		map.fire( 'sourcedata', {
			sourceId: 'composite',
			sourceDataType: 'content',
		} );
		map.fire( 'sourcedata', {
			sourceId: 'cairn-markers',
			sourceDataType: 'metadata',
		} );
		map.triggerRepaint();
		expect( told ).not.toHaveBeenCalled();
		// Taken in, its tiles still loading: not yet.
		map.taken();
		expect( told ).not.toHaveBeenCalled();
		map.sourceLoaded = true;
		await act(
			() =>
				new Promise< void >( ( resolve ) => {
					host.addEventListener(
						'cairn:places-change',
						() => resolve(),
						{
							once: true,
						}
					);
					map.fire( 'render' );
				} )
		);
		expect( told ).toHaveBeenCalledTimes( 1 );
	} );

	it( 'tells the page after two seconds all the same when the map never says it drew', async () => {
		jest.useFakeTimers();
		try {
			const { places, map, listed, until, host } = start();
			await listed();
			map.holdData = true;
			const told = jest.fn();
			host.addEventListener( 'cairn:places-change', told );
			places.setSearch( 'jardin' );
			await until( ( state ) => state.list.total === 1 );
			await jest.advanceTimersByTimeAsync( 1_999 );
			expect( told ).not.toHaveBeenCalled();
			await jest.advanceTimersByTimeAsync( 1 );
			expect( told ).toHaveBeenCalledTimes( 1 );
		} finally {
			jest.useRealTimers();
		}
	} );

	it( 'without clustering, draws every place once and not again on each move', async () => {
		const { map, listed, change } = start( {
			cluster: { enabled: false },
		} );
		await listed();
		expect( map.drawn ).toHaveLength( 6 );
		const draws = map.draws;
		await change( () => map.moveTo( OSLO ) );
		expect( map.draws ).toBe( draws );
	} );

	it( 'does nothing more once destroyed while the places load', async () => {
		let arrive: ( value: LoadResult ) => void = () => undefined;
		const onLoaded = jest.fn();
		const onFirstDraw = jest.fn();
		const host = document.createElement( 'div' );
		const places = new PlacesController( {
			map: new StandInMap( PARIS ) as never,
			host,
			config: parseMapConfig( {} ),
			client: createPlacesClient(),
			popups: { open: jest.fn() } as unknown as PopupController,
			loading: new Promise( ( resolve ) => ( arrive = resolve ) ),
			onError: () => undefined,
			onLoaded,
			onFirstDraw,
		} );
		places.destroy();
		arrive( { total: 3, groups: {} } );
		await act( () => Promise.resolve() );
		expect( places.getState().status ).toBe( 'loading' );
		expect( onLoaded ).not.toHaveBeenCalled();
		expect( onFirstDraw ).not.toHaveBeenCalled();
	} );

	it( 'says the places are known before drawing them, and when they are first drawn', async () => {
		const calls: string[] = [];
		const map = new StandInMap( PARIS );
		const config = parseMapConfig( {
			markersUrl: 'https://example.test/feed',
		} );
		const client = createPlacesClient();
		const host = document.createElement( 'div' );
		await act(
			() =>
				new Promise< void >( ( resolve ) => {
					const places = new PlacesController( {
						map: map as never,
						host,
						config,
						client,
						popups: {
							open: jest.fn(),
						} as unknown as PopupController,
						loading: client.load(
							config.markersUrl,
							placesEngineOptions( config )
						),
						onError: () => undefined,
						onLoaded: () =>
							calls.push( `loaded, ${ map.draws } drawn` ),
						onFirstDraw: () => {
							calls.push( `first draw, ${ map.draws } drawn` );
							places.destroy();
							resolve();
						},
					} );
				} )
		);
		expect( calls ).toEqual( [ 'loaded, 0 drawn', 'first draw, 1 drawn' ] );
	} );
} );

describe( 'places panel: details', () => {
	it( 'titles the list nearest first in view, names an untitled place, and draws each group swatch', async () => {
		( globalThis as unknown as { fetch: unknown } ).fetch = jest.fn(
			async () => ( {
				ok: true,
				status: 200,
				json: async () => ( {
					type: 'FeatureCollection',
					features: [
						{
							type: 'Feature',
							id: 1,
							geometry: {
								type: 'Point',
								coordinates: [ 2.33, 48.85 ],
							},
							properties: { title: '', groups: [ 'cafes' ] },
						},
						{
							type: 'Feature',
							id: 2,
							geometry: {
								type: 'Point',
								coordinates: [ 2.34, 48.86 ],
							},
							properties: { title: 'B', groups: [ 'parks' ] },
						},
					],
				} ),
			} )
		);
		const { places, host, listed, change, text } = start(
			{
				groupStyles: [
					{ slug: 'cafes', name: 'Cafés', color: '#112233' },
					{
						slug: 'parks',
						name: 'Parks',
						icon: 'https://example.test/tree.png',
					},
				],
			},
			{ panel: true }
		);
		await listed();
		const untitled = host.querySelector(
			'li[data-cairn-marker-id="1"] button'
		);
		expect(
			untitled?.querySelector( '.wp-block-cairn-map__card-title' )
				?.textContent
		).toBe( '(no title)' );
		expect( untitled?.getAttribute( 'aria-label' ) ).toBe(
			'Show (no title) on the map'
		);
		const swatches = Array.from(
			host.querySelectorAll< HTMLElement >(
				'.wp-block-cairn-map__group-swatch'
			)
		);
		expect(
			swatches.map( ( swatch ) => [
				swatch.style.getPropertyValue( '--cairn-group-color' ),
				swatch.style.backgroundImage,
			] )
		).toEqual( [
			[ '#112233', '' ],
			[ '', 'url("https://example.test/tree.png")' ],
		] );
		await change( () => places.setOrigin( { lng: 2.33, lat: 48.85 } ) );
		expect( text( '.wp-block-cairn-map__list-title' ) ).toBe(
			'Places in view, nearest first'
		);
		expect( text( '.wp-block-cairn-map__distance' ) ).toBe( ' — 0 m' );
	} );

	it( 'offers the label languages by name, with "Default" until one is chosen', async () => {
		const { places, map, host, listed } = start(
			{ languages: [ 'de', 'fr' ] },
			{ panel: true }
		);
		await listed();
		const select = host.querySelector( 'select' )!;
		expect(
			Array.from( select.options, ( option ) => [
				option.value,
				option.textContent,
				option.lang,
			] )
		).toEqual( [
			[ '', 'Default', '' ],
			[ 'de', 'German', 'de' ],
			[ 'fr', 'French', 'fr' ],
		] );
		act( () => {
			select.value = 'fr';
			select.dispatchEvent( new Event( 'change', { bubbles: true } ) );
		} );
		expect( places.getState().language ).toBe( 'fr' );
		expect( map.setLanguage ).toHaveBeenCalledWith( 'fr' );
		// Chosen: "Default" is no choice any more.
		expect(
			Array.from( select.options, ( option ) => option.value )
		).toEqual( [ 'de', 'fr' ] );
		window.sessionStorage.clear();
	} );

	it( 'writes distances plainly where the language is not one Intl knows', () => {
		expect( formatDistance( 1500, 'metric', 'not a language!' ) ).toBe(
			'1.5 kilometer'
		);
		expect( formatDistance( 10, 'imperial', 'not a language!' ) ).toBe(
			'33 foot'
		);
	} );

	it( 'shows each place as a card: its thumbnail, else its group icon or colour, its groups and its distance', async () => {
		const feature = (
			id: number,
			title: string,
			groups: string[],
			thumb?: unknown
		) => ( {
			type: 'Feature',
			id,
			geometry: {
				type: 'Point',
				coordinates: [ 2.33 + id / 1000, 48.85 ],
			},
			properties: { title, groups, ...( thumb ? { thumb } : {} ) },
		} );
		( globalThis as unknown as { fetch: unknown } ).fetch = jest.fn(
			async () => ( {
				ok: true,
				status: 200,
				json: async () => ( {
					type: 'FeatureCollection',
					features: [
						feature(
							1,
							'A story',
							[ 'travel' ],
							'https://example.test/story-150x150.jpg'
						),
						feature( 2, 'B hut', [ 'huts', 'lakes' ] ),
						feature( 3, 'C lake', [ 'lakes' ] ),
						feature( 4, 'D nowhere', [] ),
						// Not an http(s) address: never an image source.
						feature( 5, 'E trick', [], 'javascript:alert(1)' ),
					],
				} ),
			} )
		);
		const { places, host, listed, change } = start(
			{
				places: { followMap: false },
				groupStyles: [
					{ slug: 'travel', name: 'Travel', color: '' },
					{
						slug: 'huts',
						name: 'Huts',
						icon: 'https://example.test/hut.png',
					},
					{ slug: 'lakes', name: 'Lakes', color: '#1f4fd1' },
				],
			},
			{ panel: true }
		);
		await listed();
		const card = ( id: number ) =>
			host.querySelector(
				`li.wp-block-cairn-map__card[data-cairn-marker-id="${ id }"]`
			)!;
		const read = ( id: number ) => {
			const entry = card( id );
			const image = entry.querySelector( 'img' );
			const icon = entry.querySelector< HTMLElement >(
				'.wp-block-cairn-map__card-icon'
			);
			const swatch = entry.querySelector< HTMLElement >(
				'.wp-block-cairn-map__card-swatch'
			);
			return {
				title: entry.querySelector( '.wp-block-cairn-map__card-title' )
					?.textContent,
				group:
					entry.querySelector( '.wp-block-cairn-map__card-group' )
						?.textContent ?? null,
				image: image && {
					src: image.getAttribute( 'src' ),
					alt: image.getAttribute( 'alt' ),
					loading: image.getAttribute( 'loading' ),
					width: image.getAttribute( 'width' ),
					height: image.getAttribute( 'height' ),
				},
				icon: icon?.style.backgroundImage ?? null,
				swatch: swatch
					? swatch.style.getPropertyValue( '--cairn-group-color' )
					: null,
			};
		};
		expect( [ 1, 2, 3, 4, 5 ].map( read ) ).toEqual( [
			{
				title: 'A story',
				group: 'Travel',
				image: {
					src: 'https://example.test/story-150x150.jpg',
					alt: '',
					loading: 'lazy',
					width: '64',
					height: '64',
				},
				icon: null,
				swatch: null,
			},
			{
				title: 'B hut',
				group: 'Huts and Lakes',
				image: null,
				icon: 'url("https://example.test/hut.png")',
				swatch: null,
			},
			{
				title: 'C lake',
				group: 'Lakes',
				image: null,
				icon: null,
				swatch: '#1f4fd1',
			},
			// No group: the default colour (the stylesheet's), no group line.
			{
				title: 'D nowhere',
				group: null,
				image: null,
				icon: null,
				swatch: '',
			},
			{
				title: 'E trick',
				group: null,
				image: null,
				icon: null,
				swatch: '',
			},
		] );
		// The accessible name stays what choosing the card does.
		// The entry holds its button; the button's name is what choosing it does, and its text
		// only the title (the group and distance are the entry's text).
		const button = ( id: number ) =>
			card( id ).querySelector( ':scope > button' )!;
		expect( button( 2 ).getAttribute( 'aria-label' ) ).toBe(
			'Show B hut on the map'
		);
		expect( button( 2 ).textContent ).toBe( 'B hut' );
		await change( () => places.setOrigin( { lng: 2.331, lat: 48.85 } ) );
		expect(
			card( 1 ).querySelector( '.wp-block-cairn-map__distance' )
				?.textContent
		).toBe( ' — 0 m' );
		expect( button( 1 ).getAttribute( 'aria-label' ) ).toBe(
			'Show A story on the map, 0 m away'
		);
	} );
} );

describe( 'places controller: near a place, within a radius', () => {
	afterEach( () => window.history.replaceState( null, '', '/' ) );

	it( 'finds a typed place among the map’s own (no geocoder), lists the places within the radius nearest first, and puts the search in the address', async () => {
		const { places, listed, until, status, map } = start( {
			places: { followMap: true, search: true },
		} );
		await listed();
		await act( () => places.searchNear( 'Vigeland', 5000 ) );
		await until( ( state ) => state.mode === 'near' );
		await until( ( state ) => state.list.total === 2 );
		const state = places.getState();
		expect( ids( state ) ).toEqual( [ 5, 6 ] );
		expect( state.list.items[ 0 ]!.distance ).toBe( 0 );
		expect( state.list.items[ 1 ]!.distance ).toBeGreaterThan( 3000 );
		expect( state.list.items[ 1 ]!.distance ).toBeLessThan( 5000 );
		expect( state.matches ).toBe( 2 );
		expect( status() ).toBe( '2 places within 5 km of “Vigeland”.' );
		const url = new URL( window.location.href );
		expect( url.searchParams.get( 'cairn-near' ) ).toBe(
			'10.7,59.927|Vigeland'
		);
		expect( url.searchParams.get( 'cairn-radius' ) ).toBe( '5' );
		// No geocoder configured: nothing was asked of any service.
		expect( fetched ).toEqual( [ 'https://example.test/feed' ] );
		expect( map.fitBounds ).toHaveBeenCalled();
		// 1 km: the opera house is left out.
		await act( () => places.searchNear( 'Vigeland', 1000 ) );
		await until( ( next ) => next.list.total === 1 );
		expect( ids( places.getState() ) ).toEqual( [ 5 ] );
	} );

	it( 'starts from the address, and the back button takes the search away', async () => {
		window.history.replaceState(
			null,
			'',
			'/?cairn-near=2.3337%2C48.8537%7CSaint-Germain&cairn-radius=1'
		);
		const { places, listed, until, status } = start();
		await listed();
		await until(
			( state ) => state.mode === 'near' && state.list.total > 0
		);
		expect( places.getState().near ).toEqual( {
			lng: 2.3337,
			lat: 48.8537,
			radius: 1000,
			text: 'Saint-Germain',
		} );
		expect( ids( places.getState() ) ).toEqual( [ 2, 1, 3 ] );
		expect( status() ).toBe( '3 places within 1 km of “Saint-Germain”.' );
		// The address loses the search (back): every place again.
		window.history.pushState( null, '', '/' );
		window.dispatchEvent( new PopStateEvent( 'popstate' ) );
		await until(
			( state ) => state.near === null && state.mode !== 'near'
		);
		await until( ( state ) => state.matches === 6 );
	} );

	it( 'asks the site’s geocoder for an address, once, and says when nothing is found', async () => {
		const asked: string[] = [];
		( globalThis as unknown as { fetch: unknown } ).fetch = jest.fn(
			async ( url: string ) => {
				if ( url.startsWith( 'https://example.test/geocode' ) ) {
					asked.push( url );
					const found = url.includes( 'Opera' );
					return {
						ok: true,
						status: 200,
						json: async () => ( {
							results: found
								? [
										{
											label: 'Opera',
											lat: 59.9075,
											lng: 10.7528,
										},
									]
								: [],
						} ),
					};
				}
				return {
					ok: true,
					status: 200,
					json: async () => feedAt( url ),
				};
			}
		);
		const { places, listed, until } = start( {
			geocoder: 'site',
			geocodeUrl: 'https://example.test/geocode/visitor',
		} );
		await listed();
		await act( () => places.searchNear( 'Opera house, Oslo', 10000 ) );
		await until(
			( state ) => state.mode === 'near' && state.list.total === 2
		);
		expect( asked ).toEqual( [
			'https://example.test/geocode/visitor?q=Opera%20house%2C%20Oslo',
		] );
		expect( ids( places.getState() ) ).toEqual( [ 6, 5 ] );
		await act( () => places.searchNear( 'Nowhere at all', 10000 ) );
		expect( places.getState().nearStatus ).toBe( 'not-found' );
		// The search shown stays the last one found.
		expect( ids( places.getState() ) ).toEqual( [ 6, 5 ] );
	} );

	it( 'offers the radius in the map’s units', async () => {
		const { host, listed } = start(
			{ units: 'imperial' },
			{ panel: true }
		);
		await listed();
		const options = Array.from(
			host.querySelectorAll( '.wp-block-cairn-map__near select option' ),
			( option ) => option.textContent
		);
		expect( options ).toEqual( [
			'any distance',
			'1 mi',
			'5 mi',
			'10 mi',
			'25 mi',
			'50 mi',
			'100 mi',
		] );
	} );
} );

describe( 'places controller: a "near" named by text in the address', () => {
	afterEach( () => window.history.replaceState( null, '', '/' ) );

	it( 'looks the text up, then the address carries the point (same history entry)', async () => {
		window.history.replaceState(
			null,
			'',
			'/?cairn-near=Vigeland&cairn-radius=5'
		);
		const before = window.history.length;
		const { places, listed, until } = start();
		await listed();
		await until(
			( state ) => state.mode === 'near' && state.list.total === 2
		);
		expect( ids( places.getState() ) ).toEqual( [ 5, 6 ] );
		expect(
			new URL( window.location.href ).searchParams.get( 'cairn-near' )
		).toBe( '10.7,59.927|Vigeland' );
		expect( window.history.length ).toBe( before );
	} );
} );
