/**
 * Marker popups. Details come from `/cairn/v1/markers/<id>`; everything is built with DOM nodes and
 * text. The content (HTML the server already sanitised) is parsed inertly and rebuilt from a short
 * list of harmless elements, so no marker text ever reaches `innerHTML`.
 */
import type { Map as MapboxMap, Popup } from 'mapbox-gl';
import { __ } from '@wordpress/i18n';

import { buildDirectionsLink } from './directions-link';
import type { DirectionsApp, MapLib } from './types';

/** A post's featured image, as the popup route gives it. */
export interface PlaceImage {
	src: string;
	/** A `srcset` list of the image's sizes ('' for none). */
	srcset: string;
	/** Plain text. */
	alt: string;
	width: number;
	height: number;
}

export interface MarkerDetails {
	id: number;
	title: string;
	content: string;
	link: string;
	lng: number;
	lat: number;
	/** A post's excerpt, plain text (markers have none: undefined). */
	excerpt?: string;
	/** A post's featured image, or null. */
	image?: PlaceImage | null;
	/**
	 * A route's elevation profile as the answer gives it, unread: the shapes chunk reads it (the
	 * shape tiles leave it out). @since 0.7.0
	 */
	profile?: unknown;
}

/** How long the details of a place may take, in ms. */
const POPUP_TIMEOUT = 10_000;

const KEEP = new Set( [
	'P',
	'BR',
	'STRONG',
	'B',
	'EM',
	'I',
	'UL',
	'OL',
	'LI',
	'A',
	'H3',
	'H4',
	'H5',
	'H6',
	'BLOCKQUOTE',
] );

function safeHref( value: string | null ): string | null {
	if ( ! value ) {
		return null;
	}
	try {
		const url = new URL( value, 'https://invalid.example/' );
		return [ 'http:', 'https:', 'mailto:' ].includes( url.protocol )
			? value
			: null;
	} catch {
		return null;
	}
}

function copyNodes( from: Node, to: Node, doc: Document ): void {
	from.childNodes.forEach( ( child ) => {
		if ( child.nodeType === 3 ) {
			to.appendChild( doc.createTextNode( child.textContent ?? '' ) );
			return;
		}
		if ( child.nodeType !== 1 ) {
			return;
		}
		const element = child as Element;
		if ( ! KEEP.has( element.tagName ) ) {
			copyNodes( element, to, doc );
			return;
		}
		const copy = doc.createElement( element.tagName.toLowerCase() );
		if ( element.tagName === 'A' ) {
			const href = safeHref( element.getAttribute( 'href' ) );
			if ( href ) {
				copy.setAttribute( 'href', href );
				copy.setAttribute( 'rel', 'noopener noreferrer' );
			}
		}
		copyNodes( element, copy, doc );
		to.appendChild( copy );
	} );
}

/**
 * The address of this page that opens a place's popup (`?cairn-place=<id>`).
 * @param href The page's address.
 * @param id   The place.
 */
export function placeLink( href: string, id: number ): string {
	const url = new URL( href );
	url.searchParams.set( 'cairn-place', String( id ) );
	return url.href;
}

/** A "Copy link" button and the status line that says it worked. */
function copyLinkButton( doc: Document, id: number ): HTMLElement {
	const wrap = doc.createElement( 'p' );
	wrap.className = 'cairn-map-popup__share';
	const button = doc.createElement( 'button' );
	button.type = 'button';
	button.className = 'cairn-map-popup__copy';
	button.textContent = __( 'Copy link', 'cairn-maps' );
	const status = doc.createElement( 'span' );
	status.className = 'cairn-map-popup__copied';
	status.setAttribute( 'role', 'status' );
	button.addEventListener( 'click', () => {
		const view = doc.defaultView ?? window;
		const link = placeLink( view.location.href, id );
		const copied = () => {
			status.textContent = __( 'Link copied.', 'cairn-maps' );
		};
		const shown = () => {
			// No clipboard (an insecure page, a refusal): the link itself, selected to copy.
			const field = doc.createElement( 'input' );
			field.type = 'text';
			field.readOnly = true;
			field.value = link;
			field.className = 'cairn-map-popup__link-field';
			field.setAttribute(
				'aria-label',
				__( 'Link to this place', 'cairn-maps' )
			);
			status.replaceChildren( field );
			field.focus();
			field.select();
		};
		const clipboard = view.navigator.clipboard;
		if ( clipboard && typeof clipboard.writeText === 'function' ) {
			clipboard.writeText( link ).then( copied, shown );
		} else {
			shown();
		}
	} );
	wrap.append( button, ' ', status );
	return wrap;
}

/**
 * Builds the popup body in `doc` from untrusted details.
 * @param doc
 * @param details
 * @param directions The app of its "Directions" link, to the place's point (a route's start, an
 *                   area's label point): none by default. @since 0.9.0
 */
