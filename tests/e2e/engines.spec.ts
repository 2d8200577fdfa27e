/**
 * Issue 31: whatever depends on the map library, on both engines — mapbox-gl (a Mapbox style,
 * Mapbox's stand-in) and maplibre-gl (OpenFreeMap Liberty's stand-in, and the self-hosted world
 * archive from the media library). One parametrised spec: each engine's describe block runs the
 * same tests over the same places and the same kind of page, seeded once per worker.
 *
 * On each engine: the map draws (its canvas holds a basemap and the markers: pixels read), the
 * clusters are read through `queryRenderedFeatures` (the whole feed; and a tiled map on MapLibre),
 * a click on a place opens its popup with the title as text, the places panel moves the focus into
 * the popup and back as today, labels are in the block's language (MapLibre: the text-field
 * rewritten to `name:de` in the style's layout), a style answering 404 is the `style` alert,
 * the consent gate holds the map until "Load map", WebGL off is the `webgl` alert, and the
 * editor's preview draws and its drawing tools draw a route.
 *
 * Besides: a self-hosted map makes no request off the site's origin (every other host routed to
 * fail and recorded), and a MapLibre page loads nothing from a Mapbox host and has no
 * `window.mapboxgl`.
 *
 * Screenshots of the MapLibre maps (OpenFreeMap stand-in, self-hosted) and of the editor go to
 * CAIRN_SHOTS_DIR (default artifacts/shots).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Locator, Page } from '@playwright/test';
import type {
	Editor,
	RequestUtils,
} from '@wordpress/e2e-test-utils-playwright';

import { BASEMAP_STATE, VISITOR_STATE } from './global-setup';
import { expect, test } from './fixtures/maps-service';
import {
	FAKE_PUBLIC_TOKEN,
	dismissWelcomeGuide,
	mapBlock,
	saveSettings,
	visibleColours,
} from './utils/map-page';
import { watchPreviewMaps } from './utils/preview-maps';
import {
	expectMapError,
	publishFrontPage,
	recordMapEvents,
	removeCreated,
	seedMarkers,
	waitForIdle,
	watchPageErrors,
} from './utils/front-map';
import {
	drawnMarkers,
	seedPlaces,
	tabTo,
	publishTrackedPage,
} from './utils/places';
import type { CreatedItem } from './utils/kept-seed';

const ROOT = path.resolve( __dirname, '..', '..' );
const SHOTS =
	process.env.CAIRN_SHOTS_DIR ?? path.join( ROOT, 'artifacts', 'shots' );
const LIBERTY = 'https://tiles.openfreemap.org/styles/liberty';
const OPENFREEMAP_HOST = 'tiles.openfreemap.org';
const MAPBOX_HOST = /(^|\.)mapbox\.(com|cn)$/;
/** Playground answers one request at a time: generous waits for a busy machine. */
const SLOW = 120_000;

interface EngineCase {
	engine: 'mapbox' | 'maplibre';
	/** The block's mapStyle. */
	style: string;
	/** The site's basemap the editor's maps draw (cairn_maps_basemap; '' = automatic = Mapbox with the token). */
	siteBasemap: string;
	/** The library's class prefix (`mapboxgl-canvas`, `maplibregl-popup`, …). */
	prefix: string;
	/** A label layer of the style and the name key the block's language (de) reads. */
	labelLayer: string;
	labelKey: string;
}

const ENGINES: EngineCase[] = [
	{
		engine: 'mapbox',
		// A classic Mapbox style (the stand-in answers every mapbox:// style with its fixture).
		style: 'mapbox://styles/mapbox/streets-v12',
		siteBasemap: '',
		prefix: 'mapboxgl',
		labelLayer: 'country-label',
		labelKey: '"name_de"',
	},
	{
		engine: 'maplibre',
		style: LIBERTY,
		siteBasemap: LIBERTY,
		prefix: 'maplibregl',
		labelLayer: 'label_country_1',
		labelKey: '"name:de"',
	},
];

/** Four places in Amsterdam (one cluster at the first view), one in Paris, one in Edinburgh. */
const HOSTILE_TITLE =
	'Engines spec: <em>Café</em> & "Co" <img src="x" onerror="window.pwned=1">';
