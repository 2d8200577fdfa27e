<?php
/**
 * Address search with answers a site may store.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Geocoding;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Settings\Settings;
use Cairn\Maps\Support\Limits;
use WP_Error;

/**
 * Turns an address into places and a place into an address, through the provider the owner chose
 * (setting `cairn_maps_geocoder`), with answers cached and at most one request a second to the
 * provider for the whole site.
 *
 * For the REST route (`/cairn/v1/geocode`) and background jobs (CSV import), e.g.:
 *
 *     $geocoder = new Geocoder();
 *     $wait     = $geocoder->limiter()->next_slot(); // seconds; schedule the job after it
 *     $places   = $geocoder->search( 'Royal Mile, Edinburgh', 1, 0.0 );
 *
 * Errors are WP_Error with a translated message that names no URL and no token:
 * `cairn_geocode_invalid` (400), `cairn_geocode_rate_limited` (429, data `retry_after` seconds),
 * `cairn_geocode_quota_exceeded` (429 with `retry_after`: a person's quota, see for_user()),
 * `cairn_geocode_unavailable` (502 a bad answer, 503 the provider is busy or not set up, 504 no
 * answer in time).
 *
 * @since 0.3.0
 */
class Geocoder {

	/**
	 * The setting naming the provider.
	 */
	public const OPTION = 'cairn_maps_geocoder';

	/**
	 * The providers an owner may choose.
	 */
	public const PROVIDERS = array( Nominatim::ID, Mapbox_Permanent::ID );

	/**
	 * Query length bounds, in characters, after trimming.
	 */
	public const MIN_QUERY = 2;
	public const MAX_QUERY = 200;

	/**
	 * Results per search: default and most.
	 */
	public const DEFAULT_LIMIT = 5;
	public const MAX_LIMIT     = 10;

	/**
	 * Seconds a provider has to answer.
	 */
	public const TIMEOUT = 5;

	/**
	 * Longest label kept, in characters.
	 */
	private const MAX_LABEL = 300;

	/**
	 * The settings (the provider, the Mapbox token).
	 *
	 * @var Settings
	 */
	private Settings $settings;

	/**
	 * The site-wide rate limiter.
	 *
	 * @var Rate_Limiter
	 */
	private Rate_Limiter $limiter;

	/**
	 * The answers kept.
	 *
	 * @var Geocode_Cache
	 */
	private Geocode_Cache $cache;

	/**
	 * The per-user quota of uncached lookups.
	 *
	 * @var User_Quota
	 */
	private User_Quota $quota;

	/**
	 * The person the lookups are for (0: background work, no quota, not counted in people's
	 * share of the slots).
	 *
	 * @var int
	 */
	private int $user = 0;

	/**
	 * The per-visitor quota (the public "near a place" route).
	 *
	 * @var Visitor_Quota
	 */
	private Visitor_Quota $visitors;

	/**
	 * The visitor the lookups are for (Visitor_Quota::key()), '' for none.
	 *
	 * @var string
	 */
	private string $visitor = '';

	/**
	 * Creates the geocoder; every part has a working default.
	 *
	 * @param Settings|null      $settings The settings.
	 * @param Rate_Limiter|null  $limiter  The site-wide rate limiter.
	 * @param Geocode_Cache|null $cache    The answers kept.
	 * @param User_Quota|null    $quota    The per-user quota (since 0.7.0).
	 */
	public function __construct( ?Settings $settings = null, ?Rate_Limiter $limiter = null, ?Geocode_Cache $cache = null, ?User_Quota $quota = null ) {
		$this->settings = $settings ?? new Settings();
		$this->limiter  = $limiter ?? new Rate_Limiter();
		$this->cache    = $cache ?? new Geocode_Cache();
		$this->quota    = $quota ?? new User_Quota();
		$this->visitors = new Visitor_Quota();
	}

	/**
	 * The same geocoder, looking up for an anonymous visitor ("near a place"): their uncached
	 * lookups count against their quota (Visitor_Quota) and take the people's share of the
	 * site-wide slot.
	 *
	 * @since 0.8.0
	 *
	 * @param string             $key    The visitor's key (Visitor_Quota::key()).
	 * @param Visitor_Quota|null $quota  The quota (tests give one with their own clock).
	 */
	public function for_visitor( string $key, ?Visitor_Quota $quota = null ): self {
		$copy           = clone $this;
		$copy->visitor  = $key;
		$copy->visitors = $quota ?? $this->visitors;
		return $copy;
	}

