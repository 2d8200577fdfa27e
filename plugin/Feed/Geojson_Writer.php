<?php
/**
 * The feed's GeoJSON text.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Feed;

defined( 'ABSPATH' ) || exit;

/**
 * Writes the feed's document: one compact JSON text per feature (feature_json()) and the
 * FeatureCollection around them, compressed as it is written and cut into chunks (compress()),
 * never held as one PHP array. The format is chosen for gzip (see Geojson_Feed):
 * no whitespace, members in a fixed order, titles as plain text capped at TITLE_MAX characters,
 * coordinates at the feed's precision.
 *
 * Feature_Scanner reads this format back; the two change together.
 *
 * @since 0.2.0
 */
class Geojson_Writer {

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
	 * How every feature's JSON starts (see feature_json()), and what separates two of them.
	 */
	public const FEATURE_START = '{"type":"Feature",';

	/**
	 * How the document starts and ends (see compress()).
	 */
	public const DOCUMENT_START = '{"type":"FeatureCollection","features":[';

	public const DOCUMENT_END = ']}';

	/**
	 * JSON of group lists seen in this request, by list (a site has few combinations).
	 *
	 * @var array<string, string>
	 */
	private static array $groups_json = array();

	/**
	 * A FeatureCollection of these features' JSON, compressed as it is written and cut into chunks.
	 *
	 * @param iterable $features Features' JSON (feature_json()).
	 * @param int      $level    gzip level.
	 * @param string   $version  The markers version it shows.
	 * @phpstan-param iterable<string> $features
	 * @throws \RuntimeException When zlib cannot start a stream.
	 */
	public static function compress( iterable $features, int $level, string $version ): Feed_Payload {
		$deflate = deflate_init(
			ZLIB_ENCODING_GZIP,
			array(
				'level'    => $level,
				'memory'   => 9,
				'strategy' => ZLIB_FILTERED,
			)
		);
		if ( false === $deflate ) {
			throw new \RuntimeException( 'zlib could not start compressing the Cairn Maps feed.' );
		}
		$chunks  = array();
		$pending = '';
		$buffer  = self::DOCUMENT_START;
		$bytes   = 0;
		$count   = 0;
		foreach ( $features as $feature ) {
			$buffer .= ( $count > 0 ? ',' : '' ) . $feature;
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
		$buffer  .= self::DOCUMENT_END;
		$bytes   += strlen( $buffer );
		$pending .= deflate_add( $deflate, $buffer, ZLIB_FINISH );
		foreach ( str_split( $pending, self::CHUNK_BYTES ) as $piece ) {
			$chunks[] = $piece;
		}
		return new Feed_Payload( $chunks, $bytes, $count, $version );
	}

	/**
	 * One feature as JSON.
	 *
	 * A post's row (the posts feed) also carries `type` (its post type) and, when it has a featured
	 * image, `thumb` (its thumbnail URL): both come after the title, so that the group list stays
	 * where Feature_Scanner looks for it, and a marker's feature is unchanged.
	 *
	 * @since 0.3.0 Rows may carry `type` and `thumb`.
	 *
	 * @param array{id: int, title: string, lng: float, lat: float, groups?: string[], type?: string, thumb?: string} $marker    Marker
	 *        or post row.
	 * @param int                                                                                                     $precision Decimals.
	 */
	public static function feature_json( array $marker, int $precision = self::PRECISION ): string {
		// Member order is chosen for gzip: the group list repeats across neighbours and compresses
		// best next to the constant prefix; the varying id and coordinates come last.
		$extra = '';
		if ( isset( $marker['type'] ) ) {
			$extra .= ',"type":' . json_encode( (string) $marker['type'], JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_INVALID_UTF8_SUBSTITUTE ); // phpcs:ignore WordPress.WP.AlternativeFunctions.json_encode_json_encode -- as below.
		}
		if ( isset( $marker['thumb'] ) && '' !== $marker['thumb'] ) {
			$extra .= ',"thumb":' . json_encode( (string) $marker['thumb'], JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_INVALID_UTF8_SUBSTITUTE ); // phpcs:ignore WordPress.WP.AlternativeFunctions.json_encode_json_encode -- as below.
		}
		return '{"type":"Feature","properties":{"groups":' . self::groups_json( $marker['groups'] ?? array() )
			. ',"title":' . json_encode( self::plain_title( $marker['title'], self::TITLE_MAX ), JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_INVALID_UTF8_SUBSTITUTE ) // phpcs:ignore WordPress.WP.AlternativeFunctions.json_encode_json_encode -- one string, flags chosen for size; wp_json_encode adds nothing here.
			. $extra
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
}
