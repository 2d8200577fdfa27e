<?php
/**
 * The markers as a GeoJSON FeatureCollection.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Feed;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Markers\Marker_Filters;
use Cairn\Maps\Markers\Marker_Repository;
use Cairn\Maps\Markers\Markers_Version;
use Cairn\Maps\Markers\Post_Type;
use Cairn\Maps\Support\Version_Token;

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
 * Filters, which anyone may invent, never make the site read every marker again nor store copy
 * after copy (issue 12):
 * - they are made canonical before they become a cache key (canonical()): group slugs that name
 *   no group and ids that name no published marker are dropped, the rest sorted and deduplicated;
 *   nothing left to match answers an empty collection at once, without reading or storing;
 * - a `group` selection and any `bbox` are cut from the cached whole feed (derive(): inflated,
 *   scanned and compressed again, no marker read from the database; about 70 ms for a box and
 *   100–300 ms for groups at 100,000 markers, against about 2 s for reading them);
 * - an `include` selection (at most LIMITS markersQuery.maxInclude markers) is read by id, a few
 *   indexed reads;
 * - `group` and `include` selections are stored within the bound of the feed cache
 *   (Feed_Cache::set_filtered(): a second request stores, at most Feed_Cache::MAX_ENTRIES copies
 *   and MAX_BYTES in all, least valuable evicted first); a box is never stored.
 *
 * The posts feed (Post_Places_Feed) is this class with other rows, another version and its own
 * filters: the protected methods are where the two differ.
 *
 * @since 0.1.0
 * @since 0.3.0 Open to the posts feed (protected steps).
 */
class Geojson_Feed {

	/**
	 * Default decimals of coordinates.
	 */
	public const PRECISION = Geojson_Writer::PRECISION;

	/**
	 * Longest title in the feed, in characters.
	 */
	public const TITLE_MAX = Geojson_Writer::TITLE_MAX;

	/**
	 * Target size of one stored gzip chunk (base64 makes it ~683 KB, under 1 MB).
	 */
	public const CHUNK_BYTES = Geojson_Writer::CHUNK_BYTES;

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
	 * Marker reads (null in a feed that reads other rows: see rows()).
	 *
	 * @var Marker_Repository|null
	 */
	private ?Marker_Repository $repository;

	/**
	 * The version token of what the feed shows (the markers version).
	 *
	 * @var Version_Token
	 */
	private Version_Token $version;

	/**
	 * Built payloads.
	 *
	 * @var Feed_Cache
	 */
	private Feed_Cache $cache;

	/**
	 * Creates the feed.
	 *
	 * @since 0.3.0 Any version token; no repository in a feed that reads other rows.
	 *
	 * @param Marker_Repository|null $repository Marker reads.
	 * @param Version_Token          $version    The markers version (or the version of the rows read).
	 * @param Feed_Cache             $cache      Built payloads.
	 */
	public function __construct( ?Marker_Repository $repository, Version_Token $version, Feed_Cache $cache ) {
		$this->repository = $repository;
		$this->version    = $version;
		$this->cache      = $cache;
	}

