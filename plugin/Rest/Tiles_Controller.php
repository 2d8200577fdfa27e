<?php
/**
 * Server-clustered tiles of a map's markers.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Rest;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Index\Tile_Service;
use Cairn\Maps\Markers\Markers_Version;
use Cairn\Maps\Support\Limits;
use Cairn\Maps\Support\Map_Schema;
use Cairn\Maps\Support\Rest_Routes;
use WP_Error;
use WP_REST_Request;
use WP_REST_Response;
use WP_REST_Server;

/**
 * `GET /cairn/v1/tiles/<z>/<x>/<y>`: the clusters and points of one tile of a marker selection,
 * a GeoJSON FeatureCollection (`application/geo+json`) of the features the runtime's engine makes,
 * for maps too big to ship their whole feed (see Blocks\Map_Block: `config.tilesUrl`).
 *
 * Parameters: the selection and filter (Places_Params: `group`, `hidden`, `q`, `v`), `radius`
 * (10–200 pixels, default the block's) and `maxzoom` (the last zoom with clusters, 0–16, default
 * the runtime's). z is 0–17, x and y 0 to 2^z − 1, integers; anything else answers 400 with a
 * message.
 *
 * Caching: a strong ETag from the tile's key (Index\Tile_Service::key(): one changed place changes
 * the key of its own tile only), `304` on a matching `If-None-Match`, and for anonymous requests
 * `Cache-Control: public, max-age=31536000, immutable` when `v` is the current markers version
 * (the URL then names this content for good: a change renews the version and the map asks for
 * new URLs), the feed's Cache-Control otherwise. CORS as the feed (Cors::PUBLIC_ROUTES).
 *
 * @since 0.6.0
 */
class Tiles_Controller {

	/**
	 * Cache-Control of anonymous answers for the current version.
	 */
	public const IMMUTABLE_CACHE_CONTROL = 'public, max-age=31536000, immutable';

	/**
	 * The media type of the answers.
	 */
	public const CONTENT_TYPE = 'application/geo+json';

	/**
	 * The tiles.
	 *
	 * @var Tile_Service
	 */
	private Tile_Service $tiles;

	/**
	 * The markers version (`v`).
	 *
	 * @var Markers_Version
	 */
	private Markers_Version $version;

	/**
	 * Creates the controller.
	 *
	 * @param Tile_Service    $tiles   The tiles.
	 * @param Markers_Version $version The markers version.
	 */
	public function __construct( Tile_Service $tiles, Markers_Version $version ) {
		$this->tiles   = $tiles;
		$this->version = $version;
	}

	/**
	 * Wires hooks.
	 */
	public function add_hooks(): void {
		add_action( 'rest_api_init', array( $this, 'register_routes' ) );
		// After the CORS headers (Cors, 11), as the feed's printing.
		add_filter( 'rest_pre_serve_request', array( $this, 'serve_tile' ), 12, 3 );
	}

	/**
	 * Registers the route.
	 */
	public function register_routes(): void {
		$number = '(?P<%s>[^/]+)';
		register_rest_route(
			Rest_Routes::NAMESPACE,
			'/tiles/' . sprintf( $number, 'z' ) . '/' . sprintf( $number, 'x' ) . '/' . sprintf( $number, 'y' ),
			array(
				array(
					'methods'             => WP_REST_Server::READABLE,
					'callback'            => array( $this, 'get_item' ),
					// Public: only published markers are in the index, the data the pages show.
					'permission_callback' => '__return_true',
					'args'                => $this->args(),
				),
			)
		);
	}