export function buildPopupContent(
	doc: Document,
	details: MarkerDetails,
	directions: DirectionsApp = 'none'
): HTMLElement {
	const root = doc.createElement( 'div' );
	root.className = 'cairn-map-popup';
	// h2, like the list of places' title: the popup sits in the map, before that list.
	const title = doc.createElement( 'h2' );
	title.className = 'cairn-map-popup__title';
	title.textContent = details.title;
	root.appendChild( title );
	if ( details.image ) {
		root.appendChild( buildImage( doc, details.image ) );
	}
	if ( details.excerpt ) {
		const excerpt = doc.createElement( 'p' );
		excerpt.className = 'cairn-map-popup__excerpt';
		excerpt.textContent = details.excerpt;
		root.appendChild( excerpt );
	}
	if ( details.content ) {
		const body = doc.createElement( 'div' );
		body.className = 'cairn-map-popup__content';
		// DOMParser documents are inert: no scripts run, no images load.
		const parsed = new DOMParser().parseFromString(
			details.content,
			'text/html'
		);
		copyNodes( parsed.body, body, doc );
		root.appendChild( body );
	}
	const href = safeHref( details.link );
	if ( href ) {
		const link = doc.createElement( 'a' );
		link.className = 'cairn-map-popup__link';
		link.href = href;
		// A post is read on its own page; a marker's page says more about the place.
		link.textContent =
			details.excerpt !== undefined
				? __( 'Read more', 'cairn-maps' )
				: __( 'More about this place', 'cairn-maps' );
		root.appendChild( link );
	}
	const route = buildDirectionsLink(
		doc,
		directions,
		details.title,
		details.lat,
		details.lng
	);
	if ( route ) {
		const wrap = doc.createElement( 'p' );
		wrap.className = 'cairn-map-popup__directions';
		wrap.appendChild( route );
		root.appendChild( wrap );
	}
	root.appendChild( copyLinkButton( doc, details.id ) );
	return root;
}

/**
 * The featured image: responsive (`srcset`, `sizes` for the popup's width), its size reserved,
 * loaded only when shown.
 * @param doc
 * @param image
 */
function buildImage( doc: Document, image: PlaceImage ): HTMLElement {
	const img = doc.createElement( 'img' );
	img.className = 'cairn-map-popup__image';
	img.src = image.src;
	if ( image.srcset ) {
		img.srcset = image.srcset;
		img.sizes = '(max-width: 360px) 100vw, 320px';
	}
	img.alt = image.alt;
	if ( image.width > 0 && image.height > 0 ) {
		img.width = image.width;
		img.height = image.height;
	}
	// Attributes rather than properties: older engines without them simply ignore them.
	img.setAttribute( 'loading', 'lazy' );
	img.setAttribute( 'decoding', 'async' );
	// Within the popup's width, its proportions kept (the places panel's styles are not loaded
	// everywhere a popup opens).
	img.style.maxWidth = '100%';
	img.style.height = 'auto';
	img.style.display = 'block';
	return img;
}

/**
 * A featured image from untrusted JSON: an http(s) source, a srcset of http(s) candidates,
 * whole positive sizes; else null.
 * @param value
 */
export function parseImage( value: unknown ): PlaceImage | null {
	if ( typeof value !== 'object' || value === null ) {
		return null;
	}
	const input = value as Record< string, unknown >;
	const src = typeof input.src === 'string' ? input.src : '';
	if ( ! /^https?:\/\//i.test( src ) || ! safeHref( src ) ) {
		return null;
	}
	const srcset =
		typeof input.srcset === 'string' &&
		input.srcset
			.split( ',' )
			.every( ( candidate ) =>
				/^\s*https?:\/\/\S+(\s+\d+(\.\d+)?[wx])?\s*$/i.test( candidate )
			)
			? input.srcset
			: '';
	const size = ( n: unknown ): number =>
		typeof n === 'number' && Number.isInteger( n ) && n > 0 && n < 100000
			? n
			: 0;
	return {
		src,
		srcset,
		alt: typeof input.alt === 'string' ? input.alt : '',
		width: size( input.width ),
		height: size( input.height ),
	};
}

export function parseMarkerDetails( body: unknown ): MarkerDetails | null {
	if ( typeof body !== 'object' || body === null ) {
		return null;
	}
	const value = body as Record< string, unknown >;
	if (
		typeof value.id !== 'number' ||
		typeof value.lng !== 'number' ||
		typeof value.lat !== 'number'
	) {
		return null;
	}
	return {
		id: value.id,
		title: typeof value.title === 'string' ? value.title : '',
		content: typeof value.content === 'string' ? value.content : '',
		link: typeof value.link === 'string' ? value.link : '',
		lng: value.lng,
		lat: value.lat,
		// Posts only: their popups add an excerpt and a featured image.
		...( typeof value.excerpt === 'string' || 'image' in value
			? {
					excerpt:
						typeof value.excerpt === 'string' ? value.excerpt : '',
					image: parseImage( value.image ),
				}
			: {} ),
		...( 'profile' in value ? { profile: value.profile } : {} ),
	};
}

