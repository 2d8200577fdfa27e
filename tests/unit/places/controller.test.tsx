/**
 * The places controller and its panel, over the real places client (in jsdom no Worker starts, so
 * the engine answers on the page) and a stand-in for the map that records what it is asked: the
 * list modes, the empty states, "Show all results on the map", distances in the site's units and
 * a cluster opened while a group is hidden. The e2e specs run the same with mapbox-gl.
 */
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';

import { parseMapConfig } from '../../../packages/map/src/config';
import { createPlacesClient } from '../../../packages/map/src/places/client';
import {
	PlacesController,
	placesEngineOptions,
	type PlacesChangeDetail,
	type PlacesState,
} from '../../../packages/map/src/places/controller';
import {
	PlacesPanel,
	formatDistance,
} from '../../../packages/map/src/places/panel';
import type { PopupController } from '../../../packages/map/src/popup';

(
	globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }
 ).IS_REACT_ACT_ENVIRONMENT = true;

type BBox = [ number, number, number, number ];
type Listener = ( event?: unknown ) => void;

const PARIS: BBox = [ 2.2, 48.8, 2.4, 48.9 ];
const OSLO: BBox = [ 10.6, 59.85, 10.85, 59.97 ];
const ATLANTIC: BBox = [ -40, 20, -30, 30 ];

/** The address of a feed without the place that has no group. */
const GROUPED = 'https://example.test/feed?grouped';

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

interface Drawn {
	id: number;
	properties: {
		cluster?: boolean;
		cluster_id?: number;
		point_count?: number;
	};
	geometry: { coordinates: [ number, number ] };
}

/** What the controller asks of mapbox-gl, recorded; moves happen when a test says so. */
class StandInMap {
	listeners: Record< string, Listener[] > = {};
	bbox: BBox = PARIS;
	zoom = 5;
	drawn: Drawn[] = [];
	fitBounds = jest.fn();
	easeTo = jest.fn();
	flyTo = jest.fn();
	setLanguage = jest.fn();
	private readonly source = {
		setData: ( data: { features: Drawn[] } ) => {
			this.drawn = data.features;
			// mapbox-gl's worker has taken in the new data.
			this.fire( 'sourcedata', {
				sourceId: 'cairn-markers',
				sourceDataType: 'content',
			} );
		},
	};
	on( type: string, listener: Listener ) {
		( this.listeners[ type ] ??= [] ).push( listener );
		return this;
	}
	off( type: string, listener: Listener ) {
		this.listeners[ type ] = ( this.listeners[ type ] ?? [] ).filter(
			( item ) => item !== listener
		);
		return this;
	}
	once( type: string, listener: Listener ) {
		const wrapped = ( event?: unknown ) => {
			this.off( type, wrapped );
			listener( event );
		};
		return this.on( type, wrapped );
	}
	fire( type: string, event?: unknown ) {
		[ ...( this.listeners[ type ] ?? [] ) ].forEach( ( listener ) =>
			listener( event )
		);
	}
	/** The visitor moves the map. */
	moveTo( bbox: BBox, zoom = this.zoom ) {
		this.bbox = bbox;
		this.zoom = zoom;
		this.fire( 'move', {} );
		this.fire( 'moveend', {} );
	}
	getBounds() {
		const [ west, south, east, north ] = this.bbox;
		return {
			getWest: () => west,
			getSouth: () => south,
			getEast: () => east,
			getNorth: () => north,
		};
	}
	getZoom() {
		return this.zoom;
	}
	getMaxZoom() {
		return 22;
	}
	getSource( id: string ) {
		return id === 'cairn-markers' ? this.source : undefined;
	}
	isSourceLoaded() {
		return true;
	}
	isStyleLoaded() {
		return true;
	}
	getStyle() {
		return { layers: [] };
	}
	triggerRepaint() {
		this.fire( 'render' );
	}
}

let fetched: string[] = [];
beforeEach( () => {
	fetched = [];
	( globalThis as unknown as { fetch: unknown } ).fetch = jest.fn(
		async ( url: string ) => {
			fetched.push( url );
			const body =
				url === GROUPED
					? {
							...FEED,
							features: FEED.features.filter(
								( feature ) => feature.properties.groups.length
							),
						}
					: FEED;
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
	const map = new StandInMap();
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
		act(
			() =>
				new Promise< void >( ( resolve ) => {
					const check = () => {
						if ( condition( places.getState() ) ) {
							stop();
							resolve();
						}
					};
					const stop = places.subscribe( check );
					check();
				} )
		);
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
			host.querySelectorAll< HTMLButtonElement >(
				'.wp-block-cairn-map__list-button'
			)
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
		expect( entries[ 0 ]!.getAttribute( 'aria-label' ) ).toBe(
			'Show Café de Flore on the map, 36 ft away'
		);
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
