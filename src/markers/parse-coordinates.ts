/**
 * Reads a pasted position: "latitude, longitude" in the forms people copy from maps and pages.
 *
 * - decimal degrees: `55.95, -3.19`, `55.95 -3.19`, `55,95; -3,19` (decimal commas), `(55.95, -3.19)`,
 *   `lat: 55.95, lng: -3.19`;
 * - hemispheres: `55.95° N, 3.19° W`, `N 55.95 W 3.19`, `3.19W 55.95N` (letters decide the axis);
 * - degrees, minutes, seconds: `55°57'00"N 3°11'24"W`, `55° 57.5′ N, 3° 11′ 24″ W`;
 * - map links: Google Maps (`…/@55.95,-3.19,15z`, `…!3d55.95!4d-3.19`, `?q=55.95,-3.19`),
 *   OpenStreetMap (`?mlat=55.95&mlon=-3.19`, `#map=15/55.95/-3.19`), `geo:55.95,-3.19`.
 *
 * Without hemisphere letters the first number is the latitude. Pure: no DOM, no WordPress.
 */
import type { LngLat } from '@cairn-maps/map';
import { LIMITS } from '@cairn-maps/map/plugin';

// Markers may sit at any real latitude (the map's ±85.0511 applies to its camera only).
const LATITUDE = LIMITS.markerLatitude;
const LONGITUDE = LIMITS.longitude;

/** `{ lat, lng }` when both are finite numbers in range, else null. */
function position( lat: number, lng: number ): LngLat | null {
	return Number.isFinite( lat ) &&
		Number.isFinite( lng ) &&
		lat >= LATITUDE.min &&
		lat <= LATITUDE.max &&
		lng >= LONGITUDE.min &&
		lng <= LONGITUDE.max
		? { lat, lng }
		: null;
}

const DECIMAL_PAIR =
	/^\s*([+-]?\d+(?:\.\d+)?)\s*[,;/~\s]\s*([+-]?\d+(?:\.\d+)?)\s*$/;

/** A number written plainly (no exponent, no hex), else NaN. */
function plainNumber( value: string | null | undefined ): number {
	return value && /^[+-]?\d+(?:\.\d+)?$/.test( value.trim() )
		? Number( value )
		: NaN;
}

/** decodeURIComponent that gives the text back unchanged when it is not valid. */
function decoded( value: string ): string {
	try {
		return decodeURIComponent( value );
	} catch {
		return value;
	}
}

/** "lat,lng" as found in link parameters. */
function decimalPair( value: string | null ): LngLat | null {
	const match = value ? DECIMAL_PAIR.exec( value ) : null;
	return match
		? position( Number( match[ 1 ] ), Number( match[ 2 ] ) )
		: null;
}

/** A map link (Google Maps, OpenStreetMap, Bing, Apple Maps), or null when it holds no position. */
function fromLink( text: string ): LngLat | null {
	let url: URL;
	try {
		url = new URL( text );
	} catch {
		return null;
	}
	const params = url.searchParams;
	const marker = position(
		plainNumber( params.get( 'mlat' ) ),
		plainNumber( params.get( 'mlon' ) )
	);
	if ( marker ) {
		return marker;
	}
	// Google's place pin (!3d lat !4d lng) is the place itself; "@" is only the view's centre.
	const pin = /!3d([+-]?\d+(?:\.\d+)?)!4d([+-]?\d+(?:\.\d+)?)/.exec(
		decoded( url.href )
	);
	if ( pin ) {
		return position( Number( pin[ 1 ] ), Number( pin[ 2 ] ) );
	}
	for ( const name of [
		'q',
		'query',
		'll',
		'sll',
		'center',
		'destination',
		'cp',
	] ) {
		const found = decimalPair( params.get( name ) );
		if ( found ) {
			return found;
		}
	}
	const at = /@([+-]?\d+(?:\.\d+)?),([+-]?\d+(?:\.\d+)?)/.exec(
		decoded( url.pathname )
	);
	if ( at ) {
		return position( Number( at[ 1 ] ), Number( at[ 2 ] ) );
	}
	const view =
		/(?:^#|&)map=[\d.]+\/([+-]?\d+(?:\.\d+)?)\/([+-]?\d+(?:\.\d+)?)/.exec(
			url.hash
		);
	return view ? position( Number( view[ 1 ] ), Number( view[ 2 ] ) ) : null;
}

interface Component {
	hemisphere: string;
	negative: boolean;
	degrees: number | null;
	minutes: number | null;
	seconds: number | null;
}

function emptyComponent( hemisphere = '' ): Component {
	return {
		hemisphere,
		negative: false,
		degrees: null,
		minutes: null,
		seconds: null,
	};
}

