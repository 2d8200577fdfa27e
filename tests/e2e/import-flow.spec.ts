/**
 * The import flow of Tools → Import/export markers (issue 32): a Google Earth-style KML with
 * nested folders and an Endomondo-style GPX are previewed (counts by kind, a sketch), imported
 * with the folder options ("one group per folder", "all in this group"), and reach the
 * visitor's map in their groups.
 */
import type { RequestUtils } from '@wordpress/e2e-test-utils-playwright';

import { expect, test } from './fixtures/maps-service';
import { recordMapEvents, waitForIdle } from './utils/front-map';
import {
	FAKE_PUBLIC_TOKEN,
	mapBlock,
	publishPage,
	setToken,
} from './utils/map-page';

interface Marker {
	id: number;
	title: { rendered: string };
	'cairn-marker-groups'?: number[];
}

interface Group {
	id: number;
	name: string;
	slug: string;
}

/** As Google Earth saves "My Places": a Document, nested Folders, styles, placemarks. */
function googleEarthKml( run: string ): Buffer {
	return Buffer.from( `<?xml version="1.0" encoding="UTF-8"?>
<kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2">
<Document>
	<name>My Places ${ run }.kml</name>
	<Style id="s_ylw-pushpin"><IconStyle><scale>1.1</scale></IconStyle></Style>
	<Folder>
		<name>Huts ${ run }</name>
		<open>1</open>
		<Placemark>
			<name>Glen Hut ${ run }</name>
			<description>Four bunks</description>
			<styleUrl>#s_ylw-pushpin</styleUrl>
			<Point><gx:drawOrder>1</gx:drawOrder><coordinates>-5.01,56.79,0</coordinates></Point>
		</Placemark>
		<Folder>
			<name>Ridges ${ run }</name>
			<Placemark>
				<name>Ridge walk ${ run }</name>
				<LineString><tessellate>1</tessellate><coordinates>
					-5.05,56.80,120 -5.04,56.801,260 -5.03,56.802,410
				</coordinates></LineString>
			</Placemark>
		</Folder>
	</Folder>
</Document>
</kml>` );
}

/** As Endomondo exported a workout: metadata, one track, points with elevation and time. */
function endomondoGpx( run: string ): Buffer {
	const points = [
		[ 55.95, -3.19, 80 ],
		[ 55.951, -3.185, 95 ],
		[ 55.952, -3.18, 120 ],
		[ 55.953, -3.175, 110 ],
	]
		.map(
			( [ lat, lon, ele ], i ) =>
				`<trkpt lat="${ lat }" lon="${ lon }"><ele>${ ele }</ele><time>2016-05-01T07:0${ i }:00Z</time></trkpt>`
		)
		.join( '' );
	return Buffer.from( `<?xml version="1.0" encoding="UTF-8"?>
<gpx version="1.1" creator="Endomondo.com" xmlns="http://www.topografix.com/GPX/1/1" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<metadata><author><name>Runner</name></author><time>2016-05-01T07:00:00Z</time></metadata>
<trk><name>Morning run ${ run }</name><src>http://www.endomondo.com/</src><type>RUNNING</type>
<trkseg>${ points }</trkseg></trk>
</gpx>` );
}

async function markers(
	requestUtils: RequestUtils,
	search: string
): Promise< Marker[] > {
	return ( await requestUtils.rest( {
		path: '/wp/v2/cairn-markers',
		params: { search, status: 'publish', context: 'edit', per_page: 20 },
	} ) ) as Marker[];
}

async function groupNamed(
	requestUtils: RequestUtils,
	name: string
): Promise< Group | undefined > {
	const groups = ( await requestUtils.rest( {
		path: '/wp/v2/cairn-marker-groups',
		params: { search: name, per_page: 20 },
	} ) ) as Group[];
	return groups.find( ( group ) => group.name === name );
}

