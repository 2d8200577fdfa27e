<?php
/**
 * The markers as a GeoJSON FeatureCollection.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Markers;

defined( 'ABSPATH' ) || exit;

/**
 * Builds the feed as a JSON string in batches (never as one PHP array), compresses it as it goes,
 * and keeps the result in the feed cache under the markers version.
 *
 * Format choices, for compactness (about 15–16 bytes per marker gzipped at 100,000 markers spread
 * over a country, 17 when spread uniformly over the whole world, whose random digits compress least):
 * - coordinates rounded to 5 decimals (about 1.1 m at the equator, finer elsewhere): more than
 *   any marker pin needs; the filter `cairn_maps_feed_precision` allows 4…7;
 * - no whitespace; members in a fixed order so gzip finds the same runs in every feature;
 * - titles as plain text, capped at 200 characters (the popup route has the full title);
 * - gzip level GZIP_LEVEL with the "filtered" strategy (see there).
 *
 * One request rebuilds a stale cached feed at a time (a short lock per filter set); the others
 * meanwhile serve the previous build (anonymous visitors, with that build's ETag) or wait for the
 * new one.
 *
 * @since 0.1.0
 */
class Geojson_Feed {

	/**
	 * Default decimals of coordinates.
	 */
	public const PRECISION = 5;

	/**
	 * Longest title in the feed, in characters.
	 */
	public const TITLE_MAX = 200;

	/**
	 * Target size of one stored gzip chunk (base64 makes it ~683 KB, under 1 MB).
	 */
	public const CHUNK_BYTES = 512 * 1024;

	/**
	 * The gzip level of cached builds. Measured on 100,000 markers (CPU time of the compression):
	 * level 9 ≈ 600 ms, level 8 ≈ 430 ms for under 1 % more bytes, level 7 ≈ 200 ms but 4–5 % more
	 * (over 16 bytes per marker for world-wide coordinates), level 6 ≈ 160 ms and 7–9 % more.
	 */
	public const GZIP_LEVEL = 8;

	/**
	 * The gzip level of builds that are not cached (bounding-box queries): made for one answer.
	 */
	public const GZIP_LEVEL_UNCACHED = 6;

	/**
	 * Uncompressed JSON gathered before it is handed to the compressor.
	 */
	private const BUFFER_BYTES = 256 * 1024;

	/**
	 * JSON of group lists seen in this request, by list (a site has few combinations).
	 *
	 * @var array<string, string>
	 */
	private static array $groups_json = array();

	/**
	 * Marker reads.
	 *
	 * @var Marker_Repository
	 */
	private Marker_Repository $repository;

	/**
	 * The markers version.
	 *
	 * @var Markers_Version
	 */
	private Markers_Version $version;

	/**
	 * Built payloads.
	 *
	 * @var Feed_Cache
	 */
	private Feed_Cache $cache;

	/**
	 * Creates the feed.
	 *
	 * @param Marker_Repository $repository Marker reads.
	 * @param Markers_Version   $version    The markers version.
	 * @param Feed_Cache        $cache      Built payloads.
	 */
	public function __construct( Marker_Repository $repository, Markers_Version $version, Feed_Cache $cache ) {
		$this->repository = $repository;
		$this->version    = $version;
		$this->cache      = $cache;
	}

	/**
	 * Filters in one canonical form, so equal selections share a key and an ETag.
	 *
	 * @param array{groups?: string[], ids?: int[], bbox?: float[]} $filters Validated filters.
	 * @return array{groups: string[], ids: int[], bbox: float[]}
	 */
	public static function normalize( array $filters ): array {
		$groups = array_values( array_unique( array_map( 'strval', $filters['groups'] ?? array() ) ) );
		$ids    = array_values( array_unique( array_map( 'intval', $filters['ids'] ?? array() ) ) );
		sort( $groups );
		sort( $ids );
		$bbox = isset( $filters['bbox'] ) ? array_map(
			static function ( $value ) {
				return round( (float) $value, 6 );
			},
			array_values( $filters['bbox'] )
		) : array();
		return array(
			'groups' => $groups,
			'ids'    => $ids,
			'bbox'   => $bbox,
		);
	}

	/**
	 * The strong ETag of the feed for these filters: cheap (no marker is read).
	 *
	 * @param array{groups?: string[], ids?: int[], bbox?: float[]} $filters Validated filters.
	 * @param string|null                                           $version Markers version; null
	 *        for the current one.
	 */
	public function etag( array $filters, ?string $version = null ): string {
		return '"' . substr( hash( 'sha256', ( $version ?? $this->version->get() ) . '|' . $this->fingerprint( $filters ) ), 0, 32 ) . '"';
	}

