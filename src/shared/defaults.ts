/**
 * Site-wide defaults for new map blocks (option `cairn_maps_defaults`): the style, label language
 * and controls a newly inserted block starts with. Their built-in values are block.json's.
 */
import type { ControlsConfig } from '@cairn-maps/map';
import {
	isRecord,
	isValidStyleUrl,
	LANGUAGE_PATTERN,
} from '@cairn-maps/map/plugin';

import metadata from '../blocks/map/block.json';

export interface SiteDefaults {
	mapStyle: string;
	language: string;
	controls: ControlsConfig;
}

export const BUILTIN_DEFAULTS: SiteDefaults = {
	mapStyle: metadata.attributes.mapStyle.default,
	language: metadata.attributes.language.default,
	controls: { ...metadata.attributes.controls.default },
};

function bool( value: unknown, fallback: boolean ): boolean {
	return typeof value === 'boolean' ? value : fallback;
}

export function isValidLanguage( value: string ): boolean {
	return value === 'auto' || LANGUAGE_PATTERN.test( value );
}

/**
 * Site defaults from untrusted input (REST, a printed global); each invalid or missing part takes
 * the built-in value.
 */
export function parseSiteDefaults(
	value: unknown,
	fallback: SiteDefaults = BUILTIN_DEFAULTS
): SiteDefaults {
	const input = isRecord( value ) ? value : {};
	const controls = isRecord( input.controls ) ? input.controls : {};
	return {
		mapStyle:
			typeof input.mapStyle === 'string' &&
			isValidStyleUrl( input.mapStyle )
				? input.mapStyle
				: fallback.mapStyle,
		language:
			typeof input.language === 'string' &&
			isValidLanguage( input.language )
				? input.language
				: fallback.language,
		controls: {
			zoom: bool( controls.zoom, fallback.controls.zoom ),
			compass: bool( controls.compass, fallback.controls.compass ),
			scale: bool( controls.scale, fallback.controls.scale ),
			fullscreen: bool(
				controls.fullscreen,
				fallback.controls.fullscreen
			),
			geolocate: bool( controls.geolocate, fallback.controls.geolocate ),
		},
	};
}
