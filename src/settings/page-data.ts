/**
 * Reads `window.cairnMapsSettingsPage`, printed by plugin/Settings/Settings_Page.php.
 */
import type { MapErrorCode } from '../../packages/map/src/types';

export interface PageData {
	/** The site's address, for the token's URL restrictions. */
	siteUrl: string;
	/** Why the stored token cannot be used ('' when it is empty or public). */
	storedTokenProblem:
		Extract< MapErrorCode, 'secret-token' | 'invalid-token' > | '';
	/** Settings → Privacy → Policy guide, or '' when the user cannot open it. */
	privacyPolicyUrl: string;
}

function text( value: unknown ): string {
	return typeof value === 'string' ? value : '';
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
	};
}
