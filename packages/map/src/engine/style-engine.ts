/**
 * The one rule that decides a map's engine from its style reference (issue 31 contract): the
 * PHP side's `Cairn\Maps\Blocks\Basemap::engine_for()` says the same, and both read the shared
 * vectors in tests/fixtures/styles.json. Like the PHP rule it reads URLs with expressions, not a
 * URL parser, so the two agree on every input.
 */
import type { EngineName } from './types';

/** A `mapbox://styles/<owner>/<id>` reference. */
const MAPBOX_STYLE =
	/^mapbox:\/\/styles\/[A-Za-z0-9_-][A-Za-z0-9_.-]*\/[A-Za-z0-9_-][A-Za-z0-9_.-]*$/;
export const PMTILES_PREFIX = 'pmtiles://';
/** Style URLs on these hosts are Mapbox's (they need a token). */
const MAPBOX_HOSTS = [ 'api.mapbox.com' ];
const MAX_LENGTH = 2048;
const LABEL = '[a-z0-9](?:[a-z0-9-]*[a-z0-9])?';
const HOST = new RegExp( `^${ LABEL }(?:\\.${ LABEL })*$` );

interface UrlParts {
	scheme: 'http' | 'https';
	host: string;
	port: number;
}

/**
 * An absolute http(s) URL as the rule reads it, or null when the rule refuses it (whitespace,
 * quotes, angle brackets, backslashes, credentials, IPv6 literals, an empty host, a bad port).
 * @param url
 */
export function urlParts( url: string ): UrlParts | null {
	const match = /^(https?):\/\/([^/?#]*)([/?#].*)?$/s.exec( url );
	if ( ! match || /[\s"'<>\\]/.test( url ) ) {
		return null;
	}
	const authority = /^([A-Za-z0-9.-]+)(?::([1-9][0-9]{0,4}))?$/.exec(
		match[ 2 ] ?? ''
	);
	if ( ! authority ) {
		return null;
	}
	const host = ( authority[ 1 ] ?? '' ).toLowerCase();
	const port = authority[ 2 ] ? Number( authority[ 2 ] ) : 0;
	if ( host.length > 253 || port > 65535 || ! HOST.test( host ) ) {
		return null;
	}
	return { scheme: match[ 1 ] as UrlParts[ 'scheme' ], host, port };
}

/**
 * The engine a style reference is drawn with, or null when the reference is refused.
 * @param style A `mapbox://styles/…` reference, an https style URL or `pmtiles://<archive URL>`.
 */
export function engineForStyle( style: unknown ): EngineName | null {
	if ( typeof style !== 'string' || style === '' ) {
		return null;
	}
	if ( style.length > MAX_LENGTH ) {
		return null;
	}
	if ( MAPBOX_STYLE.test( style ) ) {
		return 'mapbox';
	}
	if ( style.startsWith( PMTILES_PREFIX ) ) {
		return urlParts( style.slice( PMTILES_PREFIX.length ) )
			? 'maplibre'
			: null;
	}
	const url = urlParts( style );
	if ( ! url || url.scheme !== 'https' ) {
		return null;
	}
	return MAPBOX_HOSTS.includes( url.host ) ? 'mapbox' : 'maplibre';
}

/**
 * The archive URL of a `pmtiles://` reference, or '' for any other.
 * @param style
 */
export function archiveUrl( style: string ): string {
	return style.startsWith( PMTILES_PREFIX ) && engineForStyle( style )
		? style.slice( PMTILES_PREFIX.length )
		: '';
}