/** The value in degrees, or null when a part is out of range. */
function degreesOf( component: Component ): number | null {
	const { degrees, minutes, seconds } = component;
	if ( degrees === null ) {
		return null;
	}
	if (
		( minutes !== null && minutes >= 60 ) ||
		( seconds !== null && seconds >= 60 ) ||
		// Minutes and seconds follow whole degrees (and seconds whole minutes).
		( ( minutes !== null || seconds !== null ) &&
			! Number.isInteger( degrees ) ) ||
		( seconds !== null &&
			minutes !== null &&
			! Number.isInteger( minutes ) )
	) {
		return null;
	}
	const value = degrees + ( minutes ?? 0 ) / 60 + ( seconds ?? 0 ) / 3600;
	const south = component.hemisphere === 'S' || component.hemisphere === 'W';
	if ( component.negative && component.hemisphere ) {
		return null; // "-55 S" says south twice, or contradicts itself.
	}
	return component.negative || south ? -value : value;
}

const TOKENS = /[NSEW]|[+-]?\d+(?:\.\d+)?|[°'",;]|\S/g;

/**
 * Degrees (decimal or DMS), with or without hemisphere letters: two components, each an
 * optional leading letter, degrees, optional minutes and seconds, an optional trailing letter.
 */
function fromDegrees( text: string ): LngLat | null {
	const normalized = text
		.toUpperCase()
		.replace( /[′’‘´`]/g, "'" )
		.replace( /[″“”]|''/g, '"' )
		.replace( /[º˚]/g, '°' )
		.replace( /\bDEG\b/g, '°' )
		.replace( /[()[\]]/g, ' ' )
		.replace( /\b(?:LATITUDE|LONGITUDE|LAT|LNG|LONG|LON)\b\s*[:=]?/g, ' ' );
	const tokens = normalized.match( TOKENS ) ?? [];
	const components: Component[] = [];
	let current: Component | null = null;
	const finish = () => {
		if ( current ) {
			components.push( current );
			current = null;
		}
	};
	for ( let i = 0; i < tokens.length; i++ ) {
		const token = tokens[ i ] ?? '';
		if ( /^[NSEW]$/.test( token ) ) {
			const open: Component | null = current;
			if ( open && open.degrees !== null && ! open.hemisphere ) {
				open.hemisphere = token; // Trailing: "55.95 N".
				finish();
			} else if ( ! open || open.degrees !== null ) {
				finish();
				current = emptyComponent( token ); // Leading: "N 55.95".
			} else {
				return null; // Two letters in a row.
			}
			continue;
		}
		if ( token === ',' || token === ';' ) {
			finish();
			continue;
		}
		if ( ! /^[+-]?\d/.test( token ) ) {
			return null;
		}
		const next = tokens[ i + 1 ];
		const unit = next === '°' || next === "'" || next === '"' ? next : '';
		if ( unit ) {
			i++;
		}
		const value = Math.abs( Number( token ) );
		const negative = token.startsWith( '-' );
		if ( unit === "'" || unit === '"' ) {
			const open: Component | null = current;
			const slot = unit === "'" ? 'minutes' : 'seconds';
			if (
				! open ||
				open.degrees === null ||
				open[ slot ] !== null ||
				negative ||
				( slot === 'minutes' && open.seconds !== null )
			) {
				return null;
			}
			open[ slot ] = value;
			continue;
		}
		const open: Component | null = current;
		if ( open && open.degrees !== null ) {
			finish(); // A second bare number starts the second component.
		}
		const target: Component = current ?? emptyComponent();
		target.degrees = value;
		target.negative = negative;
		current = target;
	}
	finish();
	if ( components.length !== 2 ) {
		return null;
	}
	const [ first, second ] = components as [ Component, Component ];
	const axis = ( component: Component ) => {
		if ( component.hemisphere === 'N' || component.hemisphere === 'S' ) {
			return 'lat';
		}
		return component.hemisphere ? 'lng' : '';
	};
	let latitude = first;
	let longitude = second;
	if ( axis( first ) === 'lng' || axis( second ) === 'lat' ) {
		latitude = second;
		longitude = first;
	}
	if ( axis( latitude ) === 'lng' || axis( longitude ) === 'lat' ) {
		return null; // Two latitudes, or two longitudes.
	}
	const lat = degreesOf( latitude );
	const lng = degreesOf( longitude );
	return lat === null || lng === null ? null : position( lat, lng );
}

/**
 * Parses a pasted position.
 *
 * @param input What was pasted.
 * @return The position, or null when the text is not one (or is out of range).
 */
export function parseCoordinates( input: string ): LngLat | null {
	const text = input.trim();
	if ( ! text || text.length > 2048 ) {
		return null;
	}
	const geo = /^geo:([+-]?\d+(?:\.\d+)?),([+-]?\d+(?:\.\d+)?)/i.exec( text );
	if ( geo ) {
		return position( Number( geo[ 1 ] ), Number( geo[ 2 ] ) );
	}
	if ( /^https?:\/\//i.test( text ) ) {
		return fromLink( text );
	}
	// "55,95; -3,19" and "55,95 -3,19": decimal commas, told apart from the separator.
	const commas =
		/^\s*([+-]?\d+),(\d+)\s*(?:;\s*|\s+)([+-]?\d+),(\d+)\s*$/.exec( text );
	if ( commas ) {
		return position(
			Number( `${ commas[ 1 ] }.${ commas[ 2 ] }` ),
			Number( `${ commas[ 3 ] }.${ commas[ 4 ] }` )
		);
	}
	return fromDegrees( text );
}