	/**
	 * Filters in one canonical form, so equal selections share a key and an ETag (Marker_Filters,
	 * which the server-rendered list shares).
	 *
	 * @param array{groups?: string[], ids?: int[], bbox?: float[]} $filters Validated filters.
	 * @return array{groups: string[], ids: int[], bbox: float[]}
	 */
	public static function normalize( array $filters ): array {
		return Marker_Filters::normalize( $filters );
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
	 * The payload for these filters: the whole feed from the cache (built and stored when stale),
	 * a filtered one from the bounded cache or cut from the whole feed (see the class comment).
	 *
	 * One request at a time rebuilds the whole feed. Meanwhile, with $allow_stale, the others get
	 * the previous build if there is one (its `version()` then is not the current version: its ETag
	 * must be sent with it), and so do the filtered answers cut from it; otherwise they wait for the
	 * new build, and build themselves if it does not come.
	 *
	 * @param array{groups?: string[], ids?: int[], bbox?: float[]} $filters     Validated filters.
	 * @param bool                                                  $allow_stale Whether the previous build
	 *        may be served while another request rebuilds.
	 */
	public function payload( array $filters, bool $allow_stale = false ): Feed_Payload {
		$normalized = $this->normalized( $filters );
		if ( $this->is_whole( $normalized ) ) {
			return $this->whole( $allow_stale, $normalized );
		}
		$version   = $this->version->get();
		$canonical = $this->canonical( $normalized );
		if ( null === $canonical ) {
			return Geojson_Writer::compress( array(), self::GZIP_LEVEL_UNCACHED, $version ); // Nothing can match.
		}
		if ( array() !== $canonical['bbox'] ) {
			// Never stored: boxes are endless. By id when there are ids (a few indexed reads), else
			// cut from the whole feed.
			return array() !== $canonical['ids'] || ! $this->derivable( $canonical )
				? $this->build( $canonical, self::GZIP_LEVEL_UNCACHED, $version )
				: $this->derive( $this->whole( $allow_stale, $canonical ), $canonical, self::GZIP_LEVEL_UNCACHED );
		}
		if ( ! $this->storable( $canonical ) ) {
			return $this->build( $canonical, self::GZIP_LEVEL_UNCACHED, $version ); // Cheaper read than kept.
		}
		$key    = $this->key( $canonical );
		$stored = $this->cache->get_filtered( $key );
		if ( null !== $stored && $stored->version() === $version ) {
			$this->cache->touch( $key );
			return $stored;
		}
		// Compressed harder only when it is going to be stored.
		$level = $this->cache->admits( $key ) ? self::GZIP_LEVEL : self::GZIP_LEVEL_UNCACHED;
		if ( array() !== $canonical['ids'] || ! $this->derivable( $canonical ) ) {
			$payload = $this->build( $canonical, $level, $version );
		} else {
			$whole = $this->whole( $allow_stale, $canonical );
			if ( null !== $stored && $stored->version() === $whole->version() ) {
				return $stored; // The whole feed it was cut from is being rebuilt: as stale as it.
			}
			$payload = $this->derive( $whole, $canonical, $level );
		}
		// Store only if no marker changed meanwhile; otherwise the next request makes it again.
		if ( $payload->version() === $version && $this->stored_version() === $version ) {
			$this->cache->set_filtered( $key, $version, $payload );
		}
		return $payload;
	}

	/**
	 * The whole feed: from the cache, else built and stored (one request at a time; see payload()).
	 *
	 * @param bool                 $allow_stale Whether the previous build may be served while another
	 *                                          request rebuilds.
	 * @param array<string, mixed> $filters     Normalised filters the whole feed is for (what of them
	 *                                          chooses the whole feed: see whole_filters()).
	 */
	private function whole( bool $allow_stale, array $filters = array() ): Feed_Payload {
		$normalized = $this->whole_filters( $filters );
		$version    = $this->version->get();
		$key        = $this->key( $normalized );
		$stored     = $this->cache->get( $key );
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
	 * Filters in canonical form, the form that becomes a cache key: normalised, group slugs that
	 * name no marker group and ids that name no published, unprotected marker dropped. Null when
	 * nothing can match (only unknown groups, or only such ids, were asked for).
	 *
	 * @param array<string, mixed> $filters Normalised filters.
	 * @return array<string, mixed>|null
	 */
	protected function canonical( array $filters ): ?array {
		global $wpdb;
		if ( array() !== $filters['groups'] ) {
			// phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared, WordPress.DB.PreparedSQLPlaceholders.UnfinishedPrepare -- placeholders only; at most LIMITS markersQuery.maxGroups slugs.
			$slugs             = $wpdb->get_col( $wpdb->prepare( "SELECT t.slug FROM {$wpdb->terms} t INNER JOIN {$wpdb->term_taxonomy} tt ON tt.term_id = t.term_id WHERE tt.taxonomy = %s AND t.slug IN (" . implode( ',', array_fill( 0, count( $filters['groups'] ), '%s' ) ) . ')', array_merge( array( Post_Type::TAXONOMY ), $filters['groups'] ) ) );
			$filters['groups'] = array_values( array_intersect( $filters['groups'], array_map( 'strval', (array) $slugs ) ) );
			if ( array() === $filters['groups'] ) {
				return null;
			}
		}
		if ( array() !== $filters['ids'] ) {
			// phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared, WordPress.DB.PreparedSQLPlaceholders.UnfinishedPrepare -- placeholders only; at most LIMITS markersQuery.maxInclude ids, by primary key.
			$ids            = $wpdb->get_col( $wpdb->prepare( "SELECT ID FROM {$wpdb->posts} WHERE ID IN (" . implode( ',', array_fill( 0, count( $filters['ids'] ), '%d' ) ) . ") AND post_type = %s AND post_status = 'publish' AND post_password = ''", array_merge( $filters['ids'], array( Post_Type::POST_TYPE ) ) ) );
			$filters['ids'] = array_values( array_intersect( $filters['ids'], array_map( 'intval', (array) $ids ) ) );
			if ( array() === $filters['ids'] ) {
				return null;
			}
		}
		return $filters;
	}

	/**
	 * The cache key of a filter set (hex).
	 *
	 * @param array{groups?: string[], ids?: int[], bbox?: float[]} $filters Filters.
	 */
	private function key( array $filters ): string {
		return substr( hash( 'sha256', $this->fingerprint( $filters ) ), 0, 32 );
	}

	/**
	 * A filtered payload cut from the whole feed: its features read back from the stored JSON (no
	 * marker read from the database), the matching ones compressed again. Labelled with the whole
	 * feed's version. Should a chunk of the whole feed vanish meanwhile, the markers are read.
	 *
	 * The box is applied to the coordinates as the feed carries them (the precision the map shows).
	 *
	 * @param Feed_Payload         $whole   The whole feed.
	 * @param array<string, mixed> $filters Canonical filters.
	 * @param int                  $level   gzip level.
	 */
	private function derive( Feed_Payload $whole, array $filters, int $level ): Feed_Payload {
		try {
			return Geojson_Writer::compress( Feature_Scanner::matching_features( $whole, $this->scan_filters( $filters ) ), $level, $whole->version() );
		} catch ( \RuntimeException $missing ) {
			unset( $missing ); // A chunk vanished (evicted), or not our document: read the markers.
			return $this->build( $filters, $level, $this->version->get() );
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
		return (string) $wpdb->get_var( $wpdb->prepare( "SELECT option_value FROM {$wpdb->options} WHERE option_name = %s", $this->version_option() ) );
	}

	/**
	 * The option holding this feed's version token.
	 *
	 * @since 0.3.0
	 */
	protected function version_option(): string {
		return Markers_Version::OPTION;
	}

	/**
	 * Filters in one canonical form (see normalize()).
	 *
	 * @since 0.3.0
	 *
	 * @param array<string, mixed> $filters Validated filters.
	 * @return array<string, mixed>
	 */
	protected function normalized( array $filters ): array {
		return self::normalize( $filters );
	}

	/**
	 * Whether normalised filters ask for the whole feed.
	 *
	 * @since 0.3.0
	 *
	 * @param array<string, mixed> $filters Normalised filters.
	 */
	protected function is_whole( array $filters ): bool {
		return array() === $filters['groups'] && array() === $filters['ids'] && array() === $filters['bbox'];
	}

	/**
	 * The normalised filters of the whole feed that filtered answers are cut from.
	 *
	 * @since 0.3.0
	 *
	 * @param array<string, mixed> $filters Normalised or canonical filters.
	 * @return array<string, mixed>
	 */
	protected function whole_filters( array $filters ): array {
		unset( $filters );
		return self::normalize( array() );
	}

	/**
	 * Whether a canonical selection can be cut from the whole feed (else it is read).
	 *
	 * @since 0.3.0
	 *
	 * @param array<string, mixed> $filters Canonical filters.
	 */
	protected function derivable( array $filters ): bool {
		unset( $filters );
		return true;
	}

	/**
	 * Whether a canonical selection (not the whole feed, no box) may be stored among the bounded
	 * filtered copies, or is read for each request.
	 *
	 * @since 0.3.0
	 *
	 * @param array<string, mixed> $filters Canonical filters.
	 */
	protected function storable( array $filters ): bool {
		unset( $filters );
		return true;
	}

	/**
	 * Canonical filters as Feature_Scanner matches them (`groups`, `ids`, `bbox`).
	 *
	 * @since 0.3.0
	 *
	 * @param array<string, mixed> $filters Canonical filters.
	 * @return array{groups: string[], ids: int[], bbox: float[]}
	 */
	protected function scan_filters( array $filters ): array {
		return array(
			'groups' => array_map( 'strval', (array) ( $filters['groups'] ?? array() ) ),
			'ids'    => array_map( 'intval', (array) ( $filters['ids'] ?? array() ) ),
			'bbox'   => array_map( 'floatval', (array) ( $filters['bbox'] ?? array() ) ),
		);
	}

	/**
	 * The rows of a build, in id order (prefetching: the caller queries nothing meanwhile).
	 *
	 * @since 0.3.0
	 *
	 * @param array<string, mixed> $filters Canonical filters.
	 * @return iterable<array{id: int, title: string, lng: float, lat: float, groups?: string[], type?: string, thumb?: string}>
	 */
	protected function rows( array $filters ): iterable {
		return null === $this->repository ? array() : $this->repository->each( array_filter( $filters ), true );
	}

	/**
	 * Builds the payload from the markers in the database: JSON text in batches, compressed on the
	 * fly, cut into chunks.
	 *
	 * @param array<string, mixed> $filters Normalized filters.
	 * @param int                  $level   gzip level.
	 * @param string               $version The markers version read
	 *        before the markers (labels the payload).
	 */
	public function build( array $filters, int $level = self::GZIP_LEVEL, string $version = '' ): Feed_Payload {
		$precision = $this->precision();
		$features  = function () use ( $filters, $precision ): \Generator {
			// Prefetching: nothing in the compressing loop queries the database.
			foreach ( $this->rows( $filters ) as $marker ) {
				yield Geojson_Writer::feature_json( $marker, $precision );
			}
		};
		return Geojson_Writer::compress( $features(), $level, '' !== $version ? $version : $this->version->get() );
	}

	/**
	 * One feature as JSON (see Geojson_Writer::feature_json()).
	 *
	 * @param array{id: int, title: string, lng: float, lat: float, groups?: string[]} $marker    Marker row.
	 * @param int                                                                      $precision Decimals.
	 */
	public static function feature_json( array $marker, int $precision = self::PRECISION ): string {
		return Geojson_Writer::feature_json( $marker, $precision );
	}

	/**
	 * A title as plain text: tags stripped, entities decoded, optionally capped (see
	 * Geojson_Writer::plain_title()).
	 *
	 * @param string $title     Stored or filtered title.
	 * @param int    $max_chars Cap in characters; 0 for none.
	 */
	public static function plain_title( string $title, int $max_chars = 0 ): string {
		return Geojson_Writer::plain_title( $title, $max_chars );
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
		return CAIRN_MAPS_VERSION . '|' . $this->precision() . '|' . wp_json_encode( $this->normalized( $filters ) );
	}
}
