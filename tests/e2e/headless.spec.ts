/**
 * The headless example (examples/headless) on another origin: a Vite + React app served from
 * 127.0.0.1:<free port> reads the WordPress site under test (WP_BASE_URL, localhost:8889) as an
 * anonymous visitor, through @cairn-maps/map only. Its pages list, a page's maps both ways
 * (`<CairnMap>` from `cairn_maps`, `hydrate()` on `content.rendered`), a draft refused without a
 * trace of it, the app's own token, and that every read of the site is cookie-less and CORS-readable.
 *
 * The example only reads the sites it was built for (`VITE_CAIRN_SITES`) and sanitises the HTML it
 * inserts: a foreign `?site=` is refused without a request, and script in a page's content does
 * not run on the app's origin.
 *
 * The example is built here for the site under test, only when its dist/ is missing, older than
 * its sources or the package's dist/, or built for other sites (`npm run build` builds the
 * package before the suite). CAIRN_EXAMPLE_URL runs the spec against an app already served
 * instead (e.g. `VITE_CAIRN_SITES=http://localhost:8889 npx vite examples/headless`, whose
 * development build adds React's Strict Mode checks).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { Page, Request } from '@playwright/test';

import { expect, test, type MapsService } from './fixtures/maps-service';
import {
	FAKE_PUBLIC_TOKEN,
	createPublishedPage,
	mapBlock,
	setToken,
	visibleColours,
} from './utils/map-page';
import { guardVisitorPages, seedMarkers, waitForIdle } from './utils/front-map';

const ROOT = path.resolve( __dirname, '..', '..' );
const EXAMPLE = path.join( ROOT, 'examples', 'headless' );
const SITE = new URL( process.env.WP_BASE_URL ?? 'http://localhost:8889' );

/** Another well-formed public token, the app's own: the fixture serves any `pk.` token. */
const APP_TOKEN = `pk.${ Buffer.from(
	JSON.stringify( { u: 'headless-app', a: 'y' } )
).toString( 'base64url' ) }.aGVhZGxlc3MtYXBwLXNpZ25hdHVyZQ`;

/** Only the draft's map uses this style: it must never reach the app's page or the maps service. */
const DRAFT_STYLE = 'mapbox://styles/cairn/headless-draft-only';

// Edinburgh: the fixture's coastline (the Firth of Forth) is in the picture.
const CENTER = { lng: -3.2, lat: 55.95 };
const PAGE_TITLE = 'Headless spec: places around the firth';
const DRAFT_TITLE = 'Headless spec: unpublished map';
const HOSTILE_TITLE = 'Headless spec: a page with script in its content';

/** A site the example was not built for; the test routes it, so a read would be answered. */
const FOREIGN_SITE = 'https://foreign-site.example/';

/**
 * Content an administrator (who has `unfiltered_html`) may save, or a plugin may add: each piece
 * would run script on the app's origin if inserted as it is, and sets `window.cairnHostile` to its
 * number (1 the image's handler, 2 the script, 3 the frame, 4 the SVG animation). Numbers, not
 * strings, and the frame's document escaped: WordPress turns straight quotes in content's text
 * into curly ones.
 */
const HOSTILE_HTML = [
	'<img src="x" alt="" onerror="window.cairnHostile=1">',
	'<script>window.cairnHostile=2</script>',
	'<iframe srcdoc="&lt;script&gt;parent.cairnHostile=3&lt;/script&gt;"></iframe>',
	'<svg><animate onbegin="window.cairnHostile=4" attributeName="x" dur="1s"/></svg>',
].join( '' );
const CLOSE_PLACES = 12;

/** 12 places within 2 km of the centre (clusters at zoom 9), 2 about 20 km east and west. */
const PLACES = [
	...Array.from( { length: CLOSE_PLACES }, ( _, i ) => ( {
		title: `Headless spec: place ${ i + 1 }`,
		lng: CENTER.lng + 0.02 * Math.cos( ( i * Math.PI ) / 6 ),
		lat: CENTER.lat + 0.012 * Math.sin( ( i * Math.PI ) / 6 ),
	} ) ),
	{ title: 'Headless spec: west', lng: CENTER.lng - 0.3, lat: CENTER.lat },
	{ title: 'Headless spec: east', lng: CENTER.lng + 0.3, lat: CENTER.lat },
];

const ids = { page: 0, draft: 0, hostile: 0 };
let traffic: Traffic;
let app = '';
let server: ChildProcess | undefined;

