#!/usr/bin/env node
/**
 * Self-hosted basemap benchmark (issue 31, `npm run bench:basemap`): does the world archive
 * answer a tile's range request as fast as a static file of the same size, on the same server?
 * Target: ≤ 1.2× at p50 and p95.
 *
 * One nginx + php-fpm (pm static, OPcache) on 127.0.0.1, configured as bench/api/run.sh does,
 * serving a document root in .cache/bench-basemap/ with:
 *   wp-content/uploads/bench/world.pmtiles   the demo archive (bin/build-basemap.mjs)
 *   static/<n>.bin                           one file per measured tile, of exactly that tile's size
 *   cairn-byte-range.php                     bin/site-root's range script (PHP without WordPress:
 *                                            what the Playground demo site uses)
 * The tiles are TILES real tiles of the archive (z3–z6, taken evenly from its directory), so the
 * ranges and the files have the sizes a map asks for.
 *
 * Per round, in turn (so that load drift hits every variant alike), each variant fetches one tile:
 *   static        GET /static/<n>.bin                       (the baseline)
 *   range         GET /wp-content/uploads/…pmtiles + Range   (nginx; how a real site serves the archive)
 *   range-php     GET /cairn-byte-range.php?file=… + Range   (php-fpm, no WordPress)
 *   route         GET <BENCH_ROUTE_URL> + Range              (only when given: the plugin's route
 *                                                            /cairn/v1/basemaps/<id> on a WordPress site)
 * over one keep-alive connection per variant. The load average is printed at the start and the end.
 *
 * `node bench/basemap-range.mjs --with-wordpress` (`npm run bench:basemap:wp`) first starts bench/api/run.sh's
 * WordPress (nginx + php-fpm, 4 children, MariaDB, the plugin; BENCH_ONLY=tiles with 1,000 places
 * and nothing measured there), puts the archive in its media library (bench/basemap-attachment.php)
 * and adds the `route` variant: the plugin's /cairn/v1/basemaps/<id>, which boots WordPress for
 * every range (the fallback for servers that answer no ranges; not in the target).
 *
 * Environment: BENCH_REQUESTS=3000 (per variant), BENCH_WARMUP=200, BENCH_TILES=60,
 *   BENCH_WORKERS=2 (php-fpm children), BENCH_HTTP_PORT=8950 (first port tried),
 *   BENCH_ROUTE_URL (optional, an archive URL answering ranges on another server: reported, not in the target),
 *   BENCH_NO_RESULTS=1 (write nothing under bench/results/).
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(
	path.dirname( fileURLToPath( import.meta.url ) ),
	'..'
);
const WORK = path.join( ROOT, '.cache', 'bench-basemap' );
const DOCROOT = path.join( WORK, 'www' );
const REQUESTS = Number( process.env.BENCH_REQUESTS || 3000 );
const WARMUP = Number( process.env.BENCH_WARMUP || 200 );
const TILES = Number( process.env.BENCH_TILES || 60 );
const WORKERS = Number( process.env.BENCH_WORKERS || 2 );
const TARGET = 1.2;

const log = ( message ) =>
	process.stderr.write( `[bench:basemap] ${ message }\n` );
const fail = ( message ) => {
	log( `ERROR: ${ message }` );
	process.exit( 1 );
};
const loadAverage = () =>
	os
		.loadavg()
		.map( ( n ) => n.toFixed( 2 ) )
		.join( ' ' );

function which( names ) {
	for ( const name of names ) {
		const found = spawnSync( 'sh', [ '-c', `command -v ${ name }` ], {
			encoding: 'utf8',
		} ).stdout.trim();
		if ( found ) {
			return found;
		}
		for ( const dir of [ '/usr/sbin', '/usr/local/sbin' ] ) {
			if ( fs.existsSync( path.join( dir, name ) ) ) {
				return path.join( dir, name );
			}
		}
	}
	return null;
}

function freePort( from ) {
	return new Promise( ( resolve, reject ) => {
		const tryPort = ( port ) => {
			if ( port > from + 100 ) {
				reject( new Error( `no free port from ${ from }` ) );
				return;
			}
			const server = net.createServer();
			server.once( 'error', () => tryPort( port + 1 ) );
			server.listen( port, '127.0.0.1', () =>
				server.close( () => resolve( port ) )
			);
		};
		tryPort( from );
	} );
}

/**
 * Real tiles of the archive: { offset, length } of TILES entries spread over z3–z6.
 *
 * @param {string} archive The archive file.
 * @return {Promise<Object[]>} The tiles.
 */
