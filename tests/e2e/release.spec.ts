/**
 * The release zip as a site owner meets it, on clean sites of their own (bin/release-site.mjs:
 * fresh WordPress, no plugin mounted, no auto-login), never on the shared e2e site:
 *
 * - the zip holds exactly what a site runs (no sources, tests, tools or manifests);
 * - install: log in through wp-login.php, Plugins → Add New Plugin → Upload Plugin, Install Now,
 *   Activate; the token on Settings → Cairn Maps; a Cairn Map block in a new page; a logged-out
 *   visitor sees the map ready;
 * - upgrade: the previous release (tests/fixtures/releases/cairn-maps-0.1.0.zip, made by
 *   bin/build-previous-release.sh) with markers, a group with colour and icon, every setting and
 *   a page of maps; then the current zip through the same screen, "Replace current with
 *   uploaded"; every marker, the group's looks, every setting and the page come through, the data
 *   version is stored, and the visitor's maps still draw every marker;
 * - an older zip over newer data: the next release (this code labelled as it, `plugin-zip
 *   --as-version`) brings the data to its version, then the current zip is uploaded back over it
 *   ("Plugin downgraded successfully."): the owner sees the warning notice and the Site Health
 *   recommendation, the data version and everything else are unchanged, the maps still draw.
 *
 * The sites start together before the tests (≈ 20–90 s each) and run on ports 8891 and 8892.
 * `npm run test:e2e` makes cairn-maps.zip first (bin/test-e2e.sh).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import {
	Admin,
	Editor,
	PageUtils,
	RequestUtils,
} from '@wordpress/e2e-test-utils-playwright';

import type { ReleaseSite } from '../../bin/release-site.mjs';
import {
	mapsServiceTest as test,
	expect,
	MapsService,
	FAKE_PUBLIC_TOKEN,
} from './fixtures/maps-service';
import {
	recordMapEvents,
	seedMarkers,
	solidPng,
	waitForIdle,
	watchPageErrors,
} from './utils/front-map';
import {
	createPublishedPage,
	dismissWelcomeGuide,
	mapBlock,
	publishPost,
	waitForMapState,
} from './utils/map-page';
import { startOnFreePort } from './utils/free-port';
import { logInThroughForm } from './utils/log-in';

const ROOT = path.resolve( __dirname, '..', '..' );
const CURRENT_ZIP = path.join( ROOT, 'cairn-maps.zip' );
const PREVIOUS_VERSION = '0.1.0';
const PREVIOUS_ZIP = path.join(
	ROOT,
	'tests',
	'fixtures',
	'releases',
	`cairn-maps-${ PREVIOUS_VERSION }.zip`
);
/** The version the current code declares (its plugin header). */
const CURRENT_VERSION =
	/^ \* Version:\s*(\S+)/m.exec(
		fs.readFileSync( path.join( ROOT, 'cairn-maps.php' ), 'utf8' )
	)?.[ 1 ] ?? '';

/** The release after the current one, as far as a version number goes. */
const NEXT_VERSION = CURRENT_VERSION.replace(
	/^(\d+)\.(\d+)\..*$/,
	( _all, major: string, minor: string ) =>
		`${ major }.${ Number( minor ) + 1 }.0`
);

const SETTINGS_URL = '/wp-admin/options-general.php?page=cairn-maps';

/** An anonymous browser: no cookies at all (these sites have no auto-login). */
const NO_COOKIES = { cookies: [], origins: [] };

/* ------------------------------------------------------------ the zip -- */

/** File names in a zip (unzip is a Debian package .ci/run installs). */
function zipEntries( zip: string ): string[] {
	return execFileSync( 'unzip', [ '-Z1', zip ], { encoding: 'utf8' } )
		.split( '\n' )
		.filter( Boolean );
}

/** What a site owner's plugin folder must never hold. */
const FORBIDDEN = [
	/^(src|packages|tests|bench|bin|examples|docs|node_modules|vendor|artifacts)\//,
	/^(composer|package|package-lock|tsconfig)\.json$/,
	/^composer\.lock$/,
	/\.(map|ts|tsx|scss)$/,
	/(^|\/)\.[^/]+$/,
];

function checkZip( zip: string ): string[] {
	const entries = zipEntries( zip );
	expect(
		entries.filter( ( entry ) => ! entry.startsWith( 'cairn-maps/' ) )
	).toEqual( [] );
	const files = entries
		.map( ( entry ) => entry.slice( 'cairn-maps/'.length ) )
		.filter( ( file ) => file && ! file.endsWith( '/' ) );
	expect(
		files.filter( ( file ) =>
			FORBIDDEN.some( ( pattern ) => pattern.test( file ) )
		)
	).toEqual( [] );
	for ( const required of [
		'cairn-maps.php',
		'uninstall.php',
		'readme.txt',
		'plugin/Plugin.php',
		'build/blocks/map/block.json',
		'build/blocks/map/view.js',
		'build/limits.json',
	] ) {
		expect( files ).toContain( required );
	}
	return files;
}