	/**
	 * The same geocoder, looking up for a person: their uncached lookups count against their
	 * quota (User_Quota) and the people's share of the site-wide slot (Rate_Limiter).
	 *
	 * @since 0.7.0
	 *
	 * @param int $user_id The user (0: background work).
	 */
	public function for_user( int $user_id ): self {
		$copy       = clone $this;
		$copy->user = max( 0, $user_id );
		return $copy;
	}

	/**
	 * Places matching an address or a place name.
	 *
	 * @param string $query    The text (trimmed; 2–200 characters).
	 * @param int    $limit    Most results (1–10).
	 * @param float  $max_wait Longest wait for the site-wide slot, in seconds, before answering
	 *                         `cairn_geocode_rate_limited` (0 for a background job that reschedules).
	 * @return list<array{label: string, lat: float, lng: float}>|WP_Error Best first; empty when
	 *                                                                     nothing was found.
	 */
	public function search( string $query, int $limit = self::DEFAULT_LIMIT, float $max_wait = Geocode_Controller::MAX_WAIT ) {
		$question = self::search_question( $query, $limit );
		if ( is_wp_error( $question ) ) {
			return $question;
		}
		list( $query, $limit ) = $question;
		$provider              = $this->provider();
		$language              = self::language();
		return $this->answer(
			$provider,
			self::search_key( $provider, $language, $query, $limit ),
			fn() => $provider->search_url( $query, $limit, $language ),
			$limit,
			$max_wait
		);
	}

	/**
	 * The kept answer of search() for this text, or null when none is kept (nothing is asked of
	 * the provider, nothing is counted): what the visitors' route answers before `init`.
	 *
	 * @since 0.8.0
	 *
	 * @param string $query The text, as search() takes it.
	 * @param int    $limit Most results (1–10).
	 * @return list<array{label: string, lat: float, lng: float}>|null
	 */
	public function cached_search( string $query, int $limit = self::DEFAULT_LIMIT ): ?array {
		$question = self::search_question( $query, $limit );
		if ( is_wp_error( $question ) ) {
			return null;
		}
		return $this->cache->get( self::search_key( $this->provider(), self::language(), $question[0], $question[1] ) );
	}

	/**
	 * A search's text normalised and its limit within 1–MAX_LIMIT, or why the text cannot be
	 * searched.
	 *
	 * @param string $query The text as typed.
	 * @param int    $limit Most results asked for.
	 * @return array{0: string, 1: int}|WP_Error
	 */
	private static function search_question( string $query, int $limit ) {
		$query = self::normalize_query( $query );
		$error = self::query_error( $query );
		return $error ?? array( $query, max( 1, min( self::MAX_LIMIT, $limit ) ) );
	}

	/**
	 * The cache key of a search.
	 *
	 * @param Provider $provider The provider.
	 * @param string   $language The labels' language.
	 * @param string   $query    Normalised text.
	 * @param int      $limit    Most results.
	 */
	private static function search_key( Provider $provider, string $language, string $query, int $limit ): string {
		return Geocode_Cache::key( $provider->id(), $language, array( 'search', mb_strtolower( $query ), $limit ) );
	}

	/**
	 * The address of a place.
	 *
	 * @param float $lat      Latitude (−90…90).
	 * @param float $lng      Longitude (−180…180).
	 * @param float $max_wait Longest wait for the site-wide slot, in seconds.
	 * @return list<array{label: string, lat: float, lng: float}>|WP_Error At most one place; empty
	 *                                                                     when nothing is there.
	 */
	public function reverse( float $lat, float $lng, float $max_wait = Geocode_Controller::MAX_WAIT ) {
		if ( ! self::valid_coordinate( $lat, 'markerLatitude' ) || ! self::valid_coordinate( $lng, 'longitude' ) ) {
			return new WP_Error(
				'cairn_geocode_invalid',
				__( 'A place to look up needs a latitude between −90 and 90 and a longitude between −180 and 180.', 'cairn-maps' ),
				array( 'status' => 400 )
			);
		}
		$provider = $this->provider();
		$language = self::language();
		return $this->answer(
			$provider,
			Geocode_Cache::key( $provider->id(), $language, array( 'reverse', self::coordinate( $lat ), self::coordinate( $lng ) ) ),
			fn() => $provider->reverse_url( $lat, $lng, $language ),
			1,
			$max_wait
		);
	}