	/**
	 * The payload for these filters: from the cache, else built (and cached unless it is a
	 * bounding-box query, whose endless variety would only fill the cache).
	 *
	 * One request at a time rebuilds a filter set. Meanwhile, with $allow_stale, the others get the
	 * previous build if there is one (its `version()` then is not the current version: its ETag
	 * must be sent with it); otherwise they wait for the new build, and build themselves if it
	 * does not come.
	 *
	 * @param array{groups?: string[], ids?: int[], bbox?: float[]} $filters     Validated filters.
	 * @param bool                                                  $allow_stale Whether the previous build
	 *        may be served while another request rebuilds.
	 */
	public function payload( array $filters, bool $allow_stale = false ): Feed_Payload {
		$normalized = self::normalize( $filters );
		$version    = $this->version->get();
		if ( array() !== $normalized['bbox'] ) {
			return $this->build( $normalized, self::GZIP_LEVEL_UNCACHED, $version );
		}
		$key    = substr( hash( 'sha256', $this->fingerprint( $filters ) ), 0, 32 );
		$stored = $this->cache->get( $key );
		if ( null !== $stored && $stored->version() === $version ) {
			return $stored;
		}
		$lock = $this->cache->lock( $key );
		if ( null === $lock ) {
			if ( $allow_stale && null !== $stored ) {
				return $stored;
			}
			$built = $this->wait_for_build( $key, $version );
			if ( null !== $built ) {
				return $built;
			}
			$lock = $this->cache->lock( $key );
		}
		try {
			if ( null !== $lock ) {
				// Stored by another request between the first look and the lock?
				$built = $this->cache->get( $key, $version, true );
				if ( null !== $built ) {
					return $built;
				}
			}
			$payload = $this->build( $normalized, self::GZIP_LEVEL, $version );
			// Store only if no marker changed while building; otherwise the next request rebuilds.
			if ( $this->stored_version() === $version ) {
				$this->cache->set( $key, $version, $payload );
			}
			return $payload;
		} finally {
			if ( null !== $lock ) {
				$this->cache->unlock( $key, $lock );
			}
		}
	}

	/**
	 * Waits while another request rebuilds (at most until its lock expires).
	 *
	 * @param string $key     Filter-set key.
	 * @param string $version Markers version wanted.
	 * @return Feed_Payload|null The new build, or null when the lock went without one.
	 */
	private function wait_for_build( string $key, string $version ): ?Feed_Payload {
		$deadline = microtime( true ) + Feed_Cache::LOCK_TTL;
		do {
			usleep( 100000 );
			$built = $this->cache->get( $key, $version, true );
			if ( null !== $built ) {
				return $built;
			}
		} while ( $this->cache->is_locked( $key ) && microtime( true ) < $deadline );
		return $this->cache->get( $key, $version, true );
	}

	/**
	 * The markers version as stored now (another request may have changed it since this one read
	 * its options).
	 */
	private function stored_version(): string {
		global $wpdb;
		// phpcs:ignore WordPress.DB.DirectDatabaseQuery -- past this request's option cache, on purpose.
		return (string) $wpdb->get_var( $wpdb->prepare( "SELECT option_value FROM {$wpdb->options} WHERE option_name = %s", Markers_Version::OPTION ) );
	}

	/**
	 * Builds the payload: JSON text in batches, compressed on the fly, cut into chunks.
	 *
	 * @param array{groups: string[], ids: int[], bbox: float[]} $filters Normalized filters.
	 * @param int                                                $level   gzip level.
	 * @param string                                             $version The markers version read
	 *        before the markers (labels the payload).
	 */
	public function build( array $filters, int $level = self::GZIP_LEVEL, string $version = '' ): Feed_Payload {
		$precision = $this->precision();
		$repo_args = array_filter( $filters );
		$deflate   = deflate_init(
			ZLIB_ENCODING_GZIP,
			array(
				'level'    => $level,
				'memory'   => 9,
				'strategy' => ZLIB_FILTERED,
			)
		);
		$chunks    = array();
		$pending   = '';
		$buffer    = '{"type":"FeatureCollection","features":[';
		$bytes     = 0;
		$count     = 0;
		// Prefetching: nothing in this loop queries the database.
		foreach ( $this->repository->each( $repo_args, true ) as $marker ) {
			$buffer .= ( $count > 0 ? ',' : '' ) . self::feature_json( $marker, $precision );
			++$count;
			if ( strlen( $buffer ) >= self::BUFFER_BYTES ) {
				$bytes   += strlen( $buffer );
				$pending .= deflate_add( $deflate, $buffer, ZLIB_NO_FLUSH );
				$buffer   = '';
				$full     = intdiv( strlen( $pending ), self::CHUNK_BYTES ) * self::CHUNK_BYTES;
				if ( $full > 0 ) {
					array_push( $chunks, ...str_split( substr( $pending, 0, $full ), self::CHUNK_BYTES ) );
					$pending = substr( $pending, $full );
				}
			}
		}
		$buffer  .= ']}';
		$bytes   += strlen( $buffer );
		$pending .= deflate_add( $deflate, $buffer, ZLIB_FINISH );
		foreach ( str_split( $pending, self::CHUNK_BYTES ) as $piece ) {
			$chunks[] = $piece;
		}
		return new Feed_Payload( $chunks, $bytes, $count, '' !== $version ? $version : $this->version->get() );
	}

