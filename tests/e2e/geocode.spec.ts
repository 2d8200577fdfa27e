/**
 * Address search on the Playground site (WordPress in WebAssembly, SQLite): the route
 * `/cairn/v1/geocode`, its cache and site-wide rate limit on SQLite, and the provider choice on
 * Settings → Cairn Maps. The providers are the test plugin `cairn-geocoder-fixture`, which answers
 * WordPress' HTTP API for nominatim.openstreetmap.org and api.mapbox.com and records each request.
 */
import type { RequestUtils } from '@wordpress/e2e-test-utils-playwright';

import { test, expect, FAKE_PUBLIC_TOKEN } from './fixtures/maps-service';

const FIXTURE = 'cairn-geocoder-fixture/cairn-geocoder-fixture';
const SETTINGS_URL = '/wp-admin/options-general.php?page=cairn-maps';

interface GeocodeAnswer {
	results: { label: string; lat: number; lng: number }[];
	attribution: string;
	attribution_url: string;
}

interface ProviderRequest {
	provider: 'nominatim' | 'mapbox';
	endpoint: string;
	params: Record< string, string >;
	user_agent: string;
	time: number;
}

interface GeocoderSettings {
	cairn_maps_geocoder: string;
	cairn_maps_access_token: string;
}

let original: GeocoderSettings;

function geocode(
	requestUtils: RequestUtils,
	params: Record< string, string >
): Promise< GeocodeAnswer > {
	return requestUtils.rest( {
		path: '/cairn/v1/geocode',
		params,
	} ) as Promise< GeocodeAnswer >;
}

function providerRequests(
	requestUtils: RequestUtils
): Promise< ProviderRequest[] > {
	return requestUtils.rest( {
		path: '/cairn-geocoder-fixture/v1/requests',
	} ) as Promise< ProviderRequest[] >;
}

async function forgetProviderRequests(
	requestUtils: RequestUtils
): Promise< void > {
	await requestUtils.rest( {
		method: 'DELETE',
		path: '/cairn-geocoder-fixture/v1/requests',
	} );
}

async function writeSettings(
	requestUtils: RequestUtils,
	data: Partial< GeocoderSettings >
): Promise< void > {
	await requestUtils.rest( {
		method: 'POST',
		path: '/wp/v2/settings',
		data,
	} );
}

test.describe( 'Address search', () => {
	test.beforeAll( async ( { requestUtils } ) => {
		original = ( await requestUtils.rest( {
			path: '/wp/v2/settings',
		} ) ) as GeocoderSettings;
		await requestUtils.rest( {
			method: 'POST',
			path: `/wp/v2/plugins/${ FIXTURE }`,
			data: { status: 'active' },
		} );
	} );

	test.afterAll( async ( { requestUtils } ) => {
		await writeSettings( requestUtils, {
			cairn_maps_geocoder: original.cairn_maps_geocoder,
			cairn_maps_access_token: original.cairn_maps_access_token,
		} );
		await requestUtils.rest( {
			method: 'POST',
			path: `/wp/v2/plugins/${ FIXTURE }`,
			data: { status: 'inactive' },
		} );
	} );

	test.beforeEach( async ( { requestUtils } ) => {
		await forgetProviderRequests( requestUtils );
	} );

	test( 'asks Nominatim once per question, a second apart, and answers errors clearly', async ( {
		requestUtils,
	} ) => {
		await writeSettings( requestUtils, {
			cairn_maps_geocoder: 'nominatim',
		} );
		// A question of its own per run: a kept answer from an earlier run on a reused site would
		// skip the provider.
		const first = await geocode( requestUtils, {
			q: 'Royal Mile, Edinburgh',
		} );
		expect( first.results ).toEqual( [
			{
				label: 'Royal Mile, Old Town, Edinburgh, City of Edinburgh, Scotland, EH1 1RE, United Kingdom',
				lat: 55.95,
				lng: -3.1875,
			},
		] );
		expect( first.attribution ).toBe(
			'© OpenStreetMap contributors (ODbL)'
		);
		const again = await geocode( requestUtils, {
			q: '  royal mile,   EDINBURGH ',
		} );
		expect( again ).toEqual( first );

		const calton = await geocode( requestUtils, { q: 'Calton Hill' } );
		expect( calton.results[ 0 ].lat ).toBe( 55.9553 );

		const requests = await providerRequests( requestUtils );
		// The first question may have been kept by an earlier run on a reused site.
		const asked = requests.map( ( request ) => request.params.q );
		expect( asked.filter( ( q ) => q === 'Calton Hill' ) ).toHaveLength(
			1
		);
		expect( asked.length ).toBeLessThanOrEqual( 2 );
		if ( requests.length === 2 ) {
			expect(
				requests[ 1 ].time - requests[ 0 ].time
			).toBeGreaterThanOrEqual( 1 );
		}
		expect( requests[ 0 ].user_agent ).toMatch(
			/^Cairn Maps\/[\d.]+ \(http:\/\/localhost:\d+\/\)$/
		);

		await expect(
			geocode( requestUtils, { q: 'fixture 500' } )
		).rejects.toMatchObject( {
			code: 'cairn_geocode_unavailable',
			data: { status: 502 },
		} );
		await expect(
			geocode( requestUtils, { q: 'x' } )
		).rejects.toMatchObject( {
			code: 'cairn_geocode_invalid',
			data: { status: 400 },
		} );
	} );

	test( 'asks Mapbox permanent geocoding with the site token when the owner chooses it', async ( {
		requestUtils,
	} ) => {
		await writeSettings( requestUtils, {
			cairn_maps_geocoder: 'mapbox-permanent',
			cairn_maps_access_token: FAKE_PUBLIC_TOKEN,
		} );
		const answer = await geocode( requestUtils, {
			lat: '55.9441',
			lng: '-3.1618',
		} );
		expect( answer.attribution ).toBe( '© Mapbox' );
		expect( answer.results[ 0 ].label ).toMatch( /^Arthur’s Seat/ );
		expect( JSON.stringify( answer ) ).not.toContain( FAKE_PUBLIC_TOKEN );
		const requests = await providerRequests( requestUtils );
		expect(
			requests.filter( ( request ) => request.provider === 'mapbox' )
		).toMatchObject( [
			{
				endpoint: 'reverse',
				params: { permanent: 'true', access_token: 'present' },
			},
		] );
	} );

	test( 'the owner chooses the service on Settings → Cairn Maps', async ( {
		page,
		requestUtils,
	} ) => {
		await writeSettings( requestUtils, {
			cairn_maps_geocoder: 'nominatim',
		} );
		await page.goto( SETTINGS_URL );
		const nominatim = page.getByRole( 'radio', {
			name: /^OpenStreetMap Nominatim/,
		} );
		const mapbox = page.getByRole( 'radio', {
			name: /^Mapbox permanent geocoding/,
		} );
		await expect( nominatim ).toBeChecked();

		await mapbox.check();
		await expect(
			page.getByText(
				'Saved. Address search now uses Mapbox permanent geocoding.'
			)
		).toBeVisible();
		expect(
			(
				( await requestUtils.rest( {
					path: '/wp/v2/settings',
				} ) ) as GeocoderSettings
			 ).cairn_maps_geocoder
		).toBe( 'mapbox-permanent' );

		await page.reload();
		await expect( mapbox ).toBeChecked();
		await nominatim.check();
		await expect(
			page.getByText(
				'Saved. Address search now uses OpenStreetMap Nominatim.'
			)
		).toBeVisible();
	} );
} );