/* ---------------------------------------------------------- the sites -- */

let installSite: Promise< ReleaseSite > | undefined;
let upgradeSite: Promise< ReleaseSite > | undefined;

/**
 * bin/release-site.mjs, loaded as the ES module it is (a static import would be compiled to
 * CommonJS with the spec).
 */
const releaseSites = () => import( '../../bin/release-site.mjs' );

/** Playground's installer's administrator (bin/release-site.mjs's ADMIN). */
const ADMIN = { username: 'admin', password: 'password' };

/** A browser context on a release site with the offline maps service routed in. */
async function siteContext(
	browser: Browser,
	site: ReleaseSite
): Promise< { context: BrowserContext; page: Page } > {
	const context = await browser.newContext( {
		baseURL: site.url,
		storageState: NO_COOKIES,
	} );
	await new MapsService().install( context );
	return { context, page: await context.newPage() };
}

/** Logs in through the real log-in form. */
async function logIn( page: Page ): Promise< void > {
	await logInThroughForm( page, ADMIN.username, ADMIN.password );
}

/**
 * Plugins → Add New Plugin → Upload Plugin → choose the zip → Install Now. Returns the page on
 * the upgrader's result screen.
 *
 * @param page The logged-in admin page.
 * @param zip  The plugin zip.
 */
async function uploadZip( page: Page, zip: string ): Promise< void > {
	await page.goto( '/wp-admin/plugins.php' );
	await page
		.locator( '#menu-plugins' )
		.getByRole( 'link', { name: /^Add (New )?Plugin$/ } )
		.click();
	await expect( page ).toHaveURL( /plugin-install\.php/ );
	await page
		.getByRole( 'button', { name: 'Upload Plugin' } )
		.or( page.getByRole( 'link', { name: 'Upload Plugin' } ) )
		.first()
		.click();
	await page
		.getByLabel( 'Plugin zip file' )
		.or( page.locator( '#pluginzip' ) )
		.first()
		.setInputFiles( zip );
	await page.getByRole( 'button', { name: 'Install Now' } ).click();
	await expect( page ).toHaveURL( /update\.php\?action=upload-plugin/, {
		timeout: 60_000,
	} );
}

/**
 * Uploads a zip over the installed plugin ("Replace current with uploaded") and waits for the
 * upgrader's result.
 *
 * @param page   The logged-in admin page.
 * @param zip    The plugin zip.
 * @param result The message the upgrader ends with.
 */
async function replaceWith(
	page: Page,
	zip: string,
	result: string
): Promise< void > {
	await uploadZip( page, zip );
	await expect( page.locator( '.wrap' ) ).toContainText(
		'This plugin is already installed.'
	);
	await page
		.getByRole( 'link', { name: 'Replace current with uploaded' } )
		.or(
			page.getByRole( 'button', {
				name: 'Replace current with uploaded',
			} )
		)
		.first()
		.click();
	await expect( page.locator( '.wrap' ) ).toContainText( result, {
		timeout: 60_000,
	} );
}

/** The Cairn Maps row of the plugins screen. */
async function pluginRow( page: Page ) {
	await page.goto( '/wp-admin/plugins.php' );
	return page.locator( 'tr[data-plugin="cairn-maps/cairn-maps.php"]' );
}

/**
 * REST as the admin of a release site: a log-in through wp-login.php, then the nonce. (Not
 * `setupRest()`: it discovers the API root at WP_BASE_URL, the shared e2e site.)
 *
 * @param site The release site.
 */
async function restAs( site: ReleaseSite ): Promise< RequestUtils > {
	const requestUtils = await RequestUtils.setup( { baseURL: site.url } );
	let nonce = '';
	await expect
		.poll(
			async () => {
				nonce = await requestUtils.login().catch( () => '' );
				return /^[0-9a-f]{10}$/.test( nonce );
			},
			{ timeout: 60_000 }
		)
		.toBe( true );
	const link =
		( await requestUtils.request.head( `${ site.url }/` ) ).headers()
			.link ?? '';
	const rootURL = /<([^>]+)>; rel="https:\/\/api\.w\.org\/"/.exec(
		link
	)?.[ 1 ];
	expect( rootURL ).toContain( site.url );
	requestUtils.storageState = {
		cookies: ( await requestUtils.request.storageState() ).cookies,
		nonce,
		rootURL: rootURL!,
	};
	return requestUtils;
}

/**
 * Opens a page as a logged-out visitor, starts the maps (consent first when asked) and waits until
 * every map block is ready and idle. Returns the visitor's page (its context closes with `done`).
 *
 * @param browser The browser.
 * @param site    The site.
 * @param url     The page.
 */