	/**
	 * One feature as JSON.
	 *
	 * @param array{id: int, title: string, lng: float, lat: float, groups?: string[]} $marker    Marker row.
	 * @param int                                                                      $precision Decimals.
	 */
	public static function feature_json( array $marker, int $precision = self::PRECISION ): string {
		// Member order is chosen for gzip: the group list repeats across neighbours and compresses
		// best next to the constant prefix; the varying id and coordinates come last.
		return '{"type":"Feature","properties":{"groups":' . self::groups_json( $marker['groups'] ?? array() )
			. ',"title":' . json_encode( self::plain_title( $marker['title'], self::TITLE_MAX ), JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_INVALID_UTF8_SUBSTITUTE ) // phpcs:ignore WordPress.WP.AlternativeFunctions.json_encode_json_encode -- one string, flags chosen for size; wp_json_encode adds nothing here.
			. '},"id":' . (int) $marker['id']
			. ',"geometry":{"type":"Point","coordinates":[' . self::number( $marker['lng'], $precision ) . ',' . self::number( $marker['lat'], $precision ) . ']}}';
	}

	/**
	 * A list of group slugs as JSON (remembered: a site has few combinations).
	 *
	 * @param string[] $groups Slugs.
	 */
	private static function groups_json( array $groups ): string {
		$key = implode( ',', $groups );
		if ( ! isset( self::$groups_json[ $key ] ) ) {
			if ( count( self::$groups_json ) >= 1000 ) {
				self::$groups_json = array();
			}
			self::$groups_json[ $key ] = (string) json_encode( array_values( $groups ), JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_INVALID_UTF8_SUBSTITUTE ); // phpcs:ignore WordPress.WP.AlternativeFunctions.json_encode_json_encode -- as above.
		}
		return self::$groups_json[ $key ];
	}

	/**
	 * A title as plain text: tags stripped, entities decoded, optionally capped.
	 *
	 * @param string $title     Stored or filtered title.
	 * @param int    $max_chars Cap in characters; 0 for none.
	 */
	public static function plain_title( string $title, int $max_chars = 0 ): string {
		// Most titles hold no tag, entity or NUL byte: then stripping and decoding only trim.
		$text = false === strpbrk( $title, "<&\0" ) ? trim( $title ) : html_entity_decode( wp_strip_all_tags( $title ), ENT_QUOTES | ENT_HTML5, 'UTF-8' );
		if ( $max_chars > 0 && strlen( $text ) > $max_chars && mb_strlen( $text, 'UTF-8' ) > $max_chars ) {
			$text = rtrim( mb_substr( $text, 0, $max_chars - 1, 'UTF-8' ) ) . '…';
		}
		return $text;
	}

	/**
	 * A coordinate as the shortest JSON number at this precision.
	 *
	 * @param float $value     Degrees.
	 * @param int   $precision Decimals.
	 */
	private static function number( float $value, int $precision ): string {
		$text = rtrim( rtrim( number_format( $value, $precision, '.', '' ), '0' ), '.' );
		return '-0' === $text || '' === $text ? '0' : $text;
	}

	/**
	 * Coordinate decimals in the feed.
	 */
	private function precision(): int {
		/**
		 * Filters how many decimals of each coordinate the GeoJSON feed carries (4…7).
		 *
		 * @since 0.1.0
		 * @param int $precision Decimals; 5 is about 1.1 m at the equator.
		 */
		$precision = (int) apply_filters( 'cairn_maps_feed_precision', self::PRECISION );
		return max( 4, min( 7, $precision ) );
	}

	/**
	 * What, beside the markers version, decides the feed's bytes: filters, format and plugin version.
	 *
	 * @param array{groups?: string[], ids?: int[], bbox?: float[]} $filters Filters.
	 */
	private function fingerprint( array $filters ): string {
		return CAIRN_MAPS_VERSION . '|' . $this->precision() . '|' . wp_json_encode( self::normalize( $filters ) );
	}
}
