/**
 * A keyboard visit through the runtime's middle, every part real but mapbox-gl: the places client
 * (the engine answering on the page, as where no worker may run), the controller, the panel in the
 * server's "Places" region and the popup controller. A visitor searches, moves to an entry, opens
 * its popup with Enter, closes it with Escape and is back on the entry; hostile text stays text.
 * e2e: front-markers.spec.ts "the list of places works from the keyboard; hostile text stays text".
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Map as MapboxMap } from 'mapbox-gl';

import { parseMapConfig } from '../../../packages/map/src/config';
import { createPlacesClient } from '../../../packages/map/src/places/client';
import {
	PlacesController,
	placesEngineOptions,
} from '../../../packages/map/src/places/controller';
import { PopupController } from '../../../packages/map/src/popup';
import type { MapLib } from '../../../packages/map/src/types';
import { mountPlacesPanel } from '../../../src/blocks/map/panel';
import { StandInMap } from '../places/stand-in-map';
import { StandInPopup } from '../stand-in-popup';

const HOSTILE_TITLE = 'Café <img src=x onerror="window.pwned=1">';
const MARKERS_URL = 'https://example.test/wp-json/cairn/v1/markers/';

const FEED = {
	type: 'FeatureCollection',
	features: (
		[
			[ 1, HOSTILE_TITLE, 10, 50, [ 'cafes' ] ],
			[ 2, 'Parc du Lac', 10.01, 50.01, [ 'parks' ] ],
			[ 3, 'Parc Monceau', 10.02, 50.02, [ 'parks' ] ],
		] as Array< [ number, string, number, number, string[] ] >
	 ).map( ( [ id, title, lng, lat, groups ] ) => ( {
		type: 'Feature',
		id,
		geometry: { type: 'Point', coordinates: [ lng, lat ] },
		properties: { title, groups },
	} ) ),
};

const DETAILS = {
	id: 1,
	title: HOSTILE_TITLE,
	content:
		'<p>Safe <strong>text</strong> here.</p><script>window.pwned=2</script><a href="javascript:window.pwned=3">x</a>',
	link: 'https://example.test/cafe/',
	lng: 10,
	lat: 50,
};

/** The places' stand-in map, with the elements a popup needs. */
class MapWithElements extends StandInMap {
	readonly container = document.createElement( 'div' );
	readonly canvas = document.createElement( 'canvas' );
	constructor() {
		super( [ 9.9, 49.9, 10.1, 50.1 ] );
		this.canvas.tabIndex = 0;
		this.container.append( this.canvas );
	}
	getContainer() {
		return this.container;
	}
	getCanvasContainer() {
		return this.container;
	}
}

const cleanups: Array< () => void > = [];
afterEach( () => {
	cleanups.splice( 0 ).forEach( ( cleanup ) => cleanup() );
	document.body.replaceChildren();
	delete ( window as { pwned?: unknown } ).pwned;
} );

async function visit() {
	window.fetch = jest.fn( async ( url: string ) => ( {
		ok: true,
		status: 200,
		json: async () => ( url.startsWith( MARKERS_URL ) ? DETAILS : FEED ),
	} ) ) as unknown as typeof window.fetch;
	const config = parseMapConfig( {
		markersUrl: 'https://example.test/feed',
		groupStyles: [
			{ slug: 'cafes', name: 'Cafés' },
			{ slug: 'parks', name: 'Parks' },
		],
	} );
	// The block's markup as the server renders it.
	const host = document.createElement( 'div' );
	host.className = 'wp-block-cairn-map';
	const region = document.createElement( 'div' );
	region.className = 'wp-block-cairn-map__places';
	region.setAttribute( 'role', 'region' );
	region.setAttribute( 'aria-label', 'Places' );
	const map = new MapWithElements();
	host.append( map.container, region );
	document.body.append( host );
	const client = createPlacesClient();
	const popups = new PopupController(
		{ Popup: StandInPopup } as unknown as MapLib,
		map as unknown as MapboxMap,
		MARKERS_URL
	);
	let unmount: ( () => void ) | void;
	const places = new PlacesController( {
		map: map as never,
		host,
		config,
		client,
		popups,
		loading: client.load(
			config.markersUrl,
			placesEngineOptions( config )
		),
		onError: () => undefined,
		onLoaded: () => {
			act( () => {
				unmount = mountPlacesPanel( host, places );
			} );
		},
		onFirstDraw: () => undefined,
	} );
	cleanups.push( () => {
		places.destroy();
		act( () => unmount?.() );
		client.terminate();
	} );
	const panel = screen.getByRole( 'region', { name: 'Places' } );
	await within( panel ).findByRole( 'button', {
		name: `Show ${ HOSTILE_TITLE } on the map`,
	} );
	return { map, host, panel, user: userEvent.setup() };
}

describe( 'a keyboard visit', () => {
	it( 'opens a place from the list with Enter and is back on its entry after Escape; its title stays text', async () => {
		const { map, host, panel, user } = await visit();
		const entry = within( panel ).getByRole( 'button', {
			name: `Show ${ HOSTILE_TITLE } on the map`,
		} );
		expect( entry.textContent ).toBe( HOSTILE_TITLE );
		entry.focus();
		await user.keyboard( '{Enter}' );
		const popup = await waitFor( () => {
			const found = map.container.querySelector( '.mapboxgl-popup' );
			expect( found ).not.toBeNull();
			return found!;
		} );
		// The map flew close to it, and the popup took focus.
		expect( map.flyTo ).toHaveBeenCalledWith(
			expect.objectContaining( { center: [ 10, 50 ] } ),
			{ cairnPlaces: true }
		);
		expect( popup.contains( host.ownerDocument.activeElement ) ).toBe(
			true
		);
		expect(
			popup.querySelector( '.cairn-map-popup__title' )!.textContent
		).toBe( HOSTILE_TITLE );
		expect( popup.querySelector( 'strong' )!.textContent ).toBe( 'text' );
		expect( popup.querySelectorAll( 'img, script' ) ).toHaveLength( 0 );
		expect( popup.querySelector( 'a[href^="javascript"]' ) ).toBeNull();
		await user.keyboard( '{Escape}' );
		expect( map.container.querySelector( '.mapboxgl-popup' ) ).toBeNull();
		await waitFor( () =>
			expect( host.ownerDocument.activeElement ).toBe( entry )
		);
		expect( host.querySelector( 'img[src="x"]' ) ).toBeNull();
		expect( ( window as { pwned?: unknown } ).pwned ).toBeUndefined();
	} );

	it( 'searches from the field, announces the matches, and Escape there clears it', async () => {
		const { host, panel, user } = await visit();
		const field = within( panel ).getByRole( 'searchbox', {
			name: 'Search places',
		} );
		const status = host.querySelector( '[role="status"]' )!;
		await user.type( field, 'parc' );
		await waitFor( () =>
			expect( status.textContent ).toBe( '2 places match “parc”.' )
		);
		expect(
			within( panel )
				.getAllByRole( 'listitem' )
				.map( ( entry ) => entry.dataset.cairnMarkerId )
		).toEqual( [ '2', '3' ] );
		await user.keyboard( '{Escape}' );
		expect( field ).toHaveProperty( 'value', '' );
		await waitFor( () =>
			expect( within( panel ).getAllByRole( 'listitem' ) ).toHaveLength(
				3
			)
		);
		await waitFor( () =>
			expect( status.textContent ).toBe( '3 places in view.' )
		);
	} );
} );
