/**
 * @jest-environment node
 */
/**
 * The package during server-side rendering (Next.js, Astro): importing it and rendering
 * `<CairnMap>` in Node must work without `window`, and give the wrapper the browser then starts.
 * Checked on the sources and on the built package an app installs (ESM, through its `exports`).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { createElement } from 'react';
import { renderToString } from 'react-dom/server';

const ROOT = path.resolve( __dirname, '../../..' );
const PACKAGE = path.join( ROOT, 'packages/map' );

function markupChecks( html: string ) {
	expect( html ).toMatch( /^<div class="wp-block-cairn-map cafe"/ );
	expect( html ).toContain( 'data-cairn-state="loading"' );
	expect( html ).toContain( '--cairn-map-height:600px' );
	expect( html ).toContain(
		'<div class="wp-block-cairn-map__map" role="region" aria-label="Interactive map"></div>'
	);
	expect( html ).toContain( '<p>Places below</p>' );
	// A height that is not a CSS length never reaches the style attribute.
	expect( html ).not.toContain( 'expression' );
}

describe( 'server-side rendering', () => {
	it( 'renders <CairnMap> from the sources in Node, without window', async () => {
		expect( typeof window ).toBe( 'undefined' );
		const { CairnMap } = await import( '../../../packages/map/src/react' );
		await import( '../../../packages/map/src/index' );
		const html = renderToString(
			createElement(
				CairnMap,
				{
					config: { height: '600px', zoom: 3 },
					className: 'cafe',
				},
				createElement( 'p', null, 'Places below' )
			)
		);
		markupChecks( html );
		const hostile = renderToString(
			createElement( CairnMap, {
				config: { height: 'expression(alert(1))' },
			} )
		);
		expect( hostile ).not.toContain( 'style=' );
	} );

	it( 'renders <CairnMap> from the built package, as an app imports it', () => {
		// Built afresh: a package left from an earlier build would test old code.
		execFileSync( process.execPath, [ path.join( PACKAGE, 'build.mjs' ) ], {
			stdio: 'ignore',
		} );
		const script = `
			const entry = await import( '@cairn-maps/map' );
			const { CairnMap } = await import( '@cairn-maps/map/react' );
			const { createElement } = await import( 'react' );
			const { renderToString } = await import( 'react-dom/server' );
			const html = renderToString( createElement( CairnMap, { config: { height: '600px' }, className: 'cafe' }, createElement( 'p', null, 'Places below' ) ) );
			const listed = renderToString( createElement( CairnMap, { config: {}, places: ${ JSON.stringify( PLACES ) } } ) );
			console.log( JSON.stringify( { html, listed, window: typeof window, exports: Object.keys( entry ).sort() } ) );
		`;
		const out = execFileSync(
			process.execPath,
			[ '--input-type=module', '-e', script ],
			{ cwd: ROOT, encoding: 'utf8' }
		);
		const result = JSON.parse( out.trim().split( '\n' ).pop() ?? '{}' );
		expect( result.window ).toBe( 'undefined' );
		markupChecks( result.html );
		expect( entries( result.listed ) ).toHaveLength( 2 );
		expect( result.exports ).toEqual(
			expect.arrayContaining( [
				'createMap',
				'hydrate',
				'fetchPostMaps',
				'PostMapsError',
				'parseMapConfig',
			] )
		);
	} );
} );

/** A map as the route gives it: a hostile title, more places than one page holds. */
const PLACES = {
	items: [
		{ id: 7, title: 'Hut & bar', lng: 7.25, lat: 46.5 },
		{ id: 9, title: '<img src=x onerror=alert(1)>"', lng: -0.1, lat: 51.5 },
	],
	total: 120,
	page: 1,
	perPage: 50,
};

/** The list entries of server-rendered HTML, as a visitor without JavaScript gets them. */
function entries( html: string ): Array< [ string, string ] > {
	return [
		...html.matchAll(
			/<li data-cairn-marker-id="(\d+)"[^>]*>([^<]*)<\/li>/g
		),
	].map( ( match ) => [ match[ 1 ] ?? '', match[ 2 ] ?? '' ] );
}

