/**
 * The consent gate of a map started by code — `createMap()` or `<CairnMap>` with a configuration
 * whose `consent.required` is true (`GET /cairn/v1/posts/<id>/maps`, the `cairn_maps` field): the
 * same "Load map" placeholder the theme renders, and nothing that contacts Mapbox (mapbox-gl not
 * even loaded) before the visitor agrees — by the button, or through the WP Consent API when the
 * site runs it (`consent.category`), as on the theme page (see watch-maps).
 */
import { __, sprintf } from '@wordpress/i18n';

import {
	CONSENT_CHANGE_EVENT,
	CONSENT_TYPE_EVENT,
	consentChangeFor,
	giveConsent,
	hasConsent,
} from './consent-api';
import type { ConsentConfig } from './types';

/**
 * A WP Consent API category's name, as the settings screen shows it.
 * @param category
 */
function categoryLabel( category: string ): string {
	switch ( category ) {
		case 'functional':
			return __( 'Functional', 'cairn-maps' );
		case 'preferences':
			return __( 'Preferences', 'cairn-maps' );
		case 'statistics':
			return __( 'Statistics', 'cairn-maps' );
		case 'statistics-anonymous':
			return __( 'Anonymous statistics', 'cairn-maps' );
		case 'marketing':
			return __( 'Marketing', 'cairn-maps' );
		default:
			return category;
	}
}

/**
 * The placeholder's note, as the server renders it (Blocks\Consent_Placeholder).
 * @param category The WP Consent API category, or ''.
 */
export function consentNote( category: string ): string {
	const note = __(
		'Loading this map connects your browser to Mapbox, which receives your IP address and browser details and records usage events.',
		'cairn-maps'
	);
	return category
		? note +
				' ' +
				sprintf(
					/* translators: %s: a consent category, such as "Marketing". */
					__(
						'The map loads once you accept “%s” cookies and services; “Load map” records that choice in this site’s cookie settings.',
						'cairn-maps'
					),
					categoryLabel( category )
				)
		: note;
}

/**
 * Shows the placeholder in `container` and calls `agreed` once, when the visitor agrees.
 *
 * @param host      The map's wrapper (gets `data-cairn-consent`).
 * @param container The map region (holds the placeholder, gets the focus after the click).
 * @param consent   The consent policy.
 * @param agreed    Starts the map.
 * @return What takes the placeholder and its listeners away (the map removed before consent).
 */
export function showConsentGate(
	host: HTMLElement,
	container: HTMLElement,
	consent: ConsentConfig,
	agreed: () => void
): () => void {
	const doc = host.ownerDocument;
	const view = doc.defaultView;
	const { category } = consent;
	host.dataset.cairnConsent = 'required';
	if ( category ) {
		host.dataset.cairnConsentCategory = category;
	}
	const placeholder = doc.createElement( 'div' );
	placeholder.className = 'wp-block-cairn-map__consent';
	const note = doc.createElement( 'p' );
	note.className = 'wp-block-cairn-map__consent-note';
	note.textContent = consentNote( category );
	const button = doc.createElement( 'button' );
	button.type = 'button';
	button.className = 'wp-block-cairn-map__consent-button wp-element-button';
	button.textContent = __( 'Load map', 'cairn-maps' );
	placeholder.append( note, button );
	container.append( placeholder );

	const release = () => {
		button.removeEventListener( 'click', onClick );
		doc.removeEventListener( CONSENT_CHANGE_EVENT, onChange );
		doc.removeEventListener( CONSENT_TYPE_EVENT, onTypeDefined );
		placeholder.remove();
	};
	const agree = ( clicked: boolean ) => {
		release();
		host.dataset.cairnConsent = 'given';
		if ( clicked ) {
			// The button is gone: keep keyboard users where they were, on the map.
			container.setAttribute( 'tabindex', '-1' );
			container.focus();
		}
		agreed();
	};
	function onClick() {
		if ( category && view ) {
			// The consent plugin records it: its banner and other plugins hear of it.
			giveConsent( view, category );
		}
		agree( true );
	}
	function onChange( event: Event ) {
		const change = consentChangeFor( event, category );
		if (
			change === 'allow' ||
			( change !== 'deny' && view && hasConsent( view, category ) )
		) {
			agree( false );
		}
	}
	function onTypeDefined() {
		if ( view && hasConsent( view, category ) ) {
			agree( false );
		}
	}
	button.addEventListener( 'click', onClick );
	if ( category ) {
		doc.addEventListener( CONSENT_CHANGE_EVENT, onChange );
		doc.addEventListener( CONSENT_TYPE_EVENT, onTypeDefined );
	}
	return release;
}
