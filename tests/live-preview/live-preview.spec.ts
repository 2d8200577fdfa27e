/**
 * WordPress.org's Live Preview (.wordpress-org/blueprints/blueprint.json), booted offline in the
 * Playground CLI from the committed file, with the plugin installed from the release zip instead
 * of the plugin directory (bin/live-preview.mjs). What a visitor who presses "Live Preview" gets:
 * the demo page, its places without JavaScript, and a map that draws on the world archive the
 * zip ships, with no request beyond the Playground.
 *
 * Run: `npm run test:live-preview` (its own Playwright config, its own site; no wp-env).
 */
import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import type { Map as MaplibreMap } from 'maplibre-gl';

import type { Blueprint } from '../../bin/blueprint.mjs';
import type { LivePreview } from '../../bin/live-preview.mjs';
import markers from '../../bin/demo-markers.json';
import shapes from '../../bin/demo-shapes.json';

declare global {
	interface Window {
		livePreviewMap?: MaplibreMap;
	}
}

/** Playground logs a new browser in; this cookie says it already did: a visitor's request. */
const VISITOR = { Cookie: 'playground_auto_login_already_happened=1' };

const DEMO_TITLES = new Set( [
	...markers.markers.map( ( marker ) => marker.title ),
	...shapes.shapes.map( ( shape ) => shape.title ),
] );

// ES modules of bin/, loaded as such (like release.spec.ts does).
const blueprintModule = () => import( '../../bin/blueprint.mjs' );

let site: LivePreview | undefined;

test.beforeAll( async () => {
	test.setTimeout( 300_000 );
	const { startLivePreview } = await import( '../../bin/live-preview.mjs' );
	site = await startLivePreview();
} );

test.afterAll( async () => {
	await site?.stop();
} );

/** The site, once started. */
function live(): LivePreview {
	if ( ! site ) {
		throw new Error( 'the Live Preview did not start' );
	}
	return site;
}

test( 'the published blueprint installs the plugin from the directory and is what bin/blueprint.mjs makes', async () => {
	const { BLUEPRINT_FILE, LANDING_PAGE, blueprintText } =
		await blueprintModule();
	const text = fs.readFileSync( BLUEPRINT_FILE, 'utf8' );
	expect(
		text,
		'.wordpress-org/blueprints/blueprint.json is current (node bin/blueprint.mjs)'
	).toBe( blueprintText() );
	const blueprint = JSON.parse( text ) as Blueprint;
	expect( blueprint.landingPage ).toBe( LANDING_PAGE );
	expect( blueprint.steps[ 0 ] ).toEqual( {
		step: 'installPlugin',
		pluginData: { resource: 'wordpress.org/plugins', slug: 'cairn-maps' },
		options: { activate: true },
	} );
	// Nothing else leaves the Playground: no step reads a URL.
	expect( text ).not.toMatch( /"resource":\s*"url"/ );
} );

