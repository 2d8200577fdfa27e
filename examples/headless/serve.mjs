#!/usr/bin/env node
/**
 * Serves the built example (`examples/headless/dist`) on http://127.0.0.1:${PORT:-5173}/ with
 * Node's own `http` module: no dependencies, and it builds nothing (see build.mjs and README.md).
 * Any address without a file extension that is not a file gets index.html (the app reads its view
 * from the query, so this only matters for addresses such as `/index` typed by hand). `PORT=0`
 * picks a free port; the first line printed names the address.
 *
 * Environment: PORT (5173), HOST (127.0.0.1), CAIRN_EXAMPLE_DIST (the folder to serve).
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname( fileURLToPath( import.meta.url ) );

export const DIST = path.join( here, 'dist' );

const TYPES = {
	'.html': 'text/html; charset=utf-8',
	'.js': 'text/javascript; charset=utf-8',
	'.mjs': 'text/javascript; charset=utf-8',
	'.css': 'text/css; charset=utf-8',
	'.json': 'application/json; charset=utf-8',
	'.map': 'application/json; charset=utf-8',
	'.txt': 'text/plain; charset=utf-8',
	'.svg': 'image/svg+xml',
	'.png': 'image/png',
	'.jpg': 'image/jpeg',
	'.jpeg': 'image/jpeg',
	'.gif': 'image/gif',
	'.webp': 'image/webp',
	'.ico': 'image/x-icon',
	'.woff': 'font/woff',
	'.woff2': 'font/woff2',
	'.wasm': 'application/wasm',
};

/**
 * The file to answer with: the path itself, a folder's index.html, or for an extension-less path
 * that is no file the app's index.html; null for a missing asset.
 *
 * @param {string} root     The served folder (absolute).
 * @param {string} pathname The request's decoded path.
 * @return {string|null} An absolute path inside root, or null.
 */
function resolveFile( root, pathname ) {
	const file = path.resolve( root, '.' + pathname );
	if ( file !== root && ! file.startsWith( root + path.sep ) ) {
		return null;
	}
	let stat = fs.statSync( file, { throwIfNoEntry: false } );
	if ( stat?.isDirectory() ) {
		const index = path.join( file, 'index.html' );
		stat = fs.statSync( index, { throwIfNoEntry: false } );
		return stat?.isFile() ? index : null;
	}
	if ( stat?.isFile() ) {
		return file;
	}
	return path.extname( pathname ) === ''
		? path.join( root, 'index.html' )
		: null;
}

/**
 * A server for a built app.
 *
 * @param {string} root The folder to serve.
 * @return {http.Server} The server (not listening yet).
 */
export function createServer( root = DIST ) {
	const base = path.resolve( root );
	return http.createServer( ( request, response ) => {
		const send = ( status, body, headers = {} ) => {
			response.writeHead( status, {
				'Content-Type': 'text/plain; charset=utf-8',
				...headers,
			} );
			response.end( request.method === 'HEAD' ? undefined : body );
		};
		if ( request.method !== 'GET' && request.method !== 'HEAD' ) {
			send( 405, 'Method not allowed\n', { Allow: 'GET, HEAD' } );
			return;
		}
		let pathname;
		try {
			pathname = decodeURIComponent(
				new URL( request.url ?? '/', 'http://localhost' ).pathname
			);
		} catch {
			send( 400, 'Bad request\n' );
			return;
		}
		const file = pathname.includes( '\0' )
			? null
			: resolveFile( base, pathname );
		const stat = file && fs.statSync( file, { throwIfNoEntry: false } );
		if ( ! file || ! stat?.isFile() ) {
			send( 404, 'Not found\n' );
			return;
		}
		const relative = path
			.relative( base, file )
			.split( path.sep )
			.join( '/' );
		response.writeHead( 200, {
			'Content-Type':
				TYPES[ path.extname( file ).toLowerCase() ] ??
				'application/octet-stream',
			'Content-Length': stat.size,
			// Vite names what it emits in assets/ by content hash: those never change.
			'Cache-Control': relative.startsWith( 'assets/' )
				? 'public, max-age=31536000, immutable'
				: 'no-cache',
			'X-Content-Type-Options': 'nosniff',
		} );
		if ( request.method === 'HEAD' ) {
			response.end();
			return;
		}
		fs.createReadStream( file )
			.on( 'error', () => response.destroy() )
			.pipe( response );
	} );
}

if ( process.argv[ 1 ] === fileURLToPath( import.meta.url ) ) {
	const root = path.resolve( process.env.CAIRN_EXAMPLE_DIST || DIST );
	if ( ! fs.existsSync( path.join( root, 'index.html' ) ) ) {
		console.error(
			`No built example in ${ root }. Build it first (from the repository root):\n` +
				'  npm run build:package && npm run build:example'
		);
		process.exit( 1 );
	}
	const host = process.env.HOST || '127.0.0.1';
	const port = Number( process.env.PORT ?? 5173 );
	const server = createServer( root );
	server.on( 'error', ( error ) => {
		console.error( `Cannot serve the example: ${ error.message }` );
		process.exit( 1 );
	} );
	server.listen( port, host, () => {
		const address = server.address();
		const url = `http://${ host }:${ address.port }/`;
		console.log( `Cairn Maps headless example: ${ url }` );
		console.log(
			`  another site: ${ url }?site=https://example.com  ·  your own Mapbox token: VITE_MAPBOX_TOKEN=pk.… npm run build:example`
		);
	} );
	for ( const signal of [ 'SIGINT', 'SIGTERM' ] ) {
		process.on( signal, () => {
			server.close( () => process.exit( 0 ) );
			server.closeAllConnections(); // Browsers keep connections open.
		} );
	}
}