describe( 'what <CairnMap> renders on the server, as the theme does without JavaScript', () => {
	it( 'the places list with its count, titles escaped', async () => {
		const { CairnMap } = await import( '../../../packages/map/src/react' );
		const html = renderToString(
			createElement( CairnMap, {
				config: { height: '400px' },
				places: PLACES,
			} )
		);
		expect( entries( html ) ).toEqual( [
			[ '7', 'Hut &amp; bar' ],
			[ '9', '&lt;img src=x onerror=alert(1)&gt;&quot;' ],
		] );
		expect( html ).not.toContain( '<img' );
		expect( html ).toContain( '120 places on this map' );
		expect( html ).toContain( 'Places 1–2 of 120' );
		expect( html ).toMatch(
			/<div [^>]*class="wp-block-cairn-map__places" role="region" aria-label="Places"/
		);
		expect( html ).toContain( 'class="wp-block-cairn-map__skip"' );
		expect( html ).toContain( 'data-cairn-state="loading"' );
	} );

	it( 'each entry’s Directions link to the map’s app, as Blocks\\Directions_Link writes it', async () => {
		const { CairnMap } = await import( '../../../packages/map/src/react' );
		const html = renderToString(
			createElement( CairnMap, {
				config: { directions: 'google' },
				places: PLACES,
			} )
		);
		const links = [
			...html.matchAll(
				/<li data-cairn-marker-id="(\d+)"[^>]*>[^<]*<!-- --> <a class="cairn-map-directions wp-block-cairn-map__directions" href="([^"]*)" aria-label="([^"]*)" target="_blank" rel="noopener noreferrer">Directions<\/a><\/li>/g
			),
		].map( ( match ) => match.slice( 1 ) );
		expect( links ).toEqual( [
			[
				'7',
				'https://www.google.com/maps/dir/?api=1&amp;destination=46.5,7.25',
				'Directions to Hut &amp; bar (opens in a new tab)',
			],
			[
				'9',
				'https://www.google.com/maps/dir/?api=1&amp;destination=51.5,-0.1',
				'Directions to &lt;img src=x onerror=alert(1)&gt;&quot; (opens in a new tab)',
			],
		] );
		expect( html ).not.toContain( '<img' );
		// `geo:` opens the phone's app, in no tab; `site` or anything else is no link.
		const geo = renderToString(
			createElement( CairnMap, {
				config: { directions: 'geo' },
				places: PLACES,
			} )
		);
		expect( geo ).toContain(
			'href="geo:46.5,7.25" aria-label="Directions to Hut &amp; bar">Directions</a>'
		);
		for ( const directions of [ 'site', 'none', 'javascript:alert(1)' ] ) {
			expect(
				renderToString(
					createElement( CairnMap, {
						config: { directions },
						places: PLACES,
					} )
				)
			).not.toContain( 'Directions' );
		}
	} );

	it( 'the consent placeholder when the site asks for consent, and the error the server found', async () => {
		const { CairnMap } = await import( '../../../packages/map/src/react' );
		const gated = renderToString(
			createElement( CairnMap, {
				config: { consent: { required: true, category: 'marketing' } },
				places: PLACES,
			} )
		);
		expect( gated ).toContain( 'data-cairn-consent="required"' );
		expect( gated ).toContain( 'data-cairn-consent-category="marketing"' );
		expect( gated ).toMatch(
			/<div class="wp-block-cairn-map__consent"><p class="wp-block-cairn-map__consent-note">Loading this map connects your browser to Mapbox[^<]*“Marketing”[^<]*<\/p><button type="button" class="wp-block-cairn-map__consent-button wp-element-button">Load map<\/button><\/div>/
		);
		expect( entries( gated ) ).toHaveLength( 2 );

		const failed = renderToString(
			createElement( CairnMap, {
				config: { consent: { required: true, category: '' } },
				places: { items: [], total: 0, page: 1, perPage: 50 },
				error: 'missing-token',
			} )
		);
		expect( failed ).toContain( 'data-cairn-state="error"' );
		expect( failed ).toMatch(
			/<div class="wp-block-cairn-map__error" role="alert" data-cairn-error="missing-token">This map cannot be shown yet: a public Mapbox access token must be provided/
		);
		// An error takes the place of the gate, as in the theme.
		expect( failed ).not.toContain( 'wp-block-cairn-map__consent' );
		expect( failed ).toContain( '0 places on this map' );
	} );
} );

describe( 'what npm pack publishes', () => {
	it( 'holds the built entries, their types and CSS, and nothing else', () => {
		if ( ! fs.existsSync( path.join( PACKAGE, 'dist/index.js' ) ) ) {
			execFileSync(
				process.execPath,
				[ path.join( PACKAGE, 'build.mjs' ) ],
				{
					stdio: 'ignore',
				}
			);
		}
		const out = execFileSync(
			'npm',
			[ 'pack', '--dry-run', '--json', '--ignore-scripts' ],
			{
				cwd: PACKAGE,
				encoding: 'utf8',
				stdio: [ 'ignore', 'pipe', 'ignore' ],
			}
		);
		const files: string[] = JSON.parse( out )[ 0 ].files.map(
			( file: { path: string } ) => file.path
		);
		expect( files ).toEqual(
			expect.arrayContaining( [
				'package.json',
				'README.md',
				'CHANGELOG.md',
				'dist/index.js',
				'dist/react.js',
				'dist/style.css',
				'dist/types/index.d.ts',
				'dist/types/react.d.ts',
			] )
		);
		const stray = files.filter(
			( file ) =>
				! /^dist\/(?:[\w.-]+|chunks\/[\w.-]+|types\/(?:places\/|shapes\/|engine\/)?[\w.-]+\.d\.ts)$/.test(
					file
				) &&
				! [ 'package.json', 'README.md', 'CHANGELOG.md' ].includes(
					file
				)
		);
		expect( stray ).toEqual( [] );
		expect( files ).not.toContain( 'dist/size.json' );
		// Every export the manifest names is in the package.
		const manifest = JSON.parse(
			fs.readFileSync( path.join( PACKAGE, 'package.json' ), 'utf8' )
		);
		for ( const target of Object.values<
			string | Record< string, string >
		>( manifest.exports ).flatMap( ( entry ) =>
			typeof entry === 'string' ? [ entry ] : Object.values( entry )
		) ) {
			expect( files ).toContain( target.replace( /^\.\//, '' ) );
		}
	} );

	it( 'keeps the "." entry within 15.5 kB gzip without mapbox-gl', () => {
		const size = JSON.parse(
			fs.readFileSync( path.join( PACKAGE, 'dist/size.json' ), 'utf8' )
		);
		// 15 kB until tiled maps (issue 22): their addresses and the early start of the first
		// view's tiles (≈ 0.2 kB) live in the entry; the tile code itself is in the places chunk.
		expect( size.gzip ).toBeLessThanOrEqual( 15.5 * 1024 );
	} );
} );
