<?php
/**
 * The shapes of a map, tile by tile.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Rest;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Feed\Shape_Tiles;
use Cairn\Maps\Markers\Marker_Filters;
use Cairn\Maps\Support\Limits;
use Cairn\Maps\Support\Rest_Routes;
use WP_Error;
use WP_REST_Request;
use WP_REST_Response;
use WP_REST_Server;

/**
 * `GET /cairn/v1/shapes/tiles/<z>/<x>/<y>`: the lines and areas of a marker selection that meet
 * one tile, each whole and simplified for the zoom (Feed\Shape_Tiles), for maps whose shapes are
 * too heavy for the whole shapes feed (Blocks\Shape_Tile_Config: `config.shapeTilesUrl`).
 *
 * Parameters: the shapes feed's selection, `group` and `include` (Feed_Schema's rules and
 * messages), and `v` (the markers version the URL was made for, Places_Params' rule). z is 0 to
 * the highest map zoom (from `shapeTiles.fullZoom` on every zoom serves the feed's own copies), x
 * and y 0 to 2^z − 1, integers; anything else answers 400 with a message.
 *
 * Caching as the place tiles: a strong ETag from the tile's key (Shape_Tiles::key()), `304` on a
 * matching `If-None-Match`, Cache-Control by Cache_Headers::versioned() (immutable for anonymous
 * requests only when `v` is current and the tables complete), the body printed as built (gzip
 * when accepted) by Markers_Controller::serve_feed(), CORS as the feed (Cors::PUBLIC_ROUTES).
 *
 * @since 0.7.0
 */
class Shape_Tiles_Controller {

	/**
	 * The route, under the plugin's namespace, before the coordinates.
	 */
	public const ROUTE = '/shapes/tiles';

	/**
	 * The tiles.
	 *
	 * @var Shape_Tiles
	 */
	private Shape_Tiles $tiles;

	/**
	 * The selection's validation (the shapes feed's).
	 *
	 * @var Feed_Schema
	 */
	private Feed_Schema $schema;

	/**
	 * Creates the controller.
	 *
	 * @param Shape_Tiles $tiles The tiles.
	 */
	public function __construct( Shape_Tiles $tiles ) {
		$this->tiles  = $tiles;
		$this->schema = new Feed_Schema();
	}

	/**
	 * Wires hooks.
	 */
	public function add_hooks(): void {
		add_action( 'rest_api_init', array( $this, 'register_routes' ) );
	}

