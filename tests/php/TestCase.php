<?php
/**
 * Base class for Cairn Maps integration tests.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Markers\Post_Type;
use WP_REST_Request;
use WP_REST_Response;
use Yoast\PHPUnitPolyfills\TestCases\TestCase as Polyfill_TestCase;

/**
 * Runs each test against the real WordPress loaded by bootstrap.php, inside a database transaction
 * that is rolled back afterwards, with hooks, the current user, the object cache and the REST
 * server reset. Nothing of WordPress is mocked.
 *
 * @since 0.1.0
 */
abstract class TestCase extends Polyfill_TestCase {

	/**
	 * Hooks as they were before the test, restored after it.
	 *
	 * @var array<string, mixed>
	 */
	private array $hooks_backup = array();

	/**
	 * Counter for unique user names.
	 *
	 * @var int
	 */
	private static int $users = 0;

	/**
	 * Starts the transaction and resets WordPress' per-request state.
	 */
	protected function set_up(): void {
		parent::set_up();
		$this->backup_hooks();
		$this->reset_request_state();

		global $wpdb;
		$wpdb->suppress_errors( false );
		$wpdb->show_errors( true );
		$wpdb->query( 'SET autocommit = 0' );
		$wpdb->query( 'START TRANSACTION' );
		// DDL would commit the transaction implicitly: keep any table a test creates temporary.
		add_filter( 'query', array( $this, 'temporary_tables' ) );
	}

	/**
	 * Rolls the database back and restores hooks and globals.
	 */
	protected function tear_down(): void {
		global $wpdb;
		$wpdb->query( 'ROLLBACK' );
		$wpdb->query( 'SET autocommit = 1' );
		$this->restore_hooks();
		$this->reset_request_state();
		parent::tear_down();
	}

	/**
	 * Rewrites CREATE/DROP TABLE into their TEMPORARY forms (as core's suite does).
	 *
	 * @param string $query SQL.
	 */
	public function temporary_tables( $query ) {
		if ( 'CREATE TABLE' === substr( trim( $query ), 0, 12 ) ) {
			return substr_replace( trim( $query ), 'CREATE TEMPORARY TABLE', 0, 12 );
		}
		if ( 'DROP TABLE' === substr( trim( $query ), 0, 10 ) ) {
			return substr_replace( trim( $query ), 'DROP TEMPORARY TABLE', 0, 10 );
		}
		return $query;
	}

	/**
	 * Forgets cached data, the current user, the REST server and request globals.
	 */
	private function reset_request_state(): void {
		wp_cache_flush();
		wp_set_current_user( 0 );
		$GLOBALS['wp_rest_server'] = null; // phpcs:ignore WordPress.NamingConventions.PrefixAllGlobals.NonPrefixedVariableFound -- core's REST server global, reset as core's suite does.
		$_GET                      = array();
		$_POST                     = array();
		$_REQUEST                  = array();
		unset( $GLOBALS['HTTP_RAW_POST_DATA'] );
		$_SERVER['REQUEST_METHOD'] = 'GET';
		foreach ( array_keys( $_SERVER ) as $key ) {
			if ( 0 === strpos( (string) $key, 'HTTP_' ) && 'HTTP_HOST' !== $key ) {
				unset( $_SERVER[ $key ] );
			}
		}
	}

	/**
	 * Saves the hook tables.
	 */
	private function backup_hooks(): void {
		$this->hooks_backup = array();
		foreach ( array( 'wp_filter', 'wp_actions', 'wp_filters', 'wp_current_filter' ) as $global ) {
			$this->hooks_backup[ $global ] = $GLOBALS[ $global ] ?? array();
		}
		// WP_Hook objects are mutable: keep copies.
		foreach ( $this->hooks_backup['wp_filter'] as $name => $hook ) {
			$this->hooks_backup['wp_filter'][ $name ] = clone $hook;
		}
	}

