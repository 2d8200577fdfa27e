<?php
/**
 * Who may write, publish, import and export markers.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Markers;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Import_Export\Import_Export_Page;
use Cairn\Maps\Markers\Post_Type;
use Cairn\Maps\Plugin;
use Cairn\Maps\Tests\TestCase;
use WP_REST_Request;

/**
 * Markers have capabilities of their own (`edit_cairn_markers`, `publish_cairn_markers`, …): every
 * built-in role keeps the rights it had over markers when they used the post capabilities, and an
 * owner can now give or take marker rights without touching post rights.
 *
 * @since 0.2.0
 */
final class Marker_CapabilitiesTest extends TestCase {

	private const IMPORT = '/cairn/v1/markers/import';

	private const CSV = "title,lat,lng,group\nBen Nevis,56.7969,-5.0036,peaks\n";

	/**
	 * Role capabilities changed by a test, put back afterwards: role => [capability => stored value or null].
	 *
	 * @var array<string, array<string, bool|null>>
	 */
	private array $changed_caps = array();

	/**
	 * Roles added by a test.
	 *
	 * @var string[]
	 */
	private array $added_roles = array();

	/**
	 * Puts roles back (the roles object lives on after the database is rolled back).
	 */
	protected function tear_down(): void {
		foreach ( $this->changed_caps as $role => $caps ) {
			foreach ( $caps as $cap => $value ) {
				if ( null === $value ) {
					get_role( $role )->remove_cap( $cap );
				} else {
					get_role( $role )->add_cap( $cap, $value );
				}
			}
		}
		foreach ( $this->added_roles as $role ) {
			remove_role( $role );
		}
		$this->changed_caps = array();
		$this->added_roles  = array();
		parent::tear_down();
	}

	/**
	 * Sets a capability on a role, as a role editor does.
	 *
	 * @param string $role  Role.
	 * @param string $cap   Capability.
	 * @param bool   $grant Grant or deny.
	 */
	private function set_role_cap( string $role, string $cap, bool $grant ): void {
		$object = get_role( $role );
		$this->assertNotNull( $object );
		if ( ! isset( $this->changed_caps[ $role ] ) || ! array_key_exists( $cap, $this->changed_caps[ $role ] ) ) {
			$this->changed_caps[ $role ][ $cap ] = array_key_exists( $cap, $object->capabilities ) ? (bool) $object->capabilities[ $cap ] : null;
		}
		$object->add_cap( $cap, $grant );
	}

	/**
	 * Adds a role.
	 *
	 * @param string              $role Role.
	 * @param array<string, bool> $caps Capabilities.
	 */
	private function add_test_role( string $role, array $caps ): void {
		add_role( $role, $role, $caps );
		$this->added_roles[] = $role;
	}

	/**
	 * Creates a marker through core's REST controller.
	 *
	 * @param string $status Status.
	 * @return \WP_REST_Response
	 */
	private function create_over_rest( string $status ) {
		return $this->rest(
			'POST',
			'/wp/v2/cairn-markers',
			array(
				'title'  => 'Hut',
				'status' => $status,
				'meta'   => array(
					'cairn_lat' => 56.1,
					'cairn_lng' => -5.2,
				),
			)
		);
	}

	/**
	 * Imports a CSV file over REST.
	 */
	private function import_over_rest(): \WP_REST_Response {
		$request = new WP_REST_Request( 'POST', self::IMPORT );
		$request->set_header( 'Content-Type', 'text/csv' );
		$request->set_body( self::CSV );
		return rest_get_server()->dispatch( $request );
	}

	/**
	 * Posts the Tools page's upload form (without a file) and says how it ended: `refused <status>`
	 * (wp_die) or `redirected` (the form was handled).
	 */
	private function post_tools_form(): string {
		$nonce                = wp_create_nonce( Import_Export_Page::ACTION );
		$_POST['_wpnonce']    = $nonce;
		$_REQUEST['_wpnonce'] = $nonce;
		$_POST['action']      = Import_Export_Page::ACTION;
		add_filter(
			'wp_die_handler',
			static fn() => static function ( $message, $title, $args ) {
				throw new \RuntimeException( 'refused ' . (int) ( $args['response'] ?? 0 ) );
			}
		);
		add_filter(
			'wp_redirect',
			static function () {
				throw new \RuntimeException( 'redirected' );
			}
		);
		$page = Plugin::instance()->get( 'import_export_page' );
		$this->assertInstanceOf( Import_Export_Page::class, $page );
		try {
			$page->handle_upload();
		} catch ( \RuntimeException $ended ) {
			return $ended->getMessage();
		}
		return 'returned';
	}

