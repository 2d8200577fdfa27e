#!/usr/bin/env node
/**
 * `npm run plugin-zip`: the release zip a site owner uploads (Plugins → Add New → Upload Plugin).
 *
 * cairn-maps.zip at the repository root holds one folder, `cairn-maps/`, with exactly what a site
 * runs: the main file, uninstall.php, readme.txt, plugin/ (PHP), build/ (the built assets with
 * build/limits.json; no source maps), assets/ (the self-hosted basemap's glyphs and their DejaVu
 * licence, bin/build-glyphs.mjs, and the demo world archive assets/basemap/world.pmtiles, which
 * bin/build-basemap.mjs builds into .cache/basemap: WordPress.org's Live Preview uploads it to the
 * media library, .wordpress-org/blueprints/blueprint.json) and languages/ when it exists. Sources, the npm package,
 * tests, tools, Composer and npm manifests stay out (PLUGIN_PATHS below is the whole list).
 *
 * No mapbox-gl code, whatever its file is called: its licence (the Mapbox terms) does not allow
 * redistributing it in the plugin, which loads it from Mapbox's distribution instead
 * (src/blocks/map/load-mapbox-gl.ts). Every file is read and the zip is refused when one carries
 * mapbox-gl's licence banner or its stylesheet probe (MAPBOX_GL_SIGNATURES).
 *
 * The build runs first when build/ is older than its sources, under .cache/build.lock (the lock
 * every build in this working tree takes), and the files are zipped under the same lock so a build
 * running elsewhere never leaves half its files in the zip.
 *
 * Options:
 *   --source=DIR   package another checkout (bin/build-previous-release.sh; default: this one)
 *   --out=FILE     where the zip goes (default: cairn-maps.zip at the root of this repository)
 *   --no-build     never build, only package what build/ holds
 *   --as-version=X the same code labelled as release X (plugin header and CAIRN_MAPS_VERSION in
 *                  the zipped main file only): the "newer release" the release test downgrades from
 *
 * The zip library is adm-zip, the one `wp-scripts plugin-zip` uses, resolved from the
 * `@wordpress/scripts` package so no other dependency is needed. (wp-scripts plugin-zip itself reads
 * package.json "files" through npm-packlist, which always adds package.json, so it is not used.)
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = path.resolve(
	path.dirname( fileURLToPath( import.meta.url ) ),
	'..'
);
export const SLUG = 'cairn-maps';
export const DEFAULT_ZIP = path.join( ROOT, `${ SLUG }.zip` );

/** What a site needs: files at the plugin's root, and folders taken whole (minus EXCLUDED). */
export const PLUGIN_PATHS = {
	files: [ `${ SLUG }.php`, 'uninstall.php', 'readme.txt', 'LICENSE' ],
	folders: [ 'plugin', 'build', 'assets', 'languages' ],
};

/** Where the world archive goes in the zip (the Live Preview's blueprint reads it there). */
export const WORLD_ARCHIVE = 'assets/basemap/world.pmtiles';

/** Never shipped, wherever they sit: source maps and dotfiles (.DS_Store, .gitkeep, editor files). */
const EXCLUDED = [ /\.map$/, /(^|\/)\.[^/]*$/ ];

/**
 * Paths that must never be in the zip (relative to its `cairn-maps/` folder). The plugin-zip test
 * and this script's own check use it.
 */
export const FORBIDDEN = [
	/^(src|packages|tests|bench|bin|examples|docs|node_modules|vendor|artifacts)\//,
	/^composer\.(json|lock)$/,
	/^package(-lock)?\.json$/,
	/^(tsconfig\.json|webpack\.config\.js|jest\.config\.js|playwright\.config\.ts|eslint\.config\.cjs|phpcs\.xml\.dist|phpunit\.xml\.dist)$/,
	/(^|\/)\.[^/]+$/,
	/\.map$/,
	/\.tsx?$/,
];

/**
 * What only mapbox-gl's own code contains: the licence banner of its builds, and the class of the
 * element it probes its stylesheet with (in both mapbox-gl.js, minified or not, and mapbox-gl.css).
 * The plugin's own files never name either.
 */
export const MAPBOX_GL_SIGNATURES = [
	/Mapbox GL JS is Copyright/,
	/mapboxgl-canary/,
];

/**
 * The files of a list that hold mapbox-gl code.
 *
 * @param {string}   source The checkout.
 * @param {string[]} files  Paths relative to it.
 * @return {string[]} Those holding a signature.
 */
export function mapboxGlFiles( source, files ) {
	return files.filter( ( file ) => {
		const text = fs.readFileSync( path.join( source, file ), 'latin1' );
		return MAPBOX_GL_SIGNATURES.some( ( signature ) =>
			signature.test( text )
		);
	} );
}

/**
 * The plugin's files under a checkout, relative and sorted.
 *
 * @param {string} source The checkout.
 * @return {string[]} Paths with `/` separators.
 */
