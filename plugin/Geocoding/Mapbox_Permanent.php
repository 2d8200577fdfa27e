<?php
/**
 * Mapbox Geocoding v6, permanent.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Geocoding;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Settings\Settings;
use WP_Error;

/**
 * Mapbox's permanent geocoding (Geocoding API v6 with `permanent=true`), the owner's alternative:
 * the only Mapbox geocoding whose answers may be stored. It is billed to the Mapbox account of the
 * site's public token. Temporary geocoding (the block's "find a place") stays in the browser and is
 * never stored.
 *
 * @since 0.3.0
 */
final class Mapbox_Permanent implements Provider {

	public const ID       = 'mapbox-permanent';
	public const BASE_URL = 'https://api.mapbox.com';

	/**
	 * The settings, for the site's public token.
	 *
	 * @var Settings
	 */
	private Settings $settings;

	/**
	 * Creates the provider.
	 *
	 * @param Settings $settings The settings.
	 */
	public function __construct( Settings $settings ) {
		$this->settings = $settings;
	}

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
		if ( '' !== $this->settings->map_token()['token'] ) {
			return null;
		}
		return new WP_Error(
			'cairn_geocode_unavailable',
			__( 'Address search with Mapbox needs a public Mapbox access token in Settings → Cairn Maps.', 'cairn-maps' ),
			array( 'status' => 503 )
		);
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
			'/search/geocode/v6/forward',
			array(
				'q'     => $query,
				'limit' => $limit,
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
			'/search/geocode/v6/reverse',
			array(
				'longitude' => Geocoder::coordinate( $lng ),
				'latitude'  => Geocoder::coordinate( $lat ),
				'limit'     => 1,
			),
			$language
		);
	}

	/**
	 * {@inheritDoc}
	 *
	 * Both endpoints answer a GeoJSON FeatureCollection.
	 *
	 * @param mixed $answer The decoded body.
	 */
	public function places( $answer ): ?array {
		if ( ! is_array( $answer ) || ! isset( $answer['features'] ) || ! is_array( $answer['features'] ) || ! array_is_list( $answer['features'] ) ) {
			return null;
		}
		$places = array();
		foreach ( $answer['features'] as $feature ) {
			if ( ! is_array( $feature ) ) {
				return null;
			}
			$properties  = is_array( $feature['properties'] ?? null ) ? $feature['properties'] : array();
			$coordinates = is_array( $properties['coordinates'] ?? null ) ? $properties['coordinates'] : array();
			$point       = is_array( $feature['geometry']['coordinates'] ?? null ) ? $feature['geometry']['coordinates'] : array();
			$places[]    = array(
				'label' => $properties['full_address'] ?? $properties['name'] ?? null,
				'lat'   => $coordinates['latitude'] ?? $point[1] ?? null,
				'lng'   => $coordinates['longitude'] ?? $point[0] ?? null,
			);
		}
		return $places;
	}

	/**
	 * {@inheritDoc}
	 */
	public function attribution(): array {
		return array(
			'text' => __( '© Mapbox', 'cairn-maps' ),
			'url'  => 'https://www.mapbox.com/about/maps/',
		);
	}

	/**
	 * An address on the (filterable) API host, with the site's public token.
	 *
	 * @param string               $path     Endpoint path.
	 * @param array<string, mixed> $params   Query parameters.
	 * @param string               $language A BCP 47 language tag.
	 */
	private function url( string $path, array $params, string $language ): string {
		$params['language']     = strtolower( explode( '-', $language )[0] );
		$params['permanent']    = 'true';
		$params['access_token'] = $this->settings->map_token()['token'];
		return Geocoder::base_url( self::ID, self::BASE_URL ) . $path . '?' . http_build_query( $params, '', '&', PHP_QUERY_RFC3986 );
	}
}