async function visit(
	browser: Browser,
	site: ReleaseSite,
	url: string
): Promise< { page: Page; errors: Error[]; done: () => Promise< void > } > {
	const { context, page } = await siteContext( browser, site );
	const errors = watchPageErrors( page );
	await recordMapEvents( page );
	await page.goto( url );
	const maps = page.locator( '.wp-block-cairn-map' );
	const consent = maps.first().getByRole( 'button', { name: 'Load map' } );
	if ( await consent.isVisible() ) {
		await consent.click();
	}
	const count = await maps.count();
	expect( count ).toBeGreaterThan( 0 );
	for ( let index = 0; index < count; index++ ) {
		const map = maps.nth( index );
		await map.scrollIntoViewIfNeeded();
		expect( await waitForMapState( map, 90_000 ) ).toBe( 'ready' );
		await expect( map.locator( 'canvas.mapboxgl-canvas' ) ).toBeVisible();
		await waitForIdle( page, index );
	}
	// Anonymous indeed: WordPress handed this browser no log-in cookie.
	expect(
		( await context.cookies() ).filter( ( cookie ) =>
			cookie.name.startsWith( 'wordpress_logged_in_' )
		)
	).toEqual( [] );
	return { page, errors, done: () => context.close() };
}

/** Markers drawn by a map (clusters counted by their points), within its view. */
async function drawnMarkers( page: Page, index: number ): Promise< number > {
	return page.evaluate( ( i ) => {
		const map = window.cairnMap( i );
		const clusters = new Map< unknown, number >();
		for ( const feature of map.queryRenderedFeatures( {
			layers: [ 'cairn-clusters' ],
		} ) ) {
			clusters.set(
				feature.properties?.cluster_id,
				Number( feature.properties?.point_count ?? 0 )
			);
		}
		const points = new Set(
			map
				.queryRenderedFeatures( { layers: [ 'cairn-points' ] } )
				.map( ( feature ) => feature.id )
		);
		return (
			[ ...clusters.values() ].reduce( ( a, b ) => a + b, 0 ) +
			points.size
		);
	}, index );
}

/* ---------------------------------------------------------- the tests -- */

