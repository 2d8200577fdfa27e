/**
 * The `cairn-map-maplibre` chunk: maplibre-gl as the plugin ships it (BSD-3, bundled, listed in
 * build/third-party-licenses.txt). Its worker is the site's own file, copied into build/ by
 * webpack.config.js, so a Content Security Policy of `worker-src 'self'` works: maplibre-gl would
 * otherwise look for it next to its own module, which a bundle does not have. Its stylesheet is
 * copied there too and linked by load-maplibre-gl.ts, into each document that shows a map.
 */
import * as maplibregl from 'maplibre-gl';

/** The build/ directory's address, as webpack found it from the loader's script. */
// eslint-disable-next-line camelcase -- webpack's own name.
declare const __webpack_public_path__: string;

// `.js`, not maplibre-gl's `.mjs`: every server sends it as JavaScript (a module worker needs that).
export const WORKER_FILE = 'maplibre-gl-worker.js';
export const STYLE_FILE = 'maplibre-gl.css';

/**
 * A build file's address.
 * @param file
 */
export function buildUrl( file: string ): string {
	return new URL( file, new URL( __webpack_public_path__, document.baseURI ) )
		.href;
}

maplibregl.setWorkerUrl( buildUrl( WORKER_FILE ) );

export default maplibregl;
