<?php
/**
 * `GET /cairn/v1/posts/<id>/maps` and the `cairn_maps` field.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Rest;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Groups\Group_Styles;
use Cairn\Maps\Plugin;
use Cairn\Maps\Rest\Markers_Controller;
use Cairn\Maps\Rest\Post_Maps_Controller;
use Cairn\Maps\Settings\Settings;
use Cairn\Maps\Tests\Blocks\Map_BlockTest;
use Cairn\Maps\Tests\TestCase;
use WP_REST_Response;

/**
 * The route through the real REST server, its readability against core's own routes for the same
 * user, its configuration against the server render, its caching and its early 304.
 *
 * @since 0.2.0
 */
final class Post_Maps_ControllerTest extends TestCase {

	/**
	 * Three maps, two of them hashed (one with an anchor).
	 */
	private const THREE_MAPS = '<!-- wp:cairn/map {"hash":true,"zoom":3} /--><!-- wp:paragraph --><p>Between</p><!-- /wp:paragraph --><!-- wp:cairn/map {"zoom":4,"markers":{"source":"groups","groups":["huts"],"ids":[]}} /--><!-- wp:cairn/map {"hash":true,"anchor":"harbour","zoom":5} /-->';

	/**
	 * The controller.
	 */
	private static function controller(): Post_Maps_Controller {
		$controller = Plugin::instance()->get( 'post_maps_rest' );
		self::assertInstanceOf( Post_Maps_Controller::class, $controller );
		return $controller;
	}

	/**
	 * Creates a post.
	 *
	 * @param array<string, mixed> $args Post fields.
	 * @return int Post id.
	 */
	private function create_post( array $args = array() ): int {
		$id = wp_insert_post(
			array_merge(
				array(
					'post_type'    => 'post',
					'post_status'  => 'publish',
					'post_title'   => 'A post with maps',
					'post_content' => self::THREE_MAPS,
				),
				$args
			),
			true
		);
		$this->assertIsInt( $id );
		return $id;
	}

	/**
	 * GET of the route.
	 *
	 * @param int                   $id      Post id.
	 * @param array<string, mixed>  $params  Query parameters.
	 * @param array<string, string> $headers Request headers.
	 */
	private function maps( int $id, array $params = array(), array $headers = array() ): WP_REST_Response {
		return $this->rest( 'GET', "/cairn/v1/posts/{$id}/maps", $params, $headers );
	}

	/**
	 * A response's data as a client receives it (JSON).
	 *
	 * @param WP_REST_Response $response Response.
	 * @return mixed
	 */
	private static function json( WP_REST_Response $response ) {
		return json_decode( (string) wp_json_encode( rest_get_server()->response_to_data( $response, false ) ), true );
	}

	/**
	 * Creates a post in a status.
	 *
	 * @param string $status  publish, draft, private, future, pending or trash.
	 * @param int    $author  Author.
	 * @param string $type    Post type.
	 * @return int Post id.
	 */
	private function post_in_status( string $status, int $author, string $type = 'post' ): int {
		$args = array(
			'post_author' => $author,
			'post_type'   => $type,
			'post_status' => 'trash' === $status ? 'publish' : $status,
		);
		if ( 'future' === $status ) {
			$args['post_date'] = gmdate( 'Y-m-d H:i:s', time() + WEEK_IN_SECONDS );
		}
		$id = $this->create_post( $args );
		if ( 'trash' === $status ) {
			wp_trash_post( $id );
		}
		$this->assertSame( $status, get_post_status( $id ) );
		return $id;
	}

	/**
	 * Each status for each kind of reader, with the status core's route answers.
	 *
	 * @return array<string, array{0: string, 1: string, 2: int}>
	 */
	public static function statuses_and_readers(): array {
		$expected = array(
			// Codes for: anonymous, another author, the author, an editor.
			'publish' => array( 200, 200, 200, 200 ),
			'draft'   => array( 401, 403, 200, 200 ),
			'private' => array( 401, 403, 200, 200 ),
			'future'  => array( 401, 403, 200, 200 ),
			'pending' => array( 401, 403, 200, 200 ),
			'trash'   => array( 401, 403, 200, 200 ),
		);
		$cases    = array();
		foreach ( $expected as $status => $codes ) {
			foreach ( array( 'anonymous', 'another author', 'the author', 'editor' ) as $i => $reader ) {
				$cases[ "{$status}, {$reader}" ] = array( $status, $reader, $codes[ $i ] );
			}
		}
		return $cases;
	}