/** Builds the example if it is stale, serves it on a free port; resolves with its address. */
async function startExample(): Promise< string > {
	if ( process.env.CAIRN_EXAMPLE_URL ) {
		return process.env.CAIRN_EXAMPLE_URL;
	}
	// Built for the site under test only: the app refuses any other `?site=`.
	execFileSync(
		process.execPath,
		[ path.join( EXAMPLE, 'build.mjs' ), '--if-stale' ],
		{
			cwd: ROOT,
			env: { ...process.env, VITE_CAIRN_SITES: SITE.href },
			stdio: 'inherit',
			timeout: 600_000,
		}
	);
	const child = spawn(
		process.execPath,
		[ path.join( EXAMPLE, 'serve.mjs' ) ],
		{
			cwd: ROOT,
			env: { ...process.env, PORT: '0', HOST: '127.0.0.1' },
			stdio: [ 'ignore', 'pipe', 'inherit' ],
		}
	);
	server = child;
	return new Promise( ( resolve, reject ) => {
		let output = '';
		const timer = setTimeout(
			() => reject( new Error( 'serve.mjs printed no address' ) ),
			30_000
		);
		child.stdout?.on( 'data', ( chunk: Buffer ) => {
			output += chunk.toString();
			const address = /http:\/\/127\.0\.0\.1:\d+\//.exec( output );
			if ( address ) {
				clearTimeout( timer );
				resolve( address[ 0 ] );
			}
		} );
		child.once( 'exit', ( code ) => {
			clearTimeout( timer );
			reject( new Error( `serve.mjs exited with ${ code }` ) );
		} );
	} );
}

/** The app's address for a view of the site under test (or of `site`). */
function appUrl(
	params: Record< string, string | number > = {},
	site = SITE.href
): string {
	const url = new URL( app );
	url.searchParams.set( 'site', site );
	for ( const [ name, value ] of Object.entries( params ) ) {
		url.searchParams.set( name, String( value ) );
	}
	return url.href;
}

/** What the app's page did on the network and the console during a test. */
interface Traffic {
	consoleErrors: string[];
	failed: string[];
	/** Requests to the WordPress origin. */
	site: Request[];
	/** Whether the test expects the page to read the site (false: it must not). */
	readsSite: boolean;
}

const CANCELLED = 'net::ERR_ABORTED';

function watchTraffic( page: Page ): Traffic {
	const seen: Traffic = {
		consoleErrors: [],
		failed: [],
		site: [],
		readsSite: true,
	};
	page.on( 'console', ( message ) => {
		if ( message.type() === 'error' ) {
			seen.consoleErrors.push( message.text() );
		}
	} );
	page.on( 'requestfailed', ( request ) => {
		const error = request.failure()?.errorText;
		// The page cancelled it (an effect's cleanup aborting its fetch, mapbox-gl dropping tiles
		// it no longer needs): not a failure. Refused CORS reads are net::ERR_FAILED.
		if ( error !== CANCELLED ) {
			seen.failed.push(
				`${ request.method() } ${ request.url() }: ${ error }`
			);
		}
	} );
	page.on( 'request', ( request ) => {
		if ( new URL( request.url() ).origin === SITE.origin ) {
			seen.site.push( request );
		}
	} );
	return seen;
}

/**
 * The REST routes the app's page asked the site for so far: from `?rest_route=` (the app's own
 * reads) or from `/wp-json/…` (the addresses the site puts in map configurations).
 */
function siteRoutes(): string[] {
	return traffic.site.map( ( request ) => {
		const url = new URL( request.url() );
		return (
			url.searchParams.get( 'rest_route' ) ??
			url.pathname.replace( /^.*?\/wp-json(?=\/)/, '' )
		);
	} );
}

/** Clusters and single points the map draws from the markers source. */
async function drawnMarkers( page: Page ) {
	return page.evaluate( () => {
		const map = window.cairnMap();
		const clusters = map
			.queryRenderedFeatures( { layers: [ 'cairn-clusters' ] } )
			.map( ( feature ) => Number( feature.properties?.point_count ) );
		const points = new Set(
			map
				.queryRenderedFeatures( { layers: [ 'cairn-points' ] } )
				.map( ( feature ) => feature.id )
		);
		return { clusters, points: points.size };
	} );
}

