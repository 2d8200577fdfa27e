/**
 * The browser side of the WP Consent API (the "WP Consent API" plugin, by the WordPress core
 * privacy team): what a consent-gated map asks it, and how it hears the visitor's choice.
 *
 * The server names the category the site owner chose in `data-cairn-consent-category`, and only
 * when the API's PHP functions exist. Everything here is looked up on the page's window when it is
 * needed, never at import time: a consent plugin's script may load after ours, or not at all, and
 * then the map keeps its own "Load map" button.
 *
 * The API answers "consent given" for every category while no consent management plugin has set a
 * consent type (there is nobody to ask). The site owner asked for a gate, so without a consent type
 * only the visitor's own choice counts: a click on the button, or an explicit `allow` in the
 * change event.
 */

/**
 * A consent category of the WP Consent API (`marketing`, `statistics`, …). The server checked it
 * against the API's list when the owner saved it; the browser passes it on as it is.
 */
export type ConsentCategory = string;

/** What the API tells a map through the document's `wp_listen_for_consent_change` event. */
export type ConsentChange = 'allow' | 'deny' | null;

/** The API's page globals; unknown until checked (another plugin defines them). */
interface ConsentApiGlobals {
	wp_has_consent?: unknown;
	wp_set_consent?: unknown;
	wp_consent_type?: unknown;
	wp_fallback_consent_type?: unknown;
}

/** The event a consent plugin dispatches on the document when the visitor's choice changes. */
export const CONSENT_CHANGE_EVENT = 'wp_listen_for_consent_change';
/** Dispatched by consent plugins that decide the consent type (opt-in, opt-out) after page load. */
export const CONSENT_TYPE_EVENT = 'wp_consent_type_defined';

/**
 * The category in a wrapper's `data-cairn-consent-category`, or null when the server found no
 * consent API.
 *
 * @param host The map's wrapper.
 */
export function consentCategoryOf( host: HTMLElement ): ConsentCategory | null {
	return host.dataset.cairnConsentCategory || null;
}

function globalsOf( view: Window ): ConsentApiGlobals {
	// The one cast: the API's globals are another plugin's, declared nowhere we could import.
	return view as unknown as ConsentApiGlobals;
}

/**
 * Whether a consent management plugin has set the region's consent type (`optin`, `optout`, …).
 *
 * @param view The page's window.
 */
function consentTypeSet( view: Window ): boolean {
	const api = globalsOf( view );
	const type =
		typeof api.wp_consent_type === 'string' && api.wp_consent_type
			? api.wp_consent_type
			: api.wp_fallback_consent_type;
	return typeof type === 'string' && type !== '';
}

/**
 * Whether the visitor has already agreed to `category`, as the consent plugin sees it now (its
 * cookie): false when there is no API, no consent type, or no agreement.
 *
 * @param view     The page's window.
 * @param category The category the site owner chose.
 */
export function hasConsent( view: Window, category: ConsentCategory ): boolean {
	const api = globalsOf( view );
	if (
		typeof api.wp_has_consent !== 'function' ||
		! consentTypeSet( view )
	) {
		return false;
	}
	try {
		const answer: unknown = api.wp_has_consent( category );
		return answer === true;
	} catch {
		// A consent plugin half loaded (its settings object missing) cannot say yes: the map
		// keeps its button, which is the visitor's way in whatever the plugin does.
		return false;
	}
}

/**
 * Records the visitor's agreement through the API, so the consent plugin (its banner, its cookie,
 * other plugins listening) knows of it. Does nothing when the API's script is not on the page.
 *
 * @param view     The page's window.
 * @param category The category the site owner chose.
 */
export function giveConsent( view: Window, category: ConsentCategory ): void {
	const api = globalsOf( view );
	if ( typeof api.wp_set_consent === 'function' ) {
		api.wp_set_consent( category, 'allow' );
	}
}

/**
 * What a `wp_listen_for_consent_change` event says about `category`: `allow`, `deny`, or null
 * when it is about other categories. Its `detail` maps categories to values (the API builds it as
 * an array with named keys, so only own properties are read).
 *
 * @param event    The event.
 * @param category The category the site owner chose.
 */
export function consentChangeFor(
	event: Event,
	category: ConsentCategory
): ConsentChange {
	const detail: unknown = ( event as CustomEvent< unknown > ).detail;
	if (
		typeof detail !== 'object' ||
		detail === null ||
		! Object.prototype.hasOwnProperty.call( detail, category )
	) {
		return null;
	}
	const value: unknown = ( detail as Record< string, unknown > )[ category ];
	return value === 'allow' || value === 'deny' ? value : null;
}