	/**
	 * Readable exactly when core's `/wp/v2/posts/<id>` is, with core's status and error code.
	 *
	 * @dataProvider statuses_and_readers
	 *
	 * @param string $status   Post status.
	 * @param string $reader   Who reads.
	 * @param int    $expected Expected status code.
	 */
	public function test_readable_like_core( string $status, string $reader, int $expected ): void {
		$author = $this->create_user( 'author' );
		$id     = $this->post_in_status( $status, $author );
		if ( 'the author' === $reader ) {
			wp_set_current_user( $author );
		} else {
			$this->act_as( array( 'another author' => 'author' )[ $reader ] ?? $reader );
		}

		$ours = $this->maps( $id );
		$core = $this->rest( 'GET', "/wp/v2/posts/{$id}" );
		$this->assertSame( $expected, $ours->get_status() );
		$this->assertSame( $core->get_status(), $ours->get_status(), 'the same status as core' );
		if ( 200 === $expected ) {
			$this->assertCount( 3, $ours->get_data()['maps'] );
			$this->assertSame( $id, $ours->get_data()['post'] );
		} else {
			$this->assertSame( $core->as_error()->get_error_code(), $ours->as_error()->get_error_code(), 'the same error code as core' );
		}
	}

	/**
	 * Ids that are no post readable over REST are core's 404; a path that is no id is no route.
	 */
	public function test_unknown_ids_and_types_not_in_rest(): void {
		$this->assertSame( 'rest_post_invalid_id', $this->maps( 999999999 )->as_error()->get_error_code() );
		$this->assertSame( 404, $this->maps( 999999999 )->get_status() );
		$this->assertSame( 404, $this->maps( 0 )->get_status() );

		$no_route = $this->rest( 'GET', '/cairn/v1/posts/abc/maps' );
		$this->assertSame( 404, $no_route->get_status() );
		$this->assertSame( 'rest_no_route', $no_route->as_error()->get_error_code() );

		register_post_type(
			'cairn_hidden',
			array(
				'public'       => true,
				'show_in_rest' => false,
			)
		);
		$hidden = $this->create_post( array( 'post_type' => 'cairn_hidden' ) );
		$this->act_as( 'administrator' );
		$answer = $this->maps( $hidden );
		unregister_post_type( 'cairn_hidden' );
		$this->assertSame( 404, $answer->get_status() );
		$this->assertSame( 'rest_post_invalid_id', $answer->as_error()->get_error_code() );
	}

	/**
	 * Synced patterns and markers answer like their own REST routes.
	 */
	public function test_patterns_and_markers_answer_like_their_own_routes(): void {
		$pattern = $this->create_post( array( 'post_type' => 'wp_block' ) );
		$marker  = $this->create_marker( array( 'post_content' => 'A hut.' ) );
		foreach ( array( 'anonymous', 'editor' ) as $reader ) {
			$this->act_as( $reader );
			$routes = array(
				$pattern => '/wp/v2/blocks/',
				$marker  => '/wp/v2/cairn-markers/',
			);
			foreach ( $routes as $id => $core_route ) {
				$this->assertSame( $this->rest( 'GET', $core_route . $id )->get_status(), $this->maps( $id )->get_status(), "{$reader}, {$core_route}" );
			}
		}
		$this->assertCount( 3, $this->maps( $pattern )->get_data()['maps'], 'an editor reads a pattern\'s maps' );
		wp_set_current_user( 0 );
		$this->assertSame( 401, $this->maps( $pattern )->get_status(), 'anonymous visitors do not, as with /wp/v2/blocks' );
		$this->assertSame( array(), $this->maps( $marker )->get_data()['maps'] );
	}

	/**
	 * Password cases.
	 *
	 * @return array<string, array{0: string, 1: string|null, 2: int, 3: string|int}>
	 */
	public static function passwords(): array {
		return array(
			'protected, no password'    => array( 'secret', null, 200, 0 ),
			'protected, wrong password' => array( 'secret', 'guess', 403, 'rest_post_incorrect_password' ),
			'protected, right password' => array( 'secret', 'secret', 200, 3 ),
			'open, a password anyway'   => array( '', 'guess', 403, 'rest_post_incorrect_password' ),
			'open, no password'         => array( '', null, 200, 3 ),
		);
	}

	/**
	 * A protected post gives its maps only with its password; a wrong one is core's 403.
	 *
	 * @dataProvider passwords
	 *
	 * @param string          $password Post password.
	 * @param string|null     $sent     Password sent.
	 * @param int             $status   Expected status.
	 * @param string|int|null $outcome  Number of maps, or the error code.
	 */
	public function test_password( string $password, ?string $sent, int $status, $outcome ): void {
		$id     = $this->create_post( array( 'post_password' => $password ) );
		$params = null === $sent ? array() : array( 'password' => $sent );

		$ours = $this->maps( $id, $params );
		$core = $this->rest( 'GET', "/wp/v2/posts/{$id}", $params );
		$this->assertSame( $status, $ours->get_status() );
		$this->assertSame( $core->get_status(), $ours->get_status(), 'the same status as core' );
		if ( is_int( $outcome ) ) {
			$this->assertCount( $outcome, $ours->get_data()['maps'] );
			$this->assertSame( 0 === $outcome, '' === $core->get_data()['content']['rendered'], 'maps are shown when core shows the content' );
		} else {
			$this->assertSame( $outcome, $ours->as_error()->get_error_code() );
		}
	}

