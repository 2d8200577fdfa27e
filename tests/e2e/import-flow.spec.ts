/**
 * The import flow of Tools → Import/export markers (issue 32): a Google Earth-style KML with
 * nested folders and an Endomondo-style GPX are previewed (counts by kind, and a small map of
 * what will be imported on the site's basemap, its drawn places read through the map), imported
 * with the folder options ("one group per folder", "all in this group"), and reach the
 * visitor's map in their groups. A site whose basemap cannot be drawn (Mapbox without a token)
 * previews the same places as a sketch, under the map's alert; a preview cancelled or replaced
 * removes its map.
 */
import type { Locator, Page } from '@playwright/test';
import type { RequestUtils } from '@wordpress/e2e-test-utils-playwright';
import type { Map as MapboxMap } from 'mapbox-gl';

import { expect, test } from './fixtures/maps-service';
import { recordMapEvents, waitForIdle } from './utils/front-map';
import {
	FAKE_PUBLIC_TOKEN,
	mapBlock,
	publishPage,
	saveSettings,
	setToken,
	visibleColours,
} from './utils/map-page';
import { screenshotPath } from './utils/screenshots';

declare global {
	interface Window {
		/** The import preview's maps, in the order they got ready (`cairn:map-ready`). */
		cairnPreviewMaps: MapboxMap[];
		/** How many of them were removed. */
		cairnPreviewMapsRemoved: number;
	}
}

/** The preview's layers (src/import-export/preview-map.ts). */
const PREVIEW_LAYERS = {
	points: 'cairn-import-preview-points',
	line: 'cairn-import-preview-line',
	fill: 'cairn-import-preview-fill',
};

/** Before the page's scripts: every preview map that gets ready, and each one removed. */
async function recordPreviewMaps( page: Page ): Promise< void > {
	await page.addInitScript( () => {
		window.cairnPreviewMaps = [];
		window.cairnPreviewMapsRemoved = 0;
		document.addEventListener( 'cairn:map-ready', ( event ) => {
			const map = ( event as CustomEvent ).detail.map as MapboxMap;
			window.cairnPreviewMaps.push( map );
			map.on( 'remove', () => {
				window.cairnPreviewMapsRemoved++;
			} );
		} );
	} );
}

/**
 * Waits for the `index`-th preview map to draw the preview's places and settle; answers the
 * places it draws by kind (distinct features of each layer, read through the map).
 */
async function drawnPlaces(
	page: Page,
	index: number
): Promise< { markers: number; routes: number; areas: number } > {
	await page.waitForFunction(
		( [ i, layer ] ) => {
			const map = window.cairnPreviewMaps[ i as number ];
			return Boolean( map?.getLayer( layer as string ) );
		},
		[ index, PREVIEW_LAYERS.points ] as const,
		{ timeout: 60_000 }
	);
	return page.evaluate(
		( [ i, layers ] ) =>
			new Promise( ( resolve ) => {
				const map = window.cairnPreviewMaps[ i as number ]!;
				const { points, line, fill } = layers as typeof PREVIEW_LAYERS;
				const count = ( layer: string, kind: string ) =>
					new Set(
						map
							.queryRenderedFeatures( { layers: [ layer ] } )
							.filter(
								( feature ) => feature.properties?.kind === kind
							)
							.map( ( feature ) => feature.id )
					).size;
				const check = () => {
					if (
						map.loaded() &&
						! map.isMoving() &&
						map.isSourceLoaded( 'cairn-import-preview' )
					) {
						resolve( {
							markers: count( points, 'marker' ),
							routes: count( line, 'route' ),
							areas: count( fill, 'area' ),
						} );
					} else {
						map.once( 'idle', check );
						map.triggerRepaint();
					}
				};
				map.once( 'idle', check );
				map.triggerRepaint();
			} ),
		[ index, PREVIEW_LAYERS ] as const
	) as Promise< { markers: number; routes: number; areas: number } >;
}

/** The source layers of the basemap's tiles the `index`-th preview map draws. */
function basemapLayersDrawn( page: Page, index: number ): Promise< string[] > {
	return page.evaluate(
		( i ) => [
			...new Set(
				window.cairnPreviewMaps[ i ]!.queryRenderedFeatures()
					.filter(
						( feature ) =>
							! feature.layer?.id.startsWith(
								'cairn-import-preview'
							)
					)
					.map( ( feature ) => feature.sourceLayer ?? '' )
			),
		],
		index
	);
}

