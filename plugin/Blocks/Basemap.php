<?php
/**
 * Which engine and basemap a style reference means.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Blocks;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Settings\Settings;

/**
 * The one rule that decides a map's engine from its style reference (`engineForStyle()` in
 * packages/map/src/engine/style-engine.ts is the same rule; tests/fixtures/styles.json holds them
 * together), the site's basemap (setting `cairn_maps_basemap`, or the automatic choice), and what
 * the runtime needs to know about a basemap (config key `basemap`: provider, glyphs, hosts,
 * attribution).
 *
 * The engine rule is syntactic: `mapbox://styles/owner/id` and https URLs on Mapbox's API host
 * draw with mapbox-gl; any other https style URL, and `pmtiles://` with an absolute http(s) URL
 * of an archive, draw with MapLibre. Whether a `pmtiles://` archive is on this site, and whether an
 * https host is allowed, are the setting's and Map_Attributes' checks, not the engine's.
 *
 * @since 0.7.0
 */
final class Basemap {

	public const MAPBOX_STANDARD     = 'mapbox://styles/mapbox/standard';
	public const OPENFREEMAP_HOST    = 'tiles.openfreemap.org';
	public const OPENFREEMAP_LIBERTY = 'https://tiles.openfreemap.org/styles/liberty';
	public const PMTILES_PREFIX      = 'pmtiles://';

	/**
	 * The OpenFreeMap styles the settings screen offers, by name.
	 */
	public const OPENFREEMAP_STYLES = array(
		'liberty'  => 'https://tiles.openfreemap.org/styles/liberty',
		'bright'   => 'https://tiles.openfreemap.org/styles/bright',
		'positron' => 'https://tiles.openfreemap.org/styles/positron',
	);

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
	 * Who serves a basemap: `mapbox`, `openfreemap`, `style-url` (any other https style) or
	 * `self-hosted` (a `pmtiles://` archive); '' for a refused reference.
	 *
	 * @param string $style Style reference.
	 */
	public static function provider_for( string $style ): string {
		$engine = self::engine_for( $style );
		if ( null === $engine ) {
			return '';
		}
		if ( 'mapbox' === $engine ) {
			return 'mapbox';
		}
		if ( '' !== self::archive_url( $style ) ) {
			return 'self-hosted';
		}
		$url = self::url_parts( $style );
		return null !== $url && self::OPENFREEMAP_HOST === $url['host'] ? 'openfreemap' : 'style-url';
	}

	/**
	 * The hosts a MapLibre map may contact for this basemap besides the page's origin and the
	 * config's own URLs (config `basemap.hosts`): none for a self-hosted archive or a Mapbox
	 * style (not enforced there), the style URL's host otherwise, plus those the owner adds.
	 *
	 * @param string $style Style reference.
	 * @return string[] Host names, lower case.
	 */
	public static function hosts_for( string $style ): array {
		$provider = self::provider_for( $style );
		if ( 'style-url' !== $provider && 'openfreemap' !== $provider ) {
			return array();
		}
		$url   = self::url_parts( $style );
		$hosts = null === $url ? array() : array( $url['host'] );
		/**
		 * Filters the hosts a map's MapLibre basemap may contact besides its style URL's host (a
		 * style's tiles, glyphs or sprite may live on another host). Each host added is contacted by
		 * every visitor's browser: name it in the site's privacy policy. Not applied to self-hosted
		 * archives, which never contact another host.
		 *
		 * @since 0.7.0
		 *
		 * @param string[] $hosts    Host names (exact, lower case, no wildcard). Default: the style URL's host.
		 * @param string   $style    The style reference.
		 * @param string   $provider `openfreemap` or `style-url`.
		 */
		$filtered = apply_filters( 'cairn_maps_basemap_hosts', $hosts, $style, $provider );
		$clean    = array();
		foreach ( is_array( $filtered ) ? $filtered : array() as $host ) {
			$host = is_string( $host ) ? strtolower( trim( $host ) ) : '';
			if ( 1 === preg_match( '/^[a-z0-9](?:[a-z0-9.-]{0,251}[a-z0-9])?$/D', $host ) && ! in_array( $host, $clean, true ) ) {
				$clean[] = $host;
			}
		}
		return $clean;
	}

