<?php
/**
 * What a geocoding provider tells the Geocoder.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Geocoding;

defined( 'ABSPATH' ) || exit;

use WP_Error;

/**
 * A geocoding service whose answers a site may store: where to ask and how to read the answer.
 * Sending the request, the cache and the site-wide rate limit are the Geocoder's.
 *
 * @since 0.3.0
 */
interface Provider {

	/**
	 * The provider's name, as stored in the `cairn_maps_geocoder` setting.
	 */
	public function id(): string;

	/**
	 * Why this provider cannot be asked now (e.g. no access token), or null.
	 */
	public function problem(): ?WP_Error;

	/**
	 * The address of a search.
	 *
	 * @param string $query    The normalised text.
	 * @param int    $limit    How many results at most.
	 * @param string $language A BCP 47 language tag, e.g. `en-GB`.
	 */
	public function search_url( string $query, int $limit, string $language ): string;

	/**
	 * The address of a reverse lookup.
	 *
	 * @param float  $lat      Latitude.
	 * @param float  $lng      Longitude.
	 * @param string $language A BCP 47 language tag.
	 */
	public function reverse_url( float $lat, float $lng, string $language ): string;

	/**
	 * Reads a decoded JSON answer.
	 *
	 * @param mixed $answer The decoded body.
	 * @return list<array{label: mixed, lat: mixed, lng: mixed}>|null The places as the provider
	 *         gave them (checked by the Geocoder), or null when the answer is not what this provider
	 *         sends.
	 */
	public function places( $answer ): ?array;

	/**
	 * The credit the provider's terms ask for.
	 *
	 * @return array{text: string, url: string}
	 */
	public function attribution(): array;
}