/** The site's map settings, to put back after a test that changes them. */
async function mapSettings(
	requestUtils: RequestUtils
): Promise< Record< string, unknown > > {
	const all = ( await requestUtils.rest( {
		path: '/wp/v2/settings',
	} ) ) as Record< string, unknown >;
	return {
		cairn_maps_access_token: all.cairn_maps_access_token ?? '',
		cairn_maps_basemap: all.cairn_maps_basemap ?? '',
	};
}

/** The canvas of the preview's map. */
const previewCanvas = ( preview: Locator ) =>
	preview.locator( '.cairn-maps-import-map canvas' );

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

/** A GeoJSON file around the North Sea: two markers, a route across it, an area at sea. */
function northSeaGeojson( run: string ): Buffer {
	const feature = ( title: string, geometry: object ) => ( {
		type: 'Feature',
		geometry,
		properties: { title: `${ title } ${ run }` },
	} );
	return Buffer.from(
		JSON.stringify( {
			type: 'FeatureCollection',
			features: [
				feature( 'Edinburgh', {
					type: 'Point',
					coordinates: [ -3.19, 55.95 ],
				} ),
				feature( 'Bergen', {
					type: 'Point',
					coordinates: [ 5.32, 60.39 ],
				} ),
				feature( 'Ferry', {
					type: 'LineString',
					coordinates: [
						[ -2.1, 57.15 ],
						[ 1.5, 58.2 ],
						[ 5.73, 58.97 ],
					],
				} ),
				feature( 'Fishing ground', {
					type: 'Polygon',
					coordinates: [
						[
							[ 0, 56 ],
							[ 3, 56 ],
							[ 3, 57.5 ],
							[ 0, 57.5 ],
							[ 0, 56 ],
						],
					],
				} ),
			],
		} )
	);
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

	let settingsBefore: Record< string, unknown > = {};
	test.beforeAll( async ( { requestUtils } ) => {
		settingsBefore = await mapSettings( requestUtils );
	} );
	test.afterAll( async ( { requestUtils } ) => {
		await saveSettings( requestUtils, settingsBefore );
	} );

	test( 'a KML with folders and a GPX are previewed on a map, imported into groups, and mapped', async ( {
		admin,
		page,
		requestUtils,
		mapsService,
	}, testInfo ) => {
		const run = `F${ Date.now() }`;
		// A new site: no token, the automatic basemap (OpenFreeMap, drawn by maplibre-gl).
		await saveSettings( requestUtils, {
			cairn_maps_access_token: '',
			cairn_maps_basemap: '',
		} );
		await recordPreviewMaps( page );
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
		// A map of what will be imported, on the site's basemap: its places are the counts'.
		await expect(
			preview.getByRole( 'region', {
				name: 'Map of the 2 places that will be imported',
			} )
		).toBeVisible();
		expect( await drawnPlaces( page, 0 ) ).toEqual( {
			markers: 1,
			routes: 1,
			areas: 0,
		} );
		await expect(
			preview.locator( '.cairn-maps-import-map-host' )
		).toHaveAttribute( 'data-cairn-state', 'ready' );
		await expect( previewCanvas( preview ) ).toHaveClass(
			/maplibregl-canvas/
		);
		// Not blank: the basemap's land, water and roads, and the places, in many colours.
		expect(
			await visibleColours( page, previewCanvas( preview ) )
		).toBeGreaterThan( 3 );
		await preview.locator( '.cairn-maps-import-map-host' ).screenshot( {
			path: screenshotPath( 'import-preview-map.png', testInfo ),
		} );
		await expect( preview.locator( 'svg' ) ).toHaveCount( 0 );
		// The basemap came from the stand-in for OpenFreeMap; nothing else left the machine.
		expect( mapsService.openFreeMapRequests.length ).toBeGreaterThan( 0 );
		expect( mapsService.requests ).toEqual( [] );
		expect( mapsService.unexpected ).toEqual( [] );
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
		// A new page (after the KML's import): its first preview map.
		expect( await drawnPlaces( page, 0 ) ).toEqual( {
			markers: 0,
			routes: 1,
			areas: 0,
		} );
		expect( mapsService.unexpected ).toEqual( [] );
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

	test( 'a preview cancelled removes its map; a Mapbox basemap without a token previews a sketch', async ( {
		admin,
		page,
		requestUtils,
		mapsService,
	}, testInfo ) => {
		const run = `S${ Date.now() }`;
		await saveSettings( requestUtils, {
			cairn_maps_access_token: '',
			cairn_maps_basemap: '',
		} );
		await recordPreviewMaps( page );
		await admin.visitAdminPage(
			'tools.php',
			'page=cairn-maps-import-export'
		);
		const input = page.getByLabel( 'File (CSV, GeoJSON, GPX, KML or KMZ)' );
		const preview = page.locator( '.cairn-maps-import-preview' );
		const previewFile = async () => {
			await input.setInputFiles( {
				name: 'places.kml',
				mimeType: 'application/vnd.google-earth.kml+xml',
				buffer: googleEarthKml( run ),
			} );
			await page
				.getByRole( 'button', { name: 'Import markers' } )
				.click();
			await expect(
				preview.locator( '.cairn-maps-import-report' )
			).toContainText( 'Will be imported: 1 marker, 1 route, 0 areas.', {
				timeout: 60_000,
			} );
		};

		// Previewed, cancelled: the map goes with the preview.
		await previewFile();
		await drawnPlaces( page, 0 );
		await preview.getByRole( 'button', { name: 'Cancel' } ).click();
		await expect( preview ).toBeHidden();
		await expect
			.poll( () => page.evaluate( () => window.cairnPreviewMapsRemoved ) )
			.toBe( 1 );
		await expect( page.locator( 'canvas' ) ).toHaveCount( 0 );

		// Another file: a new map, alone on the page, on the basemap's own data (the North Sea
		// from the stand-in's tiles) with the file's places, as many of each kind as counted.
		await input.setInputFiles( {
			name: 'north-sea.geojson',
			mimeType: 'application/geo+json',
			buffer: northSeaGeojson( run ),
		} );
		await page.getByRole( 'button', { name: 'Import markers' } ).click();
		await expect(
			preview.locator( '.cairn-maps-import-report' )
		).toContainText( 'Will be imported: 2 markers, 1 route, 1 area.', {
			timeout: 60_000,
		} );
		await expect(
			preview.getByRole( 'region', {
				name: 'Map of the 4 places that will be imported',
			} )
		).toBeVisible();
		expect( await drawnPlaces( page, 1 ) ).toEqual( {
			markers: 2,
			routes: 1,
			areas: 1,
		} );
		expect( await basemapLayersDrawn( page, 1 ) ).toContain( 'water' );
		await expect( page.locator( 'canvas' ) ).toHaveCount( 1 );
		expect(
			await visibleColours( page, previewCanvas( preview ) )
		).toBeGreaterThan( 3 );
		await preview.locator( '.cairn-maps-import-map-host' ).screenshot( {
			path: screenshotPath( 'import-preview-north-sea.png', testInfo ),
		} );
		expect( mapsService.unexpected ).toEqual( [] );
		await preview.getByRole( 'button', { name: 'Cancel' } ).click();
		await expect
			.poll( () => page.evaluate( () => window.cairnPreviewMapsRemoved ) )
			.toBe( 2 );

		// The owner's basemap is Mapbox, and the site has no token: the map says why it cannot
		// be drawn, and the sketch shows what will be imported. Nothing is asked of Mapbox.
		await saveSettings( requestUtils, {
			cairn_maps_basemap: 'mapbox://styles/mapbox/standard',
		} );
		await page.reload();
		mapsService.clear();
		await previewFile();
		const host = preview.locator( '.cairn-maps-import-map-host' );
		await expect( host ).toHaveAttribute( 'data-cairn-state', 'error' );
		const alert = host.getByRole( 'alert' );
		await expect( alert ).toHaveAttribute(
			'data-cairn-error',
			'missing-token'
		);
		await expect( alert ).toContainText(
			'a public Mapbox access token must be provided'
		);
		// A notice, not a grey box: the alert has its own border and a white background.
		expect(
			await alert.evaluate( ( element ) => {
				const style = getComputedStyle( element );
				return [ style.backgroundColor, style.borderLeftWidth ];
			} )
		).toEqual( [ 'rgb(255, 255, 255)', '4px' ] );
		const sketch = host.getByRole( 'img', {
			name: 'Sketch of the places that will be imported',
		} );
		await expect( sketch ).toBeVisible();
		await expect( sketch.locator( 'circle' ) ).toHaveCount( 1 );
		await expect( sketch.locator( 'path' ) ).toHaveCount( 1 );
		await expect( host.getByRole( 'region' ) ).toHaveCount( 0 );
		await expect( page.locator( 'canvas' ) ).toHaveCount( 0 );
		expect( mapsService.requests ).toEqual( [] );
		expect( mapsService.unexpected ).toEqual( [] );
		expect( await markers( requestUtils, run ) ).toEqual( [] );
	} );
} );
