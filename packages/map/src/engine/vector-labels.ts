/**
 * Label language on MapLibre, which has no `language` option: the label layers of OpenMapTiles and
 * Protomaps styles are rewritten to the language's `name:<lang>`, falling back to the local
 * `name`. Only the maplibre-gl adapter loads this.
 */
import type { Map as MapboxMap } from 'mapbox-gl';

import { resolveLanguage, rewriteLabels, type Expression } from '../language';

/**
 * The name keys of the OpenMapTiles schema (`name`, `name:xx`, `name_en`, `name_int`,
 * `name:latin`, `name:nonlatin`) and of the Protomaps basemap schema (`name`, `name:xx`,
 * `name2`/`name3` and their `pgf:` forms, `pmap:` keys).
 */
const VECTOR_NAME_KEY =
	/^(?:(?:pgf:)?name[23]?|name[:_][A-Za-z-]+|pmap:[A-Za-z_:-]+)$/;

/** Whether an expression (or a legacy `{token}` string) reads a name. */
function readsName( value: Expression ): boolean {
	if ( typeof value === 'string' ) {
		return /\{(?:(?:pgf:)?name[23]?|name[:_][A-Za-z-]+)\}/.test( value );
	}
	if ( ! Array.isArray( value ) ) {
		return false;
	}
	if (
		value[ 0 ] === 'get' &&
		typeof value[ 1 ] === 'string' &&
		VECTOR_NAME_KEY.test( value[ 1 ] )
	) {
		return true;
	}
	return value.some( readsName );
}

/**
 * The `name:` keys a language's labels are read from, most precise first (Chinese: the script's
 * own key, then OpenMapTiles' `name:zh`).
 * @param tag
 */
export function vectorNameKeys( tag: string ): string[] {
	const primary = tag.split( '-' )[ 0 ]?.toLowerCase() ?? '';
	if ( primary === 'zh' ) {
		return [
			`name:${ tag === 'zh-Hant' ? 'zh-Hant' : 'zh-Hans' }`,
			'name:zh',
		];
	}
	return primary ? [ `name:${ primary }` ] : [];
}

/**
 * A MapLibre style's text-field in a language: a field that reads a name (OpenMapTiles or
 * Protomaps schema) becomes the language's `name:xx`, falling back to the local `name`; any other
 * field (a road's ref, a house number) is left alone.
 * @param value
 * @param tag   A resolved language tag (`resolveLanguage`).
 */
export function rewriteVectorTextField(
	value: Expression,
	tag: string
): Expression {
	if ( ! readsName( value ) ) {
		return value;
	}
	return [
		'coalesce',
		...vectorNameKeys( tag ).map( ( key ) => [ 'get', key ] ),
		[ 'get', 'name' ],
	];
}

/** Applies the language to the label layers of an OpenMapTiles or Protomaps style (MapLibre). */
export function localizeVectorStyle(
	map: MapboxMap,
	language: string,
	preferred: readonly string[]
): void {
	const tag = resolveLanguage( language, preferred );
	rewriteLabels( map, ( textField ) =>
		rewriteVectorTextField( textField, tag )
	);
}
