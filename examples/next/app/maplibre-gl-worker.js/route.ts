/**
 * maplibre-gl's worker, served by the app at /maplibre-gl-worker.js (components/post-maps.tsx names
 * it with setMapLibreWorkerUrl()). maplibre-gl looks for its worker beside its own module, which a
 * bundle does not have. Read once at build time from the installed package, so the file always
 * matches the maplibre-gl the app bundles, and served as a static file.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';

export const dynamic = 'force-static';

export async function GET(): Promise< Response > {
	const body = await readFile(
		path.join(
			process.cwd(),
			'node_modules',
			'maplibre-gl',
			'dist',
			'maplibre-gl-worker.mjs'
		),
		'utf8'
	);
	return new Response( body, {
		headers: {
			'Content-Type': 'text/javascript; charset=utf-8',
			'Cache-Control': 'public, max-age=3600',
		},
	} );
}
