<?php
/**
 * The engine rule for style references, and whether an archive is on this site.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Settings;

defined( 'ABSPATH' ) || exit;

/**
 * What a style reference (block attribute `mapStyle`, setting `cairn_maps_basemap`) is, read
 * from its text alone: the engine it draws with (`engineForStyle()` in
 * packages/map/src/engine/style-engine.ts is the same rule; tests/fixtures/styles.json holds them
 * together), and for a `pmtiles://` archive whether it is on this site. Blocks\Basemap builds on
 * it; it lives here so the setting's own checks can use it.
 *
 * @since 0.7.0
 */
final class Style_Reference {

	public const PMTILES_PREFIX = 'pmtiles://';

	/**
	 * Hosts whose https style URLs are Mapbox styles (engine mapbox).
	 */
	public const MAPBOX_HOSTS = array( 'api.mapbox.com' );

	/**
	 * Longest style reference accepted.
	 */
	public const MAX_LENGTH = 2048;

	/**
	 * The engine a style reference draws with: `mapbox`, `maplibre`, or null when the reference is
	 * refused (http:, other schemes, spaces, quotes, credentials, no host…).
	 *
	 * @param mixed $style A style reference (block attribute `mapStyle`, setting `cairn_maps_basemap`).
	 * @return 'mapbox'|'maplibre'|null
	 */
	public static function engine_for( $style ): ?string {
		if ( ! is_string( $style ) || '' === $style || strlen( $style ) > self::MAX_LENGTH ) {
			return null;
		}
		if ( 1 === preg_match( '#^mapbox://styles/[A-Za-z0-9_-][A-Za-z0-9_.-]*/[A-Za-z0-9_-][A-Za-z0-9_.-]*$#D', $style ) ) {
			return 'mapbox';
		}
		if ( 0 === strpos( $style, self::PMTILES_PREFIX ) ) {
			$archive = self::url_parts( substr( $style, strlen( self::PMTILES_PREFIX ) ) );
			return null === $archive ? null : 'maplibre';
		}
		$url = self::url_parts( $style );
		if ( null === $url || 'https' !== $url['scheme'] ) {
			return null;
		}
		return in_array( $url['host'], self::MAPBOX_HOSTS, true ) ? 'mapbox' : 'maplibre';
	}

	/**
	 * An absolute http(s) URL split the way the engine rule reads it, or null when the rule refuses
	 * it. Both sides of the rule (here and style-engine.ts) use these expressions, not a URL
	 * parser, so they agree on every input.
	 *
	 * @param string $url URL.
	 * @return array{scheme: string, host: string, port: int, rest: string}|null Host in lower case; port 0 when absent.
	 */
	public static function url_parts( string $url ): ?array {
		// No whitespace, quotes, angle brackets or backslashes anywhere (limits.json mapStyle.httpsPattern).
		if ( 1 !== preg_match( '#^(https?)://([^/?\#]*)([/?\#].*)?$#D', $url, $m ) || 1 === preg_match( '#[\s"\'<>\\\\]#', $url ) ) {
			return null;
		}
		if ( 1 !== preg_match( '#^([A-Za-z0-9.-]+)(?::([1-9][0-9]{0,4}))?$#D', $m[2], $authority ) ) {
			return null; // Credentials, IPv6 literals, an empty host or a bad port.
		}
		$host = strtolower( $authority[1] );
		$port = isset( $authority[2] ) ? (int) $authority[2] : 0;
		if ( strlen( $host ) > 253 || $port > 65535 || 1 !== preg_match( '#^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$#D', $host ) ) {
			return null;
		}
		return array(
			'scheme' => $m[1],
			'host'   => $host,
			'port'   => $port,
			'rest'   => $m[3] ?? '',
		);
	}

	/**
	 * The archive URL of a `pmtiles://` reference, or '' for any other reference.
	 *
	 * @param string $style Style reference.
	 */
	public static function archive_url( string $style ): string {
		return 0 === strpos( $style, self::PMTILES_PREFIX ) && null !== self::engine_for( $style ) ? substr( $style, strlen( self::PMTILES_PREFIX ) ) : '';
	}

	/**
	 * Whether a style reference may be stored as the site's basemap: the engine rule accepts it,
	 * and a `pmtiles://` archive is on this site.
	 *
	 * @param string $style Style reference.
	 */
	public static function is_acceptable( string $style ): bool {
		if ( null === self::engine_for( $style ) ) {
			return false;
		}
		$archive = self::archive_url( $style );
		return '' === $archive || self::is_on_site( $archive );
	}

	/**
	 * Whether a URL is on this site: the origin of home, siteurl or the uploads folder, or https
	 * on the host of an http one. An http URL is on the site only where that origin is http.
	 *
	 * @param string $url Absolute URL.
	 */
	public static function is_on_site( string $url ): bool {
		$parts = self::url_parts( $url );
		if ( null === $parts ) {
			return false;
		}
		foreach ( self::site_origins() as $origin ) {
			if ( $origin['host'] !== $parts['host'] ) {
				continue;
			}
			// The same origin; or https on the host of an http site (no downgrade, another port).
			if ( ( $origin['scheme'] === $parts['scheme'] && self::port( $origin ) === self::port( $parts ) ) || ( 'https' === $parts['scheme'] && 'http' === $origin['scheme'] ) ) {
				return true;
			}
		}
		return false;
	}

	/**
	 * A URL's port, the scheme's default when absent.
	 *
	 * @param array{scheme: string, host: string, port: int, rest: string} $parts From url_parts().
	 */
	private static function port( array $parts ): int {
		if ( 0 !== $parts['port'] ) {
			return $parts['port'];
		}
		return 'https' === $parts['scheme'] ? 443 : 80;
	}

	/**
	 * The hosts of home, siteurl and the uploads folder, lower case, each once.
	 *
	 * @return string[]
	 */
	public static function local_hosts(): array {
		return array_values( array_unique( array_column( self::site_origins(), 'host' ) ) );
	}

	/**
	 * The origins of home, siteurl and the uploads folder.
	 *
	 * @return array<int, array{scheme: string, host: string, port: int, rest: string}>
	 */
	private static function site_origins(): array {
		$uploads = wp_get_upload_dir();
		$origins = array();
		foreach ( array( home_url( '/' ), site_url( '/' ), $uploads['baseurl'] ) as $url ) {
			$parts = self::url_parts( $url );
			if ( null !== $parts ) {
				$origins[] = $parts;
			}
		}
		return $origins;
	}
}
