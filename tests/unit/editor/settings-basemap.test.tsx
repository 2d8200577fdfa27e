/**
 * Settings → Cairn Maps, the Basemap card, as the owner uses it: each kind of basemap, what the
 * screen refuses before saving, what is saved, and "Test basemap". Only the network is faked
 * (`@wordpress/api-fetch`); the components are WordPress's own.
 */
import { TextDecoder as NodeTextDecoder } from 'node:util';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import apiFetch from '@wordpress/api-fetch';

import { SettingsScreen } from '../../../src/settings/settings-screen';
import type { PageData } from '../../../src/settings/page-data';
import { basemapKind, basemapProblem } from '../../../src/settings/basemap';

jest.mock( '@wordpress/api-fetch', () => ( {
	__esModule: true,
	default: jest.fn(),
} ) );

if ( typeof globalThis.TextDecoder === 'undefined' ) {
	Object.assign( globalThis, { TextDecoder: NodeTextDecoder } );
}

const fetchMock = apiFetch as unknown as jest.Mock;

const PUBLIC_TOKEN = `pk.${ Buffer.from( '{"u":"cairn"}' ).toString(
	'base64url'
) }.signature`;

const PAGE: PageData = {
	siteUrl: 'https://example.org/',
	storedTokenProblem: '',
	privacyPolicyUrl: '',
	consentApi: 'absent',
	consentCategories: [],
	locationTypes: [],
	localHosts: [ 'example.org' ],
};

type Request = {
	path: string;
	method?: string;
	data?: Record< string, unknown >;
};

function stored( changes: Record< string, unknown > = {} ) {
	return {
		cairn_maps_access_token: '',
		cairn_maps_defaults: {},
		cairn_maps_require_consent: false,
		cairn_maps_consent_category: 'marketing',
		cairn_maps_delete_data_on_uninstall: false,
		cairn_maps_allowed_origins: [],
		cairn_maps_post_types: [],
		cairn_maps_basemap: '',
		...changes,
	};
}

/**
 * Answers GET /wp/v2/settings with `settings`, POST /wp/v2/settings by echoing, and the test
 * route with `test`.
 *
 * @param settings What is stored.
 * @param test     The test route's answer.
 */
function serve(
	settings: Record< string, unknown >,
	test: ( request: Request ) => Promise< unknown > = () =>
		Promise.resolve( { ok: true, message: 'fine' } )
) {
	fetchMock.mockImplementation( ( request: Request ) => {
		if ( request.path === '/cairn/v1/basemap/test' ) {
			return test( request );
		}
		return request.method === 'POST'
			? Promise.resolve( { ...settings, ...request.data } )
			: Promise.resolve( settings );
	} );
}

function saves(): Request[] {
	return fetchMock.mock.calls
		.map( ( [ request ] ) => request as Request )
		.filter(
			( request ) =>
				request.method === 'POST' && request.path === '/wp/v2/settings'
		);
}

function tests(): Request[] {
	return fetchMock.mock.calls
		.map( ( [ request ] ) => request as Request )
		.filter( ( request ) => request.path === '/cairn/v1/basemap/test' );
}

async function renderScreen() {
	const user = userEvent.setup();
	render( <SettingsScreen page={ PAGE } /> );
	await screen.findByRole( 'button', { name: 'Save changes' } );
	return user;
}

function card(): HTMLElement {
	return screen
		.getByRole( 'heading', { name: 'Basemap' } )
		.closest( '.cairn-maps-settings__basemap' ) as HTMLElement;
}

/** Waits until the test button is usable again (the test finished). */
async function testFinished() {
	await waitFor( () =>
		expect(
			(
				within( card() ).getByRole( 'button', {
					name: 'Test basemap',
				} ) as HTMLButtonElement
			 ).disabled
		).toBe( false )
	);
}

function saveButton(): HTMLElement {
	return screen.getByRole( 'button', { name: 'Save changes' } );
}

beforeEach( () => {
	fetchMock.mockReset();
} );

