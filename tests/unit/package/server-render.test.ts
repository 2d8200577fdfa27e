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
		if ( ! fs.existsSync( path.join( PACKAGE, 'dist/react.js' ) ) ) {
			execFileSync(
				process.execPath,
				[ path.join( PACKAGE, 'build.mjs' ) ],
				{
					stdio: 'ignore',
				}
			);
		}
		const script = `
			const entry = await import( '@cairn-maps/map' );
			const { CairnMap } = await import( '@cairn-maps/map/react' );
			const { createElement } = await import( 'react' );
			const { renderToString } = await import( 'react-dom/server' );
			const html = renderToString( createElement( CairnMap, { config: { height: '600px' }, className: 'cafe' }, createElement( 'p', null, 'Places below' ) ) );
			console.log( JSON.stringify( { html, window: typeof window, exports: Object.keys( entry ).sort() } ) );
		`;
		const out = execFileSync(
			process.execPath,
			[ '--input-type=module', '-e', script ],
			{ cwd: ROOT, encoding: 'utf8' }
		);
		const result = JSON.parse( out.trim().split( '\n' ).pop() ?? '{}' );
		expect( result.window ).toBe( 'undefined' );
		markupChecks( result.html );
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
				'dist/index.js',
				'dist/react.js',
				'dist/style.css',
				'dist/types/index.d.ts',
				'dist/types/react.d.ts',
			] )
		);
		const stray = files.filter(
			( file ) =>
				! /^dist\/(?:[\w.-]+|chunks\/[\w.-]+|types\/(?:places\/)?[\w.-]+\.d\.ts)$/.test(
					file
				) && ! [ 'package.json', 'README.md' ].includes( file )
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

	it( 'keeps the "." entry within 15 kB gzip without mapbox-gl', () => {
		const size = JSON.parse(
			fs.readFileSync( path.join( PACKAGE, 'dist/size.json' ), 'utf8' )
		);
		expect( size.gzip ).toBeLessThanOrEqual( 15 * 1024 );
	} );
} );