async function sampleTiles( archive ) {
	const { PMTiles } = await import( 'pmtiles' );
	const bytes = fs.readFileSync( archive );
	const source = {
		getKey: () => archive,
		getBytes: async ( offset, length ) => {
			const slice = bytes.subarray( offset, offset + length );
			return {
				data: slice.buffer.slice(
					slice.byteOffset,
					slice.byteOffset + slice.byteLength
				),
			};
		},
	};
	const reader = new PMTiles( source );
	const header = await reader.getHeader();
	const root = await reader.cache.getDirectory(
		source,
		header.rootDirectoryOffset,
		header.rootDirectoryLength,
		header
	);
	if ( root.some( ( e ) => e.runLength === 0 ) ) {
		fail(
			'the archive has leaf directories; this benchmark reads root entries only'
		);
	}
	// Tile ids of z3–z6: from (4^3 - 1) / 3 = 21 to (4^7 - 1) / 3 = 5461.
	const entries = root.filter( ( e ) => e.tileId >= 21 && e.tileId < 5461 );
	const seen = new Set();
	const tiles = [];
	for ( let i = 0; i < TILES; i++ ) {
		const entry = entries[ Math.floor( ( i * entries.length ) / TILES ) ];
		if ( seen.has( entry.offset ) ) {
			continue;
		}
		seen.add( entry.offset );
		tiles.push( {
			offset: header.tileDataOffset + entry.offset,
			length: entry.length,
		} );
	}
	return tiles;
}

function percentile( sorted, p ) {
	return sorted[
		Math.min( sorted.length - 1, Math.floor( ( p / 100 ) * sorted.length ) )
	];
}

/**
 * One keep-alive GET.
 *
 * @param {http.Agent|undefined} agent   Keep-alive agent.
 * @param {string}               url     Address.
 * @param {Object}               headers Request headers.
 * @return {Promise<number[]>} [status, body bytes, milliseconds].
 */
function get( agent, url, headers ) {
	return new Promise( ( resolve, reject ) => {
		const started = process.hrtime.bigint();
		const request = http.get( url, { agent, headers }, ( response ) => {
			let bytes = 0;
			response.on( 'data', ( chunk ) => ( bytes += chunk.length ) );
			response.on( 'end', () =>
				resolve( [
					response.statusCode,
					bytes,
					Number( process.hrtime.bigint() - started ) / 1e6,
				] )
			);
		} );
		request.on( 'error', reject );
		request.setTimeout( 30000, () =>
			request.destroy( new Error( 'timeout' ) )
		);
	} );
}

/** --with-wordpress: this benchmark again inside bench/api/run.sh, with the plugin's route. */
function withWordPress() {
	const then =
		'BENCH_ROUTE_URL="$(php bench/basemap-attachment.php .cache/basemap/world.pmtiles)" node bench/basemap-range.mjs';
	const run = spawnSync(
		'bash',
		[ path.join( ROOT, 'bench', 'api', 'run.sh' ) ],
		{
			cwd: ROOT,
			stdio: 'inherit',
			env: {
				...process.env,
				BENCH_ONLY: 'tiles',
				BENCH_SIZES: process.env.BENCH_SIZES || '1000',
				BENCH_MEASURE: '0',
				BENCH_TIMEOUT: process.env.BENCH_TIMEOUT || '1500',
				BENCH_THEN: then,
			},
		}
	);
	process.exit( run.status ?? 1 );
}

