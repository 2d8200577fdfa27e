<?php
/**
 * Stored answers of the geocoding provider.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Geocoding;

defined( 'ABSPATH' ) || exit;

/**
 * Answers kept per provider, language and normalised question, so that asking again never reaches
 * the provider. Transients: the object cache when the site has one, else option rows that expire.
 * Both providers' terms allow keeping their answers (Nominatim: ODbL with attribution; Mapbox:
 * only permanent geocoding, which is why temporary geocoding is never used here).
 *
 * @since 0.3.0
 */
class Geocode_Cache {

	/**
	 * Prefix of the transients (under the plugin's own, so uninstalling removes them).
	 */
	public const PREFIX = 'cairn_maps_geocode_';

	/**
	 * How long an answer is kept, in seconds.
	 */
	public const TTL = 30 * DAY_IN_SECONDS;

	/**
	 * The key of a question.
	 *
	 * @param string       $provider Provider id.
	 * @param string       $language Language tag.
	 * @param array<mixed> $question What was asked (kind, normalised text or rounded coordinates,
	 *                               limit).
	 */
	public static function key( string $provider, string $language, array $question ): string {
		return self::PREFIX . md5( (string) wp_json_encode( array( $provider, $language, $question ) ) );
	}

	/**
	 * A stored answer.
	 *
	 * @param string $key Key from key().
	 * @return list<array{label: string, lat: float, lng: float}>|null Null when none is stored.
	 */
	public function get( string $key ): ?array {
		$stored = get_transient( $key );
		if ( ! is_array( $stored ) || ! isset( $stored['results'] ) || ! is_array( $stored['results'] ) ) {
			return null;
		}
		$results = array();
		foreach ( $stored['results'] as $result ) {
			if ( ! is_array( $result ) || ! is_string( $result['label'] ?? null ) || ! is_float( $result['lat'] ?? null ) || ! is_float( $result['lng'] ?? null ) ) {
				return null; // Not what set() stores: ask again.
			}
			$results[] = array(
				'label' => $result['label'],
				'lat'   => $result['lat'],
				'lng'   => $result['lng'],
			);
		}
		return $results;
	}

	/**
	 * Stores an answer (an empty one too: "nothing found" is an answer).
	 *
	 * @param string                                             $key     Key from key().
	 * @param list<array{label: string, lat: float, lng: float}> $results The places.
	 */
	public function set( string $key, array $results ): void {
		set_transient( $key, array( 'results' => $results ), self::TTL );
	}
}
