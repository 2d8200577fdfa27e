/**
 * Reads `window.cairnMapsEditor`, printed by plugin/Blocks/Editor_Data.php.
 */
import { groupStyles } from '../../../packages/map/src/config';
import { LIMITS } from '../../../packages/map/src/limits';
import type { GroupStyle, MapErrorCode } from '../../../packages/map/src/types';

export interface EditorData {
	accessToken: string;
	tokenError: MapErrorCode | '';
	canManageOptions: boolean;
	settingsUrl: string;
	markersUrl: string;
	markerUrl: string;
	markerEditUrl: string;
	/** Group colours and icons, so the preview draws markers as visitors see them. */
	groupStyles: GroupStyle[];
	/** The hosts a block's https style may be on (the server's Map_Attributes::style_hosts()). */
	styleHosts: string[];
}

const TOKEN_ERRORS: ReadonlyArray< string > = [
	'missing-token',
	'secret-token',
	'invalid-token',
];

function text( value: unknown ): string {
	return typeof value === 'string' ? value : '';
}

export function getEditorData(): EditorData {
	const raw: unknown = ( window as { cairnMapsEditor?: unknown } )
		.cairnMapsEditor;
	const data =
		typeof raw === 'object' && raw !== null
			? ( raw as Record< string, unknown > )
			: {};
	const tokenError = text( data.tokenError );
	return {
		accessToken: text( data.accessToken ),
		tokenError: TOKEN_ERRORS.includes( tokenError )
			? ( tokenError as MapErrorCode )
			: '',
		canManageOptions: data.canManageOptions === true,
		settingsUrl: text( data.settingsUrl ),
		markersUrl: text( data.markersUrl ),
		markerUrl: text( data.markerUrl ),
		markerEditUrl: text( data.markerEditUrl ),
		groupStyles: groupStyles( data.groupStyles ),
		styleHosts: Array.isArray( data.styleHosts )
			? data.styleHosts.filter(
					( host ): host is string =>
						typeof host === 'string' && /^[a-z0-9.-]+$/.test( host )
				)
			: LIMITS.mapStyle.hosts,
	};
}

/** The feed URL for a marker selection, or '' when the selection is empty. */
export function markersFeedUrl(
	base: string,
	selection: { source: string; groups: string[]; ids: number[] }
): string {
	if ( ! base ) {
		return '';
	}
	const url = new URL( base, window.location.href );
	if ( selection.source === 'groups' ) {
		if ( selection.groups.length === 0 ) {
			return '';
		}
		url.searchParams.set( 'group', selection.groups.join( ',' ) );
	}
	if ( selection.source === 'ids' ) {
		if ( selection.ids.length === 0 ) {
			return '';
		}
		url.searchParams.set( 'include', selection.ids.join( ',' ) );
	}
	return url.toString();
}