export function pluginFiles( source ) {
	const files = PLUGIN_PATHS.files.filter( ( file ) =>
		fs.existsSync( path.join( source, file ) )
	);
	const walk = ( relative ) => {
		for ( const entry of fs.readdirSync( path.join( source, relative ), {
			withFileTypes: true,
		} ) ) {
			const child = `${ relative }/${ entry.name }`;
			if ( EXCLUDED.some( ( pattern ) => pattern.test( child ) ) ) {
				continue;
			}
			if ( entry.isDirectory() ) {
				walk( child );
			} else if ( entry.isFile() ) {
				files.push( child );
			}
		}
	};
	for ( const folder of PLUGIN_PATHS.folders ) {
		if ( fs.existsSync( path.join( source, folder ) ) ) {
			walk( folder );
		}
	}
	return files.sort();
}

/**
 * The paths of a file list that break the zip rules.
 *
 * @param {string[]} files Paths relative to the plugin folder.
 * @return {string[]} The forbidden ones.
 */
export function forbiddenPaths( files ) {
	return files.filter( ( file ) =>
		FORBIDDEN.some( ( pattern ) => pattern.test( file ) )
	);
}

/**
 * Writes the zip of a checkout's plugin files (no build).
 *
 * @param {Object} options           Options.
 * @param {string} options.source    The checkout (default: this repository).
 * @param {string} options.out       The zip to write.
 * @param {string} [options.version] Label the zipped main file as this version (tests only).
 * @param {Object} [options.extras]  Built files that live outside the checkout's plugin folders:
 *                                   { path in the zip: file on disk }.
 * @return {{ file: string, size: number, count: number, files: string[] }} What was written.
 */
export function writePluginZip( {
	source = ROOT,
	out = DEFAULT_ZIP,
	version = '',
	extras = {},
} = {} ) {
	const disk = new Map( Object.entries( extras ) );
	const files = [
		...new Set( [ ...pluginFiles( source ), ...disk.keys() ] ),
	].sort();
	for ( const required of [
		`${ SLUG }.php`,
		'build/blocks/map/block.json',
		'build/limits.json',
	] ) {
		if ( ! files.includes( required ) ) {
			throw new Error(
				`${ required } is missing in ${ source }: build the plugin first.`
			);
		}
	}
	const bad = forbiddenPaths( files );
	if ( bad.length ) {
		throw new Error( `forbidden paths in the zip: ${ bad.join( ', ' ) }` );
	}
	const proprietary = mapboxGlFiles(
		source,
		files.filter( ( file ) => ! disk.has( file ) )
	);
	if ( proprietary.length ) {
		throw new Error(
			`mapbox-gl code (Mapbox terms, not redistributable) in ${ proprietary.join(
				', '
			) }: the plugin must load it from Mapbox's distribution, never ship it.`
		);
	}
	const requireFromScripts = createRequire(
		createRequire( import.meta.url ).resolve(
			'@wordpress/scripts/package.json'
		)
	);
	const AdmZip = requireFromScripts( 'adm-zip' );
	const zip = new AdmZip();
	for ( const file of files ) {
		const full = disk.get( file ) ?? path.join( source, file );
		// adm-zip's default mode: a regular file, rw-r--r--, whatever the checkout's modes.
		zip.addFile(
			`${ SLUG }/${ file }`,
			version && file === `${ SLUG }.php`
				? relabel( fs.readFileSync( full, 'utf8' ), version )
				: fs.readFileSync( full )
		);
		zip.getEntry( `${ SLUG }/${ file }` ).header.time =
			fs.statSync( full ).mtime;
	}
	fs.mkdirSync( path.dirname( out ), { recursive: true } );
	const temporary = `${ out }.tmp-${ process.pid }`;
	zip.writeZip( temporary );
	fs.renameSync( temporary, out );
	return {
		file: out,
		size: fs.statSync( out ).size,
		count: files.length,
		files,
	};
}

/**
 * The main file's text with its version (plugin header and constant) set to another release.
 *
 * @param {string} text    The main file.
 * @param {string} version The release, e.g. 0.3.0.
 * @return {Buffer} The relabelled file.
 */