describe( 'the Basemap card', () => {
	it( 'says what Automatic draws: OpenFreeMap without a token, Mapbox with one', async () => {
		serve( stored() );
		const user = await renderScreen();
		const basemap = within( card() );
		expect(
			(
				basemap.getByRole( 'radio', {
					name: 'Automatic',
				} ) as HTMLInputElement
			 ).checked
		).toBe( true );
		expect(
			basemap.getByText(
				/OpenFreeMap Liberty, because no Mapbox token is set/
			)
		).toBeTruthy();

		await user.click( screen.getByLabelText( 'Mapbox access token' ) );
		await user.paste( PUBLIC_TOKEN );
		expect(
			basemap.getByText(
				/Mapbox Standard, because a public Mapbox token is set/
			)
		).toBeTruthy();
	} );

	it( 'saves an OpenFreeMap style and shows its terms', async () => {
		serve( stored() );
		const user = await renderScreen();
		const basemap = within( card() );
		await user.click(
			basemap.getByRole( 'radio', { name: 'OpenFreeMap (no key)' } )
		);
		expect(
			basemap.getByText(
				/OpenFreeMap © OpenMapTiles Data from OpenStreetMap/
			)
		).toBeTruthy();
		await user.selectOptions(
			basemap.getByLabelText( 'OpenFreeMap style' ),
			'Positron'
		);
		await user.click( saveButton() );
		await screen.findByText( 'Settings saved.', {
			selector: '.components-notice__content',
		} );
		expect( saves()[ 0 ]?.data?.cairn_maps_basemap ).toBe(
			'https://tiles.openfreemap.org/styles/positron'
		);
	} );

	it( 'refuses an http style URL before saving, and says why', async () => {
		serve( stored() );
		const user = await renderScreen();
		const basemap = within( card() );
		await user.click(
			basemap.getByRole( 'radio', { name: 'A MapLibre style URL' } )
		);
		const field = basemap.getByLabelText( 'Style URL (https)' );
		await user.clear( field );
		await user.click( field );
		await user.paste( 'http://tiles.example.net/style.json' );
		expect( basemap.getByRole( 'alert' ).textContent ).toMatch(
			/must start with https:\/\//
		);
		expect( saveButton().getAttribute( 'aria-disabled' ) ).toBe( 'true' );
		expect(
			(
				basemap.getByRole( 'button', {
					name: 'Test basemap',
				} ) as HTMLButtonElement
			 ).disabled
		).toBe( true );

		await user.clear( field );
		await user.click( field );
		await user.paste( 'https://tiles.example.net/style.json' );
		expect( basemap.queryByRole( 'alert' ) ).toBeNull();
		await user.click( saveButton() );
		await screen.findByText( 'Settings saved.', {
			selector: '.components-notice__content',
		} );
		expect( saves()[ 0 ]?.data?.cairn_maps_basemap ).toBe(
			'https://tiles.example.net/style.json'
		);
	} );

	it( 'takes a self-hosted archive on this site, and says it needs no consent', async () => {
		serve( stored() );
		const user = await renderScreen();
		const basemap = within( card() );
		await user.click(
			basemap.getByRole( 'radio', {
				name: 'Self-hosted (a PMTiles file on this site)',
			} )
		);
		expect(
			basemap.getByText( /the map itself needs no consent/ )
		).toBeTruthy();
		const field = basemap.getByLabelText( 'Archive address on this site' );
		await user.click( field );
		await user.paste( 'https://tiles.example.net/world.pmtiles' );
		expect( basemap.getByRole( 'alert' ).textContent ).toMatch(
			/must be on this site/
		);

		await user.clear( field );
		await user.click( field );
		await user.paste(
			'https://example.org/wp-content/uploads/world.pmtiles'
		);
		expect( basemap.queryByRole( 'alert' ) ).toBeNull();
		await user.click( saveButton() );
		await screen.findByText( 'Settings saved.', {
			selector: '.components-notice__content',
		} );
		expect( saves()[ 0 ]?.data?.cairn_maps_basemap ).toBe(
			'pmtiles://https://example.org/wp-content/uploads/world.pmtiles'
		);
	} );

	it( 'warns that a Mapbox basemap needs the token', async () => {
		serve( stored() );
		const user = await renderScreen();
		const basemap = within( card() );
		await user.click(
			basemap.getByRole( 'radio', { name: 'Mapbox (needs the token)' } )
		);
		expect(
			basemap.getByText( /Mapbox styles need a public access token/ )
		).toBeTruthy();
		await user.selectOptions(
			basemap.getByLabelText( 'Mapbox style' ),
			'Outdoors'
		);
		await user.click( saveButton() );
		await screen.findByText( 'Settings saved.', {
			selector: '.components-notice__content',
		} );
		expect( saves()[ 0 ]?.data?.cairn_maps_basemap ).toBe(
			'mapbox://styles/mapbox/outdoors-v12'
		);
	} );

	it( 'tests the basemap on the server and shows what it found', async () => {
		serve(
			stored( {
				cairn_maps_basemap:
					'pmtiles://https://example.org/world.pmtiles',
			} ),
			( request ) =>
				Promise.resolve(
					String( request.data?.basemap ).includes( 'world' )
						? {
								ok: false,
								code: 'no-range',
								message:
									'The archive is served without Range support.',
							}
						: {
								ok: true,
								code: 'ok',
								message:
									'The style answered: 1 source, 2 layers.',
							}
				)
		);
		const user = await renderScreen();
		const basemap = within( card() );
		expect(
			(
				basemap.getByLabelText(
					'Archive address on this site'
				) as HTMLInputElement
			 ).value
		).toBe( 'https://example.org/world.pmtiles' );
		await user.click(
			basemap.getByRole( 'button', { name: 'Test basemap' } )
		);
		expect(
			await basemap.findByText(
				'The archive is served without Range support.',
				{
					selector: '.components-notice__content',
				}
			)
		).toBeTruthy();
		expect( tests()[ 0 ]?.data ).toEqual( {
			basemap: 'pmtiles://https://example.org/world.pmtiles',
		} );

		await user.click(
			basemap.getByRole( 'radio', { name: 'OpenFreeMap (no key)' } )
		);
		expect( basemap.queryByText( /without Range support/ ) ).toBeNull();
		await user.click(
			basemap.getByRole( 'button', { name: 'Test basemap' } )
		);
		expect(
			await basemap.findByText(
				'The basemap works: The style answered: 1 source, 2 layers.',
				{
					selector: '.components-notice__content',
				}
			)
		).toBeTruthy();
		await testFinished();
	} );

	it( 'shows the server’s refusal of a test', async () => {
		serve(
			stored( { cairn_maps_basemap: 'https://maps.example.net/s.json' } ),
			() =>
				Promise.reject( {
					code: 'cairn_maps_invalid_basemap',
					message: 'A self-hosted archive must be on this site.',
					data: { status: 400 },
				} )
		);
		const user = await renderScreen();
		await user.click(
			within( card() ).getByRole( 'button', { name: 'Test basemap' } )
		);
		expect(
			await within( card() ).findByText(
				'A self-hosted archive must be on this site.',
				{
					selector: '.components-notice__content',
				}
			)
		).toBeTruthy();
		await testFinished();
	} );
} );

