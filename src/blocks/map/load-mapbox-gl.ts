/**
 * mapbox-gl as the plugin loads it: from Mapbox's own distribution, never from the plugin's files.
 *
 * mapbox-gl 2+ is licensed under the Mapbox terms, which do not allow redistributing it inside a
 * GPL plugin, so the plugin ships none of it. plugin/Blocks/Mapbox_Gl.php prints
 * `window.cairnMapsMapboxGl`: the pinned release's `mapbox-gl.js` and `mapbox-gl.css` addresses
 * (api.mapbox.com, or the site's own copy through the `cairn_maps_mapbox_gl_base_url` filter) with
 * their Subresource Integrity hashes, computed at build time from node_modules/mapbox-gl/dist
 * (build/mapbox-gl.json). A file that is blocked, missing or altered fails to load (the browser
 * refuses a mismatching file before running it); the map then shows its `style` alert.
 *
 * Called only when a map starts (after consent where the site asks for it). Each file is requested
 * once: the script once per window (the editor's canvas iframe shares the editor's mapbox-gl), the
 * stylesheet once per document that shows a map (the canvas iframe needs its own).
 */
import type { MapLib } from '@cairn-maps/map';

/** mapbox-gl's default export: what the CDN build sets as `window.mapboxgl`. */
export type MapboxGl = typeof import( 'mapbox-gl' ).default;

interface LibraryFile {
	src: string;
	integrity: string;
}

interface MapboxGlLibrary {
	js: LibraryFile;
	css: LibraryFile;
}

declare global {
	interface Window {
		/** Printed by plugin/Blocks/Mapbox_Gl.php. */
		cairnMapsMapboxGl?: unknown;
	}
}

/** Where the pending loads live: on the window and the documents, shared by every bundle. */
const SCRIPT_LOAD = Symbol.for( 'cairn-maps.gl.js' );
const STYLE_LOAD = Symbol.for( 'cairn-maps.gl.css' );

type Loads = { [ key: symbol ]: Promise< unknown > | undefined };

// A file without a hash would load unchecked: none is accepted.
const INTEGRITY = /^sha(256|384|512)-./;

function readFile( value: unknown ): LibraryFile | null {
	const { src, integrity } = ( value ?? {} ) as Partial<
		Record< keyof LibraryFile, unknown >
	>;
	return typeof src === 'string' &&
		/^https?:\/\//.test( src ) &&
		typeof integrity === 'string' &&
		INTEGRITY.test( integrity )
		? { src, integrity }
		: null;
}

/** The library the server named, or null when it named none (or something malformed). */
function readLibrary( view: Window ): MapboxGlLibrary | null {
	const raw = ( view.cairnMapsMapboxGl ?? {} ) as Record< string, unknown >;
	const js = readFile( raw.js );
	const css = readFile( raw.css );
	return js && css ? { js, css } : null;
}

function isMapLib( value: unknown ): value is MapboxGl {
	return (
		typeof ( value as Partial< MapLib > | null )?.supported === 'function'
	);
}

/**
 * Appends the element to the document's head; resolves when it loaded, rejects when it could
 * not be (blocked, a network error, an integrity mismatch).
 * @param doc
 * @param element
 */
function attach(
	doc: Document,
	element: HTMLScriptElement | HTMLLinkElement
): Promise< void > {
	return new Promise( ( resolve, reject ) => {
		element.addEventListener( 'load', () => resolve(), { once: true } );
		element.addEventListener(
			'error',
			() => reject( new Error( 'mapbox-gl: not loaded' ) ),
			{ once: true }
		);
		doc.head.appendChild( element );
	} );
}

function loadScript( view: Window, file: LibraryFile ): Promise< MapboxGl > {
	const loads = view as unknown as Loads;
	loads[ SCRIPT_LOAD ] ??= ( () => {
		const script = view.document.createElement( 'script' );
		script.src = file.src;
		script.integrity = file.integrity;
		script.crossOrigin = 'anonymous';
		script.async = true;
		return attach( view.document, script ).then( () => {
			// The UMD build sets `window.mapboxgl` (unless the page has an AMD loader).
			const lib = ( view as unknown as { mapboxgl?: unknown } ).mapboxgl;
			if ( ! isMapLib( lib ) ) {
				throw new Error( 'mapbox-gl: no window.mapboxgl' );
			}
			return lib;
		} );
	} )();
	return loads[ SCRIPT_LOAD ] as Promise< MapboxGl >;
}

function loadStyle( doc: Document, file: LibraryFile ): Promise< void > {
	const loads = doc as unknown as Loads;
	loads[ STYLE_LOAD ] ??= ( () => {
		const link = doc.createElement( 'link' );
		link.rel = 'stylesheet';
		link.href = file.src;
		link.integrity = file.integrity;
		link.crossOrigin = 'anonymous';
		return attach( doc, link );
	} )();
	return loads[ STYLE_LOAD ] as Promise< void >;
}

/**
 * mapbox-gl, with its stylesheet in `doc` (the document the map is drawn in). Rejects when
 * either file cannot be loaded; the runtime shows that as the `style` alert.
 * @param doc
 */
export function loadMapboxGl( doc: Document = document ): Promise< MapboxGl > {
	const library = readLibrary( window );
	if ( ! library ) {
		return Promise.reject( new Error( 'mapbox-gl: not configured' ) );
	}
	const loaded = Promise.all( [
		loadScript( window, library.js ),
		loadStyle( doc, library.css ),
	] ).then( ( [ lib ] ) => lib );
	// Whoever asked handles the failure (the runtime shows it); a caller that went away does not
	// leave an unhandled rejection behind.
	loaded.catch( () => undefined );
	return loaded;
}