function relabel( text, version ) {
	if ( ! /^\d+\.\d+\.\d+$/.test( version ) ) {
		throw new Error( `--as-version needs x.y.z, got "${ version }"` );
	}
	const header = /^(\s*\*\s*Version:\s*)\S+/m;
	const constant = /(define\(\s*'CAIRN_MAPS_VERSION',\s*')[^']+(')/;
	if ( ! header.test( text ) || ! constant.test( text ) ) {
		throw new Error( 'the main file has no Version header or constant' );
	}
	return Buffer.from(
		text
			.replace( header, `$1${ version }` )
			.replace( constant, `$1${ version }$2` )
	);
}

/**
 * Newest modification time (ms) of any file under the given paths; 0 when none exists.
 *
 * @param {string[]} paths Files or folders.
 * @return {number} Milliseconds since the epoch.
 */
function newestMtime( paths ) {
	let newest = 0;
	for ( const item of paths ) {
		let stat;
		try {
			stat = fs.statSync( item );
		} catch {
			continue;
		}
		if ( stat.isDirectory() ) {
			newest = Math.max(
				newest,
				newestMtime(
					fs
						.readdirSync( item )
						.filter( ( name ) => name !== 'node_modules' )
						.map( ( name ) => path.join( item, name ) )
				)
			);
		} else {
			newest = Math.max( newest, stat.mtimeMs );
		}
	}
	return newest;
}

/**
 * Whether build/ is missing or older than what it is built from.
 *
 * @param {string} source The checkout.
 * @return {boolean} True when `npm run build` should run.
 */
export function buildIsStale( source = ROOT ) {
	const built = path.join( source, 'build' );
	if (
		! fs.existsSync( path.join( built, 'blocks', 'map', 'block.json' ) ) ||
		! fs.existsSync( path.join( built, 'limits.json' ) )
	) {
		return true;
	}
	const inputs = [
		'src',
		'packages/map/src',
		'packages/map/build-worker.mjs',
		'package.json',
		'package-lock.json',
		'webpack.config.js',
	].map( ( item ) => path.join( source, item ) );
	return newestMtime( inputs ) > newestMtime( [ built ] );
}

function formatSize( bytes ) {
	return bytes >= 1024 * 1024
		? `${ ( bytes / 1024 / 1024 ).toFixed( 2 ) } MB`
		: `${ ( bytes / 1024 ).toFixed( 1 ) } kB`;
}

async function main() {
	const options = { source: ROOT, out: DEFAULT_ZIP, build: true };
	for ( const arg of process.argv.slice( 2 ) ) {
		if ( arg.startsWith( '--source=' ) ) {
			options.source = path.resolve( arg.slice( 9 ) );
		} else if ( arg.startsWith( '--out=' ) ) {
			options.out = path.resolve( arg.slice( 6 ) );
		} else if ( arg === '--no-build' ) {
			options.build = false;
		} else if ( arg.startsWith( '--as-version=' ) ) {
			options.version = arg.slice( 13 );
		} else {
			process.stderr.write(
				`[plugin-zip] unknown option ${ arg } (known: --source=DIR, --out=FILE, --no-build, --as-version=X.Y.Z)\n`
			);
			process.exit( 2 );
		}
	}

	// Build and zip under the build lock (re-run under flock unless it is held already).
	if ( ! process.env.CAIRN_BUILD_LOCK_HELD ) {
		fs.mkdirSync( path.join( ROOT, '.cache' ), { recursive: true } );
		const locked = spawnSync(
			'flock',
			[
				'-w',
				'1800',
				path.join( ROOT, '.cache', 'build.lock' ),
				process.execPath,
				...process.argv.slice( 1 ),
			],
			{
				stdio: 'inherit',
				env: { ...process.env, CAIRN_BUILD_LOCK_HELD: '1' },
			}
		);
		process.exit( locked.status ?? 1 );
	}

	if ( options.build && buildIsStale( options.source ) ) {
		process.stderr.write(
			'[plugin-zip] build/ is older than its sources: npm run build\n'
		);
		const build = spawnSync( 'npm', [ 'run', 'build' ], {
			cwd: options.source,
			stdio: 'inherit',
		} );
		if ( build.status !== 0 ) {
			process.stderr.write( '[plugin-zip] ERROR: the build failed.\n' );
			process.exit( 1 );
		}
	}
	// The world archive: this checkout's own build of it (bin/build-basemap.mjs, ~50 ms when
	// current). Another checkout (--source, a previous release) is packaged as it was.
	const extras = {};
	if ( options.source === ROOT ) {
		const { buildBasemap, ARCHIVE } = await import(
			pathToFileURL( path.join( ROOT, 'bin', 'build-basemap.mjs' ) ).href
		);
		await buildBasemap( {
			log: ( message ) =>
				process.stderr.write( `[plugin-zip] ${ message }\n` ),
		} );
		extras[ WORLD_ARCHIVE ] = ARCHIVE;
	}
	const result = writePluginZip( { ...options, extras } );
	process.stdout.write(
		`${ path.relative( process.cwd(), result.file ) || result.file }: ${ formatSize(
			result.size
		) } (${ result.size } bytes), ${ result.count } files in ${ SLUG }/\n`
	);
}

if ( import.meta.url === pathToFileURL( process.argv[ 1 ] ).href ) {
	main().catch( ( error ) => {
		process.stderr.write( `[plugin-zip] ERROR: ${ error.message }\n` );
		process.exit( 1 );
	} );
}