/** Every marker is drawn, and the close ones in clusters. */
async function expectClusters( page: Page ) {
	await waitForIdle( page );
	const drawn = await drawnMarkers( page );
	expect( drawn.clusters.length ).toBeGreaterThan( 0 );
	expect( Math.max( ...drawn.clusters ) ).toBeGreaterThan( 1 );
	expect( drawn.clusters.reduce( ( a, b ) => a + b, 0 ) + drawn.points ).toBe(
		PLACES.length
	);
}

/** Mapbox requests the fixture answered, and the distinct tokens they carried. */
function tokensOnMapData( mapsService: MapsService ) {
	return [
		...new Set(
			mapsService
				.requestsOf( 'style', 'tile', 'tilejson', 'glyphs', 'sprite' )
				.map( ( request ) => request.token )
		),
	];
}

test.describe( 'headless example on another origin', () => {
	// The app's origin has no WordPress cookies: a visitor's browser, nothing stored.
	test.use( { storageState: { cookies: [], origins: [] } } );

	test.beforeAll( async ( { requestUtils } ) => {
		test.setTimeout( 600_000 ); // A first build of the example takes a minute or more.
		await setToken( requestUtils, FAKE_PUBLIC_TOKEN );
		const markerIds = await seedMarkers( requestUtils, PLACES );
		const map = mapBlock( {
			center: CENTER,
			zoom: 9,
			markers: { source: 'ids', groups: [], ids: markerIds },
			cluster: { enabled: true, radius: 80 },
		} );
		ids.page = (
			await createPublishedPage(
				requestUtils,
				PAGE_TITLE,
				`<!-- wp:paragraph --><p>Before the map.</p><!-- /wp:paragraph -->${ map }<!-- wp:paragraph --><p>After the map.</p><!-- /wp:paragraph -->`
			)
		).id;
		ids.hostile = (
			await createPublishedPage(
				requestUtils,
				HOSTILE_TITLE,
				`<!-- wp:html -->${ HOSTILE_HTML }<!-- /wp:html -->${ map }<!-- wp:paragraph --><p>After the map.</p><!-- /wp:paragraph -->`
			)
		).id;
		ids.draft = (
			( await requestUtils.rest( {
				method: 'POST',
				path: '/wp/v2/pages',
				data: {
					title: DRAFT_TITLE,
					status: 'draft',
					content: mapBlock( {
						center: CENTER,
						zoom: 9,
						mapStyle: DRAFT_STYLE,
					} ),
				},
			} ) ) as { id: number }
		 ).id;
		app = await startExample();
	} );

	test.afterAll( async ( { requestUtils } ) => {
		server?.kill();
		await requestUtils.batchRest(
			[ ids.page, ids.draft, ids.hostile ]
				.filter( Boolean )
				.map( ( id ) => ( {
					method: 'DELETE',
					path: `/wp/v2/pages/${ id }?force=true`,
				} ) )
		);
	} );

	// Map events recorded (window.cairnMap), no uncaught error, seeded markers removed.
	guardVisitorPages();

	test.beforeEach( ( { page } ) => {
		traffic = watchTraffic( page );
	} );

	test.afterEach( async () => {
		expect( traffic.consoleErrors ).toEqual( [] );
		expect( traffic.failed ).toEqual( [] );
		if ( ! traffic.readsSite ) {
			expect( traffic.site ).toEqual( [] );
			return;
		}
		expect( traffic.site.length ).toBeGreaterThan( 0 );
		for ( const request of traffic.site ) {
			if ( request.failure()?.errorText === CANCELLED ) {
				continue;
			}
			const what = `${ request.method() } ${ request.url() }`;
			expect(
				( await request.allHeaders() ).cookie,
				`${ what } sent no cookie`
			).toBeUndefined();
			const response = await request.response();
			expect( response, `${ what } was answered` ).not.toBeNull();
			expect(
				response?.headers()[ 'access-control-allow-origin' ],
				`${ what } is readable from the app's origin`
			).toBeTruthy();
		}
	} );

	test( 'the home lists the published page with a map, not the draft', async ( {
		page,
	} ) => {
		await page.goto( appUrl() );
		const link = page.getByRole( 'link', { name: PAGE_TITLE } );
		await expect( link ).toBeVisible();
		const href = new URL(
			( await link.getAttribute( 'href' ) ) ?? '',
			app
		);
		expect( Object.fromEntries( href.searchParams ) ).toEqual( {
			page: String( ids.page ),
			way: 'components',
			site: SITE.href,
		} );
		await expect( page.getByText( DRAFT_TITLE ) ).toHaveCount( 0 );
	} );

	test( 'components: <CairnMap> from cairn_maps, in place of the block, draws clusters', async ( {
		page,
	} ) => {
		await page.goto( appUrl( { page: ids.page, way: 'components' } ) );
		await expect(
			page.getByRole( 'heading', { level: 1, name: PAGE_TITLE } )
		).toBeVisible();
		await expect(
			page.getByRole( 'link', { name: /React components/ } )
		).toHaveAttribute( 'aria-current', 'page' );
		const host = page.locator( '.wp-block-cairn-map' );
		await expect( host ).toHaveCount( 1 );
		await expect( host ).toHaveAttribute( 'data-cairn-state', 'ready', {
			timeout: 60_000,
		} );
		// Between the paragraphs, where the editor put it; the server's markup is gone.
		await expect(
			page.locator(
				'.entry-content p + [data-headless-map-slot] > .wp-block-cairn-map'
			)
		).toHaveCount( 1 );
		await expect( page.locator( '[data-cairn-config]' ) ).toHaveCount( 0 );
		await expectClusters( page );
		// The feed came from the site itself (mapbox-gl's worker reads it), under the checks below.
		expect( siteRoutes() ).toContainEqual(
			expect.stringMatching( /^\/cairn\/v1\/markers$/ )
		);
	} );

	test( 'consent: the site asks for it, so <CairnMap> waits behind "Load map", loading no mapbox-gl and contacting no Mapbox host before the click', async ( {
		page,
		requestUtils,
		mapsService,
	} ) => {
		const scripts: string[] = [];
		page.on( 'request', ( request ) => {
			if ( request.resourceType() === 'script' ) {
				scripts.push( new URL( request.url() ).pathname );
			}
		} );
		await requestUtils.rest( {
			method: 'POST',
			path: '/wp/v2/settings',
			data: { cairn_maps_require_consent: true },
		} );
		const host = page.locator( '.wp-block-cairn-map' );
		const button = host.getByRole( 'button', { name: 'Load map' } );
		try {
			await page.goto( appUrl( { page: ids.page, way: 'components' } ) );
			await expect( button ).toBeVisible();
		} finally {
			// The app read cairn_maps already: the next tests get the site as it was.
			await requestUtils.rest( {
				method: 'POST',
				path: '/wp/v2/settings',
				data: { cairn_maps_require_consent: false },
			} );
		}
		await expect( host ).toHaveAttribute(
			'data-cairn-consent',
			'required'
		);
		await expect( host ).toHaveAttribute( 'data-cairn-state', 'loading' );
		await expect(
			host.locator( '.wp-block-cairn-map__consent-note' )
		).toContainText( 'connects your browser to Mapbox' );
		await page.waitForLoadState( 'networkidle' );
		expect( mapsService.requests ).toEqual( [] );
		expect(
			scripts.filter( ( script ) => /mapbox/i.test( script ) )
		).toEqual( [] );

		await button.click();
		await expect( host ).toHaveAttribute( 'data-cairn-state', 'ready', {
			timeout: 60_000,
		} );
		await expect( host ).toHaveAttribute( 'data-cairn-consent', 'given' );
		await expect( button ).toHaveCount( 0 );
		expect( mapsService.styleRequests().length ).toBeGreaterThan( 0 );
		expect(
			scripts.filter( ( script ) => /mapbox/i.test( script ) ).length
		).toBeGreaterThan( 0 );
	} );

	test( 'html: content.rendered started by hydrate() draws clusters, and its list opens a popup from the keyboard', async ( {
		page,
	} ) => {
		await page.goto( appUrl( { page: ids.page, way: 'html' } ) );
		const host = page.locator( '.wp-block-cairn-map' );
		await expect( host ).toHaveAttribute( 'data-cairn-config', /.+/ );
		await expect( host ).toHaveAttribute( 'data-cairn-state', 'ready', {
			timeout: 60_000,
		} );
		await expectClusters( page );

		const place = PLACES[ 2 ]!.title;
		const button = page.getByRole( 'button', {
			name: `Show ${ place } on the map`,
		} );
		await button.focus();
		await page.keyboard.press( 'Enter' );
		await expect( page.locator( '.mapboxgl-popup' ) ).toContainText(
			place,
			{ timeout: 30_000 }
		);
		expect( siteRoutes() ).toContainEqual(
			expect.stringMatching( /^\/cairn\/v1\/markers\/\d+$/ )
		);
	} );

	test( 'a draft: the alert says its maps are not public, and nothing of it reaches the page', async ( {
		page,
		mapsService,
	} ) => {
		await page.goto( appUrl( { post: ids.draft } ) );
		await expect( page.getByRole( 'alert' ) ).toHaveText(
			/^These maps are not public \(40[13]\)\.$/
		);
		const html = await page.content();
		expect( html ).not.toContain( 'headless-draft-only' );
		expect( html ).not.toContain( FAKE_PUBLIC_TOKEN );
		expect( html ).not.toContain( DRAFT_TITLE );
		await expect( page.locator( '.wp-block-cairn-map' ) ).toHaveCount( 0 );
		expect( mapsService.requests ).toEqual( [] );
		// The browser logs the refused read itself; that is the only console error.
		expect( traffic.consoleErrors ).toEqual( [
			expect.stringMatching( /status of 40[13] \(/ ),
		] );
		traffic.consoleErrors.length = 0;
	} );

	test( 'a site the app was not built for is refused, and nothing is asked of it', async ( {
		page,
		mapsService,
	} ) => {
		traffic.readsSite = false;
		// Were the app to read it, this "site" would answer as WordPress does, with script in a
		// page's content.
		const foreign: string[] = [];
		await page.route( `${ FOREIGN_SITE }**`, ( route ) => {
			foreign.push( route.request().url() );
			return route.fulfill( {
				status: 200,
				headers: { 'Access-Control-Allow-Origin': '*' },
				contentType: 'application/json',
				body: JSON.stringify( {
					id: 5,
					title: { rendered: 'Foreign' },
					content: { rendered: HOSTILE_HTML },
					cairn_maps: [],
				} ),
			} );
		} );
		const views: Array< Record< string, string | number > > = [
			{},
			{ page: 5, way: 'html' },
			{ post: 5 },
		];
		for ( const params of views ) {
			await page.goto( appUrl( params, FOREIGN_SITE ) );
			const alert = page.getByRole( 'alert' );
			await expect( alert ).toContainText(
				`This app does not read “${ FOREIGN_SITE }”: it was built for this site only.`
			);
			await expect( alert.getByRole( 'listitem' ) ).toHaveText( [
				SITE.href,
			] );
			await expect( page.locator( '.entry-content' ) ).toHaveCount( 0 );
		}
		expect( foreign ).toEqual( [] );
		expect( mapsService.requests ).toEqual( [] );
		expect(
			await page.evaluate(
				() => ( window as { cairnHostile?: string } ).cairnHostile
			)
		).toBeUndefined();
	} );

	test( 'script in a page’s content does not run on the app’s origin, both ways, and its map still draws', async ( {
		page,
		requestUtils,
	} ) => {
		// What the site gives any reader: the hostile markup reaches the app.
		const rendered = (
			( await requestUtils.rest( {
				path: `/wp/v2/pages/${ ids.hostile }`,
			} ) ) as { content: { rendered: string } }
		 ).content.rendered;
		expect( rendered ).toContain( 'onerror=' );
		expect( rendered ).toContain( '<script>' );
		expect( rendered ).toContain( '<iframe srcdoc=' );
		expect( rendered ).toContain( '<p>After the map.</p>' );

		for ( const way of [ 'components', 'html' ] ) {
			await page.goto( appUrl( { page: ids.hostile, way } ) );
			await expect(
				page.locator( '.wp-block-cairn-map' )
			).toHaveAttribute( 'data-cairn-state', 'ready', {
				timeout: 60_000,
			} );
			await expectClusters( page );
			await expect(
				page.locator( '.entry-content p', {
					hasText: 'After the map.',
				} )
			).toBeVisible();
			// The image stays (without its handler) and has tried to load by now.
			const image = page.locator( '.entry-content img[src="x"]' );
			await expect( image ).toHaveCount( 1 );
			await page.waitForFunction(
				() =>
					document.querySelector< HTMLImageElement >(
						'.entry-content img'
					)?.complete
			);
			expect(
				await page.evaluate(
					() => ( window as { cairnHostile?: number } ).cairnHostile
				),
				`nothing ran (${ way })`
			).toBeUndefined();
			expect( await image.getAttribute( 'onerror' ) ).toBeNull();
			await expect(
				page.locator(
					// The maps' key scripts (JSON, put back by the sanitiser) are data, not code.
					'.entry-content :is(script:not([type="application/json"].wp-block-cairn-map__key), iframe, [onbegin], [onerror])'
				)
			).toHaveCount( 0 );
		}
	} );

	test( 'a built app ignores ?token= from a link: every map request carries the site’s token, both ways', async ( {
		page,
		mapsService,
	} ) => {
		// A crafted link would otherwise run the visitors' maps on someone else's Mapbox account:
		// only the dev server's build reads ?token= (tests/unit/headless-example.test.ts).
		await page.goto(
			appUrl( { page: ids.page, way: 'components', token: APP_TOKEN } )
		);
		await expect( page.locator( '.wp-block-cairn-map' ) ).toHaveAttribute(
			'data-cairn-state',
			'ready',
			{ timeout: 60_000 }
		);
		await waitForIdle( page );
		expect( mapsService.styleRequests().length ).toBeGreaterThan( 0 );
		expect( mapsService.tileRequests().length ).toBeGreaterThan( 0 );
		expect( tokensOnMapData( mapsService ) ).toEqual( [
			FAKE_PUBLIC_TOKEN,
		] );
		expect( mapsService.tokensSeen() ).not.toContain( APP_TOKEN );

		// The other way, by its link: the link does not carry the token on.
		mapsService.clear();
		await page.getByRole( 'link', { name: /Rendered HTML/ } ).click();
		await expect( page ).toHaveURL( /[?&]way=html(&|$)/ );
		expect( new URL( page.url() ).searchParams.has( 'token' ) ).toBe(
			false
		);
		await expect( page.locator( '.wp-block-cairn-map' ) ).toHaveAttribute(
			'data-cairn-state',
			'ready',
			{ timeout: 60_000 }
		);
		await waitForIdle( page );
		expect( mapsService.styleRequests().length ).toBeGreaterThan( 0 );
		expect( tokensOnMapData( mapsService ) ).toEqual( [
			FAKE_PUBLIC_TOKEN,
		] );
		expect( mapsService.tokensSeen() ).not.toContain( APP_TOKEN );
	} );

	test( 'both ways side by side, not blank (docs/screenshots/headless.png with CAIRN_SCREENSHOTS=1)', async ( {
		page,
		context,
	}, testInfo ) => {
		await page.setViewportSize( { width: 1000, height: 900 } );
		const shots: string[] = [];
		for ( const way of [ 'components', 'html' ] ) {
			await page.goto( appUrl( { page: ids.page, way } ) );
			const canvas = page.locator( 'canvas.mapboxgl-canvas' );
			await expect(
				page.locator( '.wp-block-cairn-map' )
			).toHaveAttribute( 'data-cairn-state', 'ready', {
				timeout: 60_000,
			} );
			await waitForIdle( page );
			expect( await visibleColours( page, canvas ) ).toBeGreaterThan( 3 );
			await page.evaluate( () => window.scrollTo( 0, 0 ) );
			shots.push(
				( await page.screenshot( { type: 'png' } ) ).toString(
					'base64'
				)
			);
		}

		// One picture: the two screenshots side by side, drawn by the browser itself.
		const composed = await context.newPage();
		await composed.setViewportSize( { width: 1300, height: 600 } );
		await composed.setContent(
			`<body style="margin:0;display:flex;gap:20px;padding:10px;background:#dcdcde;font:600 15px system-ui">
				${ shots
					.map(
						( shot, i ) =>
							`<figure style="margin:0;flex:1"><figcaption style="margin:0 0 6px">${
								[
									'React components — <CairnMap> from cairn_maps',
									'Rendered HTML — hydrate( content.rendered )',
								][ i ]
									?.replace( /</g, '&lt;' )
									.replace( />/g, '&gt;' ) ?? ''
							}</figcaption><img style="width:100%;display:block;box-shadow:0 1px 4px #0004" src="data:image/png;base64,${ shot }"></figure>`
					)
					.join( '' ) }
			</body>`
		);
		await composed.evaluate( () =>
			Promise.all(
				Array.from( document.images ).map( ( image ) => image.decode() )
			)
		);
		const file = process.env.CAIRN_SCREENSHOTS
			? path.join( ROOT, 'docs', 'screenshots', 'headless.png' )
			: testInfo.outputPath( 'headless.png' );
		const picture = await composed.screenshot( {
			path: file,
			fullPage: true,
		} );
		expect( picture.length ).toBeLessThan( 300 * 1024 );
		await composed.close();
	} );
} );