describe( 'basemapKind and basemapProblem', () => {
	it( 'sorts stored values into the kinds the card offers', () => {
		expect( basemapKind( '' ) ).toBe( 'automatic' );
		expect(
			basemapKind( 'https://tiles.openfreemap.org/styles/bright' )
		).toBe( 'openfreemap' );
		expect( basemapKind( 'mapbox://styles/mapbox/dark-v11' ) ).toBe(
			'mapbox'
		);
		expect( basemapKind( 'https://api.mapbox.com/styles/v1/a/b' ) ).toBe(
			'mapbox'
		);
		expect(
			basemapKind(
				'https://api.maptiler.com/maps/streets/style.json?key=x'
			)
		).toBe( 'style-url' );
		expect( basemapKind( 'pmtiles://https://example.org/a.pmtiles' ) ).toBe(
			'self-hosted'
		);
	} );

	it( 'leaves the archive host to the server when it does not know the site', () => {
		expect(
			basemapProblem( 'pmtiles://https://cdn.example.net/a.pmtiles', [] )
		).toBe( '' );
		expect(
			basemapProblem( 'pmtiles://https://cdn.example.net/a.pmtiles', [
				'example.org',
			] )
		).toMatch( /on this site/ );
		expect( basemapProblem( 'pmtiles://', [ 'example.org' ] ) ).toMatch(
			/media library/
		);
		expect( basemapProblem( 'https://example.org/a b.json', [] ) ).toMatch(
			/spaces/
		);
	} );
} );
