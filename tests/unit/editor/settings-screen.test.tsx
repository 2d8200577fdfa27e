/**
 * Settings → Cairn Maps as the owner uses it: the settings come from `/wp/v2/settings`, the cards
 * edit them, one save sends them. Only the network is faked (`@wordpress/api-fetch`); the
 * components are WordPress's own.
 */
import { TextDecoder as NodeTextDecoder } from 'node:util';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import apiFetch from '@wordpress/api-fetch';

import { SettingsScreen } from '../../../src/settings/settings-screen';
import type { PageData } from '../../../src/settings/page-data';

jest.mock( '@wordpress/api-fetch', () => ( {
	__esModule: true,
	default: jest.fn(),
} ) );

// jsdom lacks TextDecoder (the token check decodes the token's payload); browsers have it.
if ( typeof globalThis.TextDecoder === 'undefined' ) {
	Object.assign( globalThis, { TextDecoder: NodeTextDecoder } );
}

const fetchMock = apiFetch as unknown as jest.Mock;

/** A public token of Mapbox account "cairn" (the payload is `{"u":"cairn"}`). */
const PUBLIC_TOKEN = `pk.${ Buffer.from( '{"u":"cairn"}' ).toString(
	'base64url'
) }.signature`;

const PAGE: PageData = {
	siteUrl: 'https://example.org',
	storedTokenProblem: '',
	privacyPolicyUrl: '',
	consentApi: 'absent',
	consentCategories: [],
	locationTypes: [
		{ value: 'post', label: 'Posts' },
		{ value: 'page', label: 'Pages' },
		{ value: 'event', label: 'Events' },
	],
	localHosts: [ 'example.org' ],
};

const STORED = {
	cairn_maps_access_token: PUBLIC_TOKEN,
	cairn_maps_defaults: {},
	cairn_maps_require_consent: false,
	cairn_maps_consent_category: 'marketing',
	cairn_maps_delete_data_on_uninstall: false,
	cairn_maps_allowed_origins: [],
	cairn_maps_post_types: [ 'post' ],
};

type Request = {
	path: string;
	method?: string;
	data?: Record< string, unknown >;
};

/** Answers GET with the stored settings and POST with `answer` (a value or a rejection). */
function serve( answer: ( request: Request ) => Promise< unknown > ) {
	fetchMock.mockImplementation( ( request: Request ) =>
		request.method === 'POST'
			? answer( request )
			: Promise.resolve( STORED )
	);
}

function posts(): Request[] {
	return fetchMock.mock.calls
		.map( ( [ request ] ) => request as Request )
		.filter( ( request ) => request.method === 'POST' );
}

/** A notice's text (WordPress's Notice also speaks it, in the live regions). */
const NOTICE = '.components-notice__content';

function findNotice( text: string | RegExp ) {
	return screen.findByText( text, { selector: NOTICE } );
}

/** The text of what describes an element (`aria-describedby`). */
function description( element: HTMLElement ): string {
	return ( element.getAttribute( 'aria-describedby' ) ?? '' )
		.split( ' ' )
		.map( ( id ) => document.getElementById( id )?.textContent ?? '' )
		.join( ' ' )
		.trim();
}

function checked( name: string ): boolean {
	return ( screen.getByRole( 'checkbox', { name } ) as HTMLInputElement )
		.checked;
}

async function renderScreen() {
	const user = userEvent.setup();
	render( <SettingsScreen page={ PAGE } /> );
	await screen.findByRole( 'button', { name: 'Save changes' } );
	return user;
}

beforeEach( () => {
	fetchMock.mockReset();
} );