	/**
	 * A password that is not a string (`?password[]=x`) is a 400 naming the parameter, from the
	 * route's own schema, not a 500 from core's password check (which core runs again, unchecked,
	 * for the Allow header of the answer: served as a real request is).
	 */
	public function test_a_password_that_is_not_a_string_is_a_400(): void {
		foreach ( array( 'secret', '' ) as $post_password ) {
			$id = $this->create_post( array( 'post_password' => $post_password ) );
			foreach ( array( array( 'x' ), array( 'a' => 'b' ) ) as $password ) {
				$served = $this->serve( "/cairn/v1/posts/{$id}/maps", array( 'password' => $password ) );
				$this->assertSame( 400, $served['status'], $served['body'] );
				$error = json_decode( $served['body'], true );
				$this->assertSame( 'rest_invalid_param', $error['code'] );
				$this->assertArrayHasKey( 'password', $error['data']['params'] );
			}
		}
	}

	/**
	 * The answer's shape.
	 */
	public function test_answer_shape(): void {
		$id   = $this->create_post();
		$data = self::json( $this->maps( $id ) );

		$this->assertSame( array( 'post', 'modified', 'maps' ), array_keys( $data ) );
		$this->assertSame( $id, $data['post'] );
		$this->assertSame( str_replace( ' ', 'T', get_post_field( 'post_modified_gmt', $id ) ) . 'Z', $data['modified'] );
		$this->assertMatchesRegularExpression( '/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/', $data['modified'] );
		foreach ( $data['maps'] as $map ) {
			$this->assertSame( array( 'id', 'attributes', 'config', 'error', 'places' ), array_keys( $map ) );
		}
		$this->assertSame( array( 'map-1', 'map-2', 'harbour' ), array_column( $data['maps'], 'id' ) );

		$none = $this->create_post( array( 'post_content' => '<!-- wp:paragraph --><p>No map.</p><!-- /wp:paragraph -->' ) );
		$this->assertSame( array(), $this->maps( $none )->get_data()['maps'] );
	}

	/**
	 * Every map's config is exactly what the server renders into data-cairn-config, in order.
	 */
	public function test_config_is_the_rendered_config(): void {
		update_option( Settings::TOKEN_OPTION, Map_BlockTest::public_token() );
		$huts = $this->create_group( 'huts' );
		update_term_meta( $huts, Group_Styles::META_COLOR, '#aa3300' );
		$id   = $this->create_post();
		$maps = self::json( $this->maps( $id ) )['maps'];

		$rendered = self::rendered_map_configs( get_post( $id ) );
		$this->assertCount( 3, $rendered );
		$this->assertSame( $rendered, array_column( $maps, 'config' ) );
		$this->assertSame( array( '', 'harbour' ), array( $maps[0]['config']['hashName'], $maps[2]['config']['hashName'] ) );
		$this->assertSame( Map_BlockTest::public_token(), $maps[0]['config']['accessToken'] );
		$this->assertStringContainsString( 'group=huts', $maps[1]['config']['markersUrl'] );
		$this->assertSame( '', $maps[1]['error'] );
	}

	/**
	 * The config says whether the map waits for consent (what `<CairnMap>` and createMap() honour),
	 * exactly as the rendered data-cairn-config does, for the owner's setting on and off.
	 */
	public function test_config_carries_the_consent_policy(): void {
		update_option( Settings::TOKEN_OPTION, Map_BlockTest::public_token() );
		$id = $this->create_post();

		$maps = self::json( $this->maps( $id ) )['maps'];
		$this->assertSame( self::rendered_map_configs( get_post( $id ) ), array_column( $maps, 'config' ) );
		$this->assertSame(
			array(
				'required' => false,
				'category' => '',
			),
			$maps[0]['config']['consent']
		);

		update_option( Settings::CONSENT_OPTION, true );
		$maps = self::json( $this->maps( $id ) )['maps'];
		$this->assertSame( self::rendered_map_configs( get_post( $id ) ), array_column( $maps, 'config' ) );
		foreach ( $maps as $map ) {
			$this->assertSame(
				array(
					'required' => true,
					'category' => '',
				),
				$map['config']['consent']
			);
		}
		// The field of core's route carries the same.
		$field = self::json( $this->rest( 'GET', "/wp/v2/posts/{$id}", array( '_fields' => 'cairn_maps' ) ) );
		$this->assertTrue( $field['cairn_maps'][1]['config']['consent']['required'] );
	}

