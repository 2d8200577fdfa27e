/**
 * Site-wide defaults for NEW map blocks (Settings → Cairn Maps), printed by
 * plugin/Settings/Editor_Defaults.php as `window.cairnMapsSiteDefaults`.
 *
 * They are applied as explicit attributes when a block is inserted, never by changing block.json
 * defaults: a block saved without attributes keeps rendering with block.json's values, so changing
 * the site defaults never changes a map already on a page. The inserter (main inserter, slash
 * command, quick inserter) takes a default block variation's attributes; blocks created in code
 * with `createBlock( 'cairn/map' )` start from block.json.
 */
import { getBlockType, registerBlockVariation } from '@wordpress/blocks';
import type { BlockVariation } from '@wordpress/blocks';

import { BUILTIN_DEFAULTS, parseSiteDefaults } from '../../shared/defaults';
import type { SiteDefaults } from '../../shared/defaults';
import type { MapBlockAttributes } from './types';

export const SITE_DEFAULTS_VARIATION = 'cairn-site-defaults';

/** The site's defaults for new blocks; block.json's values when the site has none. */
export function getSiteDefaults(): SiteDefaults {
	return parseSiteDefaults(
		( window as { cairnMapsSiteDefaults?: unknown } ).cairnMapsSiteDefaults
	);
}

function sameAsBuiltin( defaults: SiteDefaults ): boolean {
	return JSON.stringify( defaults ) === JSON.stringify( BUILTIN_DEFAULTS );
}

/**
 * Makes the inserter give new blocks the site defaults. Call once, after `registerBlockType`.
 * Does nothing while the site defaults equal block.json's.
 */
export function registerSiteDefaultsVariation(): void {
	const defaults = getSiteDefaults();
	const blockType = getBlockType( 'cairn/map' );
	if ( ! blockType || sameAsBuiltin( defaults ) ) {
		return;
	}
	const variation: BlockVariation = {
		name: SITE_DEFAULTS_VARIATION,
		title: blockType.title,
		description: blockType.description,
		icon: blockType.icon?.src,
		keywords: blockType.keywords,
		isDefault: true,
		scope: [ 'inserter' ],
		attributes: {
			mapStyle: defaults.mapStyle,
			language: defaults.language,
			controls: { ...defaults.controls },
		} satisfies Partial< MapBlockAttributes >,
	};
	registerBlockVariation( 'cairn/map', variation );
}