	/**
	 * Registers the route.
	 */
	public function register_routes(): void {
		$number = '(?P<%s>[^/]+)';
		register_rest_route(
			Rest_Routes::NAMESPACE,
			self::ROUTE . '/' . sprintf( $number, 'z' ) . '/' . sprintf( $number, 'x' ) . '/' . sprintf( $number, 'y' ),
			array(
				array(
					'methods'             => WP_REST_Server::READABLE,
					'callback'            => array( $this, 'get_item' ),
					// Public: only published markers' shapes are served, the same data the pages show.
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
		$feed = $this->schema->args();
		return array(
			'z'       => array(
				/* translators: %d: the highest zoom of a tile. */
				'description'       => sprintf( __( 'Zoom, an integer from 0 to %d.', 'cairn-maps' ), (int) Limits::get( 'zoom.max' ) ),
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
			'group'   => $feed['group'],
			'include' => $feed['include'],
			'v'       => Places_Params::args()['v'],
		);
	}

	/**
	 * Validates z.
	 *
	 * @param mixed $value Parameter value.
	 * @return true|WP_Error
	 */
	public static function validate_zoom( $value ) {
		$max = (int) Limits::get( 'zoom.max' );
		if ( null !== self::integer( $value, $max ) ) {
			return true;
		}
		/* translators: %d: the highest zoom of a tile. */
		return self::error( sprintf( __( 'z must be an integer from 0 to %d.', 'cairn-maps' ), $max ) );
	}

	/**
	 * Validates x as an integer (its range depends on z: tile()).
	 *
	 * @param mixed $value Parameter value.
	 * @return true|WP_Error
	 */
	public static function validate_column( $value ) {
		return null !== self::integer( $value, self::largest() ) ? true : self::error( __( 'x must be an integer from 0 to 2^z - 1.', 'cairn-maps' ) );
	}

	/**
	 * Validates y as an integer (its range depends on z: tile()).
	 *
	 * @param mixed $value Parameter value.
	 * @return true|WP_Error
	 */
	public static function validate_row( $value ) {
		return null !== self::integer( $value, self::largest() ) ? true : self::error( __( 'y must be an integer from 0 to 2^z - 1.', 'cairn-maps' ) );
	}

	/**
	 * The tile.
	 *
	 * @param WP_REST_Request $request The request.
	 * @return WP_REST_Response|WP_Error
	 */
	public function get_item( WP_REST_Request $request ) {
		/* translators: %s: a global REST parameter such as _fields. */
		$error = Feed_Answer::unsupported_global( $request, __( '%s is not supported by the shape tiles: each is served as one pre-built GeoJSON document.', 'cairn-maps' ) );
		if ( null !== $error ) {
			return $error;
		}
		$tile = self::tile( $request->get_params() );
		if ( $tile instanceof WP_Error ) {
			return $tile;
		}
		$key       = $this->tiles->key( $tile['z'], $tile['x'], $tile['y'], $tile['filters'] );
		$etag      = '"' . $key . '"';
		$logged_in = is_user_logged_in();
		$current   = $this->tiles->is_current( $tile['version'] );
		$headers   = array(
			'ETag'          => $etag,
			'Cache-Control' => Cache_Headers::versioned( $logged_in, $tile['version'], $this->tiles->version(), $this->tiles->is_complete() ),
			'Vary'          => 'Accept-Encoding',
		);
		if ( Cache_Headers::etag_matches( $request->get_header( 'If-None-Match' ), $etag ) ) {
			$headers['ETag'] = Cache_Headers::representation_etag( $etag, (string) $request->get_header( 'Accept-Encoding' ) );
			return new WP_REST_Response( null, 304, $headers );
		}
		if ( 'HEAD' === Method_Override_Guard::answered_method( $request ) ) {
			return new WP_REST_Response( null, 200, $headers );
		}
		$payload = $this->tiles->payload( $key, $tile['z'], $tile['x'], $tile['y'], $tile['filters'], $current );
		return new Geojson_Response( $payload, 200, $headers );
	}

	/**
	 * A tile's coordinates, filters and the version asked for, validated (the REST server has
	 * checked each parameter; x and y are checked against z here); a 400 when one is invalid.
	 *
	 * @param array<string, mixed> $params The route's parameters.
	 * @return array{z: int, x: int, y: int, filters: array{groups: string[], ids: int[]}, version: string}|WP_Error
	 */
	public static function tile( array $params ) {
		$z = (int) $params['z'];
		$x = (int) $params['x'];
		$y = (int) $params['y'];
		if ( $x >= ( 1 << $z ) || $y >= ( 1 << $z ) ) {
			/* translators: 1: zoom, 2: the largest column or row at that zoom. */
			return self::error( sprintf( __( 'At zoom %1$d, x and y must be integers from 0 to %2$d.', 'cairn-maps' ), $z, ( 1 << $z ) - 1 ) );
		}
		$filters = Marker_Filters::normalize(
			Feed_Schema::filters(
				array(
					'group'   => $params['group'] ?? null,
					'include' => $params['include'] ?? null,
				)
			)
		);
		return array(
			'z'       => $z,
			'x'       => $x,
			'y'       => $y,
			'filters' => array(
				'groups' => $filters['groups'],
				'ids'    => $filters['ids'],
			),
			'version' => Places_Params::version( $params['v'] ?? null ),
		);
	}

	/**
	 * The largest column or row of any zoom.
	 */
	private static function largest(): int {
		return ( 1 << (int) Limits::get( 'zoom.max' ) ) - 1;
	}

	/**
	 * A decimal integer from 0 to $max (digits only, no sign, no spaces), or null.
	 *
	 * @param mixed $value The parameter.
	 * @param int   $max   Greatest value.
	 */
	private static function integer( $value, int $max ): ?int {
		if ( is_int( $value ) ) {
			$value = (string) $value;
		}
		if ( ! is_string( $value ) || 1 !== preg_match( '/^\d{1,9}$/', $value ) ) {
			return null;
		}
		$number = (int) $value;
		return $number <= $max ? $number : null;
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
