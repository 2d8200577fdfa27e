/**
 * Label language. Mapbox Standard honours mapbox-gl's `language` option by itself. Classic styles
 * (Streets, Outdoors, Light, Dark, Satellite Streets) write `name_en`-style fields into their
 * layers, so their label layers are rewritten to the chosen language's field, falling back to the
 * local name. MapLibre has no `language` option: OpenMapTiles and Protomaps styles get their label
 * layers rewritten to `name:<lang>`, falling back to `name` (engine/vector-labels.ts).
 */
import type { Map as MapboxMap } from 'mapbox-gl';

/** Languages with their own name field in Mapbox Streets v8 tiles. */
const STREETS_NAME_FIELDS = [
	'ar',
	'de',
	'en',
	'es',
	'fr',
	'it',
	'ja',
	'ko',
	'pt',
	'ru',
	'vi',
	'zh-Hans',
	'zh-Hant',
];

/** The language the labels should use: the chosen one, or the visitor's for `auto`. */
export function resolveLanguage(
	language: string,
	preferred: readonly string[]
): string {
	if ( language !== 'auto' ) {
		return language;
	}
	for ( const tag of preferred ) {
		const [ primary = '', script ] = tag.split( '-' );
		if ( primary === 'zh' ) {
			return /^(tw|hk|mo|hant)$/i.test( script ?? '' )
				? 'zh-Hant'
				: 'zh-Hans';
		}
		if ( primary ) {
			return primary.toLowerCase();
		}
	}
	return 'en';
}

/** The Streets v8 field for a language, or null when the tiles carry none. */
export function nameField( language: string ): string | null {
	return STREETS_NAME_FIELDS.includes( language )
		? `name_${ language }`
		: null;
}

const NAME_REFERENCE = /^name(_[a-zA-Z-]+)?$/;

export type Expression = unknown;

/** Replaces every `["get", "name…"]` in a text-field expression. */
export function rewriteTextField(
	value: Expression,
	field: string | null
): Expression {
	const replacement = field
		? [ 'coalesce', [ 'get', field ], [ 'get', 'name' ] ]
		: [ 'get', 'name' ];
	if ( typeof value === 'string' ) {
		// Legacy token strings: "{name_en}".
		return /^\{name(_[a-zA-Z-]+)?\}$/.test( value ) ? replacement : value;
	}
	if ( ! Array.isArray( value ) ) {
		return value;
	}
	if (
		value[ 0 ] === 'get' &&
		value.length === 2 &&
		typeof value[ 1 ] === 'string' &&
		NAME_REFERENCE.test( value[ 1 ] )
	) {
		return replacement;
	}
	return value.map( ( part ) => rewriteTextField( part, field ) );
}

/**
 * Rewrites the text-field of every label layer of the style (not ours) with `rewrite`.
 * @param map
 * @param rewrite
 */
export function rewriteLabels(
	map: MapboxMap,
	rewrite: ( textField: Expression ) => Expression
): void {
	const style = map.getStyle();
	if ( ! style?.layers?.length ) {
		return; // Standard (layers live in imports) or not loaded.
	}
	for ( const layer of style.layers ) {
		if ( layer.type !== 'symbol' || layer.id.startsWith( 'cairn-' ) ) {
			continue;
		}
		const textField = map.getLayoutProperty( layer.id, 'text-field' );
		if ( textField === undefined ) {
			continue;
		}
		const rewritten = rewrite( textField );
		if ( JSON.stringify( rewritten ) !== JSON.stringify( textField ) ) {
			map.setLayoutProperty(
				layer.id,
				'text-field',
				// The rewrites only swap name lookups inside a valid text-field.
				rewritten as Parameters<
					typeof map.setLayoutProperty< 'text-field' >
				>[ 2 ]
			);
		}
	}
}

/** Applies the language to a classic style's label layers; Standard needs nothing. */
export function localizeClassicStyle(
	map: MapboxMap,
	language: string,
	preferred: readonly string[]
): void {
	const field = nameField( resolveLanguage( language, preferred ) );
	rewriteLabels( map, ( textField ) => rewriteTextField( textField, field ) );
}
