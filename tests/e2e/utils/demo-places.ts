/**
 * Many generated places at once, through the development site's bulk route
 * (`/cairn-dev/v1/demo-places`, bin/site-mu-plugins/cairn-dev-demo-places.php): markers in a
 * marker group, or posts with a public place in a category (`type: 'post'`). With `index`, the
 * place index's pending rebuild runs in the same request.
 */
import type { RequestUtils } from '@wordpress/e2e-test-utils-playwright';

import { FAKE_PUBLIC_TOKEN, saveSettings } from './map-page';

export interface DemoPlaces {
	/** The group's (or category's) slug. */
	group: string;
	/** `post`: posts in a category; markers in a group otherwise. */
	type?: 'cairn_marker' | 'post';
}

/** Where the index stands for a group (GET). */
export interface DemoPlacesState {
	total: number;
	index: {
		pending?: boolean;
		places: number;
		indexed: number;
	};
}

/**
 * Brings a group to `count` places; returns what the route says (`seconds`: its own PHP time).
 * @param requestUtils
 * @param places
 * @param places.count
 * @param places.name
 * @param places.box
 * @param places.index
 * @param timeout      ms.
 */
export async function addDemoPlaces(
	requestUtils: RequestUtils,
	places: DemoPlaces & {
		count: number;
		name: string;
		box: string;
		index?: boolean;
	},
	timeout: number
): Promise< { total: number; added: number; seconds: number } > {
	return ( await requestUtils.rest( {
		method: 'POST',
		path: '/cairn-dev/v1/demo-places',
		data: places,
		timeout,
	} ) ) as { total: number; added: number; seconds: number };
}

/**
 * How many places a group holds, and where the index stands.
 * @param requestUtils
 * @param places
 * @param timeout      ms.
 */
export async function demoPlacesState(
	requestUtils: RequestUtils,
	places: DemoPlaces,
	timeout: number
): Promise< DemoPlacesState > {
	return ( await requestUtils.rest( {
		path: '/cairn-dev/v1/demo-places',
		params: { ...places },
		timeout,
	} ) ) as DemoPlacesState;
}

/**
 * Removes a group and its places (with `index`, the rebuild runs in the same request).
 * @param requestUtils
 * @param places
 * @param places.index
 * @param timeout      ms.
 */
export async function removeDemoPlaces(
	requestUtils: RequestUtils,
	places: DemoPlaces & { index?: boolean },
	timeout: number
): Promise< void > {
	await requestUtils.rest( {
		method: 'DELETE',
		path: '/cairn-dev/v1/demo-places',
		params: {
			group: places.group,
			...( places.type ? { type: places.type } : {} ),
			...( places.index ? { index: 'true' } : {} ),
		},
		timeout,
	} );
}

/**
 * Saves the stand-in Mapbox token (the maps service fixture answers it); returns what puts the
 * site's own token back.
 * @param requestUtils
 * @param timeout      ms.
 */
export async function useFakeToken(
	requestUtils: RequestUtils,
	timeout: number
): Promise< () => Promise< void > > {
	const settings = ( await requestUtils.rest( {
		path: '/wp/v2/settings',
		timeout,
	} ) ) as { cairn_maps_access_token?: string };
	const previous = settings.cairn_maps_access_token ?? '';
	await saveSettings(
		requestUtils,
		{ cairn_maps_access_token: FAKE_PUBLIC_TOKEN },
		timeout
	);
	return () =>
		saveSettings(
			requestUtils,
			{ cairn_maps_access_token: previous },
			timeout
		);
}