	/**
	 * Each map gives the first page of the list the server renders without JavaScript: the same
	 * places, in the same order, with plain-text titles, and how many there are in all.
	 */
	public function test_places_are_the_rendered_list(): void {
		update_option( Settings::TOKEN_OPTION, Map_BlockTest::public_token() );
		$hut = $this->create_marker(
			array(
				'post_title' => 'Hut <b>&amp; bar</b>',
				'groups'     => array( 'huts' ),
				'lat'        => 46.5,
				'lng'        => 7.25,
			)
		);
		$this->create_marker( array( 'post_title' => 'Peak' ) );
		$id   = $this->create_post();
		$maps = self::json( $this->maps( $id ) )['maps'];

		$this->assertSame( 2, $maps[0]['places']['total'] );
		$this->assertSame( 1, $maps[0]['places']['page'] );
		$this->assertSame( 50, $maps[0]['places']['perPage'] );
		$this->assertSame(
			array(
				'id'    => $hut,
				'title' => 'Hut & bar',
				'lng'   => 7.25,
				'lat'   => 46.5,
			),
			$maps[1]['places']['items'][0]
		);
		$this->assertSame( 1, $maps[1]['places']['total'] );

		// The same entries as the server's list, map by map.
		$post            = get_post( $id );
		$GLOBALS['post'] = $post; // phpcs:ignore WordPress.WP.GlobalVariablesOverride.Prohibited -- the loop's post, as a theme sets it.
		setup_postdata( $post );
		$html = (string) apply_filters( 'the_content', $post->post_content ); // phpcs:ignore WordPress.NamingConventions.PrefixAllGlobals.NonPrefixedHooknameFound -- core's filter.
		wp_reset_postdata();
		$rendered = array();
		$map      = -1;
		$tags     = new \WP_HTML_Tag_Processor( $html );
		while ( $tags->next_tag() ) {
			if ( $tags->has_class( 'wp-block-cairn-map' ) ) {
				$rendered[ ++$map ] = array();
			} elseif ( 'LI' === $tags->get_tag() && null !== $tags->get_attribute( 'data-cairn-marker-id' ) ) {
				$rendered[ $map ][] = (int) $tags->get_attribute( 'data-cairn-marker-id' );
			}
		}
		$this->assertSame(
			$rendered,
			array_map(
				static function ( array $map ): array {
					return array_column( $map['places']['items'], 'id' );
				},
				$maps
			)
		);
	}

	/**
	 * The error the render shows is reported, and only a public token is ever in the config.
	 * Since 0.7.0 token errors concern Mapbox maps only: without a usable token block.json's
	 * default style draws OpenFreeMap (engine maplibre), a block naming a Mapbox style still says why.
	 */
	public function test_errors_and_tokens(): void {
		$id   = $this->create_post( array( 'post_content' => '<!-- wp:cairn/map {"minZoom":10,"maxZoom":3} /--><!-- wp:cairn/map /--><!-- wp:cairn/map {"mapStyle":"mapbox://styles/mapbox/outdoors-v12"} /-->' ) );
		$maps = $this->maps( $id )->get_data()['maps'];
		$this->assertSame( array( 'zoom-range', '', 'missing-token' ), array_column( $maps, 'error' ) );
		$this->assertSame( array( 'maplibre', 'maplibre', 'mapbox' ), array_column( array_column( $maps, 'config' ), 'engine' ) );

		update_option( Settings::TOKEN_OPTION, Map_BlockTest::public_token() );
		$maps = $this->maps( $id )->get_data()['maps'];
		$this->assertSame( array( 'zoom-range', '', '' ), array_column( $maps, 'error' ) );
		$this->assertSame( array( 'mapbox', 'mapbox', 'mapbox' ), array_column( array_column( $maps, 'config' ), 'engine' ), 'the answer follows the token (ETag too)' );

		$secret = 'sk.' . substr( Map_BlockTest::public_token(), 3 );
		add_filter(
			'cairn_maps_access_token',
			static function () use ( $secret ) {
				return $secret;
			}
		);
		$answer = $this->maps( $id );
		$this->assertSame( array( 'zoom-range', '', 'secret-token' ), array_column( $answer->get_data()['maps'], 'error' ) );
		$this->assertStringNotContainsString( $secret, (string) wp_json_encode( $answer->get_data() ) );
	}

