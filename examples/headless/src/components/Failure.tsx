/**
 * Why something the site was asked for is not shown, in plain words with the HTTP status. Never
 * the site's own error text: it is not written for this app's visitors.
 */
import { PostMapsError } from '@cairn-maps/map';

import { SiteError } from '../wordpress';

export interface FailureProps {
	error: unknown;
	/** What was asked for, as in "This page" / "These maps". */
	what: 'page' | 'pages' | 'maps';
}

const NOT_PUBLIC = {
	page: 'This page is not public',
	pages: 'The pages are not public',
	maps: 'These maps are not public',
};

const MISSING = {
	page: 'There is no such page',
	pages: 'The site has no pages route',
	maps: 'There is no such post',
};

/**
 * The message for a failure.
 *
 * @param error What was thrown.
 * @param what  What was asked for.
 */
export function failureMessage(
	error: unknown,
	what: FailureProps[ 'what' ]
): string {
	const status =
		error instanceof PostMapsError || error instanceof SiteError
			? error.status
			: 0;
	if ( status === 401 || status === 403 ) {
		return `${ NOT_PUBLIC[ what ] } (${ status }).`;
	}
	if ( status === 404 ) {
		return `${ MISSING[ what ] } (404).`;
	}
	if ( status > 0 ) {
		return `The site could not answer (${ status }).`;
	}
	if ( error instanceof PostMapsError || error instanceof SiteError ) {
		return 'The site did not answer as a WordPress site with Cairn Maps would. Check its address.';
	}
	// fetch() rejects alike for a refused connection and a refused cross-origin read.
	return 'The site could not be reached, or it does not let this app read it. Check its address, and that Cairn Maps is active there.';
}

export function Failure( { error, what }: FailureProps ) {
	return (
		<p className="app-failure" role="alert">
			{ failureMessage( error, what ) }
		</p>
	);
}
