/**
 * The first view of a tiled map, fetched before mapbox-gl has loaded: the view is known from the
 * configuration's centre and zoom and the container's size, so its tiles and the map's summary
 * download while mapbox-gl, the style and the runtime do. The tiled client takes these answers
 * instead of asking again (`take()`), and asks for everything after.
 *
 * Free of mapbox-gl and of the places chunk: part of the front-end loader and of the runtime's
 * first chunk.
 */
import {
	clusterMaxZoomOf,
	isTileTemplate,
	tileUrl,
	tileZoom,
	tilesCovering,
	viewBounds,
	type BBox,
} from './tile-urls';

/**
 * How much the places controller grows the view for a tiled map's clusters (each side): not at
 * all, its tiles reach past the view (PlacesClient.viewPad).
 */
export const FEATURES_PAD = 0;

/** A view: its box (grown as the controller grows it) and the map's zoom. */
export interface TiledView {
	bbox: BBox;
	zoom: number;
}

/** The answers of a tiled map's first requests, fetched early. */
export interface PrefetchedTiles {
	/** The first view, as it was computed (the tiled client asks for the same tiles). */
	view: TiledView | null;
	/** The parsed answer already on its way for `url`, given once; null when not prefetched. */
	take: ( url: string ) => Promise< unknown > | null;
}

const ACCEPT = 'application/geo+json, application/json';

/**
 * GETs JSON from the map's server; any status but 2xx, or a body that is not JSON, rejects.
 * No credentials across origins and no custom header: a headless page on another origin needs no
 * preflight (the server's CORS answers the feed's way).
 * @param url
 * @param signal
 */
export async function getJson(
	url: string,
	signal?: AbortSignal
): Promise< unknown > {
	const response = await fetch( url, {
		credentials: 'same-origin',
		headers: { Accept: ACCEPT },
		...( signal ? { signal } : {} ),
	} );
	if ( ! response.ok ) {
		throw new Error( `The places server answered ${ response.status }.` );
	}
	return response.json();
}

/**
 * The first view of a map of the container's size, or null when the container has no size yet.
 * @param center
 * @param center.lng
 * @param center.lat
 * @param zoom
 * @param container
 */
export function firstView(
	center: { lng: number; lat: number },
	zoom: number,
	container: Element | null
): TiledView | null {
	const rect = container?.getBoundingClientRect();
	if ( ! rect || rect.width <= 0 || rect.height <= 0 ) {
		return null;
	}
	return {
		bbox: viewBounds( center, zoom, rect.width, rect.height, FEATURES_PAD ),
		zoom,
	};
}

/**
 * Starts the summary's request and the first view's tiles' (unfiltered); each answer is kept
 * until the tiled client takes it.
 * @param urls
 * @param urls.tilesUrl
 * @param urls.summaryUrl
 * @param view
 */
export function prefetchTiles(
	urls: { tilesUrl: string; summaryUrl: string },
	view: TiledView | null
): PrefetchedTiles {
	const waiting = new Map< string, Promise< unknown > >();
	const start = ( url: string ) => {
		const answer = getJson( url );
		// Taken (and its failure reported) by the client; never an unhandled rejection here.
		answer.catch( () => undefined );
		waiting.set( url, answer );
	};
	if ( typeof fetch === 'function' ) {
		start( urls.summaryUrl );
		if ( view ) {
			const z = tileZoom( view.zoom, clusterMaxZoomOf( urls.tilesUrl ) );
			for ( const tile of tilesCovering( view.bbox, z ) ) {
				start( tileUrl( urls.tilesUrl, tile ) );
			}
		}
	}
	return {
		view,
		take: ( url ) => {
			const answer = waiting.get( url ) ?? null;
			waiting.delete( url );
			return answer;
		},
	};
}

function isPoint( value: unknown ): value is { lng: number; lat: number } {
	const point = value as { lng?: unknown; lat?: unknown } | null;
	return (
		typeof point?.lng === 'number' &&
		typeof point.lat === 'number' &&
		Number.isFinite( point.lng ) &&
		Number.isFinite( point.lat )
	);
}

/**
 * The loader's prefetch, from a server-rendered configuration not yet validated: only a tiled
 * map (a tiles template with `{z}`, `{x}`, `{y}` and a summary address) of the page's own origin;
 * null for anything else. Its view comes from the configured centre and zoom (a view from the page
 * address differs: those tiles are then fetched by the client).
 * @param config    `data-cairn-config`, decoded.
 * @param container The element the map will fill.
 */
export function prefetchTilesFor(
	config: unknown,
	container: Element | null
): PrefetchedTiles | null {
	const value = ( config ?? {} ) as Record< string, unknown >;
	const { tilesUrl, summaryUrl, center, zoom } = value;
	if (
		typeof tilesUrl !== 'string' ||
		typeof summaryUrl !== 'string' ||
		! isTileTemplate( tilesUrl ) ||
		! sameOrigin( tilesUrl ) ||
		! sameOrigin( summaryUrl )
	) {
		return null;
	}
	const view =
		isPoint( center ) && typeof zoom === 'number' && Number.isFinite( zoom )
			? firstView( center, zoom, container )
			: null;
	return prefetchTiles( { tilesUrl, summaryUrl }, view );
}

function sameOrigin( address: string ): boolean {
	try {
		return (
			new URL( address, window.location.href ).origin ===
			window.location.origin
		);
	} catch {
		return false;
	}
}
