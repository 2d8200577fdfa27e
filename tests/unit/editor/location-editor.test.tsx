/**
 * The shared Location editor (the marker sidebar's and the post sidebar's body) as an editor uses
 * it without a Mapbox token: typed coordinates are kept as typed and flagged when out of range,
 * pasted coordinates and map links set the position, an address found sets it too. Only the
 * network is faked (`@wordpress/api-fetch`); the parent keeps the edits as the editor would.
 */
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import apiFetch from '@wordpress/api-fetch';
import { useState } from '@wordpress/element';

import { LocationEditor } from '../../../src/shared/location-editor';
import type { LocationChanges } from '../../../src/shared/location-editor';

jest.mock( '@wordpress/api-fetch', () => ( {
	__esModule: true,
	default: jest.fn(),
} ) );

const fetchMock = apiFetch as unknown as jest.Mock;

const HINT = 'Give this post a place: search an address, click the map.';

/** The editor in a parent that keeps what it reports, as the post's meta would. */
function Host( {
	initial,
	edits,
}: {
	initial: LocationChanges;
	edits: LocationChanges[];
} ) {
	const [ value, setValue ] = useState( initial );
	return (
		<LocationEditor
			latitude={ value.lat }
			longitude={ value.lng }
			address={ value.address }
			onChange={ ( changes ) => {
				edits.push( changes );
				setValue( ( current ) => ( { ...current, ...changes } ) );
			} }
			hint={ HINT }
			mapLabel="Map"
			pinLabel="Pin"
		/>
	);
}

function setup( initial: LocationChanges = { address: '' } ) {
	const edits: LocationChanges[] = [];
	const user = userEvent.setup();
	render( <Host initial={ initial } edits={ edits } /> );
	return { user, edits };
}

function input( name: string ): HTMLInputElement {
	return screen.getByRole( 'textbox', { name } );
}

/** The help text a field is described by. */
function help( field: HTMLElement ): string {
	return ( field.getAttribute( 'aria-describedby' ) ?? '' )
		.split( ' ' )
		.map( ( id ) => document.getElementById( id )?.textContent ?? '' )
		.join( ' ' )
		.trim();
}

function status(): string {
	return screen.getByRole( 'status' ).textContent ?? '';
}

beforeEach( () => {
	fetchMock.mockReset();
} );

describe( 'LocationEditor', () => {
	it( 'says the map needs a token and offers the fields meanwhile', () => {
		setup();
		expect(
			screen.getByText( /The map needs a public Mapbox access token/, {
				selector: '.components-notice__content',
			} )
		).toBeTruthy();
		expect( input( 'Latitude' ) ).toBeTruthy();
		expect( input( 'Longitude' ) ).toBeTruthy();
		expect( screen.getByText( HINT ) ).toBeTruthy();
	} );

	it( 'accepts typed coordinates in range', async () => {
		const { user, edits } = setup();
		await user.type( input( 'Latitude' ), '55.9533' );
		await user.type( input( 'Longitude' ), '-3.1883' );

		expect( edits.filter( ( edit ) => 'lat' in edit ).at( -1 ) ).toEqual( {
			lat: 55.9533,
		} );
		expect( edits.at( -1 ) ).toEqual( { lng: -3.1883 } );
		for ( const name of [ 'Latitude', 'Longitude' ] ) {
			expect( input( name ).getAttribute( 'aria-invalid' ) ).toBeNull();
			expect( help( input( name ) ) ).toBe( '' );
		}
		expect( screen.queryByText( HINT ) ).toBeNull();
		expect(
			screen.getByRole( 'button', {
				name: 'Find the address of this point',
			} )
		).toBeTruthy();
	} );

	it.each( [
		[ 'Latitude', '91', 91, 'Enter a number of degrees from -90 to 90.' ],
		[
			'Latitude',
			'-90.5',
			-90.5,
			'Enter a number of degrees from -90 to 90.',
		],
		[
			'Longitude',
			'180.01',
			180.01,
			'Enter a number of degrees from -180 to 180.',
		],
		[
			'Longitude',
			'1e2',
			'1e2',
			'Enter a number of degrees from -180 to 180.',
		],
		[
			'Latitude',
			'north',
			'north',
			'Enter a number of degrees from -90 to 90.',
		],
	] )(
		'refuses %s %s with a message, keeping what was typed',
		async ( name, typed, reported, message ) => {
			const { user, edits } = setup();
			await user.type( input( name ), typed );

			expect( input( name ).getAttribute( 'aria-invalid' ) ).toBe(
				'true'
			);
			expect( help( input( name ) ) ).toBe( message );
			expect( input( name ).value ).toBe( typed );
			expect( edits.at( -1 ) ).toEqual(
				name === 'Latitude' ? { lat: reported } : { lng: reported }
			);
			expect( screen.getByText( HINT ) ).toBeTruthy();
		}
	);

	it( 'removes a coordinate when its field is emptied', async () => {
		const { user, edits } = setup( {
			lat: 55.95,
			lng: -3.19,
			address: '',
		} );
		expect( input( 'Latitude' ).value ).toBe( '55.95' );
		await user.clear( input( 'Latitude' ) );
		expect( edits.at( -1 ) ).toEqual( { lat: null } );
		expect( screen.getByText( HINT ) ).toBeTruthy();
	} );

	it( 'sets the position from pasted coordinates, and says so', async () => {
		const { user, edits } = setup();
		const paste = input( 'Paste coordinates' );
		await user.type( paste, '55°57′N 3°12′W{Enter}' );

		expect( edits.at( -1 ) ).toEqual( { lat: 55.95, lng: -3.2 } );
		expect( input( 'Latitude' ).value ).toBe( '55.95' );
		expect( input( 'Longitude' ).value ).toBe( '-3.2' );
		expect( paste.value ).toBe( '' );
		expect( status() ).toBe( 'Position set: 55.95, -3.2' );
	} );

	it( 'refuses pasted text that is not coordinates, with the message', async () => {
		const { user, edits } = setup();
		const paste = input( 'Paste coordinates' );
		await user.type( paste, 'somewhere nice' );
		await user.click(
			screen.getByRole( 'button', { name: 'Set position' } )
		);

		expect( paste.getAttribute( 'aria-invalid' ) ).toBe( 'true' );
		expect( help( paste ) ).toMatch(
			/^These are not coordinates this field can read\./
		);
		expect( edits ).toEqual( [] );
		expect( paste.value ).toBe( 'somewhere nice' );
	} );

	it( 'sets the position and the address from an address found', async () => {
		fetchMock.mockResolvedValue( {
			results: [
				{ label: 'Waverley, Edinburgh', lat: 55.952, lng: -3.189 },
			],
			attribution: 'Data © OpenStreetMap contributors',
		} );
		const { user, edits } = setup();
		await user.type(
			screen.getByRole( 'combobox', { name: 'Find an address' } ),
			'Waverley{Enter}'
		);
		await screen.findByRole( 'option', { name: 'Waverley, Edinburgh' } );
		await user.keyboard( '{Enter}' );

		expect( edits.at( -1 ) ).toEqual( {
			lat: 55.952,
			lng: -3.189,
			address: 'Waverley, Edinburgh',
		} );
		expect( input( 'Address' ).value ).toBe( 'Waverley, Edinburgh' );
		expect( input( 'Latitude' ).value ).toBe( '55.952' );
		await waitFor( () =>
			expect( status() ).toBe(
				'Position set to Waverley, Edinburgh: 55.952, -3.189'
			)
		);
	} );
} );
