/**
 * The tiles route on the Playground site (SQLite): the same answers as on MariaDB (PHPUnit's
 * Tiles_ControllerTest) — every place of a selection counted once per zoom, the filters, the
 * 400s and the revalidation — read by an anonymous visitor, as a map or a CDN would.
 */
import type { APIRequestContext } from '@playwright/test';
import { expect, test } from '@wordpress/e2e-test-utils-playwright';

import { VISITOR_STATE } from './global-setup';
import { ensureGroup, removeCreated, seedMarkers } from './utils/front-map';

const RUN = Date.now().toString( 36 );
const CAFES = { name: `Tiles cafés ${ RUN }`, slug: `tiles-cafes-${ RUN }` };
const PARKS = { name: `Tiles parks ${ RUN }`, slug: `tiles-parks-${ RUN }` };

interface Place {
	lng: number;
	lat: number;
	groups: string[];
	title: string;
}

interface Feature {
	id: number;
	geometry: { coordinates: [ number, number ] };
	properties: { cluster?: boolean; point_count?: number; title?: string };
}

const places: Place[] = [];

/** The test plugin that rebuilds the index in a request (WP-Cron does not run on Playground). */
const PROBE = 'cairn-index-probe/cairn-index-probe';

/** The slippy-map tile of a position at a zoom. */
function tileOf( lng: number, lat: number, z: number ): [ number, number ] {
	const n = 2 ** z;
	const rad =
		( Math.max( -85.05112878, Math.min( 85.05112878, lat ) ) * Math.PI ) /
		180;
	const x = Math.floor( ( ( lng + 180 ) / 360 ) * n );
	const y = Math.floor(
		( ( 1 - Math.log( Math.tan( rad ) + 1 / Math.cos( rad ) ) / Math.PI ) /
			2 ) *
			n
	);
	return [
		Math.min( n - 1, Math.max( 0, x ) ),
		Math.min( n - 1, Math.max( 0, y ) ),
	];
}

async function tile(
	request: APIRequestContext,
	z: number,
	x: number,
	y: number,
	params: Record< string, string >,
	headers: Record< string, string > = {}
) {
	const query = new URLSearchParams( {
		rest_route: `/cairn/v1/tiles/${ z }/${ x }/${ y }`,
		...params,
	} );
	return request.get( `/?${ query.toString() }`, { headers } );
}