test.describe( 'release zip', () => {
	test( 'holds exactly what a site runs, like the previous release', () => {
		const files = checkZip( CURRENT_ZIP );
		// Every PHP file of the checkout ships, as it is now: a zip made before a PHP file was
		// added or changed is stale and fails here (bin/test-e2e.sh makes the zip afresh first).
		const php = [
			'cairn-maps.php',
			'uninstall.php',
			...execFileSync( 'git', [ 'ls-files', 'plugin' ], {
				cwd: ROOT,
				encoding: 'utf8',
			} ).split( '\n' ),
		].filter(
			( file ) =>
				file.endsWith( '.php' ) &&
				fs.existsSync( path.join( ROOT, file ) )
		);
		expect( php.length ).toBeGreaterThan( 10 );
		expect( php.filter( ( file ) => ! files.includes( file ) ) ).toEqual(
			[]
		);
		const unpacked = fs.mkdtempSync(
			path.join( os.tmpdir(), 'cairn-zip-' )
		);
		try {
			execFileSync( 'unzip', [ '-q', CURRENT_ZIP, '-d', unpacked ] );
			const differing = php.filter(
				( file ) =>
					! fs
						.readFileSync(
							path.join( unpacked, 'cairn-maps', file )
						)
						.equals( fs.readFileSync( path.join( ROOT, file ) ) )
			);
			expect(
				differing,
				'PHP files that differ from the checkout'
			).toEqual( [] );
		} finally {
			fs.rmSync( unpacked, { recursive: true, force: true } );
		}
		if ( fs.existsSync( path.join( ROOT, 'languages' ) ) ) {
			expect(
				files.filter( ( file ) => file.startsWith( 'languages/' ) )
			).not.toEqual( [] );
		}
		checkZip( PREVIOUS_ZIP );
	} );

	test.describe( 'on clean sites', () => {
		test.beforeAll( () => {
			// Both start at once (each is its own server), each test waits for its own.
			// Each on a free port of its own.
			installSite = releaseSites().then( async ( { startReleaseSite } ) =>
				startOnFreePort( ( port ) => startReleaseSite( { port } ) )
			);
			upgradeSite = releaseSites().then( async ( { startReleaseSite } ) =>
				startOnFreePort( ( port ) => startReleaseSite( { port } ) )
			);
			// A failed start is reported by the test that waits for it.
			installSite.catch( () => {} );
			upgradeSite.catch( () => {} );
		} );

		test.afterAll( async () => {
			for ( const site of [ installSite, upgradeSite ] ) {
				const started = await site?.catch( () => null );
				await started?.stop();
			}
		} );

		test( 'installs through Upload Plugin and draws a map for visitors', async ( {
			browser,
		}, testInfo ) => {
			test.setTimeout( 300_000 );
			const site = await installSite!;
			const { context, page } = await siteContext( browser, site );
			await logIn( page );

			await uploadZip( page, CURRENT_ZIP );
			await expect( page.locator( '.wrap' ) ).toContainText(
				'Plugin installed successfully.'
			);
			await page.getByRole( 'link', { name: 'Activate Plugin' } ).click();
			await expect( page ).toHaveURL( /plugins\.php/ );
			const row = await pluginRow( page );
			await expect( row ).toHaveClass( /\bactive\b/ );
			await expect( row ).toContainText( `Version ${ CURRENT_VERSION }` );

			// Settings → Cairn Maps: the token.
			// The Settings menu's flyout opens on hover (this page is not a Settings screen).
			await page.locator( '#menu-settings' ).hover();
			await page
				.locator( '#menu-settings' )
				.getByRole( 'link', { name: 'Cairn Maps' } )
				.click();
			await expect( page ).toHaveURL( new RegExp( 'page=cairn-maps' ) );
			await page
				.getByLabel( 'Mapbox access token' )
				.fill( FAKE_PUBLIC_TOKEN );
			await page.getByRole( 'button', { name: 'Save changes' } ).click();
			await expect(
				page.locator( '.cairn-maps-settings__notice' )
			).toContainText( 'Settings saved.' );

			// A Cairn Map block in a new page, published from the block editor.
			const pageUtils = new PageUtils( {
				page,
				browserName: 'chromium',
			} );
			const editor = new Editor( { page } );
			const admin = new Admin( { page, pageUtils, editor } );
			await admin.createNewPost( {
				postType: 'page',
				title: 'Release map',
			} );
			await dismissWelcomeGuide( page );
			await editor.insertBlock( { name: 'cairn/map' } );
			await expect(
				editor.canvas.locator( '.wp-block-cairn-map__preview' )
			).toHaveAttribute( 'data-cairn-state', 'ready', {
				timeout: 90_000,
			} );
			await publishPost( editor, page );
			const link = await page.evaluate( () =>
				(
					window as unknown as {
						wp: {
							data: {
								select: ( store: string ) => {
									getPermalink: () => string;
								};
							};
						};
					}
				 ).wp.data
					.select( 'core/editor' )
					.getPermalink()
			);
			await context.close();

			const visitor = await visit( browser, site, link );
			await visitor.page
				.locator( '.wp-block-cairn-map' )
				.first()
				.screenshot( {
					path: testInfo.outputPath( 'visitor-after-install.png' ),
				} );
			expect( visitor.errors.map( ( error ) => error.message ) ).toEqual(
				[]
			);
			await visitor.done();
		} );

		test( 'upgrades over the previous release with every marker, group, setting and map intact, and an older zip over newer data changes nothing', async ( {
			browser,
		}, testInfo ) => {
			test.setTimeout( 540_000 );
			const site = await upgradeSite!;
			const { context, page } = await siteContext( browser, site );
			await logIn( page );

			// The previous release, installed the same way.
			await uploadZip( page, PREVIOUS_ZIP );
			await expect( page.locator( '.wrap' ) ).toContainText(
				'Plugin installed successfully.'
			);
			await page.getByRole( 'link', { name: 'Activate Plugin' } ).click();
			const oldRow = await pluginRow( page );
			await expect( oldRow ).toHaveClass( /\bactive\b/ );
			await expect( oldRow ).toContainText(
				`Version ${ PREVIOUS_VERSION }`
			);

			// What a site built with it holds: settings, a group with colour and icon, markers, maps.
			const rest = await restAs( site );
			const settings = {
				cairn_maps_access_token: FAKE_PUBLIC_TOKEN,
				cairn_maps_defaults: {
					mapStyle: 'mapbox://styles/mapbox/outdoors-v12',
					language: 'de',
					controls: {
						zoom: true,
						compass: false,
						scale: true,
						fullscreen: false,
						geolocate: true,
					},
				},
				cairn_maps_require_consent: true,
				cairn_maps_delete_data_on_uninstall: true,
				cairn_maps_allowed_origins: [ 'https://headless.example.com' ],
			};
			await rest.rest( {
				method: 'POST',
				path: '/wp/v2/settings',
				data: settings,
			} );
			// What the settings read as afterwards: since 0.7.0 the default style of new maps is the
			// site's basemap (cairn_maps_basemap); the defaults keep block.json's style.
			const kept = {
				...settings,
				cairn_maps_defaults: {
					...settings.cairn_maps_defaults,
					mapStyle: 'mapbox://styles/mapbox/standard',
				},
				cairn_maps_basemap: settings.cairn_maps_defaults.mapStyle,
			};
			const iconFile = path.join(
				fs.mkdtempSync( path.join( os.tmpdir(), 'cairn-release-' ) ),
				'summit-icon.png'
			);
			fs.writeFileSync( iconFile, solidPng( 64, '#1565c0' ) );
			const icon = (
				( await rest.uploadMedia( iconFile ) ) as { id: number }
			 ).id;
			const group = ( await rest.rest( {
				method: 'POST',
				path: '/wp/v2/cairn-marker-groups',
				data: {
					name: 'Summits',
					slug: 'summits',
					meta: { cairn_color: '#c2185b', cairn_icon: icon },
				},
			} ) ) as { id: number };
			// Three close together (a cluster at the map's zoom), three apart.
			const places = [
				{
					title: 'Arthur’s Seat',
					lng: -3.1615,
					lat: 55.9441,
					summit: true,
				},
				{
					title: 'Calton Hill',
					lng: -3.1826,
					lat: 55.9555,
					summit: true,
				},
				{
					title: 'Blackford Hill',
					lng: -3.1962,
					lat: 55.9233,
					summit: true,
				},
				{ title: 'Glasgow Cathedral', lng: -4.2342, lat: 55.8628 },
				{ title: 'Inverness Castle', lng: -4.2259, lat: 57.4765 },
				{ title: 'Aberdeen Harbour', lng: -2.0726, lat: 57.1437 },
			];
			const markerIds = await seedMarkers(
				rest,
				places.map( ( place ) => ( {
					title: place.title,
					lng: place.lng,
					lat: place.lat,
					groups: place.summit ? [ group.id ] : [],
				} ) )
			);
			const view = { center: { lng: -3.4, lat: 56.6 }, zoom: 5.6 };
			const mapsPage = await createPublishedPage(
				rest,
				'Upgrade maps',
				[
					mapBlock( {
						...view,
						markers: { source: 'all', groups: [], ids: [] },
						cluster: { enabled: true, radius: 80 },
					} ),
					mapBlock( {
						...view,
						markers: {
							source: 'groups',
							groups: [ 'summits' ],
							ids: [],
						},
						cluster: { enabled: false, radius: 80 },
					} ),
				].join( '\n\n' )
			);

			/** Everything the upgrade must keep, read the same way before and after. */
			const snapshot = async () => {
				const feed = ( await rest.rest( {
					path: '/cairn/v1/markers',
				} ) ) as {
					features: Array< {
						id?: number;
						properties: { id?: number };
						geometry: { coordinates: [ number, number ] };
					} >;
				};
				const markers = ( await rest.rest( {
					path: '/wp/v2/cairn-markers',
					params: { per_page: 100, context: 'edit' },
				} ) ) as Array< {
					id: number;
					title: { raw: string };
					status: string;
					meta: { cairn_lat: number; cairn_lng: number };
					'cairn-marker-groups': number[];
				} >;
				const groupNow = ( await rest.rest( {
					path: `/wp/v2/cairn-marker-groups/${ group.id }`,
					params: { context: 'edit' },
				} ) ) as {
					name: string;
					slug: string;
					count: number;
					meta: { cairn_color: string; cairn_icon: number };
				};
				const pageNow = ( await rest.rest( {
					path: `/wp/v2/pages/${ mapsPage.id }`,
					params: { context: 'edit' },
				} ) ) as { status: string; content: { raw: string } };
				return {
					feed: feed.features
						.map( ( feature ) => ( {
							id: feature.id ?? feature.properties.id,
							coordinates: feature.geometry.coordinates,
						} ) )
						.sort( ( a, b ) => Number( a.id ) - Number( b.id ) ),
					markers: markers
						.map( ( marker ) => ( {
							id: marker.id,
							title: marker.title.raw,
							status: marker.status,
							lat: marker.meta.cairn_lat,
							lng: marker.meta.cairn_lng,
							groups: marker[ 'cairn-marker-groups' ],
						} ) )
						.sort( ( a, b ) => a.id - b.id ),
					group: {
						name: groupNow.name,
						slug: groupNow.slug,
						count: groupNow.count,
						meta: groupNow.meta,
					},
					page: {
						status: pageNow.status,
						content: pageNow.content.raw,
					},
				};
			};
			const before = await snapshot();
			expect( before.feed ).toHaveLength( places.length );
			expect( before.markers.map( ( marker ) => marker.id ) ).toEqual(
				[ ...markerIds ].sort( ( a, b ) => a - b )
			);
			expect( before.group.meta ).toEqual( {
				cairn_color: '#c2185b',
				cairn_icon: icon,
			} );

			// The current release over it: same screen, "Replace current with uploaded".
			await replaceWith(
				page,
				CURRENT_ZIP,
				'Plugin updated successfully.'
			);
			const newRow = await pluginRow( page );
			await expect( newRow ).toHaveClass( /\bactive\b/ );
			await expect( newRow ).toContainText(
				`Version ${ CURRENT_VERSION }`
			);
			// No upgrade failure told to the owner.
			await expect(
				page.locator( '[data-cairn-upgrade-notice="error"]' )
			).toHaveCount( 0 );

			// The stored data version: the "All Settings" screen (options.php) lists every option.
			await page.goto( '/wp-admin/options.php' );
			await expect(
				page.locator( 'input#cairn_maps_version' )
			).toHaveValue( CURRENT_VERSION );

			// Every marker, the group's looks, every setting, the page: unchanged. The group gains
			// this version's line looks (routes and areas) at their defaults, nothing else.
			const upgraded = {
				...before,
				group: {
					...before.group,
					meta: {
						...before.group.meta,
						cairn_line_color: '',
						cairn_line_width: 3,
						cairn_fill_opacity: 0.25,
					},
				},
			};
			const after = await snapshot();
			expect( after ).toEqual( upgraded );
			const settingsNow = await rest.rest( { path: '/wp/v2/settings' } );
			expect( settingsNow ).toMatchObject( kept );
			const media = ( await rest.rest( {
				path: `/wp/v2/media/${ icon }`,
			} ) ) as { mime_type: string };
			expect( media.mime_type ).toBe( 'image/png' );
			// The settings screen shows the kept token.
			await page.goto( SETTINGS_URL );
			await expect(
				page.getByLabel( 'Mapbox access token' )
			).toHaveValue( FAKE_PUBLIC_TOKEN );
			await context.close();

			/** A visitor on the page of maps: both ready, drawing every marker and every summit. */
			const visitMaps = async () => {
				const link = (
					( await rest.rest( {
						path: `/wp/v2/pages/${ mapsPage.id }`,
					} ) ) as { link: string }
				 ).link;
				const visited = await visit( browser, site, link );
				await expect
					.poll( () => drawnMarkers( visited.page, 0 ) )
					.toBe( places.length );
				await expect
					.poll( () => drawnMarkers( visited.page, 1 ) )
					.toBe( places.filter( ( place ) => place.summit ).length );
				return visited;
			};

			// The visitor's maps: ready, every marker drawn, the group with its colour and icon.
			const visitor = await visitMaps();
			await visitor.page.screenshot( {
				path: testInfo.outputPath( 'visitor-after-upgrade.png' ),
				fullPage: true,
			} );
			const config = JSON.parse(
				( await visitor.page
					.locator( '.wp-block-cairn-map' )
					.nth( 1 )
					.getAttribute( 'data-cairn-config' ) ) ?? '{}'
			) as {
				groupStyles?: Array< {
					slug: string;
					color: string;
					icon: string;
				} >;
			};
			expect(
				config.groupStyles?.find(
					( style ) => style.slug === 'summits'
				)
			).toMatchObject( {
				color: '#c2185b',
				icon: expect.stringMatching( /\.png$/ ),
			} );
			for ( const place of places ) {
				await expect(
					visitor.page.locator( '.wp-block-cairn-map' ).first()
				).toContainText( place.title );
			}
			expect( visitor.errors.map( ( error ) => error.message ) ).toEqual(
				[]
			);
			await visitor.done();

			// Bad input: an older zip over newer data. The next release (this code labelled
			// NEXT_VERSION) brings the data to it; then the current zip goes back over it.
			const next = path.join(
				fs.mkdtempSync( path.join( os.tmpdir(), 'cairn-next-' ) ),
				'cairn-maps.zip'
			);
			execFileSync(
				process.execPath,
				[
					path.join( ROOT, 'bin', 'plugin-zip.mjs' ),
					'--no-build',
					`--as-version=${ NEXT_VERSION }`,
					`--out=${ next }`,
				],
				{ cwd: ROOT }
			);
			const owner = await siteContext( browser, site );
			await logIn( owner.page );
			await replaceWith(
				owner.page,
				next,
				'Plugin updated successfully.'
			);
			await owner.page.goto( '/wp-admin/options.php' );
			await expect(
				owner.page.locator( 'input#cairn_maps_version' )
			).toHaveValue( NEXT_VERSION );

			await replaceWith(
				owner.page,
				CURRENT_ZIP,
				'Plugin downgraded successfully.'
			);
			const downgradedRow = await pluginRow( owner.page );
			await expect( downgradedRow ).toHaveClass( /\bactive\b/ );
			await expect( downgradedRow ).toContainText(
				`Version ${ CURRENT_VERSION }`
			);
			// The owner is told what happened and what to do, on every admin screen…
			await expect(
				owner.page.locator( '[data-cairn-upgrade-notice="warning"]' )
			).toContainText(
				`last updated by version ${ NEXT_VERSION }, which is newer than the installed version ${ CURRENT_VERSION }. Nothing was changed`
			);
			// …and in Tools → Site Health, among the recommended improvements.
			await owner.page.goto( '/wp-admin/site-health.php' );
			await expect(
				owner.page.locator( '#health-check-site-status-recommended' )
			).toContainText(
				'Cairn Maps’ map data is newer than the installed plugin',
				{ timeout: 60_000 }
			);
			await owner.page
				.locator( '#health-check-issues-recommended' )
				.screenshot( {
					path: testInfo.outputPath( 'site-health-newer-data.png' ),
				} );
			// Nothing was touched: the data version, every marker, the group, the page, settings.
			await owner.page.goto( '/wp-admin/options.php' );
			await expect(
				owner.page.locator( 'input#cairn_maps_version' )
			).toHaveValue( NEXT_VERSION );
			await owner.context.close();
			expect( await snapshot() ).toEqual( upgraded );
			expect(
				await rest.rest( { path: '/wp/v2/settings' } )
			).toMatchObject( kept );
			// The visitor's maps still draw every marker.
			const later = await visitMaps();
			await later.page.screenshot( {
				path: testInfo.outputPath( 'visitor-after-downgrade.png' ),
				fullPage: true,
			} );
			expect( later.errors.map( ( error ) => error.message ) ).toEqual(
				[]
			);
			await later.done();
			await rest.request.dispose();
		} );
	} );
} );

