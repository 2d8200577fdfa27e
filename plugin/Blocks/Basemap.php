<?php
/**
 * Which engine and basemap a style reference means.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Blocks;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Settings\Settings;
use Cairn\Maps\Settings\Site_Defaults;
use Cairn\Maps\Settings\Style_Reference;

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
	public const PMTILES_PREFIX      = Style_Reference::PMTILES_PREFIX;

	/**
	 * The OpenFreeMap styles the settings screen offers, by name.
	 */
	public const OPENFREEMAP_STYLES = array(
		'liberty'  => 'https://tiles.openfreemap.org/styles/liberty',
		'bright'   => 'https://tiles.openfreemap.org/styles/bright',
		'positron' => 'https://tiles.openfreemap.org/styles/positron',
	);

	/**
	 * The engine a style reference draws with: `mapbox`, `maplibre`, or null when the reference is
	 * refused (http:, other schemes, spaces, quotes, credentials, no host…). The rule is
	 * Style_Reference's.
	 *
	 * @param mixed $style A style reference (block attribute `mapStyle`, setting `cairn_maps_basemap`).
	 * @return 'mapbox'|'maplibre'|null
	 */
	public static function engine_for( $style ): ?string {
		return Style_Reference::engine_for( $style );
	}

	/**
	 * An absolute http(s) URL split the way the engine rule reads it (Style_Reference::url_parts()).
	 *
	 * @param string $url URL.
	 * @return array{scheme: string, host: string, port: int, rest: string}|null
	 */
	public static function url_parts( string $url ): ?array {
		return Style_Reference::url_parts( $url );
	}

	/**
	 * The archive URL of a `pmtiles://` reference, or '' for any other reference.
	 *
	 * @param string $style Style reference.
	 */
	public static function archive_url( string $style ): string {
		return Style_Reference::archive_url( $style );
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
		// OpenFreeMap's own TileJSON carries its attribution ("OpenFreeMap © OpenMapTiles Data from
		// OpenStreetMap"), which the map shows: a second copy would show it twice.
		$defaults = array(
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
		$stored = get_option( Settings::BASEMAP_OPTION, null );
		if ( null === $stored ) {
			// Never set: a default style chosen before 0.7.0 (until the upgrade step moves it here).
			$stored = Site_Defaults::legacy_style();
		}
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
		return self::automatic_style();
	}

	/**
	 * The automatic basemap ('' in the setting): Mapbox Standard when a usable public token is
	 * set, else OpenFreeMap Liberty.
	 */
	public static function automatic_style(): string {
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
		return Style_Reference::is_acceptable( $style );
	}
}