	/**
	 * The route documents its arguments and its answer.
	 */
	public function test_schema(): void {
		$id      = $this->create_post();
		$options = $this->rest( 'OPTIONS', "/cairn/v1/posts/{$id}/maps" )->get_data();

		$this->assertSame( 'integer', $options['endpoints'][0]['args']['id']['type'] );
		$this->assertSame( 'string', $options['endpoints'][0]['args']['password']['type'] );
		$this->assertSame( array( 'post', 'modified', 'maps' ), array_keys( $options['schema']['properties'] ) );
		$this->assertSame( array( 'id', 'attributes', 'config', 'places', 'error' ), array_keys( $options['schema']['properties']['maps']['items']['properties'] ) );
		$this->assertSame( array( 'required', 'category' ), array_keys( $options['schema']['properties']['maps']['items']['properties']['config']['properties']['consent']['properties'] ) );
		$config = $options['schema']['properties']['maps']['items']['properties']['config']['properties'];
		$this->assertSame( array( 'mapbox', 'maplibre' ), $config['engine']['enum'] );
		$this->assertSame( array( 'provider', 'glyphs', 'hosts', 'attribution' ), array_keys( $config['basemap']['properties'] ) );
		$this->assertSame( array( 'mapbox', 'openfreemap', 'style-url', 'self-hosted' ), $config['basemap']['properties']['provider']['enum'] );
	}

	/**
	 * The `cairn_maps` field on core's routes: the route's maps, only when asked for.
	 */
	public function test_field_on_core_routes(): void {
		$page = $this->create_post(
			array(
				'post_type' => 'page',
				'post_name' => 'x',
			)
		);
		$list = $this->rest(
			'GET',
			'/wp/v2/pages',
			array(
				'slug'    => 'x',
				'_fields' => 'id,title,content,cairn_maps',
			)
		);
		$this->assertSame( 200, $list->get_status() );
		$data = self::json( $list );
		$this->assertCount( 1, $data );
		$this->assertSame( array( 'id', 'title', 'content', 'cairn_maps' ), array_keys( $data[0] ) );
		$this->assertSame( self::json( $this->maps( $page ) )['maps'], $data[0]['cairn_maps'] );

		$post = $this->create_post();
		$one  = self::json( $this->rest( 'GET', "/wp/v2/posts/{$post}" ) );
		$this->assertSame( self::json( $this->maps( $post ) )['maps'], $one['cairn_maps'] );

		$schema = $this->rest( 'OPTIONS', '/wp/v2/posts' )->get_data()['schema']['properties'][ Post_Maps_Controller::FIELD ];
		$this->assertTrue( $schema['readonly'] );
		$this->assertSame( 'array', $schema['type'] );
	}

	/**
	 * Core calls the field only when it is requested: a listing without it builds no map.
	 */
	public function test_field_costs_nothing_when_not_requested(): void {
		$this->create_post(
			array(
				'post_type' => 'page',
				'post_name' => 'x',
			)
		);
		$built = 0;
		add_filter(
			'cairn_maps_access_token',
			static function ( $token ) use ( &$built ) {
				++$built;
				return $token;
			}
		);
		$this->rest(
			'GET',
			'/wp/v2/pages',
			array(
				'slug'    => 'x',
				'_fields' => 'id,title',
			)
		);
		$this->assertSame( 0, $built );
		$this->rest(
			'GET',
			'/wp/v2/pages',
			array(
				'slug'    => 'x',
				'_fields' => 'id,cairn_maps',
			)
		);
		$this->assertSame( 3, $built, 'one configuration per map' );
	}

	/**
	 * The field honours the password as core's content does.
	 */
	public function test_field_honours_the_password(): void {
		$id = $this->create_post( array( 'post_password' => 'secret' ) );

		$this->assertSame( array(), $this->rest( 'GET', "/wp/v2/posts/{$id}" )->get_data()[ Post_Maps_Controller::FIELD ] );
		$this->assertCount( 3, $this->rest( 'GET', "/wp/v2/posts/{$id}", array( 'password' => 'secret' ) )->get_data()[ Post_Maps_Controller::FIELD ] );
		$this->act_as( 'editor' );
		$this->assertCount( 3, $this->rest( 'GET', "/wp/v2/posts/{$id}", array( 'context' => 'edit' ) )->get_data()[ Post_Maps_Controller::FIELD ], 'the edit context, as core\'s content.raw' );
	}

	/**
	 * The field is on post types shown in REST that use the editor.
	 */
	public function test_field_post_types(): void {
		rest_get_server();
		global $wp_rest_additional_fields;
		foreach ( array( 'post', 'page', 'wp_block' ) as $type ) {
			$this->assertArrayHasKey( Post_Maps_Controller::FIELD, $wp_rest_additional_fields[ $type ] ?? array(), $type );
		}
		$this->assertArrayNotHasKey( Post_Maps_Controller::FIELD, $wp_rest_additional_fields['attachment'] ?? array(), 'attachments do not use the editor' );
	}

