<?php
/**
 * The marker list screen.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Markers;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Markers\Admin_Columns;
use Cairn\Maps\Plugin;
use Cairn\Maps\Tests\TestCase;

/**
 * Markers → All Markers, rendered by core's posts list table.
 *
 * @since 0.1.0
 */
final class Admin_ColumnsTest extends TestCase {

	/**
	 * Opens the marker list screen as an editor (types re-registered as in an admin request).
	 */
	protected function set_up(): void {
		parent::set_up();
		require_once ABSPATH . 'wp-admin/includes/admin.php';
		$this->act_as( 'editor' );
		set_current_screen( 'edit-cairn_marker' );
		Plugin::instance()->get( 'post_type' )->register();
		// get_column_headers() caches per screen for the whole process: fill it with a list table.
		_get_list_table( 'WP_Posts_List_Table', array( 'screen' => 'edit-cairn_marker' ) );
	}

	/**
	 * Leaves the admin screen; types registered as in a front-end request again.
	 */
	protected function tear_down(): void {
		$GLOBALS['current_screen'] = null; // phpcs:ignore WordPress.WP.GlobalVariablesOverride.Prohibited -- leaving the admin screen the test opened.
		Plugin::instance()->get( 'post_type' )->register();
		wp_reset_query(); // phpcs:ignore WordPress.WP.DiscouragedFunctions.wp_reset_query_wp_reset_query -- the list table ran wp() and replaced the main query.
		parent::tear_down();
	}

	/**
	 * The list's rows for a query string.
	 *
	 * @param array<string, string> $query Query parameters.
	 */
	private function rows( array $query = array() ): string {
		$_GET     = array_merge( array( 'post_type' => 'cairn_marker' ), $query );
		$_REQUEST = $_GET; // phpcs:ignore WordPress.Security.NonceVerification.Recommended -- a test sets up the request.
		$table    = _get_list_table( 'WP_Posts_List_Table', array( 'screen' => 'edit-cairn_marker' ) );
		$table->prepare_items();
		ob_start();
		$table->display_rows_or_placeholder();
		return (string) ob_get_clean();
	}

	/**
	 * Coordinates follow the title; core's group column is there too.
	 */
	public function test_columns(): void {
		_get_list_table( 'WP_Posts_List_Table', array( 'screen' => 'edit-cairn_marker' ) ); // Registers the columns filter.
		$columns = get_column_headers( get_current_screen() );
		$keys    = array_keys( $columns );
		$this->assertSame( array_search( 'title', $keys, true ) + 1, array_search( Admin_Columns::COLUMN, $keys, true ) );
		$this->assertArrayHasKey( 'taxonomy-cairn_marker_group', $columns );
	}

	/**
	 * Rows show coordinates and groups, or say that a marker has no coordinates.
	 */
	public function test_rows_show_coordinates_and_groups(): void {
		$this->create_marker(
			array(
				'post_title' => 'Summit',
				'lat'        => 56.796891,
				'lng'        => -5.0035,
				'groups'     => array( 'peaks' ),
			)
		);
		$this->create_marker(
			array(
				'post_title'  => 'Nowhere',
				'post_status' => 'draft',
				'lat'         => null,
				'lng'         => null,
			)
		);
		$html = $this->rows();
		$this->assertStringContainsString( 'data-lat="56.796891" data-lng="-5.0035"', $html );
		$this->assertStringContainsString( '56.79689, -5.00350', $html );
		$this->assertStringContainsString( 'No coordinates: not shown on maps', $html );
		$this->assertMatchesRegularExpression( '/<a href="[^"]*cairn_marker_group=peaks[^"]*">peaks<\/a>/', $html );
	}

	/**
	 * The group dropdown filters the list.
	 */
	public function test_filter_by_group(): void {
		$this->create_marker(
			array(
				'post_title' => 'Summit',
				'groups'     => array( 'peaks' ),
			)
		);
		$this->create_marker(
			array(
				'post_title' => 'Loch',
				'groups'     => array( 'lakes' ),
			)
		);

		ob_start();
		do_action( 'restrict_manage_posts', 'cairn_marker', 'top' ); // phpcs:ignore WordPress.NamingConventions.PrefixAllGlobals.NonPrefixedHooknameFound -- core's hook, fired as edit.php does.
		$dropdown = (string) ob_get_clean();
		$this->assertMatchesRegularExpression( '/name=[\'"]cairn_marker_group[\'"]/', $dropdown );
		$this->assertMatchesRegularExpression( '/value=[\'"]peaks[\'"]/', $dropdown );
		$this->assertStringContainsString( 'All groups', $dropdown );

		$html = $this->rows( array( 'cairn_marker_group' => 'peaks' ) );
		$this->assertStringContainsString( 'Summit', $html );
		$this->assertStringNotContainsString( 'Loch', $html );
		$this->assertStringContainsString( 'Loch', $this->rows() );
	}
}