async function main() {
	if ( process.argv.includes( '--with-wordpress' ) ) {
		withWordPress();
		return;
	}
	const loadAtStart = loadAverage();
	log(
		`load average at start: ${ loadAtStart } (${ os.cpus().length } cores)`
	);
	const nginx = which( [ 'nginx' ] );
	const fpm = which( [
		'php-fpm',
		'php-fpm8.2',
		'php-fpm8.3',
		'php-fpm8.4',
	] );
	if ( ! nginx || ! fpm ) {
		fail(
			'needs nginx and php-fpm (Debian: apt-get install nginx php-fpm)'
		);
	}

	const { buildBasemap, ARCHIVE } = await import(
		pathToFileURL( path.join( ROOT, 'bin', 'build-basemap.mjs' ) ).href
	);
	await buildBasemap( { log } );

	fs.rmSync( WORK, { recursive: true, force: true } );
	const uploads = path.join( DOCROOT, 'wp-content', 'uploads', 'bench' );
	fs.mkdirSync( uploads, { recursive: true } );
	fs.mkdirSync( path.join( DOCROOT, 'static' ), { recursive: true } );
	fs.mkdirSync( path.join( WORK, 'nginx' ), { recursive: true } );
	fs.copyFileSync( ARCHIVE, path.join( uploads, 'world.pmtiles' ) );
	fs.copyFileSync(
		path.join( ROOT, 'bin', 'site-root', 'cairn-byte-range.php' ),
		path.join( DOCROOT, 'cairn-byte-range.php' )
	);
	const tiles = await sampleTiles( ARCHIVE );
	const archiveBytes = fs.readFileSync( ARCHIVE );
	tiles.forEach( ( tile, i ) =>
		fs.writeFileSync(
			path.join( DOCROOT, 'static', `${ i }.bin` ),
			archiveBytes.subarray( tile.offset, tile.offset + tile.length )
		)
	);
	const sizes = tiles.map( ( t ) => t.length ).sort( ( a, b ) => a - b );
	log(
		`${ tiles.length } tiles of the archive (z3-6): ${ sizes[ 0 ] }–${ sizes[ sizes.length - 1 ] } bytes, median ${ percentile( sizes, 50 ) }`
	);

	const port = await freePort(
		Number( process.env.BENCH_HTTP_PORT || 8950 )
	);
	const sock = path.join( WORK, 'php-fpm.sock' );
	const root = process.getuid?.() === 0;
	fs.writeFileSync(
		path.join( WORK, 'php-fpm.conf' ),
		[
			'[global]',
			`pid = ${ WORK }/php-fpm.pid`,
			`error_log = ${ WORK }/php-fpm.log`,
			'daemonize = no',
			'[bench]',
			root ? 'user = root\ngroup = root' : '',
			`listen = ${ sock }`,
			'pm = static',
			`pm.max_children = ${ WORKERS }`,
			'pm.max_requests = 0',
			'php_admin_flag[zlib.output_compression] = off',
			'',
		].join( '\n' )
	);
	fs.writeFileSync(
		path.join( WORK, 'nginx', 'nginx.conf' ),
		`# Generated by bench/basemap-range.mjs (as bench/api/run.sh configures nginx).
${ root ? 'user root;' : '' }
worker_processes 2;
daemon off;
pid ${ WORK }/nginx/nginx.pid;
error_log ${ WORK }/nginx/error.log warn;
events { worker_connections 256; }
http {
	access_log off;
	default_type application/octet-stream;
	types { application/vnd.pmtiles pmtiles; }
	client_body_temp_path ${ WORK }/nginx/client_body;
	proxy_temp_path ${ WORK }/nginx/proxy;
	fastcgi_temp_path ${ WORK }/nginx/fastcgi;
	uwsgi_temp_path ${ WORK }/nginx/uwsgi;
	scgi_temp_path ${ WORK }/nginx/scgi;
	sendfile on;
	keepalive_timeout 65;
	keepalive_requests 100000;
	gzip off;
	server {
		listen 127.0.0.1:${ port };
		server_name 127.0.0.1;
		root ${ DOCROOT };
		location ~ \\.php$ {
			try_files $uri =404;
			include /etc/nginx/fastcgi_params;
			fastcgi_param SCRIPT_FILENAME $document_root$fastcgi_script_name;
			fastcgi_pass unix:${ sock };
		}
	}
}
`
	);
	const children = [];
	const stop = () => {
		for ( const child of children ) {
			try {
				child.kill( 'SIGTERM' );
			} catch {
				// Gone.
			}
		}
	};
	process.on( 'exit', stop );
	process.on( 'SIGINT', () => process.exit( 130 ) );
	const fpmArgs = [
		'--nodaemonize',
		'--fpm-config',
		path.join( WORK, 'php-fpm.conf' ),
		...[
			'opcache.enable=1',
			'opcache.validate_timestamps=0',
			'opcache.jit=off',
		].flatMap( ( kv ) => [ '-d', kv ] ),
		...( root ? [ '--allow-to-run-as-root' ] : [] ),
	];
	children.push( spawn( fpm, fpmArgs, { stdio: 'ignore' } ) );
	for ( let i = 0; i < 200 && ! fs.existsSync( sock ); i++ ) {
		await new Promise( ( r ) => setTimeout( r, 100 ) );
	}
	if ( ! fs.existsSync( sock ) ) {
		fail( `php-fpm did not start (${ WORK }/php-fpm.log)` );
	}
	children.push(
		spawn(
			nginx,
			[
				'-p',
				path.join( WORK, 'nginx' ),
				'-e',
				path.join( WORK, 'nginx', 'error.log' ),
				'-c',
				path.join( WORK, 'nginx', 'nginx.conf' ),
			],
			{ stdio: 'ignore' }
		)
	);
	const base = `http://127.0.0.1:${ port }`;
	for ( let i = 0; i < 100; i++ ) {
		try {
			await get( undefined, `${ base }/static/0.bin`, {} );
			break;
		} catch {
			await new Promise( ( r ) => setTimeout( r, 100 ) );
		}
	}

	const rangeOf = ( tile ) => ( {
		Range: `bytes=${ tile.offset }-${ tile.offset + tile.length - 1 }`,
	} );
	const variants = [
		{
			name: 'static',
			url: ( i ) => `${ base }/static/${ i }.bin`,
			headers: () => ( {} ),
			status: 200,
		},
		{
			name: 'range',
			url: () => `${ base }/wp-content/uploads/bench/world.pmtiles`,
			headers: ( i ) => rangeOf( tiles[ i ] ),
			status: 206,
		},
		{
			name: 'range-php',
			url: () =>
				`${ base }/cairn-byte-range.php?file=bench/world.pmtiles`,
			headers: ( i ) => rangeOf( tiles[ i ] ),
			status: 206,
		},
	];
	if ( process.env.BENCH_ROUTE_URL ) {
		variants.push( {
			name: 'route',
			url: () => process.env.BENCH_ROUTE_URL,
			headers: ( i ) => rangeOf( tiles[ i ] ),
			status: 206,
		} );
	}
	for ( const v of variants ) {
		v.agent = new http.Agent( { keepAlive: true, maxSockets: 1 } );
		v.times = [];
	}
	// Check once that each variant answers what it should, byte for byte.
	for ( const v of variants ) {
		const [ status, bytes ] = await get(
			v.agent,
			v.url( 0 ),
			v.headers( 0 )
		);
		if ( status !== v.status || bytes !== tiles[ 0 ].length ) {
			fail(
				`${ v.name }: HTTP ${ status } with ${ bytes } bytes (expected ${ v.status } with ${ tiles[ 0 ].length })`
			);
		}
	}
	for ( let round = 0; round < WARMUP + REQUESTS; round++ ) {
		const i = round % tiles.length;
		for ( const v of variants ) {
			const [ status, bytes, ms ] = await get(
				v.agent,
				v.url( i ),
				v.headers( i )
			);
			if ( status !== v.status || bytes !== tiles[ i ].length ) {
				fail(
					`${ v.name }: HTTP ${ status } with ${ bytes } bytes for tile ${ i }`
				);
			}
			if ( round >= WARMUP ) {
				v.times.push( ms );
			}
		}
	}
	const loadAtEnd = loadAverage();
	const summary = {};
	for ( const v of variants ) {
		const sorted = [ ...v.times ].sort( ( a, b ) => a - b );
		summary[ v.name ] = {
			p50: percentile( sorted, 50 ),
			p95: percentile( sorted, 95 ),
			requests: sorted.length,
		};
	}
	const ratio = ( name, p ) => summary[ name ][ p ] / summary.static[ p ];
	const nginxVersion = spawnSync( nginx, [ '-v' ], { encoding: 'utf8' } )
		.stderr.trim()
		.replace( /^nginx version: /, '' );
	const fpmVersion = spawnSync( fpm, [ '-v' ], { encoding: 'utf8' } )
		.stdout.split( '\n' )[ 0 ]
		.split( ' ' )
		.slice( 0, 2 )
		.join( ' ' );
	const lines = [
		'',
		`Self-hosted basemap: a tile's range request vs a static file of the same size (${ nginxVersion } + ${ fpmVersion }, ${ WORKERS } children; ${ REQUESTS } requests per variant after ${ WARMUP } warm-up, ${ tiles.length } tiles ${ sizes[ 0 ] }–${ sizes[ sizes.length - 1 ] } B, keep-alive, one at a time)`,
		`load average: start ${ loadAtStart }, end ${ loadAtEnd } (${ os.cpus().length } cores)`,
		'',
		'variant      p50 ms   p95 ms   p50 ×static  p95 ×static',
	];
	for ( const v of variants ) {
		const s = summary[ v.name ];
		lines.push(
			`${ v.name.padEnd( 11 ) } ${ s.p50.toFixed( 3 ).padStart( 7 ) }  ${ s.p95.toFixed( 3 ).padStart( 7 ) }   ${ ratio( v.name, 'p50' ).toFixed( 2 ).padStart( 9 ) }   ${ ratio( v.name, 'p95' ).toFixed( 2 ).padStart( 9 ) }`
		);
	}
	const ok =
		ratio( 'range', 'p50' ) <= TARGET && ratio( 'range', 'p95' ) <= TARGET;
	lines.push(
		'',
		`target (range ≤ ${ TARGET }× static at p50 and p95): ${ ok ? 'met' : 'NOT met' }`
	);
	process.stdout.write( lines.join( '\n' ) + '\n' );
	if ( ! process.env.BENCH_NO_RESULTS ) {
		const result = {
			date: new Date().toISOString(),
			server: `${ nginxVersion } + ${ fpmVersion }`,
			workers: WORKERS,
			loadAverage: {
				start: loadAtStart,
				end: loadAtEnd,
				cores: os.cpus().length,
			},
			requests: REQUESTS,
			tiles: {
				count: tiles.length,
				minBytes: sizes[ 0 ],
				medianBytes: percentile( sizes, 50 ),
				maxBytes: sizes[ sizes.length - 1 ],
			},
			summary,
			ratios: Object.fromEntries(
				variants.map( ( v ) => [
					v.name,
					{
						p50: ratio( v.name, 'p50' ),
						p95: ratio( v.name, 'p95' ),
					},
				] )
			),
			target: TARGET,
			met: ok,
		};
		fs.mkdirSync( path.join( ROOT, 'bench', 'results' ), {
			recursive: true,
		} );
		fs.writeFileSync(
			path.join( ROOT, 'bench', 'results', 'basemap-range-latest.json' ),
			JSON.stringify( result, null, '\t' ) + '\n'
		);
	}
	stop();
	process.exit( 0 );
}

main().catch( ( error ) => fail( error.stack || String( error ) ) );
