/**
 * The plugin's settings as `/wp/v2/settings` holds them, read and saved through api-fetch.
 */
import apiFetch from '@wordpress/api-fetch';
import { __ } from '@wordpress/i18n';
import { isRecord } from '@cairn-maps/map/plugin';

import { parseSiteDefaults } from './defaults';
import type { SiteDefaults } from './defaults';

export interface PluginSettings {
	accessToken: string;
	defaults: SiteDefaults;
	requireConsent: boolean;
	/** The WP Consent API category whose consent lets the maps load (the server checks it). */
	consentCategory: string;
	deleteDataOnUninstall: boolean;
	/** Origins of headless front ends, one per entry as typed (the server normalises them). */
	allowedOrigins: string[];
	/** Post types whose posts can have a location. */
	postTypes: string[];
	/** The site's basemap: '' automatic, a Mapbox style, an https style URL or pmtiles://… */
	basemap: string;
}

/** Option names, fixed by the REST contract. */
export const OPTION = {
	accessToken: 'cairn_maps_access_token',
	defaults: 'cairn_maps_defaults',
	requireConsent: 'cairn_maps_require_consent',
	consentCategory: 'cairn_maps_consent_category',
	deleteDataOnUninstall: 'cairn_maps_delete_data_on_uninstall',
	allowedOrigins: 'cairn_maps_allowed_origins',
	postTypes: 'cairn_maps_post_types',
	basemap: 'cairn_maps_basemap',
} as const;

export function parsePluginSettings( value: unknown ): PluginSettings {
	const input = isRecord( value ) ? value : {};
	const token = input[ OPTION.accessToken ];
	const origins = input[ OPTION.allowedOrigins ];
	const category = input[ OPTION.consentCategory ];
	const postTypes = input[ OPTION.postTypes ];
	const basemap = input[ OPTION.basemap ];
	return {
		accessToken: typeof token === 'string' ? token : '',
		defaults: parseSiteDefaults( input[ OPTION.defaults ] ),
		requireConsent: input[ OPTION.requireConsent ] === true,
		consentCategory:
			typeof category === 'string' && category ? category : 'marketing',
		deleteDataOnUninstall: input[ OPTION.deleteDataOnUninstall ] === true,
		allowedOrigins: Array.isArray( origins )
			? origins.filter(
					( origin ): origin is string => typeof origin === 'string'
				)
			: [],
		postTypes: Array.isArray( postTypes )
			? postTypes.filter(
					( type ): type is string => typeof type === 'string'
				)
			: [],
		basemap: typeof basemap === 'string' ? basemap : '',
	};
}

export async function fetchPluginSettings(): Promise< PluginSettings > {
	const response: unknown = await apiFetch( { path: '/wp/v2/settings' } );
	return parsePluginSettings( response );
}

/**
 * Saves some or all settings; answers with what the server stored. The server refuses a bad token,
 * bad defaults, a bad basemap or a bad origin with a 400 and stores nothing.
 */
export async function savePluginSettings(
	changes: Partial< PluginSettings >
): Promise< PluginSettings > {
	const data: Record< string, unknown > = {};
	if ( changes.accessToken !== undefined ) {
		data[ OPTION.accessToken ] = changes.accessToken.trim();
	}
	if ( changes.defaults !== undefined ) {
		data[ OPTION.defaults ] = changes.defaults;
	}
	if ( changes.requireConsent !== undefined ) {
		data[ OPTION.requireConsent ] = changes.requireConsent;
	}
	if ( changes.consentCategory !== undefined ) {
		data[ OPTION.consentCategory ] = changes.consentCategory;
	}
	if ( changes.deleteDataOnUninstall !== undefined ) {
		data[ OPTION.deleteDataOnUninstall ] = changes.deleteDataOnUninstall;
	}
	if ( changes.allowedOrigins !== undefined ) {
		data[ OPTION.allowedOrigins ] = changes.allowedOrigins
			.map( ( origin ) => origin.trim() )
			.filter( ( origin ) => origin !== '' );
	}
	if ( changes.postTypes !== undefined ) {
		data[ OPTION.postTypes ] = changes.postTypes;
	}
	if ( changes.basemap !== undefined ) {
		data[ OPTION.basemap ] = changes.basemap.trim();
	}
	const response: unknown = await apiFetch( {
		path: '/wp/v2/settings',
		method: 'POST',
		data,
	} );
	return parsePluginSettings( response );
}

/** A message for a failed request: the server's own (never containing a token) or a generic one. */
export function requestErrorMessage( error: unknown ): string {
	if (
		isRecord( error ) &&
		typeof error.message === 'string' &&
		error.message
	) {
		return error.message;
	}
	return __(
		'The settings could not be saved. Please try again.',
		'cairn-maps'
	);
}