/** Opens the popup of a marker; one popup per map. */
export class PopupController {
	private popup: Popup | null = null;
	private request = 0;

	/**
	 * @param mapLib
	 * @param map
	 * @param markerUrl
	 * @param directions The app of the popups' "Directions" links (config.directions). @since 0.9.0
	 */
	constructor(
		private readonly mapLib: MapLib,
		private readonly map: MapboxMap,
		private readonly markerUrl: string,
		private readonly directions: DirectionsApp = 'none'
	) {}

	/**
	 * Opens the popup of a place.
	 * @param id                   The place.
	 * @param fallback             Where to open it when its details cannot be read.
	 * @param fallback.lng         Its longitude.
	 * @param fallback.lat         Its latitude.
	 * @param options
	 * @param options.returnFocus  Where focus goes when the visitor closes the popup (the list
	 *                             entry that opened it); looked up at that moment.
	 * @param options.position     Where to open it instead of the place's point (a route clicked
	 *                             along its way).
	 * @param options.position.lng Its longitude.
	 * @param options.position.lat Its latitude.
	 * @param options.extra        What follows the place's details (a route's facts and profile),
	 *                             given those details (null when they could not be read).
	 * @param options.onClose      Called when this popup closes.
	 */
	async open(
		id: number,
		fallback?: { lng: number; lat: number },
		options: {
			returnFocus?: ( () => HTMLElement | null ) | null;
			position?: { lng: number; lat: number };
			extra?: (
				doc: Document,
				details: MarkerDetails | null
			) => HTMLElement | null;
			onClose?: () => void;
		} = {}
	) {
		const request = ++this.request;
		const doc = this.map.getContainer().ownerDocument;
		let details: MarkerDetails | null = null;
		try {
			const response = await window.fetch( this.markerUrl + id, {
				// Like mapbox-gl's request for the feed. 'omit' breaks on hosts that answer a
				// cookie-less request with a log-in redirect (WordPress Playground loops on it).
				credentials: 'same-origin',
				headers: { Accept: 'application/json' },
				// A request that hangs gives the "could not be loaded" popup, not silence.
				signal: AbortSignal.timeout( POPUP_TIMEOUT ),
			} );
			details = response.ok
				? parseMarkerDetails( await response.json() )
				: null;
		} catch {
			details = null;
		}
		if ( request !== this.request ) {
			return; // A newer popup was asked for meanwhile.
		}
		const position = options.position ?? details ?? fallback;
		if ( ! position ) {
			return;
		}
		let content: HTMLElement;
		if ( details ) {
			content = buildPopupContent( doc, details, this.directions );
		} else {
			content = doc.createElement( 'p' );
			content.textContent = __(
				'The details of this place could not be loaded.',
				'cairn-maps'
			);
		}
		const extra = options.extra?.( doc, details );
		if ( extra && ! details ) {
			// The route's own facts still show below "could not be loaded" (a paragraph).
			const both = doc.createElement( 'div' );
			both.append( content, extra );
			content = both;
		} else if ( extra ) {
			content.appendChild( extra );
		}
		this.replacing = true;
		this.popup?.remove();
		this.replacing = false;
		const popup = new this.mapLib.Popup( {
			maxWidth: '320px',
			focusAfterOpen: true,
		} )
			.setLngLat( [ position.lng, position.lat ] )
			.setDOMContent( content );
		const onKey = ( event: KeyboardEvent ) => {
			if ( event.key === 'Escape' ) {
				event.stopPropagation();
				popup.remove();
			}
		};
		popup.on( 'open', () =>
			popup.getElement()?.addEventListener( 'keydown', onKey )
		);
		popup.on( 'close', () => {
			const element = popup.getElement();
			element?.removeEventListener( 'keydown', onKey );
			const active = doc.activeElement;
			const focusWasHere =
				! active ||
				active === doc.body ||
				( element?.contains( active ) ?? false );
			if ( popup === this.popup ) {
				this.popup = null;
			}
			options.onClose?.();
			if ( ! focusWasHere || this.replacing ) {
				return;
			}
			const target =
				options.returnFocus?.() ??
				this.map.getCanvasContainer().querySelector( 'canvas' );
			// After mapbox-gl has removed the popup's elements.
			window.setTimeout( () => target?.focus(), 0 );
		} );
		this.popup = popup.addTo( this.map );
	}

	/** True while one popup replaces another (focus stays with the new one). */
	private replacing = false;

	close() {
		this.request++;
		this.popup?.remove();
		this.popup = null;
	}
}
