/**
 * Tools → Import/export markers: a real file upload previewed (a dry run) with its line-by-line
 * report, cancelled, then imported (the valid rows), the export form (a download), and a
 * multipart upload to the REST route.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { RequestUtils } from '@wordpress/e2e-test-utils-playwright';

import { expect, test } from './fixtures/maps-service';
import { recordMapEvents, waitForIdle } from './utils/front-map';
import {
	FAKE_PUBLIC_TOKEN,
	mapBlock,
	publishPage,
	setToken,
} from './utils/map-page';
import { mapBounds, tabTo } from './utils/places';

interface MarkerRecord {
	id: number;
	title: { rendered: string };
	meta: {
		cairn_lat: number | null;
		cairn_lng: number | null;
		cairn_geometry?: { type: string; coordinates: unknown[] } | null;
	};
}

/**
 * A file of tests/fixtures/shapes with its names made unique for this run.
 *
 * @param name File name.
 * @param run  Unique suffix.
 */
function shapesFixture( name: string, run: string ): Buffer {
	const text = readFileSync(
		join( __dirname, '..', 'fixtures', 'shapes', name ),
		'utf8'
	).replace( /<name>([^<]+)<\/name>/g, `<name>$1 ${ run }</name>` );
	return Buffer.from( text );
}

async function publishedMarkers(
	requestUtils: RequestUtils,
	search: string
): Promise< MarkerRecord[] > {
	return ( await requestUtils.rest( {
		path: '/wp/v2/cairn-markers',
		params: { search, status: 'publish', context: 'edit', per_page: 20 },
	} ) ) as MarkerRecord[];
}

