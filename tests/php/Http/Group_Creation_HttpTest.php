<?php
/**
 * Who may create marker groups, over real HTTP.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Http;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Groups\Group_Creation;
use Cairn\Maps\Markers\Post_Type;
use Cairn\Maps\Tests\TestCase;
use WP_Application_Passwords;

/**
 * `POST /wp-json/wp/v2/cairn-marker-groups` from the test site served by PHP's built-in web
 * server, signed in with application passwords: contributors and authors get a 403 and no term
 * row, an editor creates the group.
 *
 * @since 0.2.0
 */
final class Group_Creation_HttpTest extends TestCase {

	use Web_Server;

	/**
	 * Users to delete after the test.
	 *
	 * @var int[]
	 */
	private array $users = array();

	/**
	 * Deletes what the test committed.
	 */
	protected function tear_down(): void {
		global $wpdb;
		require_once ABSPATH . 'wp-admin/includes/user.php';
		foreach ( $this->users as $id ) {
			wp_delete_user( $id );
		}
		foreach ( get_terms(
			array(
				'taxonomy'   => Post_Type::TAXONOMY,
				'hide_empty' => false,
				'fields'     => 'ids',
			)
		) as $term ) {
			wp_delete_term( (int) $term, Post_Type::TAXONOMY );
		}
		$wpdb->query( 'COMMIT' );
		parent::tear_down();
	}

	/**
	 * A committed user of a role, and the Authorization header of an application password of theirs.
	 *
	 * @param string $role Role.
	 */
	private function signed_in( string $role ): string {
		global $wpdb;
		$id            = $this->create_user( $role );
		$this->users[] = $id;
		$created       = WP_Application_Passwords::create_new_application_password( $id, array( 'name' => 'HTTP test' ) );
		$this->assertIsArray( $created );
		$wpdb->query( 'COMMIT' );
		return 'Basic ' . base64_encode( get_userdata( $id )->user_login . ':' . $created[0] ); // phpcs:ignore WordPress.PHP.DiscouragedPHPFunctions.obfuscation_base64_encode -- HTTP Basic credentials.
	}

	/**
	 * Whether a group row with this slug exists, as the web server stored it.
	 *
	 * @param string $slug Slug.
	 */
	private static function group_row( string $slug ): bool {
		global $wpdb;
		$wpdb->query( 'COMMIT' ); // A fresh snapshot: the web server wrote in another connection.
		return (bool) $wpdb->get_var( $wpdb->prepare( "SELECT COUNT(*) FROM {$wpdb->terms} t JOIN {$wpdb->term_taxonomy} tt ON tt.term_id = t.term_id WHERE tt.taxonomy = %s AND t.slug = %s", Post_Type::TAXONOMY, $slug ) );
	}

	/**
	 * Contributors and authors are refused with a 403 and the message; an editor creates.
	 */
	public function test_only_category_managers_create_groups_over_http(): void {
		foreach ( array(
			'contributor' => 403,
			'author'      => 403,
			'editor'      => 201,
		) as $role => $status ) {
			$answer = $this->http(
				'/wp-json/wp/v2/cairn-marker-groups',
				array(
					'Authorization' => $this->signed_in( $role ),
					'Content-Type'  => 'application/json',
				),
				'POST',
				(string) wp_json_encode( array( 'name' => "0-{$role}" ) )
			);
			$this->assertSame( $status, $answer['status'], "{$role}: {$answer['body']}" );
			$this->assertSame( 201 === $status, self::group_row( "0-{$role}" ), "{$role}: term row" );
			if ( 403 === $status ) {
				$error = json_decode( $answer['body'], true );
				$this->assertSame( 'rest_cannot_create', $error['code'] );
				$this->assertSame( Group_Creation::message(), $error['message'] );
			}
		}
	}
}