	/**
	 * The route's arguments.
	 *
	 * @return array<string, array<string, mixed>>
	 */
	public function args(): array {
		return array(
			'z'       => array(
				'description'       => __( 'Zoom, an integer from 0 to 17.', 'cairn-maps' ),
				'type'              => 'string',
				'validate_callback' => array( self::class, 'validate_zoom' ),
			),
			'x'       => array(
				'description'       => __( 'Column, an integer from 0 to 2^z - 1.', 'cairn-maps' ),
				'type'              => 'string',
				'validate_callback' => array( self::class, 'validate_column' ),
			),
			'y'       => array(
				'description'       => __( 'Row, an integer from 0 to 2^z - 1.', 'cairn-maps' ),
				'type'              => 'string',
				'validate_callback' => array( self::class, 'validate_row' ),
			),
			'radius'  => array(
				'description'       => __( 'Cluster radius in pixels.', 'cairn-maps' ),
				'type'              => 'string',
				'validate_callback' => array( self::class, 'validate_radius' ),
			),
			'maxzoom' => array(
				'description'       => __( 'The last zoom with clusters; above it every place is a point.', 'cairn-maps' ),
				'type'              => 'string',
				'validate_callback' => array( self::class, 'validate_max_zoom' ),
			),
		) + Places_Params::args();
	}

	/**
	 * Validates z.
	 *
	 * @param mixed $value Parameter value.
	 * @return true|WP_Error
	 */
	public static function validate_zoom( $value ) {
		$max = (int) Limits::get( 'tiles.maxZoom' );
		if ( null !== self::integer( $value, 0, $max ) ) {
			return true;
		}
		/* translators: %d: the highest zoom of a tile. */
		return self::error( sprintf( __( 'z must be an integer from 0 to %d.', 'cairn-maps' ), $max ) );
	}

	/**
	 * Validates x as an integer (its range depends on z: get_item()).
	 *
	 * @param mixed $value Parameter value.
	 * @return true|WP_Error
	 */
	public static function validate_column( $value ) {
		return null !== self::integer( $value, 0, ( 1 << 17 ) - 1 ) ? true : self::error( __( 'x must be an integer from 0 to 2^z - 1.', 'cairn-maps' ) );
	}

	/**
	 * Validates y as an integer (its range depends on z: get_item()).
	 *
	 * @param mixed $value Parameter value.
	 * @return true|WP_Error
	 */
	public static function validate_row( $value ) {
		return null !== self::integer( $value, 0, ( 1 << 17 ) - 1 ) ? true : self::error( __( 'y must be an integer from 0 to 2^z - 1.', 'cairn-maps' ) );
	}

	/**
	 * Validates radius.
	 *
	 * @param mixed $value Parameter value.
	 * @return true|WP_Error
	 */
	public static function validate_radius( $value ) {
		$min = (int) Limits::get( 'cluster.minRadius' );
		$max = (int) Limits::get( 'cluster.maxRadius' );
		if ( null !== self::integer( $value, $min, $max ) ) {
			return true;
		}
		/* translators: 1: smallest radius, 2: largest radius. */
		return self::error( sprintf( __( 'radius must be an integer from %1$d to %2$d pixels.', 'cairn-maps' ), $min, $max ) );
	}

	/**
	 * Validates maxzoom.
	 *
	 * @param mixed $value Parameter value.
	 * @return true|WP_Error
	 */
	public static function validate_max_zoom( $value ) {
		$max = (int) Limits::get( 'cluster.maxZoom' );
		if ( null !== self::integer( $value, 0, $max ) ) {
			return true;
		}
		/* translators: %d: the highest cluster max zoom. */
		return self::error( sprintf( __( 'maxzoom must be an integer from 0 to %d.', 'cairn-maps' ), $max ) );
	}

