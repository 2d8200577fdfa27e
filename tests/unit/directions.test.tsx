/**
 * "Directions": each app's address for a place's point (the formats the apps document), the
 * configuration's app (the server resolves `site`; anything else is no link), the popup's link
 * and the list entry's, built as DOM text, and nothing requested before the visitor follows one.
 */
import { render, screen } from '@testing-library/react';

import { parseMapConfig } from '../../packages/map/src/config';
import {
	directionsApp,
	directionsUrl,
} from '../../packages/map/src/directions';
import { directionsLink } from '../../packages/map/src/directions-link';
import { buildPopupContent } from '../../packages/map/src/popup';
import { PlaceCard } from '../../packages/map/src/places/place-card';
import type { MarkerDetails } from '../../packages/map/src/popup';
import type { DirectionsApp } from '../../packages/map/src/types';
import shared from '../fixtures/directions-urls.json';

const HOSTILE = '<img src=x onerror="window.pwned=1">';

/** The summit of Ben Nevis. */
const SUMMIT = { lat: 56.79685, lng: -5.00355 };

const DETAILS: MarkerDetails = {
	id: 12,
	title: 'Ben Nevis',
	content: '',
	link: '',
	...SUMMIT,
};

/**
 * The places list with the summit's entry, its links to the given app (the card's default without).
 * @param directions
 */
function showEntry( directions?: DirectionsApp ) {
	render(
		<ul>
			<PlaceCard
				place={ { groups: [], ...DETAILS } }
				groups={ new Map() }
				distance=""
				directions={ directions }
				onChoose={ jest.fn() }
			/>
		</ul>
	);
}

describe( 'directionsUrl', () => {
	it.each( [
		[
			'osm',
			'https://www.openstreetmap.org/directions?route=;56.79685,-5.00355',
		],
		[
			'google',
			'https://www.google.com/maps/dir/?api=1&destination=56.79685,-5.00355',
		],
		[ 'apple', 'https://maps.apple.com/?daddr=56.79685,-5.00355' ],
		[ 'geo', 'geo:56.79685,-5.00355' ],
		[ 'none', '' ],
	] as const )( '%s: %s', ( app, url ) => {
		expect( directionsUrl( app, SUMMIT.lat, SUMMIT.lng ) ).toBe( url );
	} );

	it.each( shared.cases )(
		'writes what the server’s list writes: $app $lat,$lng',
		( { app, lat, lng, url } ) => {
			expect( directionsUrl( app as DirectionsApp, lat, lng ) ).toBe(
				url
			);
		}
	);

	it( 'writes at most six decimals, without an exponent or trailing zeros', () => {
		expect( directionsUrl( 'geo', 45.123456789, 7.1 ) ).toBe(
			'geo:45.123457,7.1'
		);
		expect( directionsUrl( 'geo', 0.0000001, -0.0000001 ) ).toBe(
			'geo:0,0'
		);
		expect( directionsUrl( 'geo', -33.9, 151 ) ).toBe( 'geo:-33.9,151' );
	} );

	it( 'gives no address for a point that is none', () => {
		expect( directionsUrl( 'osm', Number.NaN, 7 ) ).toBe( '' );
		expect( directionsUrl( 'osm', 91, 7 ) ).toBe( '' );
		expect( directionsUrl( 'osm', 46, 181 ) ).toBe( '' );
		expect( directionsUrl( 'osm', 46, Infinity ) ).toBe( '' );
	} );
} );

describe( 'the configuration’s app', () => {
	it( 'is one of the apps, else none (the server resolves `site`)', () => {
		expect( directionsApp( 'google' ) ).toBe( 'google' );
		for ( const value of [ 'site', 'GOOGLE', '', null, undefined, 3 ] ) {
			expect( directionsApp( value ) ).toBe( 'none' );
		}
	} );

	it( 'reaches createMap’s configuration: an old one without it has no links', () => {
		expect( parseMapConfig( { directions: 'apple' } ).directions ).toBe(
			'apple'
		);
		expect( parseMapConfig( {} ).directions ).toBe( 'none' );
		expect( parseMapConfig( { directions: 'site' } ).directions ).toBe(
			'none'
		);
	} );
} );

