/**
 * Builds @cairn-maps/map from the runtime's sources (the same files the plugin bundles):
 * ESM entries `dist/index.js` and `dist/react.js` (with shared chunks), `dist/style.css`, and
 * type declarations in `dist/types/`. mapbox-gl, React and @wordpress/i18n stay imports, so an app
 * has one copy of each. Prints what an app downloads for the `.` entry (minified, gzip, with
 * every dependency but mapbox-gl).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

import * as esbuild from 'esbuild';
import * as sass from 'sass';

const here = path.dirname( fileURLToPath( import.meta.url ) );
const dist = path.join( here, 'dist' );
const external = [
	'mapbox-gl',
	'react',
	'react-dom',
	'react/jsx-runtime',
	'@wordpress/i18n',
];

// The places worker's source, which the entries below include as a string.
await import( './build-worker.mjs' );

fs.rmSync( dist, { recursive: true, force: true } );

await esbuild.build( {
	absWorkingDir: here,
	entryPoints: { index: 'src/index.ts', react: 'src/react.tsx' },
	outdir: 'dist',
	bundle: true,
	splitting: true,
	format: 'esm',
	platform: 'neutral',
	target: 'es2020',
	jsx: 'automatic',
	external,
	chunkNames: 'chunks/[name]-[hash]',
	sourcemap: true,
	legalComments: 'none',
	logLevel: 'warning',
} );

// Hooks only run on the client: frameworks with server components need the directive on the
// React entry (bundlers strip it from sources, so it is added to the output).
const reactEntry = path.join( dist, 'react.js' );
fs.writeFileSync(
	reactEntry,
	"'use client';\n" + fs.readFileSync( reactEntry, 'utf8' )
);

const css = sass.compile( path.join( here, 'src', 'style.scss' ), {
	style: 'expanded',
} );
fs.writeFileSync( path.join( dist, 'style.css' ), css.css + '\n' );

execFileSync(
	process.execPath,
	[
		path.join( here, '../../node_modules/typescript/bin/tsc' ),
		'-p',
		path.join( here, 'tsconfig.build.json' ),
	],
	{ stdio: 'inherit' }
);

// What an app's bundler ships for `import { … } from '@cairn-maps/map'` before mapbox-gl loads.
const measured = await esbuild.build( {
	absWorkingDir: here,
	entryPoints: [ 'src/index.ts' ],
	bundle: true,
	minify: true,
	format: 'esm',
	platform: 'browser',
	external: [ 'mapbox-gl' ],
	write: false,
	logLevel: 'silent',
} );
const bytes = measured.outputFiles[ 0 ].contents;
const gzip = zlib.gzipSync( bytes, { level: 9 } ).length;
const sizes = { minified: bytes.length, gzip };
fs.writeFileSync(
	path.join( dist, 'size.json' ),
	JSON.stringify( sizes, null, '\t' ) + '\n'
);
console.log(
	`@cairn-maps/map built: "." entry ${ ( sizes.minified / 1024 ).toFixed(
		1
	) } kB minified, ${ ( sizes.gzip / 1024 ).toFixed(
		1
	) } kB gzip (without mapbox-gl)`
);
