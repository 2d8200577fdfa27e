<?php
/**
 * Who may create marker groups.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Groups;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Groups\Group_Creation;
use Cairn\Maps\Markers\Post_Type;
use Cairn\Maps\Tests\TestCase;
use WP_REST_Request;

/**
 * Creating a group needs `edit_terms` (whoever manages categories) on every way in: core's terms
 * route, a group given by name, the import. Contributors and authors may still put markers in
 * existing groups.
 *
 * @since 0.2.0
 */
final class Group_CreationTest extends TestCase {

	private const ROUTE = '/wp/v2/cairn-marker-groups';

	/**
	 * Removes the role a test added (roles live in memory beyond the rolled-back transaction).
	 */
	protected function tear_down(): void {
		remove_role( 'cairn_importer' );
		parent::tear_down();
	}

	/**
	 * Whether a group row with this slug exists.
	 *
	 * @param string $slug Slug.
	 */
	private static function group_row( string $slug ): bool {
		global $wpdb;
		return (bool) $wpdb->get_var( $wpdb->prepare( "SELECT COUNT(*) FROM {$wpdb->terms} t JOIN {$wpdb->term_taxonomy} tt ON tt.term_id = t.term_id WHERE tt.taxonomy = %s AND t.slug = %s", Post_Type::TAXONOMY, $slug ) );
	}

	/**
	 * Roles that write markers but do not manage categories.
	 *
	 * @return array<string, array{0: string}>
	 */
	public function writers(): array {
		return array(
			'contributor' => array( 'contributor' ),
			'author'      => array( 'author' ),
		);
	}

	/**
	 * The REST terms route refuses them with a 403 and a message saying who may, and stores
	 * nothing (core alone checks `assign_terms` for a flat taxonomy and would create it).
	 *
	 * @dataProvider writers
	 *
	 * @param string $role Role.
	 */
	public function test_rest_refuses_writers( string $role ): void {
		$this->act_as( $role );
		$response = $this->rest(
			'POST',
			self::ROUTE,
			array(
				'name' => '0-junk',
				'meta' => array( 'cairn_color' => 'not a colour' ),
			)
		);
		$this->assertSame( 403, $response->get_status(), (string) wp_json_encode( $response->get_data() ) );
		$this->assertSame( 'rest_cannot_create', $response->as_error()->get_error_code() );
		$this->assertSame( Group_Creation::message(), $response->as_error()->get_error_message() );
		$this->assertStringContainsString( 'manages categories', Group_Creation::message() );
		$this->assertFalse( self::group_row( '0-junk' ), 'no term row' );

		// Through the batch route too.
		$request = new WP_REST_Request( 'POST', '/batch/v1' );
		$request->set_header( 'Content-Type', 'application/json' );
		$request->set_body(
			(string) wp_json_encode(
				array(
					'requests' => array(
						array(
							'method' => 'POST',
							'path'   => self::ROUTE,
							'body'   => array( 'name' => '0-batch' ),
						),
					),
				)
			)
		);
		$batch = rest_get_server()->dispatch( $request );
		$this->assertSame( 403, $batch->get_data()['responses'][0]['status'] ?? null, (string) wp_json_encode( $batch->get_data() ) );
		$this->assertFalse( self::group_row( '0-batch' ) );
	}

	/**
	 * An editor (manages categories) creates groups over REST.
	 */
	public function test_rest_lets_an_editor_create_a_group(): void {
		$this->act_as( 'editor' );
		$response = $this->rest( 'POST', self::ROUTE, array( 'name' => 'Huts' ) );
		$this->assertSame( 201, $response->get_status(), (string) wp_json_encode( $response->get_data() ) );
		$this->assertTrue( self::group_row( 'huts' ) );
	}

