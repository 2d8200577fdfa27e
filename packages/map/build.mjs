/**
 * Builds @cairn-maps/map from the runtime's sources (the same files the plugin bundles):
 * ESM entries `dist/index.js` and `dist/react.js` (with shared chunks), `dist/style.css`, and
 * type declarations in `dist/types/`. mapbox-gl, maplibre-gl, pmtiles, @protomaps/basemaps, React
 * and @wordpress/i18n stay imports, so an app
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
	// Optional peers: an app with MapLibre maps brings them (self-hosted basemaps: all three).
	'maplibre-gl',
	'pmtiles',
	'@protomaps/basemaps',
	'react',
	'react-dom',
	'react/jsx-runtime',
	'@wordpress/i18n',
];

// The sources' limits.json and map-schema.json without their top-level `$comment`: a note for the files'
// readers (and PHP's), which no script reads (webpack.config.js does the same for the plugin).
const jsonWithoutComment = {
	name: 'json-without-comment',
	setup( build ) {
		build.onLoad( { filter: /\.json$/ }, ( args ) => {
			if (
				! args.path.startsWith( path.join( here, 'src' ) + path.sep )
			) {
				return undefined;
			}
			const value = JSON.parse( fs.readFileSync( args.path, 'utf8' ) );
			if (
				value &&
				typeof value === 'object' &&
				! Array.isArray( value )
			) {
				delete value.$comment;
			}
			return { contents: JSON.stringify( value ), loader: 'json' };
		} );
	},
};

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
	plugins: [ jsonWithoutComment ],
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

// The package is ESM ("type": "module"), so under `moduleResolution` `node16`/`nodenext` its
// declarations are ES modules too, whose relative imports must name their file as Node would
// load it (`./start.js`); the sources leave extensions to the bundler. Each relative specifier
// of the emitted declarations gets the file it stands for.
const typesDir = path.join( dist, 'types' );
const withExtension = ( from, specifier ) => {
	const target = path.resolve( path.dirname( from ), specifier );
	if ( fs.existsSync( target + '.d.ts' ) ) {
		return specifier + '.js';
	}
	if ( fs.existsSync( path.join( target, 'index.d.ts' ) ) ) {
		return specifier + '/index.js';
	}
	return specifier;
};
for ( const name of fs.readdirSync( typesDir, { recursive: true } ) ) {
	const file = path.join( typesDir, String( name ) );
	if ( ! file.endsWith( '.d.ts' ) ) {
		continue;
	}
	const text = fs.readFileSync( file, 'utf8' );
	const fixed = text.replace(
		/(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(["'])(\.\.?\/[^"']+)\2/g,
		( whole, before, quote, specifier ) =>
			`${ before }${ quote }${ withExtension( file, specifier ) }${ quote }`
	);
	if ( fixed !== text ) {
		fs.writeFileSync( file, fixed );
	}
}

// What an app's bundler ships for `import { … } from '@cairn-maps/map'` before a map starts: the
// entry and what it imports statically. mapbox-gl and the places chunk (worker, controller) load
// when the first map starts; the places chunk is measured on its own.
const measured = await esbuild.build( {
	absWorkingDir: here,
	entryPoints: { index: 'src/index.ts' },
	bundle: true,
	splitting: true,
	minify: true,
	format: 'esm',
	platform: 'browser',
	// The map libraries (and the self-hosted basemap's pmtiles and style builder) are the app's.
	external: [ 'mapbox-gl', 'maplibre-gl', 'pmtiles', '@protomaps/basemaps' ],
	outdir: 'measure',
	write: false,
	logLevel: 'silent',
	plugins: [ jsonWithoutComment ],
} );
const outputs = new Map(
	measured.outputFiles.map( ( file ) => [
		path.basename( file.path ),
		file.contents,
	] )
);
const staticClosure = ( name, seen = new Set() ) => {
	if ( seen.has( name ) || ! outputs.has( name ) ) {
		return seen;
	}
	seen.add( name );
	const text = Buffer.from( outputs.get( name ) ).toString( 'utf8' );
	for ( const match of text.matchAll(
		/(?:^|[;}])\s*import\s*(?:[^"'()]*?from\s*)?["']\.\/([\w.-]+)["']/g
	) ) {
		staticClosure( match[ 1 ], seen );
	}
	return seen;
};
const entryFiles = staticClosure( 'index.js' );
const bytes = Buffer.concat(
	[ ...entryFiles ].map( ( name ) => Buffer.from( outputs.get( name ) ) )
);
const gzip = zlib.gzipSync( bytes, { level: 9 } ).length;
// The shapes chunk (routes and areas) loads only for a map that has some: measured apart, without
// what it shares with the places chunk (the markers layer's helpers), which every map with
// points has loaded already.
const closureOf = ( prefix ) =>
	new Set(
		[ ...outputs.keys() ]
			.filter( ( name ) => name.startsWith( prefix ) )
			.flatMap( ( name ) => [ ...staticClosure( name ) ] )
	);
const placesFiles = closureOf( 'setup-' );
const shapesFiles = new Set(
	[ ...closureOf( 'load-shapes-' ) ].filter(
		( name ) =>
			! entryFiles.has( name ) &&
			( name.startsWith( 'load-shapes-' ) || ! placesFiles.has( name ) )
	)
);
const lazyOf = ( keep ) =>
	Buffer.concat(
		[ ...outputs.keys() ]
			.filter(
				( name ) =>
					! entryFiles.has( name ) &&
					name.endsWith( '.js' ) &&
					keep( name )
			)
			.map( ( name ) => Buffer.from( outputs.get( name ) ) )
	);
const sizes = {
	minified: bytes.length,
	gzip,
	placesChunkGzip: zlib.gzipSync(
		lazyOf( ( name ) => ! name.startsWith( 'load-shapes-' ) ),
		{ level: 9 }
	).length,
	shapesChunkGzip: zlib.gzipSync(
		lazyOf( ( name ) => shapesFiles.has( name ) ),
		{ level: 9 }
	).length,
};
fs.writeFileSync(
	path.join( dist, 'size.json' ),
	JSON.stringify( sizes, null, '\t' ) + '\n'
);
console.log(
	`@cairn-maps/map built: "." entry ${ ( sizes.minified / 1024 ).toFixed(
		1
	) } kB minified, ${ ( sizes.gzip / 1024 ).toFixed(
		1
	) } kB gzip (without mapbox-gl); places chunk ${ (
		sizes.placesChunkGzip / 1024
	).toFixed( 1 ) } kB gzip, loaded when a map starts; shapes chunk ${ (
		sizes.shapesChunkGzip / 1024
	).toFixed( 1 ) } kB gzip, only for maps with routes or areas`
);