	/**
	 * Puts the hook tables back.
	 */
	private function restore_hooks(): void {
		foreach ( $this->hooks_backup as $global => $value ) {
			$GLOBALS[ $global ] = $value; // phpcs:ignore WordPress.NamingConventions.PrefixAllGlobals.NonPrefixedVariableFound, WordPress.WP.GlobalVariablesOverride.Prohibited -- restoring WordPress' hook tables.
		}
	}

	/**
	 * Creates a user with a role.
	 *
	 * @param string $role Role name.
	 * @return int User id.
	 */
	protected function create_user( string $role ): int {
		++self::$users;
		$id = wp_insert_user(
			array(
				'user_login' => "cairn_{$role}_" . self::$users,
				'user_email' => "cairn_{$role}_" . self::$users . '@example.org',
				'user_pass'  => 'password',
				'role'       => $role,
			)
		);
		$this->assertIsInt( $id, 'the test user could be created' );
		return $id;
	}

	/**
	 * Makes a new user of a role the current user; `anonymous` logs out.
	 *
	 * @param string $role Role name, or `anonymous`.
	 * @return int User id (0 for anonymous).
	 */
	protected function act_as( string $role ): int {
		$id = 'anonymous' === $role ? 0 : $this->create_user( $role );
		wp_set_current_user( $id );
		return $id;
	}

	/**
	 * Dispatches a request through the real REST server.
	 *
	 * GET and DELETE parameters go to the query string; others are sent as a JSON body.
	 *
	 * @param string                $method  HTTP method.
	 * @param string                $route   Route, e.g. `/cairn/v1/markers`.
	 * @param array<string, mixed>  $params  Parameters.
	 * @param array<string, string> $headers Request headers.
	 */
	protected function rest( string $method, string $route, array $params = array(), array $headers = array() ): WP_REST_Response {
		$request = new WP_REST_Request( $method, $route );
		if ( in_array( $method, array( 'GET', 'HEAD', 'DELETE' ), true ) ) {
			$request->set_query_params( $params );
		} else {
			$request->set_header( 'Content-Type', 'application/json' );
			$request->set_body( (string) wp_json_encode( $params ) );
		}
		foreach ( $headers as $name => $value ) {
			$request->set_header( $name, $value );
		}
		return rest_get_server()->dispatch( $request );
	}

	/**
	 * Serves a request the way an HTTP request is served (`serve_request`, with the
	 * `rest_post_dispatch` and `rest_pre_serve_request` filters), and captures what was sent.
	 *
	 * PHP's CLI does not record sent headers (and PHPUnit's output means none can be sent), so the
	 * headers are those of the final response object handed to the serving filters, and answers
	 * that depend on sending headers (gzip) are checked over real HTTP in `tests/php/Http/`.
	 *
	 * @param string                $route   Route.
	 * @param array<string, string> $query   Query parameters.
	 * @param array<string, string> $headers Request headers, e.g. `If-None-Match`.
	 * @param string                $method  HTTP method.
	 * @return array{status: int, headers: array<string, string>, body: string}
	 */
	protected function serve( string $route, array $query = array(), array $headers = array(), string $method = 'GET' ): array {
		$_SERVER['REQUEST_METHOD'] = $method;
		$_GET                      = $query;
		foreach ( $headers as $name => $value ) {
			$_SERVER[ 'HTTP_' . strtoupper( str_replace( '-', '_', $name ) ) ] = $value;
		}
		$captured = null;
		$capture  = static function ( $served, $result ) use ( &$captured ) {
			$captured = $result;
			return $served;
		};
		add_filter( 'rest_pre_serve_request', $capture, PHP_INT_MIN, 2 );
		// PHPUnit has printed already, so header() can only warn here; real headers: tests/php/Http/.
		set_error_handler( // phpcs:ignore WordPress.PHP.DevelopmentFunctions.error_log_set_error_handler
			static function ( $errno, $message ) {
				return E_WARNING === $errno && false !== strpos( $message, 'Cannot modify header information' );
			}
		);
		ob_start();
		try {
			rest_get_server()->serve_request( $route );
		} finally {
			$body = (string) ob_get_clean();
			restore_error_handler();
			remove_filter( 'rest_pre_serve_request', $capture, PHP_INT_MIN );
		}
		$this->assertInstanceOf( \WP_HTTP_Response::class, $captured, 'the request reached the serving stage' );
		return array(
			'status'  => $captured->get_status(),
			'headers' => $captured->get_headers(),
			'body'    => $body,
		);
	}