test( 'a visitor without JavaScript finds the demo places on the landing page', async () => {
	const response = await fetch( live().landingUrl, { headers: VISITOR } );
	expect( response.status ).toBe( 200 );
	const html = await response.text();
	expect( html ).toContain( 'Cairn Maps demo' );

	// Each entry: the place's name, then the way there in OpenStreetMap (the default app).
	const entries = [
		...html.matchAll(
			/<li data-cairn-marker-id="\d+"[^>]*>([^<]+?) <a class="cairn-map-directions[^"]*" href="([^"]+)"[^>]*>Directions<\/a><\/li>/g
		),
	];
	const titles = entries.map( ( match ) =>
		match[ 1 ]!.replace( /&#0?39;|&#8217;/g, "'" )
	);
	// The first page of the list (50 a page), every entry a demo place; the count names them all.
	expect( titles ).toHaveLength( 50 );
	expect(
		entries.filter(
			( match ) =>
				! match[ 2 ]!.startsWith(
					'https://www.openstreetmap.org/directions?'
				)
		)
	).toEqual( [] );
	expect( titles.filter( ( title ) => ! DEMO_TITLES.has( title ) ) ).toEqual(
		[]
	);
	expect( html ).toMatch(
		new RegExp( `>${ DEMO_TITLES.size } places on this map<` )
	);

	// The map draws on the world archive in the media library, through the plugin's range route.
	const config = JSON.parse(
		( /data-cairn-config="([^"]+)"/.exec( html )?.[ 1 ] ?? '{}' ).replace(
			/&quot;/g,
			'"'
		)
	) as { engine?: string; style?: string; accessToken?: string };
	expect( config.engine ).toBe( 'maplibre' );
	expect( config.accessToken ).toBe( '' );
	const archive = /^pmtiles:\/\/(.+)$/.exec( config.style ?? '' )?.[ 1 ];
	expect( archive ).toContain( `${ live().url }/` );
	const range = await fetch( archive!, {
		headers: { ...VISITOR, Range: 'bytes=0-6' },
	} );
	expect( range.status ).toBe( 206 );
	expect(
		Buffer.from( await range.arrayBuffer() ).toString( 'latin1' )
	).toBe( 'PMTiles' );
} );

test( 'the demo map draws its places on the world archive, asking nothing of any other host', async ( {
	page,
	context,
} ) => {
	const hosts = new Set< string >();
	context.on( 'request', ( request ) => {
		const url = new URL( request.url() );
		if ( url.protocol.startsWith( 'http' ) ) {
			hosts.add( url.host );
		}
	} );
	const errors: Error[] = [];
	page.on( 'pageerror', ( error ) => errors.push( error ) );
	// Every answer the page got, the archive's ranges and the label glyphs among them.
	const failed: string[] = [];
	const glyphs: string[] = [];
	page.on( 'response', ( response ) => {
		if ( response.status() >= 400 ) {
			failed.push( `${ response.status() } ${ response.url() }` );
		}
		if (
			/\/assets\/basemap\/glyphs\/[^/]+\/\d+-\d+\.pbf$/.test(
				response.url()
			)
		) {
			glyphs.push( response.url() );
		}
	} );
	await page.addInitScript( () => {
		document.addEventListener( 'cairn:map-ready', ( event ) => {
			window.livePreviewMap ??= ( event as CustomEvent ).detail.map;
		} );
	} );

	await page.goto( live().landingUrl );
	const map = page.locator( '.wp-block-cairn-map' ).first();
	await map.scrollIntoViewIfNeeded();
	await expect( map ).toHaveAttribute( 'data-cairn-state', 'ready', {
		timeout: 90_000,
	} );
	await expect( map.locator( '[role="alert"]' ) ).toHaveCount( 0 );

	// Once drawn: the basemap's land from the archive, and the demo places (clusters or markers).
	const drawn = await page.evaluate(
		() =>
			new Promise< string[] >( ( resolve ) => {
				const instance = window.livePreviewMap!;
				const read = () => {
					const layers = new Set(
						instance
							.queryRenderedFeatures()
							.map(
								( feature ) =>
									feature.sourceLayer || feature.source
							)
					);
					resolve( [ ...layers ].sort() );
				};
				if ( instance.loaded() && ! instance.isMoving() ) {
					read();
				} else {
					instance.once( 'idle', read );
				}
			} )
	);
	expect( drawn ).toEqual(
		expect.arrayContaining( [ 'earth', 'cairn-markers' ] )
	);
	// The Live Preview logs its visitor in, so core's admin bar shows the admin's Gravatar; the
	// map and the plugin ask nothing of anyone but the site.
	hosts.delete( 'secure.gravatar.com' );
	expect( [ ...hosts ] ).toEqual( [ new URL( live().url ).host ] );
	expect( errors ).toEqual( [] );
	expect( failed ).toEqual( [] );
	// The country labels are drawn with the plugin's own glyphs.
	expect( glyphs.length ).toBeGreaterThan( 0 );
} );
