<?php
/**
 * OpenStreetMap's Nominatim.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Geocoding;

defined( 'ABSPATH' ) || exit;

use WP_Error;

/**
 * Nominatim (https://nominatim.org), the default provider: OpenStreetMap data under the ODbL, which
 * lets a site keep the answers with attribution. Its public instance allows one request a second
 * from a whole site and wants an identifying User-Agent (the Geocoder sends both). A site may point
 * `cairn_maps_geocoder_base_url` at its own instance.
 *
 * @since 0.3.0
 */
final class Nominatim implements Provider {

	public const ID       = 'nominatim';
	public const BASE_URL = 'https://nominatim.openstreetmap.org';

	/**
	 * {@inheritDoc}
	 */
	public function id(): string {
		return self::ID;
	}

	/**
	 * {@inheritDoc}
	 */
	public function problem(): ?WP_Error {
		return null;
	}

	/**
	 * {@inheritDoc}
	 *
	 * @param string $query    The normalised text.
	 * @param int    $limit    How many results at most.
	 * @param string $language A BCP 47 language tag.
	 */
	public function search_url( string $query, int $limit, string $language ): string {
		return $this->url(
			'/search',
			array(
				'format' => 'jsonv2',
				'q'      => $query,
				'limit'  => $limit,
			),
			$language
		);
	}

	/**
	 * {@inheritDoc}
	 *
	 * @param float  $lat      Latitude.
	 * @param float  $lng      Longitude.
	 * @param string $language A BCP 47 language tag.
	 */
	public function reverse_url( float $lat, float $lng, string $language ): string {
		return $this->url(
			'/reverse',
			array(
				'format' => 'jsonv2',
				'lat'    => Geocoder::coordinate( $lat ),
				'lon'    => Geocoder::coordinate( $lng ),
			),
			$language
		);
	}

	/**
	 * {@inheritDoc}
	 *
	 * Search answers a list; reverse answers one place, or `{ "error": "Unable to geocode" }` when
	 * nothing is there.
	 *
	 * @param mixed $answer The decoded body.
	 */
	public function places( $answer ): ?array {
		if ( ! is_array( $answer ) ) {
			return null;
		}
		if ( array_is_list( $answer ) ) {
			$places = array();
			foreach ( $answer as $item ) {
				if ( ! is_array( $item ) ) {
					return null;
				}
				$places[] = self::place( $item );
			}
			return $places;
		}
		if ( isset( $answer['error'] ) && ! isset( $answer['lat'] ) ) {
			return array();
		}
		return isset( $answer['lat'], $answer['lon'] ) ? array( self::place( $answer ) ) : null;
	}

	/**
	 * {@inheritDoc}
	 */
	public function attribution(): array {
		return array(
			'text' => __( '© OpenStreetMap contributors (ODbL)', 'cairn-maps' ),
			'url'  => 'https://www.openstreetmap.org/copyright',
		);
	}

	/**
	 * One place of an answer.
	 *
	 * @param array<mixed> $item A place as Nominatim sends it.
	 * @return array{label: mixed, lat: mixed, lng: mixed}
	 */
	private static function place( array $item ): array {
		return array(
			'label' => $item['display_name'] ?? null,
			'lat'   => $item['lat'] ?? null,
			'lng'   => $item['lon'] ?? null,
		);
	}

	/**
	 * An address on the (filterable) instance.
	 *
	 * @param string               $path     Endpoint path.
	 * @param array<string, mixed> $params   Query parameters.
	 * @param string               $language A BCP 47 language tag.
	 */
	private function url( string $path, array $params, string $language ): string {
		$params['accept-language'] = $language;
		return Geocoder::base_url( self::ID, self::BASE_URL ) . $path . '?' . http_build_query( $params, '', '&', PHP_QUERY_RFC3986 );
	}
}
