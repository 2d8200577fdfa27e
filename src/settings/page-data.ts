/**
 * Reads `window.cairnMapsSettingsPage`, printed by plugin/Settings/Settings_Page.php.
 */
import type { MapErrorCode } from '@cairn-maps/map';

export interface PageData {
	/** The site's address, for the token's URL restrictions. */
	siteUrl: string;
	/** Why the stored token cannot be used ('' when it is empty or public). */
	storedTokenProblem:
		Extract< MapErrorCode, 'secret-token' | 'invalid-token' > | '';
	/** Settings → Privacy → Policy guide, or '' when the user cannot open it. */
	privacyPolicyUrl: string;
	/**
	 * The WP Consent API as the server found it: not there, there without a consent management
	 * plugin setting a consent type, or asking visitors (see plugin/Settings/Consent_Api.php).
	 */
	consentApi: ConsentApiState;
	/** The API's consent categories and their names, in the server's order. */
	consentCategories: Array< { value: string; label: string } >;
	/** The post types that can be given locations, with their names, in the server's order. */
	locationTypes: Array< { value: string; label: string } >;
	/** Hosts of the site's addresses (home, site, uploads): where a self-hosted archive may be. */
	localHosts: string[];
}

export type ConsentApiState = 'absent' | 'no-consent-type' | 'active';

function text( value: unknown ): string {
	return typeof value === 'string' ? value : '';
}

/** A `{ value: label }` object as a list, in its order. */
function labelled( value: unknown ): Array< { value: string; label: string } > {
	return typeof value === 'object' &&
		value !== null &&
		! Array.isArray( value )
		? Object.entries( value ).map( ( [ name, label ] ) => ( {
				value: name,
				label: text( label ) || name,
			} ) )
		: [];
}

export function getPageData(): PageData {
	const raw: unknown = ( window as { cairnMapsSettingsPage?: unknown } )
		.cairnMapsSettingsPage;
	const data =
		typeof raw === 'object' && raw !== null
			? ( raw as Record< string, unknown > )
			: {};
	const problem = data.storedTokenProblem;
	return {
		siteUrl: text( data.siteUrl ),
		storedTokenProblem:
			problem === 'secret-token' || problem === 'invalid-token'
				? problem
				: '',
		privacyPolicyUrl: text( data.privacyPolicyUrl ),
		consentApi:
			data.consentApi === 'active' ||
			data.consentApi === 'no-consent-type'
				? data.consentApi
				: 'absent',
		consentCategories: labelled( data.consentCategories ),
		locationTypes: labelled( data.locationTypes ),
		localHosts: Array.isArray( data.localHosts )
			? data.localHosts.filter(
					( host ): host is string =>
						typeof host === 'string' && /^[a-z0-9.-]+$/.test( host )
				)
			: [],
	};
}
