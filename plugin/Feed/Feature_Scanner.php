<?php
/**
 * Filtered answers cut from the whole feed.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Feed;

defined( 'ABSPATH' ) || exit;

/**
 * Reads the features back from a built feed, as Geojson_Writer wrote them, and keeps those that
 * match filters: how a `group` or `bbox` answer is cut from the cached whole feed (inflated,
 * scanned and compressed again) without reading a marker from the database.
 *
 * @since 0.2.0
 */
class Feature_Scanner {

	/**
	 * Compressed bytes of the whole feed inflated at a time when a filtered answer is cut from it
	 * (about ten times as much JSON).
	 */
	private const DERIVE_SLICE = 64 * 1024;

	/**
	 * The features of a built feed that match canonical filters (JSON, as feature_json() writes
	 * them), one at a time.
	 *
	 * @param Feed_Payload                                       $payload A payload built by Geojson_Writer.
	 * @param array{groups: string[], ids: int[], bbox: float[]} $filters Canonical filters.
	 * @return \Generator<int, string>
	 * @throws \RuntimeException While iterating, when it is not such a document or a chunk is gone.
	 */
	public static function matching_features( Feed_Payload $payload, array $filters ): \Generator {
		return self::matching( self::features_of( $payload ), $filters );
	}

	/**
	 * The features' JSON of a payload, one at a time, as feature_json() wrote them.
	 *
	 * Split where one feature ends and the next starts (`,{"type":"Feature",`): inside a feature
	 * that text cannot occur, since a title's quotes are escaped.
	 *
	 * @param Feed_Payload $payload A payload built by this class.
	 * @return \Generator<int, string>
	 * @throws \RuntimeException When it is not such a document.
	 */
	private static function features_of( Feed_Payload $payload ): \Generator {
		$separator = ',' . Geojson_Writer::FEATURE_START;
		$text      = '';
		$started   = false;
		foreach ( $payload->json_pieces( self::DERIVE_SLICE ) as $piece ) {
			$text .= $piece;
			if ( ! $started ) {
				if ( strlen( $text ) < strlen( Geojson_Writer::DOCUMENT_START ) ) {
					continue;
				}
				if ( 0 !== strncmp( $text, Geojson_Writer::DOCUMENT_START, strlen( Geojson_Writer::DOCUMENT_START ) ) ) {
					throw new \RuntimeException( 'Not a Cairn Maps feed.' );
				}
				$text    = substr( $text, strlen( Geojson_Writer::DOCUMENT_START ) );
				$started = true;
			}
			$last = strrpos( $text, $separator );
			if ( false === $last ) {
				continue;
			}
			foreach ( explode( $separator, substr( $text, 0, $last ) ) as $i => $feature ) {
				yield 0 === $i ? $feature : Geojson_Writer::FEATURE_START . $feature;
			}
			$text = substr( $text, $last + 1 );
		}
		if ( ! $started || Geojson_Writer::DOCUMENT_END !== substr( $text, -2 ) ) {
			throw new \RuntimeException( 'Not a whole Cairn Maps feed.' );
		}
		$text = substr( $text, 0, -2 );
		if ( '' !== $text ) {
			foreach ( explode( $separator, $text ) as $i => $feature ) {
				yield 0 === $i ? $feature : Geojson_Writer::FEATURE_START . $feature;
			}
		}
	}

	/**
	 * The features (JSON, as feature_json() writes them) that match canonical filters.
	 *
	 * @param iterable                                           $features Features' JSON.
	 * @param array{groups: string[], ids: int[], bbox: float[]} $filters  Canonical filters.
	 * @phpstan-param iterable<string> $features
	 * @return \Generator<int, string>
	 */
	private static function matching( iterable $features, array $filters ): \Generator {
		$groups   = $filters['groups'];
		$ids      = array_flip( $filters['ids'] );
		$box      = 4 === count( $filters['bbox'] ) ? array_values( $filters['bbox'] ) : null;
		$lists_at = strlen( Geojson_Writer::FEATURE_START . '"properties":{"groups":[' );
		$lists    = array(); // Whether a feature's group list matches, by list (a site has few).
		foreach ( $features as $feature ) {
			if ( array() !== $groups ) {
				$end  = strpos( $feature, '],"title":', $lists_at );
				$list = false === $end ? '' : substr( $feature, $lists_at, $end - $lists_at );
				if ( ! isset( $lists[ $list ] ) ) {
					if ( count( $lists ) >= 1000 ) {
						$lists = array();
					}
					$lists[ $list ] = array() !== array_intersect( $groups, array_map( 'strval', (array) json_decode( '[' . $list . ']', true ) ) );
				}
				if ( ! $lists[ $list ] ) {
					continue;
				}
			}
			if ( array() !== $ids ) {
				$at = strrpos( $feature, '},"id":' );
				if ( false === $at || ! isset( $ids[ (int) substr( $feature, $at + 7, 20 ) ] ) ) {
					continue;
				}
			}
			if ( null !== $box ) {
				// `…"coordinates":[lng,lat]}}`: the last bracket of the feature.
				$open  = strrpos( $feature, '[' );
				$comma = false === $open ? false : strpos( $feature, ',', $open );
				if ( false === $comma ) {
					continue;
				}
				$lng = (float) substr( $feature, $open + 1, $comma - $open - 1 );
				$lat = (float) substr( $feature, $comma + 1, 24 );
				if ( $lat < $box[1] || $lat > $box[3] || ( $box[0] <= $box[2] ? ( $lng < $box[0] || $lng > $box[2] ) : ( $lng < $box[0] && $lng > $box[2] ) ) ) {
					continue;
				}
			}
			yield $feature;
		}
	}
}