const PLACES = [
	{ title: 'Engines spec: Dam', lng: 4.8936, lat: 52.3731 },
	{ title: 'Engines spec: Rijksmuseum', lng: 4.8852, lat: 52.36 },
	{ title: 'Engines spec: Vondelpark', lng: 4.8686, lat: 52.358 },
	{ title: 'Engines spec: Artis', lng: 4.9166, lat: 52.3661 },
	{ title: HOSTILE_TITLE, lng: 2.3522, lat: 48.8566 },
	{ title: 'Engines spec: Edinburgh', lng: -3.1883, lat: 55.9533 },
];
const PARIS = 4;
const VIEW = { center: { lng: 1.5, lat: 52 }, zoom: 4 };

interface Seed {
	ids: number[];
	/** Per engine: the page with the map of the six places. */
	pages: Record< string, string >;
	/** The self-hosted map's page and its style reference. */
	selfHosted: string;
	archiveStyle: string;
}
let seed: Seed | null = null;

function attributes( style: string, extra: Record< string, unknown > = {} ) {
	return {
		...VIEW,
		mapStyle: style,
		height: '480px',
		language: 'de',
		markers: { source: 'ids', groups: [], ids: seed?.ids ?? [] },
		cluster: { enabled: true, radius: 80 },
		places: { search: true, groupFilter: true, followMap: false },
		...extra,
	};
}

const settings = (
	requestUtils: RequestUtils,
	data: Record< string, unknown >
): Promise< void > => saveSettings( requestUtils, data, SLOW );