	/**
	 * Renders the Tools page.
	 */
	private function tools_page(): string {
		ob_start();
		Plugin::instance()->get( 'import_export_page' )->render();
		return (string) ob_get_clean();
	}

	/**
	 * The post type uses capabilities of its own.
	 */
	public function test_markers_have_their_own_capabilities(): void {
		$caps = get_post_type_object( Post_Type::POST_TYPE )->cap;
		$this->assertSame( 'edit_cairn_markers', $caps->edit_posts );
		$this->assertSame( 'edit_cairn_markers', $caps->create_posts );
		$this->assertSame( 'publish_cairn_markers', $caps->publish_posts );
		$this->assertSame( 'edit_others_cairn_markers', $caps->edit_others_posts );
		$this->assertSame( 'edit_cairn_markers', get_taxonomy( Post_Type::TAXONOMY )->cap->assign_terms );
		$this->assertSame( 10, has_filter( 'user_has_cap', array( Plugin::instance()->get( 'post_type' ), 'grant_marker_capabilities' ) ) );
	}

	/**
	 * What each built-in role may do with markers: exactly what it may do with posts.
	 *
	 * @return array<string, array{0: string, 1: array<string, bool>}>
	 */
	public function roles(): array {
		$none = array_fill_keys( array_keys( Post_Type::CAPABILITIES ), false );
		$all  = array_fill_keys( array_keys( Post_Type::CAPABILITIES ), true );
		return array(
			'administrator' => array( 'administrator', $all ),
			'editor'        => array( 'editor', $all ),
			'author'        => array(
				'author',
				array_merge(
					$none,
					array(
						'edit_cairn_markers'             => true,
						'edit_published_cairn_markers'   => true,
						'publish_cairn_markers'          => true,
						'delete_cairn_markers'           => true,
						'delete_published_cairn_markers' => true,
					)
				),
			),
			'contributor'   => array(
				'contributor',
				array_merge(
					$none,
					array(
						'edit_cairn_markers'   => true,
						'delete_cairn_markers' => true,
					)
				),
			),
			'subscriber'    => array( 'subscriber', $none ),
		);
	}

	/**
	 * Today's roles keep today's rights.
	 *
	 * @dataProvider roles
	 *
	 * @param string              $role     Role.
	 * @param array<string, bool> $expected Marker capability => held.
	 */
	public function test_built_in_roles_keep_their_rights( string $role, array $expected ): void {
		$user = $this->act_as( $role );
		$held = array();
		foreach ( array_keys( Post_Type::CAPABILITIES ) as $cap ) {
			$held[ $cap ] = user_can( $user, $cap );
		}
		$this->assertSame( $expected, $held );
		foreach ( Post_Type::CAPABILITIES as $marker_cap => $post_cap ) {
			$this->assertSame( user_can( $user, $post_cap ), user_can( $user, $marker_cap ), "{$marker_cap} follows {$post_cap}" );
		}
	}

	/**
	 * Writes over REST, per role: statuses and coordinates as before.
	 *
	 * @return array<string, array{0: string, 1: int, 2: int}>
	 */
	public function rest_writes(): array {
		return array(
			'administrator' => array( 'administrator', 201, 201 ),
			'editor'        => array( 'editor', 201, 201 ),
			'author'        => array( 'author', 201, 201 ),
			'contributor'   => array( 'contributor', 403, 201 ),
			'subscriber'    => array( 'subscriber', 403, 403 ),
			'anonymous'     => array( 'anonymous', 401, 401 ),
		);
	}

	/**
	 * Creating a published marker and a pending one through core's route, with coordinates.
	 *
	 * @dataProvider rest_writes
	 *
	 * @param string $role    Role.
	 * @param int    $publish Status for a published marker.
	 * @param int    $pending Status for a marker sent for review.
	 */
	public function test_rest_writes_per_role( string $role, int $publish, int $pending ): void {
		$this->act_as( $role );
		$published = $this->create_over_rest( 'publish' );
		$this->assertSame( $publish, $published->get_status(), wp_json_encode( $published->get_data() ) );
		$review = $this->create_over_rest( 'pending' );
		$this->assertSame( $pending, $review->get_status(), wp_json_encode( $review->get_data() ) );
		if ( 201 === $review->get_status() ) {
			$this->assertSame( '56.1', get_post_meta( $review->get_data()['id'], Post_Type::META_LAT, true ), 'the coordinates are stored' );
		}
		$this->assertSame( ( 201 === $publish ? 1 : 0 ) + ( 201 === $pending ? 1 : 0 ), $this->count_markers() );
	}

