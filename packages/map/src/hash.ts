/**
 * The view in the page address: `#zoom/lat/lng[/bearing[/pitch]]`, or `#name=zoom/lat/lng/…` when
 * several maps on one page keep their view there (each under its own name; other parts of the
 * fragment are kept).
 *
 * mapbox-gl's own hash throws on an out-of-range fragment and leaves a half-built map, so the
 * runtime parses the fragment here, drops a bad one, and writes it itself.
 */
import { LIMITS } from './limits';

export interface HashView {
	zoom: number;
	lat: number;
	lng: number;
	bearing: number;
	pitch: number;
}

const NUMBER = /^-?\d+(\.\d+)?$/;

function within( value: number, range: { min: number; max: number } ) {
	return value >= range.min && value <= range.max;
}

/** Parses the `zoom/lat/lng[/bearing[/pitch]]` part; null when malformed or out of range. */
export function parseView(
	value: string,
	zoomRange: { min: number; max: number } = LIMITS.zoom
): HashView | null {
	const parts = value.split( '/' );
	if ( parts.length < 3 || parts.length > 5 ) {
		return null;
	}
	if ( ! parts.every( ( part ) => NUMBER.test( part ) ) ) {
		return null;
	}
	const [ zoom = 0, lat = 0, lng = 0, bearing = 0, pitch = 0 ] =
		parts.map( Number );
	if (
		! within( zoom, zoomRange ) ||
		! within( lat, LIMITS.latitude ) ||
		! within( lng, LIMITS.longitude ) ||
		! within( bearing, LIMITS.bearing ) ||
		! within( pitch, LIMITS.pitch )
	) {
		return null;
	}
	return { zoom, lat, lng, bearing, pitch };
}

interface Fragment {
	/** `zoom/lat/lng…` without a name: the page's single hashed map. */
	unnamed: string | null;
	/** `name=value` parts, in order. */
	named: Array< [ string, string ] >;
	/** Anything else, kept as it was. */
	others: string[];
}

function splitFragment( fragment: string ): Fragment {
	const result: Fragment = { unnamed: null, named: [], others: [] };
	for ( const part of fragment.replace( /^#/, '' ).split( '&' ) ) {
		if ( part === '' ) {
			continue;
		}
		const equals = part.indexOf( '=' );
		if ( equals > 0 ) {
			let key = part.slice( 0, equals );
			try {
				key = decodeURIComponent( key );
			} catch {
				// A malformed escape: keep the raw key; it cannot match a map's name.
			}
			result.named.push( [ key, part.slice( equals + 1 ) ] );
		} else if ( result.unnamed === null && part.includes( '/' ) ) {
			result.unnamed = part;
		} else {
			result.others.push( part );
		}
	}
	return result;
}

function joinFragment( fragment: Fragment ): string {
	const parts = [
		...( fragment.unnamed ? [ fragment.unnamed ] : [] ),
		...fragment.named.map(
			( [ key, value ] ) => `${ encodeURIComponent( key ) }=${ value }`
		),
		...fragment.others,
	];
	return parts.length ? `#${ parts.join( '&' ) }` : '';
}

/** The part of a fragment (`#…`, with or without `#`) that belongs to this map, or null. */
function ownPart( fragment: string, name: string ): string | null {
	const parts = splitFragment( fragment );
	if ( ! name ) {
		return parts.unnamed;
	}
	return parts.named.find( ( [ key ] ) => key === name )?.[ 1 ] ?? null;
}

export type HashReading =
	{ kind: 'none' } | { kind: 'valid'; view: HashView } | { kind: 'invalid' };

export function readLocationHash(
	fragment: string,
	name: string,
	zoomRange?: { min: number; max: number }
): HashReading {
	const own = ownPart( fragment, name );
	if ( own === null ) {
		return { kind: 'none' };
	}
	const view = parseView( own, zoomRange );
	return view ? { kind: 'valid', view } : { kind: 'invalid' };
}

function trim( value: number, digits: number ): string {
	return String( Math.round( value * 10 ** digits ) / 10 ** digits );
}

/** Writes a view in the format mapbox-gl uses: precision follows the zoom. */
export function formatView( view: HashView ): string {
	const precision = Math.ceil(
		( view.zoom * Math.LN2 + Math.log( 512 / 360 / 0.5 ) ) / Math.LN10
	);
	const parts = [
		trim( view.zoom, 2 ),
		trim( view.lat, Math.max( precision, 0 ) ),
		trim( view.lng, Math.max( precision, 0 ) ),
	];
	if ( view.bearing || view.pitch ) {
		parts.push( trim( view.bearing, 1 ) );
	}
	if ( view.pitch ) {
		parts.push( trim( view.pitch, 0 ) );
	}
	return parts.join( '/' );
}

/** The new fragment with this map's part replaced (or removed when `view` is null). */
export function writeLocationHash(
	fragment: string,
	name: string,
	view: HashView | null
): string {
	const value = view ? formatView( view ) : null;
	const parts = splitFragment( fragment );
	if ( ! name ) {
		parts.unnamed = value;
	} else {
		const index = parts.named.findIndex( ( [ key ] ) => key === name );
		if ( value === null ) {
			parts.named = parts.named.filter( ( [ key ] ) => key !== name );
		} else if ( index >= 0 ) {
			parts.named[ index ] = [ name, value ];
		} else {
			parts.named.push( [ name, value ] );
		}
	}
	return joinFragment( parts );
}