describe( 'SettingsScreen', () => {
	it( 'shows the server’s message when the settings cannot be loaded', async () => {
		fetchMock.mockRejectedValue( {
			code: 'rest_forbidden',
			message: 'Sorry, you are not allowed to do that.',
		} );
		render( <SettingsScreen page={ PAGE } /> );
		expect(
			await findNotice( 'Sorry, you are not allowed to do that.' )
		).toBeTruthy();
		expect(
			screen.queryByRole( 'button', { name: 'Save changes' } )
		).toBeNull();
	} );

	it( 'says what is wrong with a secret token and does not save it', async () => {
		serve( ( request ) => Promise.resolve( request.data ) );
		const user = await renderScreen();
		const field = screen.getByLabelText( 'Mapbox access token' );
		await user.clear( field );
		await user.type( field, 'sk.abc.def' );

		expect( field.getAttribute( 'aria-invalid' ) ).toBe( 'true' );
		expect(
			screen.getByText( /This is a secret token \(“sk\.”\)/ )
		).toBeTruthy();
		const save = screen.getByRole( 'button', { name: 'Save changes' } );
		expect( save.getAttribute( 'aria-disabled' ) ).toBe( 'true' );
		expect( description( save ) ).toBe(
			'Fix the access token before saving.'
		);

		await user.click( save );
		await user.type( field, '{Enter}' );
		expect( posts() ).toHaveLength( 0 );
	} );

	it( 'names the token’s account when the settings are saved', async () => {
		serve( ( request ) =>
			Promise.resolve( { ...STORED, ...request.data } )
		);
		const user = await renderScreen();
		expect(
			screen.getByText( 'Token of Mapbox account “cairn”.' )
		).toBeTruthy();

		await user.click(
			screen.getByRole( 'button', { name: 'Save changes' } )
		);

		expect(
			await findNotice(
				'Settings saved. Maps use the token of Mapbox account “cairn”.'
			)
		).toBeTruthy();
		expect( posts() ).toHaveLength( 1 );
		expect( posts()[ 0 ]?.data ).toMatchObject( {
			cairn_maps_access_token: PUBLIC_TOKEN,
		} );
	} );

	it( 'shows the server’s refusal and keeps what was typed', async () => {
		serve( () =>
			Promise.reject( {
				code: 'rest_invalid_param',
				message: 'Invalid parameter(s): cairn_maps_allowed_origins',
				data: { status: 400 },
			} )
		);
		const user = await renderScreen();
		const origins = screen.getByLabelText( 'Allowed origins' );
		await user.type( origins, 'https://app.example.com' );
		await user.click(
			screen.getByRole( 'button', { name: 'Save changes' } )
		);

		expect(
			await findNotice(
				'Invalid parameter(s): cairn_maps_allowed_origins'
			)
		).toBeTruthy();
		expect(
			screen.queryByText( /Settings saved/, { selector: NOTICE } )
		).toBeNull();
		expect( ( origins as HTMLTextAreaElement ).value ).toBe(
			'https://app.example.com'
		);
		await waitFor( () =>
			expect(
				screen
					.getByRole( 'button', { name: 'Save changes' } )
					.getAttribute( 'aria-disabled' )
			).toBeNull()
		);
	} );

	it( 'offers a failed request a general message', async () => {
		serve( () => Promise.reject( new TypeError() ) );
		const user = await renderScreen();
		await user.click(
			screen.getByRole( 'button', { name: 'Save changes' } )
		);
		expect(
			await findNotice(
				'The settings could not be saved. Please try again.'
			)
		).toBeTruthy();
	} );

	it( 'lists the post types the server offers and saves the ones checked', async () => {
		serve( ( request ) =>
			Promise.resolve( { ...STORED, ...request.data } )
		);
		const user = await renderScreen();
		const group = screen.getByRole( 'group', {
			name: 'Content that can have a location',
		} );
		const boxes = Array.from(
			group.querySelectorAll< HTMLInputElement >(
				'input[type="checkbox"]'
			)
		);
		expect(
			boxes.map( ( box ) => box.labels?.[ 0 ]?.textContent )
		).toEqual( [ 'Posts', 'Pages', 'Events' ] );
		expect( boxes.map( ( box ) => box.checked ) ).toEqual( [
			true,
			false,
			false,
		] );

		await user.click( screen.getByRole( 'checkbox', { name: 'Events' } ) );
		await user.click( screen.getByRole( 'checkbox', { name: 'Posts' } ) );
		await user.click(
			screen.getByRole( 'button', { name: 'Save changes' } )
		);

		await findNotice( /Settings saved/ );
		expect( posts()[ 0 ]?.data?.cairn_maps_post_types ).toEqual( [
			'event',
		] );
		expect( checked( 'Events' ) ).toBe( true );
		expect( checked( 'Posts' ) ).toBe( false );
	} );
} );
