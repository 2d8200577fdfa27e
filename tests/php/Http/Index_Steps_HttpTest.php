<?php
/**
 * Front-end requests never run a step of the place index's rebuild, over real HTTP.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Http;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Index\Admin_Steps;
use Cairn\Maps\Index\Index_Schema;
use Cairn\Maps\Index\Place_Index;
use Cairn\Maps\Index\Rebuild_Lock;
use Cairn\Maps\Index\Rebuild_State;
use Cairn\Maps\Plugin;
use Cairn\Maps\Tests\Committed_State;
use Cairn\Maps\Tests\TestCase;

/**
 * A rebuild is pending where WP-Cron does not run it (the test site sets DISABLE_WP_CRON, and the
 * event is two minutes late), committed, so that PHP's built-in web server sees it. Pages and the
 * feed, asked by a visitor and by a logged-in administrator, leave it exactly as it was; an admin
 * page load in this process, on the same committed state, would step it (the control). What was
 * committed is put back afterwards (Committed_State).
 *
 * @since 0.8.0
 */
final class Index_Steps_HttpTest extends TestCase {

	use Web_Server;

	/**
	 * The second connection and the rows to put back.
	 *
	 * @var Committed_State|null
	 */
	private ?Committed_State $committed = null;

	/**
	 * Commits three markers, an index rebuilt and a rebuild pending whose event is late.
	 */
	protected function set_up(): void {
		parent::set_up();
		global $wpdb;
		require_once ABSPATH . 'wp-admin/includes/admin.php';
		$this->committed = new Committed_State();
		$tables          = array( $wpdb->posts, $wpdb->postmeta, $wpdb->options, $wpdb->users, $wpdb->usermeta, $wpdb->terms, $wpdb->term_taxonomy, $wpdb->term_relationships );
		foreach ( Index_Schema::TABLES as $name ) {
			$tables[] = Index_Schema::table( $name );
		}
		$this->committed->capture( $tables );
		rest_get_server(); // Before the commit: starting it may write an option.
		for ( $i = 0; $i < 3; $i++ ) {
			$this->create_marker( array( 'post_title' => "Front hut $i" ) );
		}
		$index = Plugin::instance()->get( 'place_index' );
		$this->assertInstanceOf( Place_Index::class, $index );
		$this->assertTrue( $index->rebuild_now() );
		$index->start_rebuild();
		wp_clear_scheduled_hook( Place_Index::HOOK );
		wp_schedule_single_event( time() - 120, Place_Index::HOOK );
		$wpdb->query( 'COMMIT' );
	}

	/**
	 * Rolls the test back, then puts the committed rows back.
	 */
	protected function tear_down(): void {
		$GLOBALS['current_screen'] = null; // phpcs:ignore WordPress.WP.GlobalVariablesOverride.Prohibited -- leaving the admin screen the control opened.
		parent::tear_down();
		if ( null !== $this->committed ) {
			$this->committed->restore();
		}
	}

	/**
	 * A logged-in administrator's cookie header, valid for the web server.
	 */
	private function administrator_cookie(): string {
		global $wpdb;
		$user       = $this->create_user( 'administrator' );
		$expiration = time() + HOUR_IN_SECONDS;
		$token      = \WP_Session_Tokens::get_instance( $user )->create( $expiration );
		$cookie     = wp_generate_auth_cookie( $user, $expiration, 'logged_in', $token );
		$wpdb->query( 'COMMIT' );
		return LOGGED_IN_COOKIE . '=' . rawurlencode( $cookie );
	}

	/**
	 * The committed progress and lock.
	 *
	 * @return array{0: string|null, 1: string|null}
	 */
	private function committed_rebuild(): array {
		global $wpdb;
		$this->assertInstanceOf( Committed_State::class, $this->committed );
		return array(
			$this->committed->value( "SELECT option_value FROM {$wpdb->options} WHERE option_name = '" . Rebuild_State::OPTION . "'" ),
			$this->committed->value( "SELECT option_value FROM {$wpdb->options} WHERE option_name = '" . Rebuild_Lock::OPTION . "'" ),
		);
	}

	/**
	 * Front pages and the feed, for a visitor and for an administrator, run no step; an admin
	 * page load would.
	 */
	public function test_front_end_requests_never_run_a_step(): void {
		$before = $this->committed_rebuild();
		$this->assertNotNull( $before[0], 'a rebuild is pending' );
		$admin = $this->administrator_cookie();
		$asks  = array(
			'visitor-home' => array( '/', array() ),
			'visitor-feed' => array( '/?rest_route=/cairn/v1/markers', array() ),
			'visitor-post' => array( '/?p=1', array() ),
			'admin-home'   => array( '/', array( 'Cookie' => $admin ) ),
			'admin-feed'   => array( '/?rest_route=/cairn/v1/markers', array( 'Cookie' => $admin ) ),
		);
		foreach ( $asks as $id => $ask ) {
			$answer = $this->http( $ask[0], $ask[1] + array( 'X-Cairn-Probe' => $id ) );
			// Pages answer 301 (the test site's home is another host: canonical redirect) after
			// WordPress ran up to template_redirect; the feed answers 200.
			$this->assertContains( $answer['status'], array( 200, 301 ), "$id: " . substr( $answer['body'], 0, 300 ) );
			$this->assertSame( 1, $this->probe( $id )['init'], "$id: WordPress ran the request" );
			$this->assertSame( $before, $this->committed_rebuild(), "$id ran no rebuild step" );
		}

		// The control: the same committed state, an administrator's admin page load.
		$steps = Plugin::instance()->get( 'index_steps' );
		$this->assertInstanceOf( Admin_Steps::class, $steps );
		$this->act_as( 'administrator' );
		set_current_screen( 'dashboard' );
		$this->assertTrue( $steps->wanted(), 'an admin page load would run a step' );
	}
}