	/**
	 * ETag, 304 and Cache-Control: public for anonymous readers, private when logged in.
	 */
	public function test_etag_304_and_cache_control(): void {
		$id    = $this->create_post();
		$first = $this->serve( "/cairn/v1/posts/{$id}/maps" );
		$this->assertSame( 200, $first['status'] );
		$etag = $first['headers']['ETag'];
		$this->assertMatchesRegularExpression( '/^"[0-9a-f]{32}"$/', $etag );
		$this->assertSame( Markers_Controller::PUBLIC_CACHE_CONTROL, $first['headers']['Cache-Control'] );
		$this->assertSame( 3, count( json_decode( $first['body'], true )['maps'] ) );

		$again = $this->serve( "/cairn/v1/posts/{$id}/maps", array(), array( 'If-None-Match' => $etag ) );
		$this->assertSame( 304, $again['status'] );
		$this->assertSame( $etag, $again['headers']['ETag'] );
		$this->assertSame( Markers_Controller::PUBLIC_CACHE_CONTROL, $again['headers']['Cache-Control'] );

		$fields = $this->serve( "/cairn/v1/posts/{$id}/maps", array( '_fields' => 'maps' ), array( 'If-None-Match' => $etag ) );
		$this->assertSame( 304, $fields['status'], 'with _fields too' );
		unset( $_SERVER['HTTP_IF_NONE_MATCH'] ); // serve() leaves request headers in place.
		$head = $this->serve( "/cairn/v1/posts/{$id}/maps", array( '_fields' => 'maps' ), array(), 'HEAD' );
		$this->assertSame( 200, $head['status'] );
		$this->assertSame( $etag, $head['headers']['ETag'] );

		$this->act_as( 'editor' );
		$logged_in = $this->serve( "/cairn/v1/posts/{$id}/maps", array(), array( 'If-None-Match' => $etag ) );
		$this->assertSame( 304, $logged_in['status'] );
		$this->assertSame( 'private, no-store', $logged_in['headers']['Cache-Control'] );
		$this->assertSame( 'private, no-store', $this->serve( "/cairn/v1/posts/{$id}/maps" )['headers']['Cache-Control'] );

		add_filter(
			'cairn_maps_feed_cache_control',
			static function () {
				return 'public, max-age=5';
			}
		);
		wp_set_current_user( 0 );
		$this->assertSame( 'public, max-age=5', $this->serve( "/cairn/v1/posts/{$id}/maps" )['headers']['Cache-Control'], 'the feed\'s policy and filter' );
	}

	/**
	 * A protected post's answers: a different ETag with and without the password, and never
	 * publicly cached when the maps are shown.
	 */
	public function test_protected_answers(): void {
		$id     = $this->create_post( array( 'post_password' => 'secret' ) );
		$hidden = $this->maps( $id );
		$shown  = $this->maps( $id, array( 'password' => 'secret' ) );

		$this->assertNotSame( $hidden->get_headers()['ETag'], $shown->get_headers()['ETag'] );
		$this->assertSame( Markers_Controller::PUBLIC_CACHE_CONTROL, $hidden->get_headers()['Cache-Control'] );
		$this->assertSame( 'private, no-store', $shown->get_headers()['Cache-Control'] );
		$this->assertSame( 200, $this->maps( $id, array( 'password' => 'secret' ), array( 'If-None-Match' => $hidden->get_headers()['ETag'] ) )->get_status() );
	}

	/**
	 * The ETag changes with what the maps are made of, and only then.
	 */
	public function test_etag_changes(): void {
		$huts    = $this->create_group( 'huts' );
		$pattern = $this->create_post(
			array(
				'post_type'    => 'wp_block',
				'post_content' => '<!-- wp:cairn/map {"zoom":1} /-->',
			)
		);
		$id      = $this->create_post( array( 'post_content' => self::THREE_MAPS . "<!-- wp:block {\"ref\":{$pattern}} /-->" ) );
		$other   = $this->create_post();
		$etag    = function () use ( $id ): string {
			return $this->maps( $id )->get_headers()['ETag'];
		};

		$before = $etag();
		$this->assertSame( $before, $etag(), 'stable' );

		wp_update_post(
			array(
				'ID'         => $other,
				'post_title' => 'Another post changed',
			)
		);
		$this->assertSame( $before, $etag(), 'another post does not matter' );

		wp_update_post(
			array(
				'ID'           => $id,
				'post_content' => str_replace( '"zoom":3', '"zoom":6', self::THREE_MAPS ) . "<!-- wp:block {\"ref\":{$pattern}} /-->",
			)
		);
		$edited = $etag();
		$this->assertNotSame( $before, $edited, 'the post was edited' );

		update_term_meta( $huts, Group_Styles::META_COLOR, '#0055aa' );
		$coloured = $etag();
		$this->assertNotSame( $edited, $coloured, 'a group\'s colour changed' );

		wp_update_post(
			array(
				'ID'           => $pattern,
				'post_content' => '<!-- wp:cairn/map {"zoom":2} /-->',
			)
		);
		$patterned = $etag();
		$this->assertNotSame( $coloured, $patterned, 'a synced pattern changed' );
		$this->assertEquals( 2, $this->maps( $id )->get_data()['maps'][3]['attributes']['zoom'] );

		update_option( Settings::TOKEN_OPTION, Map_BlockTest::public_token() );
		$tokened = $etag();
		$this->assertNotSame( $patterned, $tokened, 'the token changed' );

		update_option( Settings::CONSENT_OPTION, true );
		$consented = $etag();
		$this->assertNotSame( $tokened, $consented, 'the consent setting changed' );

		update_option( Settings::BASEMAP_OPTION, 'https://tiles.openfreemap.org/styles/bright' );
		$this->assertNotSame( $consented, $etag(), 'the site\'s basemap changed' );
		$this->assertSame( 'https://tiles.openfreemap.org/styles/bright', $this->maps( $id )->get_data()['maps'][0]['config']['style'] );
	}