	/**
	 * The `data-cairn-config` of every map block in a post's content, decoded, in order: the
	 * content rendered as the loop renders it (the global post set up, `the_content`).
	 *
	 * @param \WP_Post $post The post.
	 * @return array<int, mixed>
	 */
	protected static function rendered_map_configs( \WP_Post $post ): array {
		$GLOBALS['post'] = $post; // phpcs:ignore WordPress.WP.GlobalVariablesOverride.Prohibited -- the loop's post, as a theme sets it.
		setup_postdata( $post );
		$html = (string) apply_filters( 'the_content', $post->post_content ); // phpcs:ignore WordPress.NamingConventions.PrefixAllGlobals.NonPrefixedHooknameFound -- core's filter.
		wp_reset_postdata();
		$configs = array();
		$tags    = new \WP_HTML_Tag_Processor( $html );
		while ( $tags->next_tag( array( 'class_name' => 'wp-block-cairn-map' ) ) ) {
			$configs[] = json_decode( (string) $tags->get_attribute( 'data-cairn-config' ), true );
		}
		return $configs;
	}

	/**
	 * Creates a marker group, as code running without a user does (a fixture, whoever the test
	 * acts as: creating groups needs `edit_terms`, see Group_Creation).
	 *
	 * @param string $slug Slug.
	 * @param string $name Name (defaults to the slug).
	 * @return int Term id.
	 */
	protected function create_group( string $slug, string $name = '' ): int {
		$user = get_current_user_id();
		wp_set_current_user( 0 );
		$term = wp_insert_term( '' !== $name ? $name : $slug, Post_Type::TAXONOMY, array( 'slug' => $slug ) );
		wp_set_current_user( $user );
		$this->assertIsArray( $term, 'the group could be created' );
		return (int) $term['term_id'];
	}

	/**
	 * Creates a marker.
	 *
	 * @param array<string, mixed> $args Post fields, plus `lat`, `lng` (omit or null for none) and
	 *                                   `groups` (slugs; created when missing).
	 * @return int Post id.
	 */
	protected function create_marker( array $args = array() ): int {
		$args = array_merge(
			array(
				'post_title'  => 'Marker',
				'post_status' => 'publish',
				'lat'         => 51.5,
				'lng'         => -0.12,
				'groups'      => array(),
			),
			$args
		);
		$meta = array();
		if ( null !== $args['lat'] ) {
			$meta[ Post_Type::META_LAT ] = $args['lat'];
		}
		if ( null !== $args['lng'] ) {
			$meta[ Post_Type::META_LNG ] = $args['lng'];
		}
		$groups = $args['groups'];
		unset( $args['lat'], $args['lng'], $args['groups'] );
		$id = wp_insert_post(
			array_merge(
				array(
					'post_type'  => Post_Type::POST_TYPE,
					'meta_input' => $meta,
				),
				$args
			),
			true
		);
		$this->assertIsInt( $id, 'the marker could be created' );
		if ( array() !== $groups ) {
			foreach ( $groups as $slug ) {
				if ( ! term_exists( $slug, Post_Type::TAXONOMY ) ) {
					$this->create_group( $slug );
				}
			}
			wp_set_object_terms( $id, $groups, Post_Type::TAXONOMY );
		}
		return $id;
	}

	/**
	 * Number of markers (any status) stored, to prove that refused writes saved nothing.
	 */
	protected function count_markers(): int {
		global $wpdb;
		return (int) $wpdb->get_var( $wpdb->prepare( "SELECT COUNT(*) FROM {$wpdb->posts} WHERE post_type = %s", Post_Type::POST_TYPE ) );
	}
}