	/**
	 * The tile.
	 *
	 * @param WP_REST_Request $request The request.
	 * @return WP_REST_Response|WP_Error
	 */
	public function get_item( WP_REST_Request $request ) {
		/* translators: %s: a global REST parameter such as _fields. */
		$error = Feed_Answer::unsupported_global( $request, __( '%s is not supported by the tiles: each is served as one pre-built GeoJSON document.', 'cairn-maps' ) );
		if ( null !== $error ) {
			return $error;
		}
		$z = (int) $request['z'];
		$x = (int) $request['x'];
		$y = (int) $request['y'];
		if ( $x >= ( 1 << $z ) || $y >= ( 1 << $z ) ) {
			/* translators: 1: zoom, 2: the largest column or row at that zoom. */
			return self::error( sprintf( __( 'At zoom %1$d, x and y must be integers from 0 to %2$d.', 'cairn-maps' ), $z, ( 1 << $z ) - 1 ) );
		}
		$radius    = null === $request['radius'] ? (int) Map_Schema::defaults()['cluster']['radius'] : (int) $request['radius'];
		$maxzoom   = null === $request['maxzoom'] ? (int) Limits::get( 'cluster.maxZoom' ) : (int) $request['maxzoom'];
		$filter    = Places_Params::filter( $request->get_params() );
		$key       = $this->tiles->key( $z, $x, $y, $radius, $maxzoom, $filter );
		$etag      = '"' . $key . '"';
		$logged_in = is_user_logged_in();
		$headers   = array(
			'ETag'          => $etag,
			'Cache-Control' => $this->cache_control( $logged_in, Places_Params::version( $request['v'] ) ),
		);
		if ( Cache_Headers::etag_matches( $request->get_header( 'If-None-Match' ), $etag ) ) {
			return new WP_REST_Response( null, 304, $headers );
		}
		$headers['Content-Type'] = self::CONTENT_TYPE . '; charset=UTF-8';
		if ( 'HEAD' === Method_Override_Guard::answered_method( $request ) ) {
			return new WP_REST_Response( null, 200, $headers );
		}
		return new Tile_Response( $this->tiles->body( $key, $z, $x, $y, $radius, $maxzoom, $filter ), 200, $headers );
	}

	/**
	 * Cache-Control of an answer: never stored when logged in; for good when the address names
	 * the current version; else the feed's.
	 *
	 * @param bool   $logged_in Whether the request is authenticated.
	 * @param string $version   The `v` asked for ('' when none).
	 */
	private function cache_control( bool $logged_in, string $version ): string {
		if ( ! $logged_in && '' !== $version && hash_equals( $this->version->get(), $version ) ) {
			return self::IMMUTABLE_CACHE_CONTROL;
		}
		return Cache_Headers::cache_control( $logged_in );
	}

	/**
	 * Prints a tile's body as built. Hooked to `rest_pre_serve_request`, after the status and
	 * headers (CORS ones included) are sent.
	 *
	 * @param bool                   $served  Whether the request was served already.
	 * @param \WP_HTTP_Response|null $result  The response.
	 * @return bool Whether the request was served.
	 */
	public function serve_tile( $served, $result = null ): bool {
		if ( $served || ! $result instanceof Tile_Response || ! $result->is_pristine() ) {
			return (bool) $served;
		}
		echo $result->get_json(); // phpcs:ignore WordPress.Security.EscapeOutput.OutputNotEscaped -- a JSON document built by json_encode, served as application/geo+json.
		return true;
	}

	/**
	 * A decimal integer within bounds (digits only, no sign, no spaces), or null.
	 *
	 * @param mixed $value The parameter.
	 * @param int   $min   Least value.
	 * @param int   $max   Greatest value.
	 */
	private static function integer( $value, int $min, int $max ): ?int {
		if ( is_int( $value ) ) {
			$value = (string) $value;
		}
		if ( ! is_string( $value ) || 1 !== preg_match( '/^\d{1,9}$/', $value ) ) {
			return null;
		}
		$number = (int) $value;
		return $number >= $min && $number <= $max ? $number : null;
	}

	/**
	 * A 400.
	 *
	 * @param string $message Translated message.
	 */
	private static function error( string $message ): WP_Error {
		return new WP_Error( 'rest_invalid_param', $message, array( 'status' => 400 ) );
	}
}