	/**
	 * The site's language is in the ETag, as `config.units` follows it: after Site Language
	 * en_GB → en_US the old ETag gets a 200 with `imperial`, from the REST route and from the
	 * early 304 (which no longer matches).
	 */
	public function test_the_etag_follows_the_site_language(): void {
		$controller = self::controller();
		self::store_site_language( 'en_GB' );
		$id = $this->create_post();
		rest_get_server();
		$british = $this->maps( $id );
		$this->assertSame( 'metric', $british->get_data()['maps'][0]['config']['units'] );
		$etag = $british->get_headers()['ETag'];
		$this->assertIsArray( $controller->early_not_modified_headers( self::early_server( $id, $etag ), array(), array() ), 'matches while the language stays' );

		self::store_site_language( 'en_US' );
		$american = $this->maps( $id, array(), array( 'If-None-Match' => $etag ) );
		$this->assertSame( 200, $american->get_status() );
		$this->assertSame( 'imperial', $american->get_data()['maps'][0]['config']['units'] );
		$this->assertNotSame( $etag, $american->get_headers()['ETag'] );
		$this->assertNull( $controller->early_not_modified_headers( self::early_server( $id, $etag ), array(), array() ), 'no early 304 for the old ETag' );
		self::store_site_language( '' );
	}

	/**
	 * Stores the Site Language as Settings → General does. The row is written directly: the test
	 * site has no en_GB language pack, and update_option() keeps the old value for a language that
	 * is not installed.
	 *
	 * @param string $locale The locale ('' is en_US).
	 */
	public static function store_site_language( string $locale ): void {
		global $wpdb;
		$wpdb->query( $wpdb->prepare( "INSERT INTO {$wpdb->options} (option_name, option_value, autoload) VALUES ('WPLANG', %s, 'on') ON DUPLICATE KEY UPDATE option_value = VALUES(option_value)", $locale ) );
		wp_cache_delete( 'alloptions', 'options' );
		wp_cache_delete( 'WPLANG', 'options' );
		unset( $GLOBALS['locale'] ); // get_locale() reads the option again.
	}

	/**
	 * Server variables of an anonymous conditional GET of the route.
	 *
	 * @param int    $id   Post id.
	 * @param string $etag If-None-Match.
	 * @return array<string, string>
	 */
	private static function early_server( int $id, string $etag ): array {
		return array(
			'REQUEST_METHOD'     => 'GET',
			'REQUEST_URI'        => "/wp-json/cairn/v1/posts/{$id}/maps",
			'HTTP_IF_NONE_MATCH' => $etag,
		);
	}