	/**
	 * The site's glyph URL template for self-hosted maps (DejaVu stacks under assets/basemap/glyphs).
	 */
	public static function glyphs_url(): string {
		return plugins_url( 'assets/basemap/glyphs/', CAIRN_MAPS_FILE ) . '{fontstack}/{range}.pbf';
	}

	/**
	 * The attribution a map shows when its style or archive carries none ('' = the style's own).
	 *
	 * @param string $style Style reference.
	 */
	public static function attribution_for( string $style ): string {
		$provider = self::provider_for( $style );
		$defaults = array(
			'openfreemap' => 'OpenFreeMap © OpenMapTiles Data from OpenStreetMap',
			'self-hosted' => 'Protomaps © OpenStreetMap',
		);
		/**
		 * Filters the attribution a map shows when its basemap's style or archive carries none.
		 *
		 * @since 0.7.0
		 *
		 * @param string $attribution Plain text ('' = the style's own).
		 * @param string $style       The style reference.
		 * @param string $provider    `mapbox`, `openfreemap`, `style-url` or `self-hosted`.
		 */
		$attribution = apply_filters( 'cairn_maps_basemap_attribution', $defaults[ $provider ] ?? '', $style, $provider );
		return is_string( $attribution ) ? trim( wp_strip_all_tags( $attribution ) ) : '';
	}

	/**
	 * The config's `basemap` key for a style reference.
	 *
	 * @param string $style Style reference (already accepted).
	 * @return array{provider: string, glyphs: string, hosts: string[], attribution: string}
	 */
	public static function describe( string $style ): array {
		$provider = self::provider_for( $style );
		return array(
			'provider'    => '' === $provider ? 'mapbox' : $provider,
			'glyphs'      => 'self-hosted' === $provider ? self::glyphs_url() : '',
			'hosts'       => self::hosts_for( $style ),
			'attribution' => self::attribution_for( $style ),
		);
	}

	/**
	 * The basemap the site owner chose (setting `cairn_maps_basemap`), '' for automatic or when the
	 * stored value is no longer acceptable.
	 */
	public static function chosen(): string {
		$stored = get_option( Settings::BASEMAP_OPTION, '' );
		return is_string( $stored ) && self::is_acceptable( $stored ) ? $stored : '';
	}

	/**
	 * The site's basemap: the owner's choice, else Mapbox Standard when a usable public token is
	 * set, else OpenFreeMap Liberty (a site without a token shows a map, not the missing-token box).
	 */
	public static function site_style(): string {
		$chosen = self::chosen();
		if ( '' !== $chosen ) {
			return $chosen;
		}
		return self::has_token() ? self::MAPBOX_STANDARD : self::OPENFREEMAP_LIBERTY;
	}

	/**
	 * Whether the site has a Mapbox token the maps may use (after filters and the token rules).
	 */
	public static function has_token(): bool {
		return '' !== ( new Settings() )->map_token()['token'];
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
	 * Whether a URL is on this site: its host is the host of home, siteurl or the uploads folder,
	 * and an http URL is only accepted where that origin is itself http (same origin, no downgrade).
	 *
	 * @param string $url Absolute URL.
	 */
	public static function is_on_site( string $url ): bool {
		$parts = self::url_parts( $url );
		if ( null === $parts ) {
			return false;
		}
		foreach ( self::site_origins() as $origin ) {
			// An https archive on an http site's host is fine (no downgrade); http only on an http site.
			if ( $origin['host'] === $parts['host'] && self::port( $origin ) === self::port( $parts ) && ( 'https' === $parts['scheme'] || 'http' === $origin['scheme'] ) ) {
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
