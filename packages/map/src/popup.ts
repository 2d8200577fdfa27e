/**
 * Marker popups. Details come from `/cairn/v1/markers/<id>`; everything is built with DOM nodes and
 * text. The content (HTML the server already sanitised) is parsed inertly and rebuilt from a short
 * list of harmless elements, so no marker text ever reaches `innerHTML`.
 */
import type { Map as MapboxMap, Popup } from 'mapbox-gl';
import { __ } from '@wordpress/i18n';

import type { MapLib } from './types';

export interface MarkerDetails {
	id: number;
	title: string;
	content: string;
	link: string;
	lng: number;
	lat: number;
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

/** Builds the popup body in `doc` from untrusted details. */
export function buildPopupContent(
	doc: Document,
	details: MarkerDetails
): HTMLElement {
	const root = doc.createElement( 'div' );
	root.className = 'cairn-map-popup';
	// h2, like the list of places' title: the popup sits in the map, before that list.
	const title = doc.createElement( 'h2' );
	title.className = 'cairn-map-popup__title';
	title.textContent = details.title;
	root.appendChild( title );
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
		link.textContent = __( 'More about this place', 'cairn-maps' );
		root.appendChild( link );
	}
	return root;
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
	};
}

/** Opens the popup of a marker; one popup per map. */
export class PopupController {
	private popup: Popup | null = null;
	private request = 0;

	constructor(
		private readonly mapLib: MapLib,
		private readonly map: MapboxMap,
		private readonly markerUrl: string
	) {}

	async open( id: number, fallback?: { lng: number; lat: number } ) {
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
		const position = details ?? fallback;
		if ( ! position ) {
			return;
		}
		let content: HTMLElement;
		if ( details ) {
			content = buildPopupContent( doc, details );
		} else {
			content = doc.createElement( 'p' );
			content.textContent = __(
				'The details of this place could not be loaded.',
				'cairn-maps'
			);
		}
		this.popup?.remove();
		this.popup = new this.mapLib.Popup( {
			maxWidth: '320px',
			focusAfterOpen: true,
		} )
			.setLngLat( [ position.lng, position.lat ] )
			.setDOMContent( content )
			.addTo( this.map );
	}

	close() {
		this.request++;
		this.popup?.remove();
		this.popup = null;
	}
}