	/**
	 * The early 304 answers a matching anonymous revalidation of a published post with the REST
	 * route's headers, and leaves everything else to the REST server.
	 */
	public function test_early_not_modified_headers(): void {
		$controller = self::controller();
		$id         = $this->create_post();
		rest_get_server(); // The REST API has started once: the readable post types are known.
		$etag = $this->maps( $id )->get_headers()['ETag'];

		$headers = $controller->early_not_modified_headers( self::early_server( $id, $etag ), array(), array() );
		$this->assertIsArray( $headers );
		$this->assertSame( $etag, $headers['ETag'] );
		$this->assertSame( Markers_Controller::PUBLIC_CACHE_CONTROL, $headers['Cache-Control'] );
		$this->assertStringStartsWith( 'application/json', $headers['Content-Type'] );
		$this->assertIsArray( $controller->early_not_modified_headers( array_merge( self::early_server( $id, $etag ), array( 'REQUEST_URI' => '/' ) ), array( 'rest_route' => "/cairn/v1/posts/{$id}/maps" ), array() ), '?rest_route=' );
		$this->assertIsArray( $controller->early_not_modified_headers( self::early_server( $id, $etag ), array(), array( 'wordpress_test_cookie' => 'WP Cookie check' ) ), 'the test cookie is no credential' );

		$this->assertNull( $controller->early_not_modified_headers( self::early_server( $id, '"0123456789abcdef0123456789abcdef"' ), array(), array() ), 'no match' );
		$this->assertNull( $controller->early_not_modified_headers( self::early_server( $id, $etag ), array( 'password' => 'x' ), array() ), 'a parameter' );
		$this->assertNull( $controller->early_not_modified_headers( self::early_server( $id, $etag ), array( '_fields' => 'maps' ), array() ), 'a global parameter' );
		$this->assertNull( $controller->early_not_modified_headers( self::early_server( $id, $etag ), array(), array( LOGGED_IN_COOKIE => 'x' ) ), 'logged in' );
		$this->assertNull( $controller->early_not_modified_headers( array_merge( self::early_server( $id, $etag ), array( 'HTTP_AUTHORIZATION' => 'Basic eDp5' ) ), array(), array() ), 'credentials' );
		$this->assertNull( $controller->early_not_modified_headers( array_merge( self::early_server( $id, $etag ), array( 'REQUEST_METHOD' => 'POST' ) ), array(), array() ), 'not a read' );
		$this->assertNull( $controller->early_not_modified_headers( array_merge( self::early_server( $id, $etag ), array( 'REQUEST_URI' => "/wp-json/cairn/v1/posts/{$id}/mapsx" ) ), array(), array() ), 'another route' );

		add_filter( 'cairn_maps_early_not_modified', '__return_false' );
		$this->assertNull( $controller->early_not_modified_headers( self::early_server( $id, $etag ), array(), array() ), 'turned off' );
	}

	/**
	 * Drafts, protected posts and posts of types the REST API does not let anyone read get no
	 * early 304, whatever ETag they send.
	 */
	public function test_no_early_not_modified_for_posts_not_public(): void {
		$controller = self::controller();
		rest_get_server();
		$cases = array(
			'draft'     => $this->create_post( array( 'post_status' => 'draft' ) ),
			'protected' => $this->create_post( array( 'post_password' => 'secret' ) ),
			'pattern'   => $this->create_post( array( 'post_type' => 'wp_block' ) ),
		);
		foreach ( $cases as $case => $id ) {
			$post = get_post( $id );
			foreach ( array( true, false ) as $shown ) {
				$this->assertNull( $controller->early_not_modified_headers( self::early_server( $id, $controller->etag( $post, $shown ) ), array(), array() ), $case );
			}
		}
		$this->assertNotContains( 'wp_block', get_option( Post_Maps_Controller::EARLY_POST_TYPES_OPTION ) );
		$this->assertContains( 'post', get_option( Post_Maps_Controller::EARLY_POST_TYPES_OPTION ) );
	}

	/**
	 * Every post type the early 304 answers for is one whose published posts anyone may read
	 * over core's REST API.
	 */
	public function test_early_post_types_are_readable_by_anyone(): void {
		rest_get_server();
		$types = get_option( Post_Maps_Controller::EARLY_POST_TYPES_OPTION );
		$this->assertNotEmpty( $types );
		foreach ( $types as $type ) {
			$id = $this->create_post( array( 'post_type' => $type ) );
			$this->assertSame( 200, $this->rest( 'GET', rest_get_route_for_post( $id ) )->get_status(), $type );
			$this->assertSame( 200, $this->maps( $id )->get_status(), $type );
		}
	}

	/**
	 * A request from another origin gets its early 304 too, with the CORS headers the REST route
	 * would send: any origin by default, only a listed one when the site restricts them.
	 */
	public function test_early_not_modified_with_an_origin(): void {
		$controller = self::controller();
		$id         = $this->create_post();
		rest_get_server();
		$etag   = $this->maps( $id )->get_headers()['ETag'];
		$server = array_merge( self::early_server( $id, $etag ), array( 'HTTP_ORIGIN' => 'https://app.example.com' ) );

		$headers = $controller->early_not_modified_headers( $server, array(), array() );
		$this->assertIsArray( $headers );
		$this->assertSame( '*', $headers['Access-Control-Allow-Origin'] );
		$this->assertSame( 'ETag', $headers['Access-Control-Expose-Headers'] );
		$this->assertArrayNotHasKey( 'Access-Control-Allow-Credentials', $headers );

		update_option( Settings::ORIGINS_OPTION, array( 'https://other.example.com' ) );
		$headers = $controller->early_not_modified_headers( $server, array(), array() );
		$this->assertIsArray( $headers );
		$this->assertArrayNotHasKey( 'Access-Control-Allow-Origin', $headers, 'an origin that may not read' );
		$this->assertSame( 'Origin', $headers['Vary'] );

		update_option( Settings::ORIGINS_OPTION, array( 'https://app.example.com' ) );
		$this->assertSame( 'https://app.example.com', $controller->early_not_modified_headers( $server, array(), array() )['Access-Control-Allow-Origin'] );
	}
}
