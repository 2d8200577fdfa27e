/**
 * The marker feed, fetched by the front-end loader as soon as a map nears the viewport, at the
 * same time as mapbox-gl itself instead of after mapbox-gl has loaded and the style has arrived.
 *
 * The body is kept as a Blob (no parsing on the page's main thread) and handed to mapbox-gl as a
 * `blob:` URL, which its worker reads, parses and clusters exactly as it would the feed's own
 * address. A feed that cannot be fetched resolves to null: the runtime then gives mapbox-gl the
 * feed's address, so a failure is reported the usual way (`markers`).
 *
 * Dependency-free on purpose: it is part of the small loader script.
 */

/** A prefetched feed: a `blob:` URL to use in place of the feed's address, and how to free it. */
export interface PrefetchedMarkers {
	/** The feed's body, for the places worker. */
	blob: Blob;
	url: string;
	release: () => void;
}

/**
 * Starts fetching the feed. Only same-origin feeds are fetched (the feed is the site's own REST
 * route); anything else resolves to null at once.
 *
 * @param address The feed's address from the block's configuration.
 */
export function prefetchMarkers(
	address: unknown
): Promise< PrefetchedMarkers | null > {
	if (
		typeof address !== 'string' ||
		address === '' ||
		typeof window.fetch !== 'function' ||
		typeof URL.createObjectURL !== 'function'
	) {
		return Promise.resolve( null );
	}
	let url: URL;
	try {
		url = new URL( address, window.location.href );
	} catch {
		return Promise.resolve( null );
	}
	if ( url.origin !== window.location.origin ) {
		return Promise.resolve( null );
	}
	return window
		.fetch( url.href, { credentials: 'same-origin' } )
		.then( ( response ) => ( response.ok ? response.blob() : null ) )
		.then( ( blob ) => {
			if ( ! blob ) {
				return null;
			}
			const objectUrl = URL.createObjectURL( blob );
			return {
				blob,
				url: objectUrl,
				release: () => URL.revokeObjectURL( objectUrl ),
			};
		} )
		.catch( () => null );
}
