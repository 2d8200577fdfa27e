<?php
/**
 * The setting cairn_maps_post_types.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Settings;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Content\Location_Types;
use Cairn\Maps\Tests\TestCase;

/**
 * Only candidate post types can be enabled; anything else is a 400 and the stored list stays.
 *
 * @since 0.3.0
 */
final class Location_SettingTest extends TestCase {

	/**
	 * Refused values.
	 *
	 * @return array<string, array{0: mixed, 1: string}>
	 */
	public function refused(): array {
		return array(
			'markers'           => array( array( 'post', 'cairn_marker' ), 'cairn_marker' ),
			'attachments'       => array( array( 'attachment' ), 'attachment' ),
			'unknown type'      => array( array( 'event' ), 'event' ),
			'not shown in REST' => array( array( 'nav_menu_item' ), 'nav_menu_item' ),
			'a number'          => array( array( 7 ), Location_Types::OPTION ),
			'markup'            => array( array( '<b>x</b>' ), 'x' ),
			'text naming one'   => array( 'post,cairn_marker', 'cairn_marker' ),
			'an object'         => array( array( 'a' => array( 'b' ) ), Location_Types::OPTION ),
		);
	}

	/**
	 * A refused list answers 400 and changes nothing.
	 *
	 * @dataProvider refused
	 *
	 * @param mixed  $value   Sent value.
	 * @param string $message Text the message contains.
	 */
	public function test_a_refused_list_is_a_400_and_keeps_the_stored_one( $value, string $message ): void {
		update_option( Location_Types::OPTION, array( 'post', 'page' ) );
		$this->act_as( 'administrator' );
		$response = $this->rest( 'POST', '/wp/v2/settings', array( Location_Types::OPTION => $value ) );
		$this->assertSame( 400, $response->get_status(), wp_json_encode( $response->get_data() ) );
		$this->assertStringContainsString( $message, $response->get_data()['message'] );
		$this->assertSame( array( 'post', 'page' ), get_option( Location_Types::OPTION ) );
	}

	/**
	 * Candidates are stored, without duplicates; an empty list switches locations off.
	 */
	public function test_candidates_are_stored(): void {
		$this->act_as( 'administrator' );
		$response = $this->rest( 'POST', '/wp/v2/settings', array( Location_Types::OPTION => array( 'page', 'post', 'page' ) ) );
		$this->assertSame( 200, $response->get_status(), wp_json_encode( $response->get_data() ) );
		$this->assertSame( array( 'page', 'post' ), $response->get_data()[ Location_Types::OPTION ] );
		$this->assertSame( array( 'page', 'post' ), get_option( Location_Types::OPTION ) );

		$response = $this->rest( 'POST', '/wp/v2/settings', array( Location_Types::OPTION => array() ) );
		$this->assertSame( 200, $response->get_status() );
		$this->assertSame( array(), Location_Types::enabled() );
	}

	/**
	 * The default is posts, and it is shown in /wp/v2/settings.
	 */
	public function test_default_is_posts(): void {
		delete_option( Location_Types::OPTION );
		$this->act_as( 'administrator' );
		$this->assertSame( array( 'post' ), $this->rest( 'GET', '/wp/v2/settings' )->get_data()[ Location_Types::OPTION ] );
	}

	/**
	 * Other ways in (update_option) keep the stored list when the new one is refused.
	 */
	public function test_update_option_keeps_the_stored_list_when_refused(): void {
		update_option( Location_Types::OPTION, array( 'page' ) );
		update_option( Location_Types::OPTION, array( 'page', 'cairn_marker' ) );
		$this->assertSame( array( 'page' ), get_option( Location_Types::OPTION ) );
	}

	/**
	 * An editor cannot change the setting at all.
	 */
	public function test_an_editor_cannot_change_it(): void {
		update_option( Location_Types::OPTION, array( 'post' ) );
		$this->act_as( 'editor' );
		$response = $this->rest( 'POST', '/wp/v2/settings', array( Location_Types::OPTION => array( 'page' ) ) );
		$this->assertContains( $response->get_status(), array( 401, 403 ) );
		$this->assertSame( array( 'post' ), get_option( Location_Types::OPTION ) );
	}
}
