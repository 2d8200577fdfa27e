<?php
/**
 * The markers as a GeoJSON FeatureCollection.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Markers;

/**
 * Builds the feed as a JSON string in batches (never as one PHP array), compresses it as it goes,
 * and keeps the result in the feed cache under the markers version.
 *
 * Format choices, for compactness (about 16 bytes per marker gzipped at 100,000 markers):
 * - coordinates rounded to 5 decimals (about 1.1 m at the equator, finer elsewhere): more than
 *   any marker pin needs; the filter `cairn_maps_feed_precision` allows 4…7;
 * - no whitespace; members in a fixed order so gzip finds the same runs in every feature;
 * - titles as plain text, capped at 200 characters (the popup route has the full title);
 * - gzip level 9 with the "filtered" strategy, affordable because a build is cached.
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
	 * Uncompressed JSON gathered before it is handed to the compressor.
	 */
	private const BUFFER_BYTES = 256 * 1024;

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
	 */
	public function etag( array $filters ): string {
		return '"' . substr( hash( 'sha256', $this->version->get() . '|' . $this->fingerprint( $filters ) ), 0, 32 ) . '"';
	}

	/**
	 * The payload for these filters: from the cache, else built (and cached unless it is a
	 * bounding-box query, whose endless variety would only fill the cache).
	 *
	 * @param array{groups?: string[], ids?: int[], bbox?: float[]} $filters Validated filters.
	 */
	public function payload( array $filters ): Feed_Payload {
		$normalized = self::normalize( $filters );
		$version    = $this->version->get();
		$cacheable  = array() === $normalized['bbox'];
		$key        = substr( hash( 'sha256', $this->fingerprint( $filters ) ), 0, 32 );
		if ( $cacheable ) {
			$cached = $this->cache->get( $key, $version );
			if ( null !== $cached ) {
				return $cached;
			}
		}
		$payload = $this->build( $normalized, $cacheable ? 9 : 6 );
		// Store only if no marker changed while building; otherwise the next request rebuilds.
		if ( $cacheable && $this->version->get() === $version ) {
			$this->cache->set( $key, $version, $payload );
		}
		return $payload;
	}

	/**
	 * Builds the payload: JSON text in batches, compressed on the fly, cut into chunks.
	 *
	 * @param array{groups: string[], ids: int[], bbox: float[]} $filters Normalized filters.
	 * @param int                                                $level   gzip level.
	 */
	public function build( array $filters, int $level = 9 ): Feed_Payload {
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
		foreach ( $this->repository->each( $repo_args ) as $marker ) {
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
		return new Feed_Payload( $chunks, $bytes, $count );
	}

	/**
	 * One feature as JSON.
	 *
	 * @param array{id: int, title: string, lng: float, lat: float, groups?: string[]} $marker    Marker row.
	 * @param int                                                                      $precision Decimals.
	 */
	public static function feature_json( array $marker, int $precision = self::PRECISION ): string {
		$flags = JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_INVALID_UTF8_SUBSTITUTE;
		return '{"type":"Feature","id":' . (int) $marker['id']
			. ',"geometry":{"type":"Point","coordinates":[' . self::number( $marker['lng'], $precision ) . ',' . self::number( $marker['lat'], $precision ) . ']}'
			. ',"properties":{"title":' . json_encode( self::plain_title( $marker['title'], self::TITLE_MAX ), $flags ) // phpcs:ignore WordPress.WP.AlternativeFunctions.json_encode_json_encode -- one string, flags chosen for size; wp_json_encode adds nothing here.
			. ',"groups":' . json_encode( array_values( $marker['groups'] ?? array() ), $flags ) . '}}'; // phpcs:ignore WordPress.WP.AlternativeFunctions.json_encode_json_encode -- as above.
	}

	/**
	 * A title as plain text: tags stripped, entities decoded, optionally capped.
	 *
	 * @param string $title     Stored or filtered title.
	 * @param int    $max_chars Cap in characters; 0 for none.
	 */
	public static function plain_title( string $title, int $max_chars = 0 ): string {
		$text = html_entity_decode( wp_strip_all_tags( $title ), ENT_QUOTES | ENT_HTML5, 'UTF-8' );
		if ( $max_chars > 0 && mb_strlen( $text, 'UTF-8' ) > $max_chars ) {
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
