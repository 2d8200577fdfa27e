<?php
/**
 * Server-clustered tiles of a map's markers.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Rest;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Index\Index_Version;
use Cairn\Maps\Index\Place_Filter;
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
 * message. Since 0.8.0, `near` ("lng,lat") with `near_radius` (metres, as `/places`' `radius`:
 * Search_Params::min_radius()…max_radius()) draws only the places within that circle (`radius`
 * is the cluster radius here, since 0.6.0); one without the other is a 400. Such tiles are
 * built per request and never kept (Tile_Service::keeps()): a visitor's circles are countless.
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
	public const IMMUTABLE_CACHE_CONTROL = Cache_Headers::IMMUTABLE_CACHE_CONTROL;

	/**
	 * The media type of the answers.
	 */
	public const CONTENT_TYPE = 'application/geo+json';

	/**
	 * Query parameters the early 304 understands; any other leaves the request to the REST server.
	 */
	private const EARLY_PARAMS = array( 'rest_route', 'group', 'post_type', 'terms', 'markers', 'hidden', 'q', 'v', 'radius', 'maxzoom' );

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
		// Last on after_setup_theme, as the feed's early 304.
		add_action( 'after_setup_theme', array( $this, 'not_modified_early' ), PHP_INT_MAX );
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
			'z'           => array(
				'description'       => __( 'Zoom, an integer from 0 to 17.', 'cairn-maps' ),
				'type'              => 'string',
				'validate_callback' => array( self::class, 'validate_zoom' ),
			),
			'x'           => array(
				'description'       => __( 'Column, an integer from 0 to 2^z - 1.', 'cairn-maps' ),
				'type'              => 'string',
				'validate_callback' => array( self::class, 'validate_column' ),
			),
			'y'           => array(
				'description'       => __( 'Row, an integer from 0 to 2^z - 1.', 'cairn-maps' ),
				'type'              => 'string',
				'validate_callback' => array( self::class, 'validate_row' ),
			),
			'radius'      => array(
				'description'       => __( 'Cluster radius in pixels.', 'cairn-maps' ),
				'type'              => 'string',
				'validate_callback' => array( self::class, 'validate_radius' ),
			),
			'maxzoom'     => array(
				'description'       => __( 'The last zoom with clusters; above it every place is a point.', 'cairn-maps' ),
				'type'              => 'string',
				'validate_callback' => array( self::class, 'validate_max_zoom' ),
			),
			'near'        => array(
				'description'       => __( 'With near_radius: a position "longitude,latitude"; only the places within near_radius metres of it.', 'cairn-maps' ),
				'type'              => 'string',
				'validate_callback' => array( self::class, 'validate_near' ),
			),
			'near_radius' => array(
				/* translators: 1: smallest radius, 2: largest radius, in metres. */
				'description'       => sprintf( __( 'With near: only the places within this many metres of it (%1$d to %2$d).', 'cairn-maps' ), Search_Params::min_radius(), Search_Params::max_radius() ),
				'type'              => 'string',
				'validate_callback' => array( self::class, 'validate_near_radius' ),
			),
		) + Places_Params::args();
	}

	/**
	 * Validates near: "longitude,latitude".
	 *
	 * @since 0.8.0
	 *
	 * @param mixed $value Parameter value.
	 * @return true|WP_Error
	 */
	public static function validate_near( $value ) {
		if ( is_string( $value ) && null !== Search_Params::parse_near( $value ) ) {
			return true;
		}
		return self::error( __( 'near must be "longitude,latitude": a longitude between -180 and 180 and a latitude between -90 and 90.', 'cairn-maps' ) );
	}

	/**
	 * Validates near_radius (its range; the pairing with near: tile()).
	 *
	 * @since 0.8.0
	 *
	 * @param mixed $value Parameter value.
	 * @return true|WP_Error
	 */
	public static function validate_near_radius( $value ) {
		return Search_Params::radius_error( $value, 'paired', 'near' ) ?? true;
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
		$tile = self::tile( $request->get_params() );
		if ( $tile instanceof WP_Error ) {
			return $tile;
		}
		$tile['filter'] = $this->tiles->known( $tile['filter'] );
		$key            = $this->tiles->key( $tile['z'], $tile['x'], $tile['y'], $tile['radius'], $tile['maxzoom'], $tile['filter'] );
		$etag           = '"' . $key . '"';
		$logged_in      = is_user_logged_in();
		$headers        = array(
			'ETag'          => $etag,
			'Cache-Control' => $this->cache_control( $logged_in, $tile['version'], $tile['filter'] ),
			'Vary'          => 'Accept-Encoding',
		);
		$encoding       = (string) $request->get_header( 'Accept-Encoding' );
		if ( Cache_Headers::etag_matches( $request->get_header( 'If-None-Match' ), $etag ) ) {
			$headers['ETag'] = Cache_Headers::representation_etag( $etag, $encoding );
			return new WP_REST_Response( null, 304, $headers );
		}
		$headers['Content-Type'] = self::CONTENT_TYPE . '; charset=UTF-8';
		if ( 'HEAD' === Method_Override_Guard::answered_method( $request ) ) {
			return new WP_REST_Response( null, 200, $headers );
		}
		$keep = $this->tiles->keeps( $tile['radius'], $tile['maxzoom'], $tile['filter'], $this->is_current( $tile['version'], $tile['filter'] ) );
		$body = $this->tiles->body( $key, $tile['z'], $tile['x'], $tile['y'], $tile['radius'], $tile['maxzoom'], $tile['filter'], $keep );
		return new Tile_Response( $body, 200, $headers );
	}

	/**
	 * A tile's coordinates and parameters, validated: z/x/y, radius and maxzoom (defaults filled
	 * in), the filter and the version asked for; a 400 when one is invalid. The REST server has
	 * validated each parameter already; the early 304 has not, so this checks them all again.
	 *
	 * @param array<string, mixed> $params The route's parameters.
	 * @return array{z: int, x: int, y: int, radius: int, maxzoom: int, filter: Place_Filter, version: string}|WP_Error
	 */
	public static function tile( array $params ) {
		$validators = array(
			'z'           => array( self::class, 'validate_zoom' ),
			'x'           => array( self::class, 'validate_column' ),
			'y'           => array( self::class, 'validate_row' ),
			'radius'      => array( self::class, 'validate_radius' ),
			'maxzoom'     => array( self::class, 'validate_max_zoom' ),
			'near'        => array( self::class, 'validate_near' ),
			'near_radius' => array( self::class, 'validate_near_radius' ),
		);
		foreach ( Places_Params::args() as $name => $arg ) {
			$validators[ $name ] = $arg['validate_callback'];
		}
		foreach ( $validators as $name => $validate ) {
			$valid = isset( $params[ $name ] ) || in_array( $name, array( 'z', 'x', 'y' ), true ) ? $validate( $params[ $name ] ?? null ) : true;
			if ( true !== $valid ) {
				return $valid;
			}
		}
		$error = Places_Params::combination_error( $params );
		if ( null !== $error ) {
			return $error;
		}
		if ( isset( $params['near'] ) !== isset( $params['near_radius'] ) ) {
			return self::error( __( 'near and near_radius go together: the position "longitude,latitude" and the distance from it in metres.', 'cairn-maps' ) );
		}
		$z = (int) $params['z'];
		$x = (int) $params['x'];
		$y = (int) $params['y'];
		if ( $x >= ( 1 << $z ) || $y >= ( 1 << $z ) ) {
			/* translators: 1: zoom, 2: the largest column or row at that zoom. */
			return self::error( sprintf( __( 'At zoom %1$d, x and y must be integers from 0 to %2$d.', 'cairn-maps' ), $z, ( 1 << $z ) - 1 ) );
		}
		return array(
			'z'       => $z,
			'x'       => $x,
			'y'       => $y,
			'radius'  => isset( $params['radius'] ) ? (int) $params['radius'] : (int) Map_Schema::defaults()['cluster']['radius'],
			'maxzoom' => isset( $params['maxzoom'] ) ? (int) $params['maxzoom'] : (int) Limits::get( 'cluster.maxZoom' ),
			'filter'  => Places_Params::filter( $params )->with_circle( Search_Params::circle( $params['near'] ?? null, $params['near_radius'] ?? null ) ),
			'version' => Places_Params::version( $params['v'] ?? null ),
		);
	}

	/**
	 * Answers an anonymous conditional request for a tile whose ETag still matches with `304`
	 * before `init`, as the feed does (Markers_Controller::not_modified_early()): a revalidation
	 * costs WordPress' start-up and two small queries (the tile's stamp, the version option).
	 * An anonymous GET of a kept tile is answered there too, with its body (early_kept_tile()).
	 */
	public function not_modified_early(): void {
		Early_Not_Modified::answer( array( $this, 'early_not_modified_headers' ) );
		// phpcs:ignore WordPress.Security.NonceVerification.Recommended, WordPress.Security.ValidatedSanitizedInput -- read-only; every value is validated as the route does.
		$kept = $this->early_kept_tile( wp_unslash( $_SERVER ), wp_unslash( $_GET ), $_COOKIE );
		if ( null !== $kept && ! headers_sent() ) {
			status_header( 200 );
			foreach ( $kept['headers'] as $name => $value ) {
				header( "{$name}: {$value}" );
			}
			echo $kept['body']; // phpcs:ignore WordPress.Security.EscapeOutput.OutputNotEscaped -- a kept tile: JSON built by json_encode (gzip when accepted), served as application/geo+json.
			exit;
		}
	}

	/**
	 * The headers of an early 304 for this request, or null when it must go on to the REST
	 * server: not an anonymous conditional GET or HEAD of a tile with only the route's own
	 * parameters, all valid; a search (it matches group names, which are not registered yet);
	 * a plugin's own REST authentication; or an ETag that does not match.
	 *
	 * @param array<string, mixed> $server  Request server variables (unslashed).
	 * @param array<string, mixed> $query   Query parameters (unslashed).
	 * @param array<string, mixed> $cookies Cookies.
	 * @return array<string, string>|null
	 */
	public function early_not_modified_headers( array $server, array $query, array $cookies ): ?array {
		$early = $this->early_tile( $server, $query, $cookies );
		if ( null === $early || ! Cache_Headers::etag_matches( $early['match'], $early['etag'] ) ) {
			return null;
		}
		return $this->early_headers( $early['etag'], $early['tile'], $server, false );
	}

	/**
	 * An anonymous GET of a tile that is kept (Tile_Cache), answered before `init` as its 304 is:
	 * a warm tile then costs WordPress' start-up and the key's small queries, not the REST
	 * server's. The same rules as the early 304 (no search, only the route's parameters, no
	 * credentials, no plugin's own REST authentication); null when the request must go on.
	 *
	 * @param array<string, mixed> $server  Request server variables (unslashed).
	 * @param array<string, mixed> $query   Query parameters (unslashed).
	 * @param array<string, mixed> $cookies Cookies.
	 * @return array{headers: array<string, string>, body: string}|null
	 */
	public function early_kept_tile( array $server, array $query, array $cookies ): ?array {
		if ( 'GET' !== strtoupper( (string) ( $server['REQUEST_METHOD'] ?? '' ) ) ) {
			return null;
		}
		// The anonymous check asks for a condition; an unconditional GET has none.
		$server['HTTP_IF_NONE_MATCH'] = (string) ( $server['HTTP_IF_NONE_MATCH'] ?? '"-"' );
		$early                        = $this->early_tile( $server, $query, $cookies );
		$json                         = null === $early ? null : $this->tiles->kept( substr( $early['etag'], 1, -1 ) );
		if ( null === $early || null === $json ) {
			return null;
		}
		$gzip    = Cache_Headers::sends_gzip( (string) ( $server['HTTP_ACCEPT_ENCODING'] ?? '' ) );
		$headers = $this->early_headers( $early['etag'], $early['tile'], $server, $gzip );
		if ( $gzip ) {
			$headers['Content-Encoding'] = 'gzip';
			$json                        = (string) gzencode( $json, 6 );
		}
		return array(
			'headers' => $headers,
			'body'    => $json,
		);
	}

	/**
	 * The tile of an early answer, its ETag and the request's condition, or null when the request
	 * must go on to the REST server (see early_not_modified_headers()).
	 *
	 * @param array<string, mixed> $server  Request server variables (unslashed).
	 * @param array<string, mixed> $query   Query parameters (unslashed).
	 * @param array<string, mixed> $cookies Cookies.
	 * @return array{tile: array{z: int, x: int, y: int, radius: int, maxzoom: int, filter: Place_Filter, version: string}, etag: string, match: string}|null
	 */
	private function early_tile( array $server, array $query, array $cookies ): ?array {
		$match = Early_Not_Modified::anonymous_condition( $server, $cookies );
		$route = null === $match ? null : Early_Not_Modified::route( $server, $query );
		if ( null === $match || null === $route || array() !== array_diff( array_map( 'strval', array_keys( $query ) ), self::EARLY_PARAMS )
			|| 1 !== preg_match( '@^/' . preg_quote( Rest_Routes::NAMESPACE, '@' ) . '/tiles/([^/]+)/([^/]+)/([^/]+)$@', $route, $parts ) ) {
			return null;
		}
		$tile = self::tile( array_merge( $query, array_combine( array( 'z', 'x', 'y' ), array_slice( $parts, 1 ) ) ) );
		if ( $tile instanceof WP_Error || ! $tile['filter']->by_groups_only() || ! Early_Not_Modified::allowed( $route ) ) {
			return null;
		}
		$tile['filter'] = $this->tiles->known( $tile['filter'] );
		return array(
			'tile'  => $tile,
			'etag'  => '"' . $this->tiles->key( $tile['z'], $tile['x'], $tile['y'], $tile['radius'], $tile['maxzoom'], $tile['filter'] ) . '"',
			'match' => $match,
		);
	}

	/**
	 * The headers of an early answer (304 or a kept tile): the REST route's, CORS included.
	 *
	 * @param string                                       $etag   The tile's ETag.
	 * @param array{version: string, filter: Place_Filter} $tile   The tile asked for (its `v` and filter).
	 * @param array<string, mixed>                         $server Request server variables.
	 * @param bool                                         $gzip   Whether the body is sent gzip.
	 * @return array<string, string>
	 */
	private function early_headers( string $etag, array $tile, array $server, bool $gzip ): array {
		return Cors::with_public_headers(
			array(
				'Content-Type'           => self::CONTENT_TYPE . '; charset=UTF-8',
				'ETag'                   => $gzip ? Cache_Headers::representation_etag( $etag, 'gzip' ) : Cache_Headers::representation_etag( $etag, (string) ( $server['HTTP_ACCEPT_ENCODING'] ?? '' ) ),
				'Cache-Control'          => $this->cache_control( false, $tile['version'], $tile['filter'] ),
				'Vary'                   => 'Accept-Encoding',
				'X-Content-Type-Options' => 'nosniff',
			),
			(string) ( $server['HTTP_ORIGIN'] ?? '' )
		);
	}

	/**
	 * Cache-Control of an answer (Cache_Headers::versioned(), the rule of every index answer).
	 *
	 * @param bool         $logged_in Whether the request is authenticated.
	 * @param string       $version   The `v` asked for ('' when none).
	 * @param Place_Filter $filter    The selection (its version: Index_Version).
	 */
	private function cache_control( bool $logged_in, string $version, Place_Filter $filter ): string {
		return Cache_Headers::versioned( $logged_in, $version, Index_Version::of( $filter, $this->version->get() ), $this->tiles->is_complete() );
	}

	/**
	 * Whether a `v` names the current version of the selection's addresses (Index_Version).
	 *
	 * @param string       $version The `v` asked for ('' when none).
	 * @param Place_Filter $filter  The selection.
	 */
	private function is_current( string $version, Place_Filter $filter ): bool {
		return '' !== $version && hash_equals( Index_Version::of( $filter, $this->version->get() ), $version );
	}

	/**
	 * Prints a tile's body as built, gzip when the client accepts it (that representation has its
	 * own ETag, as the feed's). Hooked to `rest_pre_serve_request`, after the status and headers
	 * (CORS ones included) are sent.
	 *
	 * @param bool                   $served  Whether the request was served already.
	 * @param \WP_HTTP_Response|null $result  The response.
	 * @param WP_REST_Request|null   $request The request.
	 * @return bool Whether the request was served.
	 */
	public function serve_tile( $served, $result = null, $request = null ): bool {
		if ( $served || ! $result instanceof Tile_Response || ! $result->is_pristine() ) {
			return (bool) $served;
		}
		$json = $result->get_json();
		if ( $request instanceof WP_REST_Request && Cache_Headers::sends_gzip( (string) $request->get_header( 'Accept-Encoding' ) ) && ! headers_sent() ) {
			header( 'ETag: ' . Cache_Headers::representation_etag( (string) ( $result->get_headers()['ETag'] ?? '""' ), 'gzip' ) );
			header( 'Content-Encoding: gzip' );
			echo gzencode( $json, 6 ); // phpcs:ignore WordPress.Security.EscapeOutput.OutputNotEscaped -- the JSON document, compressed.
			return true;
		}
		echo $json; // phpcs:ignore WordPress.Security.EscapeOutput.OutputNotEscaped -- a JSON document built by json_encode, served as application/geo+json.
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