	/**
	 * The credit to show beside the results (plain text).
	 */
	public function attribution(): string {
		return $this->provider()->attribution()['text'];
	}

	/**
	 * Where the credit links to.
	 */
	public function attribution_url(): string {
		return $this->provider()->attribution()['url'];
	}

	/**
	 * The site-wide rate limiter (a background job reads `next_slot()` to schedule itself).
	 */
	public function limiter(): Rate_Limiter {
		return $this->limiter;
	}

	/**
	 * The provider the owner chose.
	 */
	public function provider(): Provider {
		return Mapbox_Permanent::ID === self::chosen() ? new Mapbox_Permanent( $this->settings ) : new Nominatim();
	}

	/**
	 * The stored choice of provider (the default when unset or unknown).
	 */
	public static function chosen(): string {
		$chosen = get_option( self::OPTION, Nominatim::ID );
		return in_array( $chosen, self::PROVIDERS, true ) ? $chosen : Nominatim::ID;
	}

	/**
	 * A query with its whitespace trimmed and collapsed (tags and line breaks removed).
	 *
	 * @param string $query The text as typed.
	 */
	public static function normalize_query( string $query ): string {
		return trim( (string) preg_replace( '/\s+/u', ' ', sanitize_text_field( $query ) ) );
	}

	/**
	 * Why a normalised query cannot be searched, or null.
	 *
	 * @param string $query Normalised text.
	 */
	public static function query_error( string $query ): ?WP_Error {
		$length = mb_strlen( $query );
		if ( $length >= self::MIN_QUERY && $length <= self::MAX_QUERY ) {
			return null;
		}
		return new WP_Error(
			'cairn_geocode_invalid',
			sprintf(
				/* translators: 1: fewest characters, 2: most characters. */
				__( 'Type an address or a place name of %1$d to %2$d characters.', 'cairn-maps' ),
				self::MIN_QUERY,
				self::MAX_QUERY
			),
			array( 'status' => 400 )
		);
	}

	/**
	 * The base URL of a provider's service, without a trailing slash.
	 *
	 * @param string $provider Provider id.
	 * @param string $default  The public service.
	 */
	public static function base_url( string $provider, string $default ): string {
		/**
		 * Filters the address of a geocoding provider's service: a self-hosted Nominatim, or a local
		 * fixture in tests. Paths (`/search`, `/reverse`, `/search/geocode/v6/forward`, …) are added.
		 *
		 * @since 0.3.0
		 * @param string $url      Base URL, e.g. `https://nominatim.openstreetmap.org`.
		 * @param string $provider `nominatim` or `mapbox-permanent`.
		 */
		$url = apply_filters( 'cairn_maps_geocoder_base_url', $default, $provider );
		return is_string( $url ) && '' !== $url ? untrailingslashit( $url ) : $default;
	}

	/**
	 * A coordinate as sent and as a cache key: 6 decimals (about 10 cm).
	 *
	 * @param float $value Degrees.
	 */
	public static function coordinate( float $value ): string {
		return rtrim( rtrim( sprintf( '%.6F', $value ), '0' ), '.' );
	}