test.describe( 'server-clustered tiles', () => {
	test.use( { storageState: VISITOR_STATE } );

	test.beforeAll( async ( { requestUtils } ) => {
		test.setTimeout( 240_000 );
		const cafes = await ensureGroup( requestUtils, CAFES );
		const parks = await ensureGroup( requestUtils, PARKS );
		const towns: Array< [ string, number, number ] > = [
			[ 'Lyon', 45.764, 4.8357 ],
			[ 'Porto', 41.1579, -8.6291 ],
			[ 'Oslo', 59.9139, 10.7522 ],
		];
		towns.forEach( ( [ town, lat, lng ], t ) => {
			for ( let k = 0; k < 8; k++ ) {
				const inParks = ( k + t ) % 3 === 0;
				places.push( {
					title: `${ town } Tiles spot ${ k } ${ RUN }`,
					lat: lat + ( k % 3 ) * 0.004,
					lng: lng + Math.floor( k / 3 ) * 0.005,
					groups: inParks ? [ PARKS.slug ] : [ CAFES.slug ],
				} );
			}
		} );
		await requestUtils.rest( {
			method: 'POST',
			path: `/wp/v2/plugins/${ PROBE }`,
			data: { status: 'active' },
		} );
		await seedMarkers(
			requestUtils,
			places.map( ( place ) => ( {
				...place,
				groups: place.groups.map( ( slug ) =>
					slug === PARKS.slug ? parks : cafes
				),
			} ) )
		);
		// WP-Cron does not run on the Playground site: finish the index's pending rebuild here.
		await requestUtils.rest( {
			method: 'POST',
			path: '/cairn-index-probe/v1/rebuild',
		} );
	} );

	test.afterAll( async ( { requestUtils } ) => {
		test.setTimeout( 240_000 );
		await requestUtils.rest( {
			method: 'POST',
			path: `/wp/v2/plugins/${ PROBE }`,
			data: { status: 'inactive' },
		} );
		// The seeded markers and the groups, in one batch.
		await removeCreated( requestUtils );
	} );

	test( 'every place of the selection is counted once per zoom, filters included', async ( {
		request,
	} ) => {
		test.setTimeout( 300_000 );
		const selection = `${ CAFES.slug },${ PARKS.slug }`;
		const cases: Array<
			[ Record< string, string >, ( p: Place ) => boolean ]
		> = [
			[ { group: selection }, () => true ],
			[
				{ group: selection, hidden: PARKS.slug },
				( p ) => ! p.groups.includes( PARKS.slug ),
			],
			[
				{ group: selection, q: 'OSLO tiles' },
				( p ) => p.title.startsWith( 'Oslo' ),
			],
			[
				{ group: selection, q: 'cafes' },
				( p ) => p.groups.includes( CAFES.slug ),
			],
		];
		for ( const [ params, keeps ] of cases ) {
			const kept = places.filter( keeps );
			for ( const z of [ 0, 6, 12 ] ) {
				// Tiles cluster across their edges as supercluster does: a cluster may hold places
				// of a neighbouring tile, and lies at the weighted mean of its places, so inside
				// their box. The selection holds only this spec's places, and a town's are far
				// from the others' at these zooms: the tiles over each town's box hold them all
				// (every tile of a site is a second on Playground; asking only these keeps the test
				// to a few dozen requests).
				const tiles = new Set< string >();
				const towns = new Map< string, Place[] >();
				for ( const place of kept ) {
					const town = place.title.split( ' ' )[ 0 ]!;
					towns.set( town, [
						...( towns.get( town ) ?? [] ),
						place,
					] );
				}
				for ( const inTown of towns.values() ) {
					const lngs = inTown.map( ( p ) => p.lng );
					const lats = inTown.map( ( p ) => p.lat );
					const pad = 1e-6;
					const [ west, north ] = tileOf(
						Math.min( ...lngs ) - pad,
						Math.max( ...lats ) + pad,
						z
					);
					const [ east, south ] = tileOf(
						Math.max( ...lngs ) + pad,
						Math.min( ...lats ) - pad,
						z
					);
					for ( let x = west; x <= east; x++ ) {
						for ( let y = north; y <= south; y++ ) {
							tiles.add( `${ x }/${ y }` );
						}
					}
				}
				let total = 0;
				const seen = new Set< number | string >();
				for ( const key of tiles ) {
					const [ x, y ] = key.split( '/' ).map( Number ) as [
						number,
						number,
					];
					const response = await tile( request, z, x, y, params );
					expect( response.status() ).toBe( 200 );
					expect( response.headers()[ 'content-type' ] ).toContain(
						'application/geo+json'
					);
					const features = ( await response.json() )
						.features as Feature[];
					for ( const feature of features ) {
						expect(
							seen.has( feature.id! ),
							`${ JSON.stringify( params ) } z${ z } ${ key }: ${ feature.id } in two tiles`
						).toBe( false );
						seen.add( feature.id! );
						total += feature.properties.cluster
							? feature.properties.point_count!
							: 1;
					}
				}
				expect( total ).toBe( kept.length );
			}
		}
	} );

	test( 'bad tiles answer 400 with a message, and a tile revalidates with 304', async ( {
		request,
	} ) => {
		const bad = await tile( request, 18, 0, 0, {} );
		expect( bad.status() ).toBe( 400 );
		expect( ( await bad.json() ).data.params.z ).toContain( 'z must be' );
		const outside = await tile( request, 2, 4, 0, {} );
		expect( outside.status() ).toBe( 400 );
		expect(
			(
				await tile( request, 0, 0, 0, { q: 'x'.repeat( 201 ) } )
			).status()
		).toBe( 400 );

		const [ x, y ] = tileOf( 4.8357, 45.764, 6 );
		const first = await tile( request, 6, x, y, { group: CAFES.slug } );
		const etag = first.headers().etag!;
		expect( etag ).toMatch( /^"[0-9a-f]{32}(-gzip)?"$/ );
		expect( first.headers()[ 'access-control-allow-origin' ] ).toBe( '*' );
		const again = await tile(
			request,
			6,
			x,
			y,
			{ group: CAFES.slug },
			{ 'If-None-Match': etag }
		);
		expect( again.status() ).toBe( 304 );
	} );
} );