/**
 * bin/plugin-zip.mjs, loaded as the ES module it is (like release-site.mjs above).
 */
const pluginZip = () => import( '../../bin/plugin-zip.mjs' );

/** Unpacks a zip into a fresh folder; returns the plugin folder inside it and its files. */
function unpack( zip: string ): { folder: string; files: string[] } {
	const into = fs.mkdtempSync( path.join( os.tmpdir(), 'cairn-zip-' ) );
	execFileSync( 'unzip', [ '-q', zip, '-d', into ] );
	const files = zipEntries( zip )
		.filter( ( entry ) => ! entry.endsWith( '/' ) )
		.map( ( entry ) => entry.slice( 'cairn-maps/'.length ) );
	return { folder: path.join( into, 'cairn-maps' ), files };
}

test.describe( 'release zip and mapbox-gl’s licence', () => {
	const MAPBOX_GL_DIST = path.join(
		ROOT,
		'node_modules',
		'mapbox-gl',
		'dist'
	);

	test( 'the zip holds no mapbox-gl code, by name or by content', async () => {
		const { mapboxGlFiles } = await pluginZip();
		const current = unpack( CURRENT_ZIP );
		// No file of the bundled library any more (0.1.0 shipped build/cairn-mapbox.js)…
		expect(
			current.files.filter( ( file ) =>
				/mapbox[^/]*\.(js|css)$/i.test( file )
			)
		).toEqual( [] );
		// …and nothing of its code under another name: every file of the zip is read.
		expect( mapboxGlFiles( current.folder, current.files ) ).toEqual( [] );
		// The version and the integrity hashes the plugin loads it with are there instead.
		const library = JSON.parse(
			fs.readFileSync(
				path.join( current.folder, 'build', 'mapbox-gl.json' ),
				'utf8'
			)
		);
		expect( library.version ).toBe(
			JSON.parse(
				fs.readFileSync(
					path.join(
						ROOT,
						'node_modules',
						'mapbox-gl',
						'package.json'
					),
					'utf8'
				)
			).version
		);
		expect( library.js ).toMatch( /^sha384-[A-Za-z0-9+/]{64}$/ );
		// The same check finds the library in the release that bundled it.
		const previous = unpack( PREVIOUS_ZIP );
		expect( mapboxGlFiles( previous.folder, previous.files ) ).toEqual(
			expect.arrayContaining( [
				'build/cairn-mapbox.js',
				'build/264.css',
			] )
		);
	} );

	test( 'the zip credits the third-party code it bundles, each under a GPL-compatible licence', async () => {
		await pluginZip();
		const current = unpack( CURRENT_ZIP );
		expect( current.files ).toContain( 'build/third-party-licenses.txt' );
		const text = fs.readFileSync(
			path.join( current.folder, 'build', 'third-party-licenses.txt' ),
			'utf8'
		);
		// One block per package (webpack.config.js): `Package: name@version`, `License: id`, the text.
		const entries = text
			.split( /^(?=Package: )/m )
			.filter( ( block ) => block.startsWith( 'Package: ' ) )
			.map( ( block ) => {
				const [ , name, licence, notice ] =
					/^Package: (.+)@[^@\n]+\nLicense: (.*)\n([\s\S]*)$/.exec(
						block
					) ?? [];
				return [ name, licence, notice ];
			} );
		const names = entries.map( ( [ name ] ) => name );
		// The runtime's clustering and the editor's drawing tool are bundled: their notices ship.
		expect( names ).toEqual(
			expect.arrayContaining( [
				'supercluster',
				'kdbush',
				'@mapbox/mapbox-gl-draw',
			] )
		);
		for ( const [ name, licence, notice ] of entries ) {
			expect( [ name, licence ] ).toEqual( [
				name,
				expect.stringMatching(
					/^(MIT|ISC|BSD-2-Clause|BSD-3-Clause|Apache-2\.0|0BSD)$/
				),
			] );
			expect( [ name, notice ] ).toEqual( [
				name,
				expect.stringMatching( /Copyright/i ),
			] );
		}
	} );

	test( 'the zip holds maplibre-gl (its chunk, its worker and its stylesheet) with its licence, and still no mapbox-gl', async () => {
		const { mapboxGlFiles } = await pluginZip();
		const current = unpack( CURRENT_ZIP );
		const MAPLIBRE_DIST = path.join(
			ROOT,
			'node_modules',
			'maplibre-gl',
			'dist'
		);
		const maplibreVersion = JSON.parse(
			fs.readFileSync(
				path.join( MAPLIBRE_DIST, '..', 'package.json' ),
				'utf8'
			)
		).version as string;
		// Its own lazily loaded chunk, the worker the site serves and its stylesheet.
		for ( const file of [
			'build/cairn-map-maplibre.js',
			'build/maplibre-gl-worker.js',
			'build/maplibre-gl.css',
		] ) {
			expect( current.files ).toContain( file );
			expect(
				fs.statSync( path.join( current.folder, file ) ).size
			).toBeGreaterThan( 1000 );
		}
		// The chunk is maplibre-gl's code, not a stand-in: the library names itself in it.
		const chunk = fs.readFileSync(
			path.join( current.folder, 'build', 'cairn-map-maplibre.js' ),
			'utf8'
		);
		expect( chunk ).toContain( maplibreVersion );
		expect( chunk ).toMatch( /maplibre/i );
		// Its licence (BSD-3-Clause) is in the credits, with its copyright notice.
		const text = fs.readFileSync(
			path.join( current.folder, 'build', 'third-party-licenses.txt' ),
			'utf8'
		);
		const block =
			text
				.split( /^(?=Package: )/m )
				.find( ( entry ) =>
					entry.startsWith(
						`Package: maplibre-gl@${ maplibreVersion }\n`
					)
				) ?? '';
		expect( block ).toMatch( /^License: BSD-3-Clause$/m );
		expect( block ).toMatch( /Copyright/i );
		expect( block ).toMatch( /MapLibre/ );
		// The self-hosted basemap's glyphs (both DejaVu fontstacks, every range) and their licence:
		// a pmtiles:// map on a site installed from the zip reads its labels from them.
		for ( const stack of [ 'DejaVuSans-Book', 'DejaVuSans-Bold' ] ) {
			expect(
				current.files.filter( ( file ) =>
					file.startsWith( `assets/basemap/glyphs/${ stack }/` )
				)
			).toHaveLength( 256 );
			expect( current.files ).toContain(
				`assets/basemap/glyphs/${ stack }/0-255.pbf`
			);
		}
		expect( current.files ).toContain(
			'assets/basemap/glyphs/LICENSE-DejaVu.txt'
		);
		// …and bundling it brought no mapbox-gl code along.
		expect( mapboxGlFiles( current.folder, current.files ) ).toEqual( [] );
		expect(
			current.files.filter( ( file ) =>
				/mapbox-gl[^/]*\.(js|mjs|css)$/i.test( file )
			)
		).toEqual( [] );
	} );

	test( 'plugin-zip refuses to package mapbox-gl code, whatever its file is called', () => {
		const source = fs.mkdtempSync( path.join( os.tmpdir(), 'cairn-src-' ) );
		for ( const file of [
			'cairn-maps.php',
			'build/blocks/map/block.json',
			'build/limits.json',
		] ) {
			fs.mkdirSync( path.dirname( path.join( source, file ) ), {
				recursive: true,
			} );
			fs.copyFileSync(
				path.join( ROOT, file ),
				path.join( source, file )
			);
		}
		const out = path.join( source, 'out.zip' );
		const zip = () =>
			spawnSync(
				process.execPath,
				[
					path.join( ROOT, 'bin', 'plugin-zip.mjs' ),
					`--source=${ source }`,
					`--out=${ out }`,
					'--no-build',
				],
				{ encoding: 'utf8' }
			);
		// Without the library the zip is made…
		expect( zip().status ).toBe( 0 );
		fs.rmSync( out );
		// …with its script or its stylesheet under innocent names, it is not.
		const disguised: Array< [ string, string ] > = [
			[ 'build/vendor.js', 'mapbox-gl.js' ],
			[ 'build/map.css', 'mapbox-gl.css' ],
		];
		for ( const [ name, file ] of disguised ) {
			fs.copyFileSync(
				path.join( MAPBOX_GL_DIST, file ),
				path.join( source, name )
			);
			const refused = zip();
			expect( refused.status ).toBe( 1 );
			expect( refused.stderr ).toContain( 'mapbox-gl code' );
			expect( refused.stderr ).toContain( name );
			expect( fs.existsSync( out ) ).toBe( false );
			fs.rmSync( path.join( source, name ) );
		}
	} );
} );
