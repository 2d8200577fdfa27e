/**
 * The interpreter of map-schema.json: the map block's attribute rules and defaults, one JSON
 * Schema per attribute (top-level keys, so bundlers can leave out attributes no script reads). The
 * server reads the same file (plugin/Support/Map_Schema.php, from build/map-schema.json); block.json
 * repeats types and defaults for WordPress, and tests hold them equal.
 *
 * Parsing never rejects: what breaks its rule falls back to its default, field by field, as the
 * server's Map_Attributes does.
 */
import limits from './limits.json';

/**
 * The JSON Schema subset map-schema.json is written in. A rule's value written `"$a.b"` is
 * limits.json's `a.b` (limit()).
 */
export interface Schema {
	type?: string;
	properties?: Record< string, Schema >;
	patternProperties?: Record< string, Schema >;
	items?: Schema;
	anyOf?: Schema[];
	enum?: unknown[];
	minimum?: number | string;
	maximum?: number | string;
	pattern?: string;
	minItems?: number;
	maxItems?: number | string;
	maxProperties?: number | string;
	uniqueItems?: boolean;
	default?: unknown;
}

export function isRecord( value: unknown ): value is Record< string, unknown > {
	return (
		typeof value === 'object' && value !== null && ! Array.isArray( value )
	);
}

/** A list's copy; anything else as it is. */
function copy( value: unknown ): unknown {
	return Array.isArray( value ) ? [ ...value ] : value;
}

/**
 * A rule's value: as written, or for `"$a.b"` limits.json's `a.b`.
 *
 * @param value The value as written.
 */
function limit( value: unknown ): unknown {
	return typeof value === 'string' && value[ 0 ] === '$'
		? value
				.slice( 1 )
				.split( '.' )
				.reduce< unknown >(
					( part, key ) => ( isRecord( part ) ? part[ key ] : part ),
					limits
				)
		: value;
}

/**
 * Whether a single value keeps its rule as it is: type (a number is finite), enum, range,
 * pattern, anyOf.
 *
 * @param schema The rule.
 * @param value  Untrusted input.
 */
export function isValid( schema: Schema, value: unknown ): boolean {
	const { type } = schema;
	// A number must be finite; an integer a number without fraction.
	const strict: Record< string, boolean > = {
		number: Number.isFinite( value ),
		integer: Number.isInteger( value ),
	};
	return (
		( ! type || ( strict[ type ] ?? typeof value === type ) ) &&
		( ! schema.enum || schema.enum.includes( value ) ) &&
		( typeof value !== 'number' ||
			( value >= Number( limit( schema.minimum ) ?? -Infinity ) &&
				value <= Number( limit( schema.maximum ) ?? Infinity ) ) ) &&
		new RegExp( String( limit( schema.pattern ) ?? '' ) ).test(
			String( value )
		) &&
		( ! schema.anyOf ||
			schema.anyOf.some( ( sub ) => isValid( sub, value ) ) )
	);
}

/**
 * A value made to keep its rule. A single value: as it is, else `fallback`. A list: its valid
 * items, each once with `uniqueItems`, at most `maxItems`; `fallback` when it is no list or keeps
 * fewer than `minItems`. An object: each property by its rule, the fallback's value as its own;
 * the keys that match a `patternProperties` pattern with a value that keeps its rule, at most
 * `maxProperties`; nothing else.
 *
 * @param schema   The rule.
 * @param value    Untrusted input.
 * @param fallback What replaces a value that breaks the rule; the rule's default when not given.
 */
export function sanitize(
	schema: Schema,
	value: unknown,
	fallback: unknown = schema.default
): unknown {
	if ( schema.type === 'array' ) {
		const items = Array.isArray( value )
			? value
					.filter(
						( item, index ) =>
							isValid( schema.items ?? {}, item ) &&
							! (
								schema.uniqueItems &&
								value.indexOf( item ) < index
							)
					)
					.slice( 0, Number( limit( schema.maxItems ) ?? Infinity ) )
			: [];
		return Array.isArray( value ) &&
			items.length >= ( schema.minItems ?? 0 )
			? items
			: // A copy: the default belongs to the schema, the result to the caller.
				copy( fallback );
	}
	if ( schema.type !== 'object' ) {
		return isValid( schema, value ) ? value : fallback;
	}
	const input = isRecord( value ) ? value : {};
	const defaults = isRecord( fallback ) ? fallback : {};
	const object: Record< string, unknown > = {};
	for ( const [ name, sub ] of Object.entries( schema.properties ?? {} ) ) {
		object[ name ] = sanitize( sub, input[ name ], defaults[ name ] );
	}
	for ( const [ pattern, sub ] of Object.entries(
		schema.patternProperties ?? {}
	) ) {
		for ( const [ name, item ] of Object.entries( input ) ) {
			const clean = sanitize( sub, item, null );
			if (
				clean !== null &&
				new RegExp( pattern ).test( name ) &&
				Object.keys( object ).length <
					Number( limit( schema.maxProperties ) ?? Infinity )
			) {
				object[ name ] = clean;
			}
		}
	}
	return object;
}