test.describe( 'marker import and export', () => {
	test.describe.configure( { timeout: 240_000 } );

	test( 'imports a file from the Tools screen, reports bad lines, and exports', async ( {
		admin,
		page,
		requestUtils,
	} ) => {
		// Unique, so markers left by an earlier run on a reused site do not count.
		const run = `R${ Date.now() }`;
		const csv = [
			'title,lat,lng,group,description',
			`Quay ${ run },55.97,-3.17,harbours,The old quay`,
			`Too far ${ run },95,-3.17,,`,
			`"Lighthouse, ${ run }",55.99,-3.4,harbours|lights,"Two
lines"`,
		].join( '\n' );
		const file = {
			name: 'markers.csv',
			mimeType: 'text/csv',
			buffer: Buffer.from( csv ),
		};

		await admin.visitAdminPage(
			'tools.php',
			'page=cairn-maps-import-export'
		);
		await expect(
			page.getByRole( 'heading', { name: 'Import/export markers' } )
		).toBeVisible();

		// The file is previewed first: what would be imported, and which line is wrong; a dry
		// run, so nothing is written yet.
		const fileInput = page.getByLabel(
			'File (CSV, GeoJSON, GPX, KML or KMZ)'
		);
		const preview = page.locator( '.cairn-maps-import-preview' );
		await fileInput.setInputFiles( file );
		await page.getByRole( 'button', { name: 'Import markers' } ).click();
		await expect( preview ).toContainText(
			'Will be imported: 2 markers, 0 routes, 0 areas.',
			{ timeout: 60_000 }
		);
		await expect( preview ).toContainText(
			'Line 3: Latitude (cairn_lat) must be a number between -90 and 90.'
		);
		// A small map of what will be imported (import-flow.spec reads what it draws).
		await expect(
			preview.getByRole( 'region', {
				name: 'Map of the 2 places that will be imported',
			} )
		).toBeVisible();
		await expect(
			preview.locator( '.cairn-maps-import-map-host' )
		).toHaveAttribute( 'data-cairn-state', 'ready', { timeout: 60_000 } );
		expect( await publishedMarkers( requestUtils, run ) ).toEqual( [] );

		// Cancel: back to the form, nothing imported.
		await preview.getByRole( 'button', { name: 'Cancel' } ).click();
		await expect( fileInput ).toBeVisible();
		expect( await publishedMarkers( requestUtils, run ) ).toEqual( [] );

		// Preview again and import: the valid rows are imported, the bad line is reported.
		await fileInput.setInputFiles( file );
		await page.getByRole( 'button', { name: 'Import markers' } ).click();
		await preview
			.getByRole( 'button', { name: 'Import', exact: true } )
			.click( { timeout: 60_000 } );
		// The page's form imports the previewed file: the server's report.
		const report = page.locator( '.cairn-maps-import-report:not(.inline)' );
		await expect( report ).toContainText( '2 markers were imported.', {
			timeout: 60_000,
		} );
		await expect( report ).toContainText( '1 row was not imported:' );
		await expect( report ).toContainText( 'Line 3:' );
		const imported = await publishedMarkers( requestUtils, run );
		expect(
			imported.map( ( marker ) => marker.title.rendered ).sort()
		).toEqual( [ `Lighthouse, ${ run }`, `Quay ${ run }` ] );

		// The export buttons post a form (the REST nonce in its body, in no address) and the
		// browser downloads what was imported.
		await expect(
			page.locator(
				'.cairn-maps-import-export a[href*="_wpnonce"], .cairn-maps-import-export form[action*="_wpnonce"]'
			)
		).toHaveCount( 0 );
		const download = async ( name: string ) => {
			const [ saved ] = await Promise.all( [
				page.waitForEvent( 'download' ),
				page.getByRole( 'button', { name } ).click(),
			] );
			const stream = await saved.createReadStream();
			const chunks: Buffer[] = [];
			for await ( const chunk of stream ) {
				chunks.push( chunk as Buffer );
			}
			return {
				name: saved.suggestedFilename(),
				text: Buffer.concat( chunks ).toString( 'utf8' ),
			};
		};
		const exported = await download( 'Download CSV' );
		expect( exported.name ).toMatch( /^cairn-markers-[\d-]+\.csv$/ );
		const text = exported.text;
		expect( text ).toContain(
			`Quay ${ run },55.97,-3.17,harbours,The old quay`
		);
		expect( text ).toContain(
			`"Lighthouse, ${ run }",55.99,-3.4,harbours|lights,"Two\nlines"`
		);

		const geojson = JSON.parse(
			( await download( 'Download GeoJSON' ) ).text
		);
		expect( geojson.type ).toBe( 'FeatureCollection' );

		// The REST route takes a multipart upload (the page's REST nonce authorises it).
		const nonce = await page
			.locator( 'form input[name="_wpnonce"]' )
			.last()
			.inputValue();
		const upload = await page.request.post(
			`/wp-json/cairn/v1/markers/import?_wpnonce=${ nonce }`,
			{
				multipart: {
					file: {
						name: 'one.geojson',
						mimeType: 'application/geo+json',
						buffer: Buffer.from(
							JSON.stringify( {
								type: 'FeatureCollection',
								features: [
									{
										type: 'Feature',
										geometry: {
											type: 'Point',
											coordinates: [ -3.2, 55.95 ],
										},
										properties: {
											title: `Castle ${ run }`,
											groups: [ 'castles' ],
										},
									},
								],
							} )
						),
					},
				},
			}
		);
		expect( upload.status() ).toBe( 200 );
		expect( await upload.json() ).toMatchObject( {
			format: 'geojson',
			imported: 1,
		} );
		const [ castle ] = await publishedMarkers(
			requestUtils,
			`Castle ${ run }`
		);
		expect( castle?.meta ).toMatchObject( {
			cairn_lat: 55.95,
			cairn_lng: -3.2,
		} );
	} );

	test( 'imports a GPX track with elevation and a KML area from the Tools screen, and refuses a hostile file', async ( {
		admin,
		page,
		requestUtils,
	} ) => {
		const run = `S${ Date.now() }`;
		await admin.visitAdminPage(
			'tools.php',
			'page=cairn-maps-import-export'
		);
		const input = page.getByLabel( 'File (CSV, GeoJSON, GPX, KML or KMZ)' );
		// The server's report after an import; the preview's (the page's script) before it.
		const report = page.locator( '.cairn-maps-import-report:not(.inline)' );
		const previewReport = page.locator(
			'.cairn-maps-import-preview .cairn-maps-import-report'
		);
		// Previewed, then imported when the preview allows it (the page's script).
		const importFile = async ( name: string, buffer: Buffer ) => {
			const again = page.getByRole( 'button', {
				name: /^(Import another file|Choose another file)$/,
			} );
			if ( await again.isVisible() ) {
				await again.click();
			}
			await input.setInputFiles( {
				name,
				mimeType: 'application/octet-stream',
				buffer,
			} );
			await page
				.getByRole( 'button', { name: 'Import markers' } )
				.click();
			await expect( previewReport ).toBeVisible( { timeout: 60_000 } );
			const confirm = page.getByRole( 'button', {
				name: 'Import',
				exact: true,
			} );
			if ( await confirm.isVisible() ) {
				await confirm.click();
				await expect( report ).toContainText( 'were imported', {
					timeout: 60_000,
				} );
			}
		};

		// A GPX: a waypoint, a track with elevation, a route without (a notice, not an error).
		await importFile(
			'ridge-loop.gpx',
			shapesFixture( 'ridge-loop.gpx', run )
		);
		await expect( report ).toContainText(
			'3 markers were imported. 2 of them are routes or areas.'
		);
		await expect(
			report.locator( '.cairn-maps-import-notices li' )
		).toHaveText( [
			`Row 3 (route "Road back ${ run }"): This line has no elevation (or not at every point), so it shows no ascent and no elevation profile. It was imported.`,
		] );
		const [ track ] = await publishedMarkers(
			requestUtils,
			`Ridge loop ${ run }`
		);
		expect( track?.meta.cairn_geometry?.type ).toBe( 'MultiLineString' );
		expect( track?.meta.cairn_geometry?.coordinates[ 0 ] ).toEqual( [
			[ -5.05, 56.8, 120 ],
			[ -5.04, 56.801, 260.5 ],
			[ -5.03, 56.802, 410 ],
			[ -5.02, 56.803, 395 ],
		] );
		expect( track?.meta ).toMatchObject( {
			cairn_lat: 56.8,
			cairn_lng: -5.05,
		} );
		const [ summit ] = await publishedMarkers(
			requestUtils,
			`Summit cairn ${ run }`
		);
		expect( summit?.meta.cairn_geometry ?? null ).toBeNull();

		// A KML area with a hole.
		await importFile(
			'town-zones.kml',
			shapesFixture( 'town-zones.kml', run )
		);
		await expect( report ).toContainText(
			'3 markers were imported. 2 of them are routes or areas.'
		);
		const [ zone ] = await publishedMarkers(
			requestUtils,
			`Old town ${ run }`
		);
		expect( zone?.meta.cairn_geometry?.type ).toBe( 'Polygon' );
		expect( zone?.meta.cairn_geometry?.coordinates ).toHaveLength( 2 );

		// The export says what a CSV leaves out.
		await expect(
			page.locator( '.cairn-maps-export-shapes' )
		).toContainText(
			/\d+ routes and areas are not in CSV .*; export GeoJSON to keep them\./
		);

		// A hostile file: its message, nothing imported.
		await importFile(
			'evil.gpx',
			Buffer.from(
				`<?xml version="1.0"?><!DOCTYPE gpx [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><gpx><wpt lat="1" lon="2"><name>Evil ${ run } &xxe;</name></wpt></gpx>`
			)
		);
		await expect( previewReport ).toHaveClass( /notice-error/ );
		await expect( previewReport ).toContainText(
			'The file contains a DOCTYPE; Cairn does not read DOCTYPEs or external entities.'
		);
		expect(
			await publishedMarkers( requestUtils, `Evil ${ run }` )
		).toEqual( [] );

		// What was imported reaches the visitor's map: the track drawn as a line, the area as a
		// fill; chosen in the places list by keyboard, the track fills the map and its popup
		// tells its length, ascent and elevation profile.
		await setToken( requestUtils, FAKE_PUBLIC_TOKEN );
		const url = await publishPage(
			requestUtils,
			`Imported shapes ${ run }`,
			mapBlock( {
				center: { lng: -4.12, lat: 56.37 },
				zoom: 7.5,
				height: '600px',
				markers: {
					source: 'ids',
					groups: [],
					ids: [ track!.id, zone!.id ],
				},
				cluster: { enabled: false, radius: 80 },
				places: { search: true, groupFilter: false, followMap: false },
			} )
		);
		const pageErrors: string[] = [];
		page.on( 'pageerror', ( error ) => pageErrors.push( error.message ) );
		await recordMapEvents( page );
		await page.goto( url );
		await waitForIdle( page );
		await page.waitForFunction( () => {
			const map = window.cairnMap( 0 );
			return (
				Boolean( map.getSource( 'cairn-shapes' ) ) &&
				map.isSourceLoaded( 'cairn-shapes' )
			);
		} );
		const drawn = await page.evaluate( () => {
			const map = window.cairnMap( 0 );
			const on = ( layer: string ) => [
				...new Set(
					map
						.queryRenderedFeatures( { layers: [ layer ] } )
						.map( ( feature ) => Number( feature.id ) )
				),
			];
			return {
				lines: on( 'cairn-shapes-line' ),
				fills: on( 'cairn-shapes-fill' ),
			};
		} );
		expect( drawn.lines ).toContain( track!.id );
		expect( drawn.fills ).toEqual( [ zone!.id ] );
		await tabTo(
			page,
			`li[data-cairn-marker-id="${ track!.id }"] > button`
		);
		await page.keyboard.press( 'Enter' );
		const popup = page.locator( '.mapboxgl-popup' );
		await expect( popup.locator( 'h2' ) ).toHaveText(
			`Ridge loop ${ run }`
		);
		await expect(
			popup.locator( '.cairn-map-popup__facts dt' )
		).toHaveText( [ 'Length', 'Ascent', 'Descent' ] );
		await expect(
			popup.getByRole( 'img', { name: 'Elevation profile' } )
		).toBeVisible();
		// The whole track (-5.05…-5.00, 56.800…56.805) in view, closer than the first view.
		const bounds = await mapBounds( page );
		expect( bounds.west ).toBeLessThanOrEqual( -5.05 + 1e-9 );
		expect( bounds.east ).toBeGreaterThanOrEqual( -5.0 - 1e-9 );
		expect( bounds.east - bounds.west ).toBeLessThan( 1 );
		expect( pageErrors ).toEqual( [] );
	} );
} );