describe( 'the popup’s link', () => {
	function directionsIn( root: HTMLElement ) {
		return root.querySelector< HTMLAnchorElement >(
			'a.cairn-map-directions'
		);
	}

	it( 'opens the chosen app in a new tab, named for the place', () => {
		const root = buildPopupContent( document, DETAILS, 'google' );
		const link = directionsIn( root );
		expect( link?.href ).toBe(
			'https://www.google.com/maps/dir/?api=1&destination=56.79685,-5.00355'
		);
		expect( link?.textContent ).toBe( 'Directions' );
		expect( link?.getAttribute( 'aria-label' ) ).toBe(
			'Directions to Ben Nevis (opens in a new tab)'
		);
		expect( link?.target ).toBe( '_blank' );
		expect( link?.rel.split( ' ' ) ).toEqual( [
			'noopener',
			'noreferrer',
		] );
	} );

	it( 'hands geo: to the phone’s app, in no new tab', () => {
		const link = directionsIn(
			buildPopupContent( document, DETAILS, 'geo' )
		);
		expect( link?.getAttribute( 'href' ) ).toBe( 'geo:56.79685,-5.00355' );
		expect( link?.hasAttribute( 'target' ) ).toBe( false );
		expect( link?.getAttribute( 'aria-label' ) ).toBe(
			'Directions to Ben Nevis'
		);
	} );

	it( 'is not there for none, nor by default', () => {
		expect(
			directionsIn( buildPopupContent( document, DETAILS, 'none' ) )
		).toBeNull();
		expect(
			directionsIn( buildPopupContent( document, DETAILS ) )
		).toBeNull();
	} );

	it( 'keeps a hostile title as text', () => {
		const root = buildPopupContent(
			document,
			{ ...DETAILS, title: HOSTILE },
			'osm'
		);
		expect( directionsIn( root )?.getAttribute( 'aria-label' ) ).toBe(
			`Directions to ${ HOSTILE } (opens in a new tab)`
		);
		expect( root.querySelector( 'img' ) ).toBeNull();
	} );
} );

describe( 'the list entry’s link', () => {
	it( 'is a link of its own beside the entry’s button', () => {
		showEntry( 'apple' );
		const link = screen.getByRole( 'link', {
			name: 'Directions to Ben Nevis (opens in a new tab)',
		} );
		expect( link.getAttribute( 'href' ) ).toBe(
			'https://maps.apple.com/?daddr=56.79685,-5.00355'
		);
		expect( link.closest( 'li' )?.dataset.cairnMarkerId ).toBe( '12' );
		expect(
			screen.getByRole( 'button', { name: 'Show Ben Nevis on the map' } )
		).toBeTruthy();
	} );

	it( 'is not there for none', () => {
		showEntry();
		expect( screen.queryByRole( 'link' ) ).toBeNull();
	} );
} );

describe( 'nothing is requested', () => {
	it( 'until the visitor follows a link: building the popup and the entry asks nothing', () => {
		const fetch = jest.fn();
		const open = jest.fn();
		const original = { fetch: window.fetch, open: window.open };
		Object.assign( window, { fetch, open } );
		try {
			const root = buildPopupContent( document, DETAILS, 'osm' );
			document.body.appendChild( root );
			showEntry( 'osm' );
			expect( fetch ).not.toHaveBeenCalled();
			expect( open ).not.toHaveBeenCalled();
			// No element that would load anything on its own from the app's host.
			expect(
				document.querySelectorAll(
					'img, script, iframe, link, object, embed'
				)
			).toHaveLength( 0 );
			root.remove();
		} finally {
			Object.assign( window, original );
		}
	} );

	it( 'the link is only an address: directionsLink has no side effects', () => {
		expect(
			directionsLink( 'osm', 'Ben Nevis', 56.79685, -5.00355 )
		).toEqual( {
			href: 'https://www.openstreetmap.org/directions?route=;56.79685,-5.00355',
			label: 'Directions to Ben Nevis (opens in a new tab)',
			target: '_blank',
			rel: 'noopener noreferrer',
		} );
		expect( directionsLink( 'none', 'Ben Nevis', 1, 1 ) ).toBeNull();
	} );
} );