test.describe( 'import flow', () => {
	test.describe.configure( { timeout: 240_000 } );

	test( 'a KML with folders and a GPX are previewed, imported into groups, and mapped', async ( {
		admin,
		page,
		requestUtils,
	} ) => {
		const run = `F${ Date.now() }`;
		await admin.visitAdminPage(
			'tools.php',
			'page=cairn-maps-import-export'
		);
		const input = page.getByLabel( 'File (CSV, GeoJSON, GPX, KML or KMZ)' );
		const preview = page.locator( '.cairn-maps-import-preview' );
		// The preview's report (the page's script), and the server's after the import.
		const previewReport = preview.locator( '.cairn-maps-import-report' );
		const report = page.locator( '.cairn-maps-import-report:not(.inline)' );

		// The KML, one group per folder: the preview counts and sketches, writes nothing.
		await input.setInputFiles( {
			name: 'My Places.kml',
			mimeType: 'application/vnd.google-earth.kml+xml',
			buffer: googleEarthKml( run ),
		} );
		await page.getByLabel( /One group per folder/ ).check();
		await page.getByRole( 'button', { name: 'Import markers' } ).click();
		await expect( previewReport ).toContainText(
			'Will be imported: 1 marker, 1 route, 0 areas.',
			{ timeout: 60_000 }
		);
		await expect( previewReport ).toContainText(
			`New groups: Huts ${ run }, Huts ${ run } / Ridges ${ run }.`
		);
		await expect( preview.locator( 'svg circle' ) ).toHaveCount( 1 );
		await expect( preview.locator( 'svg path' ) ).toHaveCount( 1 );
		expect( await markers( requestUtils, run ) ).toEqual( [] );

		await preview
			.getByRole( 'button', { name: 'Import', exact: true } )
			.click();
		await expect( report ).toContainText(
			'2 markers were imported. 1 of them is a route or an area.',
			{ timeout: 60_000 }
		);
		const huts = await groupNamed( requestUtils, `Huts ${ run }` );
		const ridges = await groupNamed(
			requestUtils,
			`Huts ${ run } / Ridges ${ run }`
		);
		expect( huts && ridges ).toBeTruthy();
		const [ hut ] = await markers( requestUtils, `Glen Hut ${ run }` );
		const [ ridge ] = await markers( requestUtils, `Ridge walk ${ run }` );
		expect( hut?.[ 'cairn-marker-groups' ] ).toEqual( [ huts!.id ] );
		expect( ridge?.[ 'cairn-marker-groups' ] ).toEqual( [ ridges!.id ] );

		// The GPX, all in one group.
		await input.setInputFiles( {
			name: 'workout.gpx',
			mimeType: 'application/gpx+xml',
			buffer: endomondoGpx( run ),
		} );
		await page.getByLabel( 'All in this group:' ).check();
		await page
			.getByLabel( 'Group for every imported marker' )
			.fill( `Runs ${ run }` );
		await page.getByRole( 'button', { name: 'Import markers' } ).click();
		await expect( previewReport ).toContainText(
			'Will be imported: 0 markers, 1 route, 0 areas.',
			{ timeout: 60_000 }
		);
		await preview
			.getByRole( 'button', { name: 'Import', exact: true } )
			.click();
		await expect( report ).toContainText(
			'1 marker was imported. 1 of them is a route or an area.',
			{ timeout: 60_000 }
		);
		const runs = await groupNamed( requestUtils, `Runs ${ run }` );
		const [ workout ] = await markers(
			requestUtils,
			`Morning run ${ run }`
		);
		expect( workout?.[ 'cairn-marker-groups' ] ).toEqual( [ runs!.id ] );

		// The visitor's map of those groups draws the two routes and the hut.
		await setToken( requestUtils, FAKE_PUBLIC_TOKEN );
		const url = await publishPage(
			requestUtils,
			`Imported groups ${ run }`,
			mapBlock( {
				center: { lng: -4.1, lat: 56.4 },
				zoom: 6,
				height: '600px',
				markers: {
					source: 'groups',
					groups: [ huts!.slug, ridges!.slug, runs!.slug ],
					ids: [],
				},
				cluster: { enabled: false, radius: 80 },
			} )
		);
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
		const lines = await page.evaluate( () =>
			[
				...new Set(
					window
						.cairnMap( 0 )
						.queryRenderedFeatures( {
							layers: [ 'cairn-shapes-line' ],
						} )
						.map( ( feature ) => Number( feature.id ) )
				),
			].sort()
		);
		expect( lines ).toEqual( [ ridge!.id, workout!.id ].sort() );
		const feed = ( await requestUtils.rest( {
			path: '/cairn/v1/markers',
			params: { group: huts!.slug },
		} ) ) as { features: { properties: { title: string } }[] };
		expect(
			feed.features.map( ( feature ) => feature.properties.title )
		).toContain( `Glen Hut ${ run }` );
	} );
} );
