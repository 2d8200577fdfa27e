/**
 * maplibre-gl as the plugin loads it: its own lazily loaded chunk (`cairn-map-maplibre`, see
 * maplibre-gl.ts), with its stylesheet (build/maplibre-gl.css) in the document the map is drawn
 * in. Called only when a MapLibre map starts: a page whose maps all use Mapbox never downloads
 * it, and a page whose maps all use MapLibre never loads mapbox-gl (load-map-library.ts).
 */
import type { MapLib } from '@cairn-maps/map';

/** Where the pending stylesheet load lives on each document (the canvas iframe needs its own). */
const STYLE_LOAD = Symbol.for( 'cairn-maps.maplibre.css' );

type Loads = { [ key: symbol ]: Promise< void > | undefined };

let chunk: Promise< typeof import( './maplibre-gl' ) > | null = null;

/**
 * @param doc
 * @param href
 */
function loadStyle( doc: Document, href: string ): Promise< void > {
	const loads = doc as unknown as Loads;
	loads[ STYLE_LOAD ] ??= new Promise< void >( ( resolve, reject ) => {
		const link = doc.createElement( 'link' );
		link.rel = 'stylesheet';
		link.href = href;
		link.addEventListener( 'load', () => resolve(), { once: true } );
		link.addEventListener(
			'error',
			() => reject( new Error( 'maplibre-gl: no stylesheet' ) ),
			{ once: true }
		);
		doc.head.appendChild( link );
	} );
	return loads[ STYLE_LOAD ] as Promise< void >;
}

/**
 * maplibre-gl (once per page), with its stylesheet in `doc`. Rejects when either cannot be
 * loaded; the runtime shows that as the `style` alert.
 * @param doc
 */
export function loadMaplibreGl( doc: Document = document ): Promise< MapLib > {
	chunk ??= import(
		/* webpackChunkName: "cairn-map-maplibre" */ './maplibre-gl'
	);
	const loaded = chunk.then( ( module ) =>
		loadStyle( doc, module.buildUrl( module.STYLE_FILE ) ).then(
			() => module.default as unknown as MapLib
		)
	);
	// Whoever asked handles the failure (the runtime shows it).
	loaded.catch( () => undefined );
	return loaded;
}