	/**
	 * A group given by name (the classic and quick edit tag boxes, XML-RPC: wp_set_object_terms())
	 * is not created for them; an existing group given by name is still assigned.
	 *
	 * @dataProvider writers
	 *
	 * @param string $role Role.
	 */
	public function test_groups_by_name_are_not_created_for_writers( string $role ): void {
		$this->create_group( 'huts', 'Huts' );
		$user   = $this->act_as( $role );
		$marker = $this->create_marker(
			array(
				'post_status' => 'draft',
				'post_author' => $user,
			)
		);

		$refused = wp_set_object_terms( $marker, array( 'Huts', '0-junk by name' ), Post_Type::TAXONOMY );
		$this->assertInstanceOf( \WP_Error::class, $refused );
		$this->assertSame( 'cairn_maps_cannot_create_group', $refused->get_error_code() );
		$this->assertSame( Group_Creation::message(), $refused->get_error_message() );
		$this->assertFalse( self::group_row( '0-junk-by-name' ), 'no term row' );

		$this->assertIsArray( wp_set_object_terms( $marker, array( 'Huts' ), Post_Type::TAXONOMY ) );
		$this->assertSame( array( 'huts' ), wp_get_object_terms( $marker, Post_Type::TAXONOMY, array( 'fields' => 'slugs' ) ) );

		// What the classic editor and quick edit send: tax_input by name.
		wp_update_post(
			array(
				'ID'        => $marker,
				'tax_input' => array( Post_Type::TAXONOMY => 'Huts, 0-junk from the form' ),
			)
		);
		$this->assertFalse( self::group_row( '0-junk-from-the-form' ) );
	}

	/**
	 * An editor's new group by name is created.
	 */
	public function test_an_editor_creates_groups_by_name(): void {
		$this->act_as( 'editor' );
		$marker = $this->create_marker();
		$this->assertIsArray( wp_set_object_terms( $marker, array( 'Bothies' ), Post_Type::TAXONOMY ) );
		$this->assertTrue( self::group_row( 'bothies' ) );
	}

	/**
	 * Code running without a user (WP-CLI, cron, upgrades) still creates groups.
	 */
	public function test_code_without_a_user_creates_groups(): void {
		$this->act_as( 'anonymous' );
		$this->assertIsArray( wp_insert_term( 'Cron group', Post_Type::TAXONOMY ) );
	}

	/**
	 * The block editor is offered "create a group" only when it would be allowed: the marker's
	 * `action-create` link is there for an editor, not for an author (who keeps `action-assign`).
	 */
	public function test_the_editor_offers_creating_only_to_those_who_may(): void {
		foreach ( array(
			'author' => false,
			'editor' => true,
		) as $role => $offered ) {
			$user   = $this->act_as( $role );
			$marker = $this->create_marker( array( 'post_author' => $user ) );
			$links  = $this->rest( 'GET', '/wp/v2/cairn-markers/' . $marker, array( 'context' => 'edit' ) )->get_links();
			$this->assertSame( $offered, isset( $links['https://api.w.org/action-create-cairn-marker-groups'] ), $role );
			$this->assertArrayHasKey( 'https://api.w.org/action-assign-cairn-marker-groups', $links, $role );
		}
	}

	/**
	 * The import refuses a new group to a user who may import markers but not manage categories,
	 * naming the group, and imports nothing.
	 */
	public function test_the_import_refuses_new_groups_without_edit_terms(): void {
		$role = get_role( 'editor' );
		$caps = array_filter( $role ? $role->capabilities : array() );
		unset( $caps['manage_categories'] );
		add_role( 'cairn_importer', 'Importer', $caps );
		$this->create_group( 'huts' );
		$this->act_as( 'cairn_importer' );

		$request = new WP_REST_Request( 'POST', '/cairn/v1/markers/import' );
		$request->set_header( 'Content-Type', 'text/csv' );
		$request->set_body( "title,lat,lng,group,description\nHut,56.1,-5.2,huts,\nJunk,56.2,-5.3,0-junk,\n" );
		$response = rest_get_server()->dispatch( $request );
		$this->assertSame( 200, $response->get_status(), (string) wp_json_encode( $response->get_data() ) );
		$this->assertSame( array( 'The group "0-junk" does not exist, and you are not allowed to create groups.' ), array_column( $response->get_data()['skipped'], 'message' ) );
		$this->assertSame( array( 3 ), array_column( $response->get_data()['skipped'], 'line' ) );
		$this->assertFalse( self::group_row( '0-junk' ) );
		$this->assertSame( 1, $this->count_markers(), 'the row in an existing group was imported' );
	}
}