/** Seeds the places and the pages once per worker. */
async function ensureSeed( requestUtils: RequestUtils ): Promise< Seed > {
	if ( seed ) {
		return seed;
	}
	await settings( requestUtils, {
		cairn_maps_access_token: FAKE_PUBLIC_TOKEN,
		cairn_maps_basemap: '',
		cairn_maps_require_consent: false,
	} );
	const ids = await seedMarkers( requestUtils, PLACES );
	seed = { ids, pages: {}, selfHosted: '', archiveStyle: '' };
	for ( const { engine, style } of ENGINES ) {
		seed.pages[ engine ] = await publishFrontPage(
			requestUtils,
			`Engines spec: ${ engine }`,
			mapBlock( attributes( style ) )
		);
	}
	// The demo world archive, which the suite's set-up put in the media library (global-setup.ts).
	const archive = JSON.parse( fs.readFileSync( BASEMAP_STATE, 'utf8' ) ) as {
		style?: string;
		error?: string;
	};
	expect( archive.error, 'the site took the world archive' ).toBeUndefined();
	expect( archive.style ).toMatch( /^pmtiles:\/\// );
	seed.archiveStyle = archive.style!;
	seed.selfHosted = await publishFrontPage(
		requestUtils,
		'Engines spec: self-hosted',
		mapBlock( attributes( archive.style! ) )
	);
	return seed;
}

const host = ( page: Page ): Locator =>
	page.locator( '.wp-block-cairn-map' ).first();

/** The map's canvas: how many colours cover a real share of it (blank or grey: 1 or 2). */
async function canvasColours( page: Page, prefix: string ): Promise< number > {
	const canvas = host( page ).locator( `canvas.${ prefix }-canvas` );
	await expect( canvas ).toHaveCount( 1 );
	return visibleColours( page, canvas );
}

/** The host names of every request of the context (its workers' included), as they leave. */
function hostsSeen( context: BrowserContext ) {
	const seen: string[] = [];
	context.on( 'request', ( request ) => {
		try {
			seen.push( new URL( request.url() ).hostname );
		} catch {
			// Not a URL.
		}
	} );
	return seen;
}

async function shoot( locator: Locator, name: string ) {
	fs.mkdirSync( SHOTS, { recursive: true } );
	await locator.screenshot( { path: path.join( SHOTS, name ) } );
}

/** Where a place is on the map's canvas (CSS pixels from its corner). */
function projected( page: Page, lng: number, lat: number ) {
	return page.evaluate(
		( [ x, y ] ) => {
			const point = window.cairnMap( 0 ).project( [ x, y ] );
			return { x: point.x, y: point.y };
		},
		[ lng, lat ] as const
	);
}

/** The sources of the preview's latest map, as JSON ('' before one is ready). */
function previewSources( editor: Editor ): Promise< string > {
	return editor.canvas.locator( 'body' ).evaluate( ( body ) => {
		const map = (
			body.ownerDocument.defaultView as unknown as {
				cairnPreview?: {
					getStyle: () => { sources?: unknown } | undefined;
				};
			}
		 ).cairnPreview;
		return map ? JSON.stringify( map.getStyle()?.sources ?? {} ) : '';
	} );
}

let pageErrors: Error[] = [];

test.beforeEach( async ( { page } ) => {
	pageErrors = watchPageErrors( page );
	await recordMapEvents( page );
} );

test.afterEach( () => {
	expect( pageErrors.map( ( error ) => error.message ) ).toEqual( [] );
} );

test.afterAll( async ( { requestUtils } ) => {
	await removeCreated( requestUtils );
	seed = null;
} );

for ( const engineCase of ENGINES ) {
	const { engine, prefix } = engineCase;

	test.describe( `on ${ engine }`, () => {
		test.use( { storageState: VISITOR_STATE } );
		test.describe.configure( { timeout: 3 * SLOW } );

		test.beforeAll( async ( { requestUtils } ) => {
			test.setTimeout( 5 * SLOW );
			await ensureSeed( requestUtils );
		} );

		test( `${ engine }: the map draws, its clusters read through the map, a click opens the popup with the title as text`, async ( {
			page,
			context,
			mapsService,
			request,
		} ) => {
			const hosts = hostsSeen( context );
			const html = await (
				await request.get( seed!.pages[ engine ]!, { timeout: SLOW } )
			).text();
			// The server chose the engine from the style.
			expect( html ).toMatch(
				new RegExp( `engine(&quot;|"):(&quot;|")${ engine }` )
			);
			await page.goto( seed!.pages[ engine ]! );
			await waitForIdle( page );
			await expect( host( page ) ).toHaveAttribute(
				'data-cairn-state',
				'ready'
			);
			// The clusters, read through the map: the four of Amsterdam as one, two alone.
			await expect
				.poll( async () => ( await drawnMarkers( page ) ).total, {
					timeout: SLOW,
				} )
				.toBe( PLACES.length );
			const drawn = await drawnMarkers( page );
			expect( drawn.clusterCounts ).toEqual( [ 4 ] );
			expect( drawn.points.sort() ).toEqual(
				[ seed!.ids[ PARIS ]!, seed!.ids[ 5 ]! ].sort()
			);
			// A basemap under them: land, water, borders, labels, markers — many colours.
			expect(
				await canvasColours( page, prefix )
			).toBeGreaterThanOrEqual( 5 );
			if ( engine === 'maplibre' ) {
				// Its basemap came from the OpenFreeMap stand-in (tiles too), nothing from Mapbox.
				expect( hosts ).toContain( OPENFREEMAP_HOST );
				expect(
					mapsService.openFreeMapRequests.filter(
						( r ) => r.kind === 'tile'
					).length
				).toBeGreaterThan( 0 );
				expect( mapsService.requests ).toEqual( [] );
				await shoot( host( page ), 'maplibre-openfreemap.png' );
			} else {
				expect( mapsService.tileRequests().length ).toBeGreaterThan(
					0
				);
			}

			// A click on Paris: its popup, the title as text (no markup ran or rendered).
			const paris = PLACES[ PARIS ]!;
			const at = await projected( page, paris.lng, paris.lat );
			const popup = page.locator( `.${ prefix }-popup` );
			const title = popup.locator( '.cairn-map-popup__title' );
			// The popup fetches the place's details (10 s budget): on a loaded machine Playground's
			// one PHP worker can miss it ("could not be loaded"); close and click again then.
			await expect( async () => {
				if ( await popup.count() ) {
					await page.keyboard.press( 'Escape' );
					await expect( popup ).toHaveCount( 0 );
				}
				await host( page )
					.locator( `canvas.${ prefix }-canvas` )
					.click( {
						position: {
							x: Math.round( at.x ),
							y: Math.round( at.y ),
						},
					} );
				await expect( popup ).toBeVisible( { timeout: 30_000 } );
				await expect( title ).toContainText( 'Café', {
					timeout: 30_000,
				} );
			} ).toPass( { timeout: SLOW } );
			// WordPress curls the quotes; the ampersand and the words stay text.
			await expect( title ).toContainText( /& .Co.$/ );
			await expect( title.locator( '*' ) ).toHaveCount( 0 );
			await expect( page.locator( 'img[src="x"]' ) ).toHaveCount( 0 );
			expect(
				await page.evaluate(
					() => ( window as unknown as { pwned?: number } ).pwned
				)
			).toBeUndefined();
		} );

		test( `${ engine }: the places panel moves the focus into the popup and back; labels in the block’s language`, async ( {
			page,
		} ) => {
			await page.goto( seed!.pages[ engine ]! );
			await waitForIdle( page );
			const target = seed!.ids[ 5 ]!;
			await host( page ).locator( `canvas.${ prefix }-canvas` ).focus();
			await tabTo(
				page,
				`li[data-cairn-marker-id="${ target }"] > button`,
				{
					backwards: false,
				}
			);
			await page.keyboard.press( 'Enter' );
			const popup = page.locator( `.${ prefix }-popup` );
			await expect( popup ).toBeVisible();
			await expect( popup ).toContainText( 'Engines spec: Edinburgh' );
			await expect
				.poll( () =>
					page.evaluate( () => {
						const { activeElement: element } = document;
						return Boolean(
							element?.closest(
								'.mapboxgl-popup, .maplibregl-popup'
							)
						);
					} )
				)
				.toBe( true );
			await page.keyboard.press( 'Escape' );
			await expect( popup ).toHaveCount( 0 );
			await expect
				.poll( () =>
					page.evaluate( () => {
						const { activeElement: element } = document;
						return (
							element
								?.closest( 'li[data-cairn-marker-id]' )
								?.getAttribute( 'data-cairn-marker-id' ) ?? null
						);
					} )
				)
				.toBe( String( target ) );

			// Labels in German: the style's label layer reads the German name.
			const field = JSON.stringify(
				await page.evaluate(
					( layer ) =>
						window
							.cairnMap()
							.getLayoutProperty( layer, 'text-field' ),
					engineCase.labelLayer
				)
			);
			expect( field ).toContain( engineCase.labelKey );
			expect( field ).not.toContain( '"name_en"' );
		} );

		test( `${ engine }: a style answering 404 is the style alert`, async ( {
			page,
			mapsService,
		} ) => {
			mapsService.respondWithStatus( 404, {
				service: engine === 'mapbox' ? 'mapbox' : 'openfreemap',
				kinds: [ 'style' ],
			} );
			await page.goto( seed!.pages[ engine ]! );
			await expectMapError(
				page,
				'style',
				[ FAKE_PUBLIC_TOKEN ],
				'Engines spec: Dam'
			);
		} );

		test( `${ engine }: the consent gate holds the map until “Load map”`, async ( {
			page,
			requestUtils,
			mapsService,
			context,
		} ) => {
			const hosts = hostsSeen( context );
			await settings( requestUtils, {
				cairn_maps_require_consent: true,
			} );
			try {
				await page.goto( seed!.pages[ engine ]! );
			} finally {
				await settings( requestUtils, {
					cairn_maps_require_consent: false,
				} );
			}
			await expect( host( page ) ).toHaveAttribute(
				'data-cairn-consent',
				'required'
			);
			await page.waitForLoadState( 'load' );
			expect( mapsService.requests ).toEqual( [] );
			expect( hosts ).not.toContain( OPENFREEMAP_HOST );
			await expect(
				page.locator( `canvas.${ prefix }-canvas` )
			).toHaveCount( 0 );
			await host( page )
				.getByRole( 'button', { name: 'Load map' } )
				.click();
			await waitForIdle( page );
			await expect( host( page ) ).toHaveAttribute(
				'data-cairn-state',
				'ready'
			);
			await expect
				.poll( async () => ( await drawnMarkers( page ) ).total, {
					timeout: SLOW,
				} )
				.toBe( PLACES.length );
		} );
	} );
}

for ( const engineCase of ENGINES ) {
	const { engine, prefix } = engineCase;

	test.describe( `in the editor, on ${ engine }`, () => {
		test.describe.configure( { timeout: 3 * SLOW } );

		test( `${ engine }: the editor’s preview draws and its drawing tools draw a route`, async ( {
			admin,
			editor,
			page,
			requestUtils,
		} ) => {
			await settings( requestUtils, {
				cairn_maps_basemap: engineCase.siteBasemap,
			} );
			try {
				await admin.createNewPost( {
					postType: 'page',
					title: `Engines editor ${ engine }`,
				} );
				await dismissWelcomeGuide( page );
				// The engine's style named on the block (a block left on block.json's style draws
				// the site's basemap: the test after this describe).
				await editor.insertBlock( {
					name: 'cairn/map',
					attributes: { mapStyle: engineCase.style },
				} );
				const preview = editor.canvas.locator(
					'.wp-block-cairn-map__preview'
				);
				await expect( preview ).toHaveAttribute(
					'data-cairn-state',
					'ready',
					{
						timeout: SLOW, // the preview's markers come from Playground's one busy PHP worker
					}
				);
				const canvas = preview.locator( `canvas.${ prefix }-canvas` );
				await expect( canvas ).toHaveCount( 1 );
				await expect
					.poll( () => visibleColours( page, canvas ), {
						timeout: 60_000,
					} )
					.toBeGreaterThanOrEqual( 3 );
				if ( engine === 'maplibre' ) {
					await shoot( preview, 'maplibre-editor.png' );
				}
				await editor.clickBlockToolbarButton( 'Draw a route' );
				const form = editor.canvas.getByRole( 'group', {
					name: 'New marker with a shape',
				} );
				await expect(
					form.getByRole( 'button', { name: 'Finish' } )
				).toBeVisible( {
					timeout: 60_000,
				} );
				const box = ( await canvas.boundingBox() )!;
				for ( const [ x, y ] of [
					[ 0.3, 0.6 ],
					[ 0.5, 0.7 ],
					[ 0.7, 0.6 ],
				] as const ) {
					await canvas.click( {
						position: {
							x: Math.round( box.width * x ),
							y: Math.round( box.height * y ),
						},
					} );
				}
				await form.getByRole( 'button', { name: 'Finish' } ).click();
				await expect(
					form.getByText( 'A route of 3 vertices.' )
				).toBeVisible();
			} finally {
				await settings( requestUtils, { cairn_maps_basemap: '' } );
			}
		} );
	} );
}

test.describe( 'in the editor, the site’s basemap', () => {
	test.describe.configure( { timeout: 3 * SLOW } );

	test( 'a new block on a site without a token previews the site’s basemap (OpenFreeMap: maplibre), with no token placeholder', async ( {
		admin,
		editor,
		page,
		requestUtils,
	} ) => {
		// A new site: no token, the automatic basemap (OpenFreeMap), and no token placeholder.
		await settings( requestUtils, {
			cairn_maps_access_token: '',
			cairn_maps_basemap: '',
		} );
		try {
			await admin.createNewPost( {
				postType: 'page',
				title: 'Engines editor: site basemap',
			} );
			await dismissWelcomeGuide( page );
			await editor.insertBlock( { name: 'cairn/map' } );
			const preview = editor.canvas.locator(
				'.wp-block-cairn-map__preview'
			);
			await expect(
				preview.locator( 'canvas.maplibregl-canvas' )
			).toHaveCount( 1, { timeout: SLOW } );
			await expect( preview ).toHaveAttribute(
				'data-cairn-state',
				'ready',
				{ timeout: SLOW }
			);
			await expect(
				editor.canvas.getByText( /access token must be provided/i )
			).toHaveCount( 0 );

			// The block's own style may be the site's archive: pmtiles:// and the world archive in
			// the media library (on the site's uploads host). The field takes it, the block keeps
			// it, and the preview is rebuilt from it.
			const { style: archive } = JSON.parse(
				fs.readFileSync( BASEMAP_STATE, 'utf8' )
			) as { style: string };
			expect( archive ).toMatch( /^pmtiles:\/\/https?:\/\// );
			await watchPreviewMaps( editor );
			const inspector = page.getByRole( 'region', {
				name: 'Editor settings',
			} );
			await inspector
				.getByRole( 'combobox', { name: 'Map style' } )
				.selectOption( { label: 'Custom style URL' } );
			const field = inspector.getByRole( 'textbox', {
				name: 'Style URL',
			} );
			await field.fill( archive );
			await expect( field ).toHaveAttribute( 'aria-invalid', 'false' );
			await expect
				.poll( async () => {
					const [ block ] = await editor.getBlocks();
					return block?.attributes.mapStyle;
				} )
				.toBe( archive );
			await expect
				.poll( () => previewSources( editor ), { timeout: SLOW } )
				.toContain( 'pmtiles://' );
			await expect( preview ).toHaveAttribute(
				'data-cairn-state',
				'ready',
				{ timeout: SLOW }
			);
			await expect
				.poll(
					() =>
						visibleColours(
							page,
							preview.locator( 'canvas.maplibregl-canvas' )
						),
					{ timeout: 60_000 }
				)
				.toBeGreaterThanOrEqual( 3 );
			// A pmtiles:// archive on another host is refused in the field, and the block keeps its
			// last valid style.
			await field.fill(
				'pmtiles://https://elsewhere.example/world.pmtiles'
			);
			await expect( field ).toHaveAttribute( 'aria-invalid', 'true' );
			await expect(
				inspector.getByText(
					'A self-hosted archive must be on this site, so that maps contact no other server.'
				)
			).toBeVisible();
			const [ kept ] = await editor.getBlocks();
			expect( kept?.attributes.mapStyle ).toBe( archive );
		} finally {
			await settings( requestUtils, {
				cairn_maps_access_token: FAKE_PUBLIC_TOKEN,
				cairn_maps_basemap: '',
			} );
		}
	} );
} );

test.describe( 'a self-hosted map (maplibre, the world archive in the media library)', () => {
	test.use( { storageState: VISITOR_STATE } );
	test.describe.configure( { timeout: 3 * SLOW } );

	test.beforeAll( async ( { requestUtils } ) => {
		test.setTimeout( 5 * SLOW );
		await ensureSeed( requestUtils );
	} );

	test( 'makes no request off the site’s origin, needs no consent, and draws its basemap and clusters', async ( {
		page,
		context,
		baseURL,
		mapsService,
		requestUtils,
	} ) => {
		const origin = new URL( baseURL! ).origin;
		const offOrigin: string[] = [];
		// Registered after the maps service, so it runs first: every other host fails, recorded.
		await context.route( '**/*', ( route ) => {
			const url = route.request().url();
			if ( /^https?:/.test( url ) && new URL( url ).origin !== origin ) {
				offOrigin.push( url );
				return route.abort( 'blockedbyclient' );
			}
			return route.fallback();
		} );
		// The owner requires consent: a self-hosted map needs none for itself.
		await settings( requestUtils, { cairn_maps_require_consent: true } );
		try {
			await page.goto( seed!.selfHosted );
		} finally {
			await settings( requestUtils, {
				cairn_maps_require_consent: false,
			} );
		}
		await waitForIdle( page );
		await expect( host( page ) ).toHaveAttribute(
			'data-cairn-state',
			'ready'
		);
		await expect
			.poll( async () => ( await drawnMarkers( page ) ).total, {
				timeout: SLOW,
			} )
			.toBe( PLACES.length );
		expect(
			await canvasColours( page, 'maplibregl' )
		).toBeGreaterThanOrEqual( 4 );
		// Its tiles came from the archive on the site.
		const style = await page.evaluate( () =>
			JSON.stringify( window.cairnMap().getStyle().sources )
		);
		expect( style ).toContain( 'pmtiles://' );
		await shoot( host( page ), 'maplibre-self-hosted.png' );
		expect( offOrigin ).toEqual( [] );
		expect( mapsService.requests ).toEqual( [] );
	} );

	test( 'a MapLibre page loads nothing from a Mapbox host and has no window.mapboxgl', async ( {
		page,
		context,
		mapsService,
	} ) => {
		const hosts = hostsSeen( context );
		await page.goto( seed!.pages.maplibre! );
		await waitForIdle( page );
		await expect
			.poll( async () => ( await drawnMarkers( page ) ).total, {
				timeout: SLOW,
			} )
			.toBe( PLACES.length );
		// A page of the same map on the self-hosted archive too.
		await page.goto( seed!.selfHosted );
		await waitForIdle( page );
		expect(
			await page.evaluate(
				() => typeof ( window as { mapboxgl?: unknown } ).mapboxgl
			)
		).toBe( 'undefined' );
		expect( hosts.filter( ( h ) => MAPBOX_HOST.test( h ) ) ).toEqual( [] );
		expect( mapsService.requests ).toEqual( [] );
	} );
} );

test.describe( 'a tiled map on maplibre', () => {
	test.use( { storageState: VISITOR_STATE } );
	test.describe.configure( { timeout: 4 * SLOW } );
	const FIXTURE = 'cairn-tiles-fixture/cairn-tiles-fixture';
	const COUNT = 100;
	const tracked: CreatedItem[] = [];
	let url = '';

	test.beforeAll( async ( { requestUtils } ) => {
		test.setTimeout( 5 * SLOW );
		await requestUtils.rest( {
			method: 'POST',
			path: `/wp/v2/plugins/${ FIXTURE }`,
			data: { status: 'active' },
			timeout: SLOW,
		} );
		const seeded = await seedPlaces(
			requestUtils,
			( item ) => tracked.push( item ),
			[
				{
					slug: 'engines-spec-tiled',
					name: 'Engines spec tiled',
					color: '#1f77b4',
				},
			],
			COUNT,
			{ west: 2, south: 45.5, east: 12, north: 50.5 },
			( _i, word ) => `${ word } Tiled`
		);
		url = await publishTrackedPage(
			requestUtils,
			( item ) => tracked.push( item ),
			'Engines spec: tiled on maplibre',
			mapBlock( {
				center: { lng: 7, lat: 48 },
				zoom: 4,
				mapStyle: LIBERTY,
				height: '480px',
				markers: {
					source: 'groups',
					groups: seeded.groups.map( ( group ) => group.slug ),
					ids: [],
				},
				cluster: { enabled: true, radius: 80 },
			} )
		);
	} );

	test.afterAll( async ( { requestUtils } ) => {
		test.setTimeout( 5 * SLOW );
		const order = ( item: CreatedItem ) =>
			item.path.includes( 'markers' ) ? 0 : 1;
		const items = tracked
			.splice( 0 )
			.sort( ( a, b ) => order( a ) - order( b ) );
		for ( let start = 0; start < items.length; start += 25 ) {
			await requestUtils.rest( {
				method: 'POST',
				path: '/batch/v1',
				data: {
					requests: items
						.slice( start, start + 25 )
						.map( ( item ) => ( {
							method: 'DELETE',
							path: `${ item.path }/${ item.id }?force=true`,
						} ) ),
				},
				timeout: SLOW,
			} );
		}
		await requestUtils.rest( {
			method: 'POST',
			path: `/wp/v2/plugins/${ FIXTURE }`,
			data: { status: 'inactive' },
			timeout: SLOW,
		} );
	} );

	test( 'maplibre: draws the clusters of its tiles, read through queryRenderedFeatures, never fetching the markers feed', async ( {
		page,
	} ) => {
		const seen = { tiles: [] as string[], markers: [] as string[] };
		page.on( 'request', ( request ) => {
			const address = decodeURIComponent( request.url() );
			if ( address.includes( '/cairn/v1/tiles/' ) ) {
				seen.tiles.push( address );
			} else if ( address.includes( '/cairn/v1/markers' ) ) {
				seen.markers.push( address );
			}
		} );
		await page.goto( url );
		await waitForIdle( page );
		await expect
			.poll( async () => ( await drawnMarkers( page ) ).total, {
				timeout: SLOW,
			} )
			.toBe( COUNT );
		expect(
			( await drawnMarkers( page ) ).clusterCounts.length
		).toBeGreaterThan( 0 );
		expect( seen.tiles.length ).toBeGreaterThan( 0 );
		expect( seen.markers ).toEqual( [] );
		await expect( page.locator( 'canvas.maplibregl-canvas' ) ).toHaveCount(
			1
		);
	} );
} );
