/**
 * The places routes of a tiled map (`/cairn/v1/places`, `/cairn/v1/places/summary`) on the
 * Playground site, i.e. over SQLite: the index's queries (word prefixes, group names, boxes across
 * the antimeridian, distance order, counts from the grid's aggregates) answer there as on MariaDB
 * (tests/php/Rest/Places_ControllerTest.php). Asked as an anonymous visitor would.
 */
import { request as playwrightRequest } from '@playwright/test';
import type { APIRequestContext } from '@playwright/test';

import { VISITOR_STATE } from './global-setup';
import { expect, test } from './fixtures/maps-service';

const GROUP = 'e2e-places-api';
const OTHER = 'e2e-places-lookouts';

interface Summary {
	total: number;
	groups: Record< string, number >;
	matches: number;
	bounds: [ number, number, number, number ] | null;
}

interface Listed {
	total: number;
	page: number;
	pages: number;
	items: Array< {
		id: number;
		title: string;
		lng: number;
		lat: number;
		groups: string[];
		distance?: number;
	} >;
}

let visitor: APIRequestContext;
const ids: Record< string, number > = {};

async function get< T >(
	route: string,
	params: Record< string, string >
): Promise< T > {
	const response = await visitor.get( '/', {
		params: { rest_route: `/cairn/v1${ route }`, group: GROUP, ...params },
	} );
	expect( response.status(), await response.text() ).toBe( 200 );
	return ( await response.json() ) as T;
}

test.describe( 'places routes on SQLite', () => {
	test.beforeAll( async ( { requestUtils } ) => {
		const groups: Record< string, number > = {};
		for ( const [ slug, name ] of [
			[ GROUP, 'Places API' ],
			[ OTHER, 'Scenic lookouts' ],
		] as const ) {
			const [ existing ] = ( await requestUtils.rest( {
				path: '/wp/v2/cairn-marker-groups',
				params: { slug },
			} ) ) as Array< { id: number } >;
			groups[ slug ] =
				existing?.id ??
				(
					( await requestUtils.rest( {
						method: 'POST',
						path: '/wp/v2/cairn-marker-groups',
						data: { name, slug },
					} ) ) as { id: number }
				 ).id;
		}
		const places: Array< [ string, string, number, number, string[] ] > = [
			[ 'flore', 'Café Zéphyr de Flore', 48.854, 2.333, [ GROUP ] ],
			[ 'hut', 'Zephyr Hut', 46.0, 7.5, [ GROUP, OTHER ] ],
			[ 'east', 'Ocean Yonder East', -17.0, 179.5, [ GROUP ] ],
			[ 'west', 'Ocean Yonder West', -16.0, -179.5, [ GROUP ] ],
		];
		for ( const [ name, title, lat, lng, slugs ] of places ) {
			const marker = ( await requestUtils.rest( {
				method: 'POST',
				path: '/wp/v2/cairn-markers',
				data: {
					title,
					status: 'publish',
					meta: { cairn_lat: lat, cairn_lng: lng },
					'cairn-marker-groups': slugs.map(
						( slug ) => groups[ slug ]
					),
				},
			} ) ) as { id: number };
			ids[ name ] = marker.id;
		}
		visitor = await playwrightRequest.newContext( {
			baseURL: process.env.WP_BASE_URL,
			storageState: VISITOR_STATE,
		} );
		// The index's first build runs from WP-Cron: let it run.
		await visitor.get( '/wp-cron.php' );
	} );

	test.afterAll( async ( { requestUtils } ) => {
		for ( const id of Object.values( ids ) ) {
			await requestUtils.rest( {
				method: 'DELETE',
				path: `/wp/v2/cairn-markers/${ id }`,
				params: { force: true },
			} );
		}
		await visitor?.dispose();
	} );

	test( 'the summary counts the selection and the matches of a search', async () => {
		await expect
			.poll(
				async () =>
					( await get< Summary >( '/places/summary', {} ) ).total
			)
			.toBe( 4 );
		const summary = await get< Summary >( '/places/summary', {
			q: 'zeph',
		} );
		expect( summary.groups ).toEqual( { [ GROUP ]: 4, [ OTHER ]: 1 } );
		expect( summary.matches ).toBe( 2 );
		expect( summary.bounds ).toEqual( [ 2.333, 46, 7.5, 48.854 ] );
		const hidden = await get< Summary >( '/places/summary', {
			hidden: GROUP,
		} );
		expect( hidden.matches ).toBe( 1 );
	} );

	test( 'search matches word prefixes of titles and of group names, accents folded', async () => {
		const titles = async ( q: string ) =>
			( await get< Listed >( '/places', { q } ) ).items.map(
				( item ) => item.title
			);
		expect( await titles( 'cafe zeph' ) ).toEqual( [
			'Café Zéphyr de Flore',
		] );
		expect( await titles( 'ZÉPH' ) ).toEqual( [
			'Café Zéphyr de Flore',
			'Zephyr Hut',
		] );
		expect( await titles( 'ephyr' ) ).toEqual( [] );
		expect( await titles( 'scenic' ) ).toEqual( [ 'Zephyr Hut' ] );
		// A search without a word is no search, as on a small map (places/words.ts).
		expect( await titles( '%' ) ).toEqual( await titles( '' ) );
		expect( await titles( '' ) ).toHaveLength( 4 );
	} );

	test( 'the list in a box across the antimeridian, by distance, one place, pages', async () => {
		const across = await get< Listed >( '/places', {
			bbox: '170,-20,-170,-10',
		} );
		expect( across.items.map( ( item ) => item.id ) ).toEqual( [
			ids.east,
			ids.west,
		] );
		const near = await get< Listed >( '/places', { near: '2.35,48.86' } );
		expect( near.items.map( ( item ) => item.id ) ).toEqual( [
			ids.flore,
			ids.hut,
			ids.west,
			ids.east,
		] );
		expect( near.items[ 0 ]!.distance ).toBeGreaterThan( 1000 );
		expect( near.items[ 0 ]!.distance ).toBeLessThan( 2000 );
		const one = await get< Listed >( '/places', {
			include: String( ids.hut ),
		} );
		expect( one.items.map( ( item ) => item.title ) ).toEqual( [
			'Zephyr Hut',
		] );
		const page = await get< Listed >( '/places', {
			per_page: '3',
			page: '2',
		} );
		expect( [ page.total, page.pages, page.items.length ] ).toEqual( [
			4, 2, 1,
		] );
	} );

	test( 'bad parameters answer 400 with a message; a matching ETag 304', async () => {
		const bad = await visitor.get( '/', {
			params: { rest_route: '/cairn/v1/places', per_page: '51' },
		} );
		expect( bad.status() ).toBe( 400 );
		expect( ( await bad.json() ).message ).toContain( 'per_page' );
		const first = await visitor.get( '/', {
			params: { rest_route: '/cairn/v1/places/summary', group: GROUP },
		} );
		const etag = first.headers().etag ?? '';
		expect( etag ).toMatch( /^"[0-9a-f]{32}"$/ );
		const again = await visitor.get( '/', {
			params: { rest_route: '/cairn/v1/places/summary', group: GROUP },
			headers: { 'If-None-Match': etag },
		} );
		expect( again.status() ).toBe( 304 );
	} );
} );