	/**
	 * Others' markers: editors edit them, authors do not.
	 */
	public function test_only_editors_edit_others_markers(): void {
		$marker = $this->create_marker( array( 'post_author' => $this->create_user( 'administrator' ) ) );
		foreach ( array(
			'author' => 403,
			'editor' => 200,
		) as $role => $status ) {
			$this->act_as( $role );
			$response = $this->rest( 'POST', "/wp/v2/cairn-markers/{$marker}", array( 'meta' => array( 'cairn_lat' => 10 ) ) );
			$this->assertSame( $status, $response->get_status(), $role );
		}
		$this->assertSame( '10', get_post_meta( $marker, Post_Type::META_LAT, true ) );
	}

	/**
	 * Import and export per role, over REST and on the Tools page.
	 *
	 * @return array<string, array{0: string, 1: bool}>
	 */
	public function import_roles(): array {
		return array(
			'administrator' => array( 'administrator', true ),
			'editor'        => array( 'editor', true ),
			'author'        => array( 'author', false ),
			'contributor'   => array( 'contributor', false ),
		);
	}

	/**
	 * Editors and administrators import and export; the others see no Tools page at all.
	 *
	 * @dataProvider import_roles
	 *
	 * @param string $role    Role.
	 * @param bool   $allowed Whether the role imports and exports.
	 */
	public function test_import_and_export_per_role( string $role, bool $allowed ): void {
		$this->act_as( $role );
		$this->assertSame( $allowed ? 200 : 403, $this->import_over_rest()->get_status() );
		$this->assertSame( $allowed ? 1 : 0, $this->count_markers() );
		$this->assertSame( $allowed ? 200 : 403, $this->rest( 'GET', '/cairn/v1/markers/export' )->get_status() );
		$html = $this->tools_page();
		$this->assertSame( $allowed, str_contains( $html, 'name="cairn_maps_file"' ), 'the upload form' );
		$this->assertSame( $allowed, str_contains( $html, 'cairn/v1/markers/export' ), 'the export links' );
		$this->assertSame( $allowed ? 'redirected' : 'refused 403', $this->post_tools_form() );
	}

	/**
	 * A role that edits others' markers but may not publish (a reviewer): exports, but imports
	 * neither over REST nor through the Tools page, which publish what they import.
	 */
	public function test_a_role_that_cannot_publish_cannot_import_through_the_tools_page(): void {
		$this->add_test_role(
			'cairn_reviewer',
			array(
				'read'              => true,
				'edit_posts'        => true,
				'edit_others_posts' => true,
			)
		);
		$this->act_as( 'cairn_reviewer' );
		$this->assertSame( 403, $this->import_over_rest()->get_status() );
		$this->assertSame( 'refused 403', $this->post_tools_form() );
		$html = $this->tools_page();
		$this->assertStringNotContainsString( 'name="cairn_maps_file"', $html, 'no upload form' );
		$this->assertStringContainsString( 'importing needs the right to publish markers', $html );
		$this->assertStringContainsString( 'cairn/v1/markers/export', $html, 'export stays' );
		$this->assertSame( 200, $this->rest( 'GET', '/cairn/v1/markers/export' )->get_status() );
		$this->assertSame( 0, $this->count_markers() );
	}

	/**
	 * An owner stops authors from publishing places (a role editor denies the marker capability):
	 * they still publish posts, and still write marker drafts.
	 */
	public function test_authors_can_publish_posts_but_not_markers_once_the_owner_says_so(): void {
		$this->set_role_cap( 'author', 'publish_cairn_markers', false );
		$this->act_as( 'author' );
		$post = $this->rest(
			'POST',
			'/wp/v2/posts',
			array(
				'title'  => 'A post',
				'status' => 'publish',
			)
		);
		$this->assertSame( 201, $post->get_status() );
		$this->assertSame( 403, $this->create_over_rest( 'publish' )->get_status() );
		$this->assertSame( 201, $this->create_over_rest( 'draft' )->get_status() );
		$this->assertSame( 1, $this->count_markers() );
	}

	/**
	 * And the other way: a map keeper who may publish markers but no posts.
	 */
	public function test_a_role_can_publish_markers_without_writing_posts(): void {
		$this->add_test_role(
			'cairn_map_keeper',
			array(
				'read'                         => true,
				'edit_cairn_markers'           => true,
				'edit_published_cairn_markers' => true,
				'publish_cairn_markers'        => true,
			)
		);
		$user = $this->act_as( 'cairn_map_keeper' );
		$this->assertFalse( user_can( $user, 'edit_posts' ) );
		$this->assertSame( 201, $this->create_over_rest( 'publish' )->get_status() );
		$this->assertSame( 403, $this->rest( 'POST', '/wp/v2/posts', array( 'title' => 'A post' ) )->get_status() );
		$this->assertSame( 1, $this->count_markers() );
	}
}