	/**
	 * The answer from the cache, else from the provider (then cached).
	 *
	 * @param Provider          $provider The provider.
	 * @param string            $key      Cache key.
	 * @param callable():string $url    Builds the request address (only on a cache miss).
	 * @param int               $limit    Most results kept.
	 * @param float             $max_wait Longest wait for the site-wide slot.
	 * @return list<array{label: string, lat: float, lng: float}>|WP_Error
	 */
	private function answer( Provider $provider, string $key, callable $url, int $limit, float $max_wait ) {
		$cached = $this->cache->get( $key );
		if ( null !== $cached ) {
			return $cached;
		}
		$problem = $provider->problem();
		if ( null !== $problem ) {
			return $problem;
		}
		$refusal = $this->user > 0 ? $this->quota->refusal( $this->user ) : null;
		$refusal = $refusal ?? ( '' !== $this->visitor ? $this->visitors->refusal( $this->visitor ) : null );
		if ( null !== $refusal ) {
			return $refusal;
		}
		$slot = $this->limiter->take( $max_wait, $this->user > 0 || '' !== $this->visitor );
		if ( is_wp_error( $slot ) ) {
			return $slot;
		}
		if ( $this->user > 0 ) {
			$this->quota->count( $this->user );
		}
		if ( '' !== $this->visitor ) {
			$this->visitors->count( $this->visitor );
		}
		$response = wp_remote_get(
			$url(),
			array(
				'timeout'     => self::TIMEOUT,
				'redirection' => 0, // A provider that redirects is not followed (issue 30): its answer is a failure.
				'user-agent'  => self::user_agent(),
				'headers'     => array( 'Accept' => 'application/json' ),
			)
		);
		if ( is_wp_error( $response ) ) {
			return self::no_answer( $response );
		}
		$status = (int) wp_remote_retrieve_response_code( $response );
		if ( 429 === $status ) {
			$retry_after = wp_remote_retrieve_header( $response, 'retry-after' );
			$this->limiter->defer( is_numeric( $retry_after ) ? (float) $retry_after : 60.0 );
			return self::unavailable( 503, __( 'The address search service is busy. Try again in a minute.', 'cairn-maps' ) );
		}
		if ( 401 === $status || 403 === $status ) {
			return self::unavailable( 502, __( 'The address search service refused the request. Check the Mapbox access token in Settings → Cairn Maps.', 'cairn-maps' ) );
		}
		if ( 200 !== $status ) {
			return self::unavailable( 502, __( 'The address search service could not answer. Try again later.', 'cairn-maps' ) );
		}
		$places = $provider->places( json_decode( wp_remote_retrieve_body( $response ), true ) );
		if ( null === $places ) {
			return self::unavailable( 502, __( 'The address search service sent an answer that could not be read. Try again later.', 'cairn-maps' ) );
		}
		$results = array_slice( self::clean( $places ), 0, $limit );
		$this->cache->set( $key, $results );
		return $results;
	}

	/**
	 * The places that have a label and coordinates in range, in the order given.
	 *
	 * @param list<array{label: mixed, lat: mixed, lng: mixed}> $places As the provider gave them.
	 * @return list<array{label: string, lat: float, lng: float}>
	 */
	private static function clean( array $places ): array {
		$results = array();
		foreach ( $places as $place ) {
			if ( ! is_string( $place['label'] ) || ! is_numeric( $place['lat'] ) || ! is_numeric( $place['lng'] ) ) {
				continue;
			}
			$label = mb_substr( sanitize_text_field( $place['label'] ), 0, self::MAX_LABEL );
			$lat   = (float) $place['lat'];
			$lng   = (float) $place['lng'];
			if ( '' === $label || ! self::valid_coordinate( $lat, 'markerLatitude' ) || ! self::valid_coordinate( $lng, 'longitude' ) ) {
				continue;
			}
			$results[] = array(
				'label' => $label,
				'lat'   => round( $lat, 7 ),
				'lng'   => round( $lng, 7 ),
			);
		}
		return $results;
	}

	/**
	 * Whether a number is a finite coordinate within a limit of limits.json.
	 *
	 * @param float  $value Degrees.
	 * @param string $limit `markerLatitude` or `longitude`.
	 */
	private static function valid_coordinate( float $value, string $limit ): bool {
		return is_finite( $value ) && $value >= (float) Limits::get( $limit . '.min' ) && $value <= (float) Limits::get( $limit . '.max' );
	}

	/**
	 * The error for a request that got no answer (its message, which may name the address, is
	 * dropped).
	 *
	 * @param WP_Error $error From the HTTP API.
	 */
	private static function no_answer( WP_Error $error ): WP_Error {
		$message = strtolower( $error->get_error_message() );
		if ( str_contains( $message, 'timed out' ) || str_contains( $message, 'curl error 28' ) ) {
			return self::unavailable( 504, __( 'The address search service took too long to answer. Try again later.', 'cairn-maps' ) );
		}
		return self::unavailable( 502, __( 'The address search service could not be reached. Try again later.', 'cairn-maps' ) );
	}

	/**
	 * A `cairn_geocode_unavailable` error.
	 *
	 * @param int    $status  HTTP status for the REST answer.
	 * @param string $message Translated message.
	 */
	private static function unavailable( int $status, string $message ): WP_Error {
		return new WP_Error( 'cairn_geocode_unavailable', $message, array( 'status' => $status ) );
	}

	/**
	 * Identifies the site to the provider, as Nominatim's usage policy asks.
	 */
	private static function user_agent(): string {
		return sprintf( 'Cairn Maps/%s (%s)', CAIRN_MAPS_VERSION, home_url( '/' ) );
	}

	/**
	 * The site's language as a BCP 47 tag (`en_GB` → `en-GB`), for the labels.
	 */
	private static function language(): string {
		return str_replace( '_', '-', get_locale() );
	}
}
