<?php
/**
 * Marker group line looks: line colour, line width and fill opacity of routes and areas.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Groups;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Groups\Group_Style_Rules;
use Cairn\Maps\Groups\Group_Styles;
use Cairn\Maps\Groups\Group_Term_Screen;
use Cairn\Maps\Markers\Markers_Version;
use Cairn\Maps\Markers\Post_Type;
use Cairn\Maps\Plugin;
use Cairn\Maps\Settings\Settings;
use Cairn\Maps\Tests\Blocks\Map_BlockTest;
use Cairn\Maps\Tests\TestCase;

/**
 * `cairn_line_color`, `cairn_line_width` and `cairn_fill_opacity` through REST, the term screens
 * and PHP; the maps' `groupStyles` entries (`lineColor`, `lineWidth`, `fillOpacity`).
 *
 * @since 0.5.0
 */
final class Group_Line_LooksTest extends TestCase {

	private const ROUTE = '/wp/v2/cairn-marker-groups';

	/**
	 * The plugin's part for the group screens.
	 */
	private function screen(): Group_Term_Screen {
		$screen = Plugin::instance()->get( 'group_term_screen' );
		$this->assertInstanceOf( Group_Term_Screen::class, $screen );
		return $screen;
	}

	/**
	 * Number of marker groups stored.
	 */
	private function count_groups(): int {
		return (int) wp_count_terms(
			array(
				'taxonomy'   => Post_Type::TAXONOMY,
				'hide_empty' => false,
			)
		);
	}

	/**
	 * The looks a group stores (raw term meta rows, '' where none).
	 *
	 * @param int $group Term id.
	 * @return array<string, string>
	 */
	private static function stored( int $group ): array {
		global $wpdb;
		$looks = array();
		foreach ( Group_Styles::META_KEYS as $key ) {
			$looks[ $key ] = (string) $wpdb->get_var( $wpdb->prepare( "SELECT meta_value FROM {$wpdb->termmeta} WHERE term_id = %d AND meta_key = %s", $group, $key ) );
		}
		return $looks;
	}

	/**
	 * The form fields as the group screens post them, with a valid nonce.
	 *
	 * @param array<string, string> $fields Field values by name without the `cairn_maps_` prefix.
	 */
	private static function post_form( array $fields ): void {
		$_POST = array( 'cairn_maps_group_style_nonce' => wp_create_nonce( 'cairn_maps_group_style' ) );
		foreach ( $fields as $name => $value ) {
			$_POST[ 'cairn_maps_' . $name ] = $value;
		}
	}

	/**
	 * An editor sets the line looks over REST; REST reads them back, and the defaults where a
	 * group sets none.
	 */
	public function test_an_editor_sets_line_looks_over_rest(): void {
		$this->act_as( 'editor' );
		$response = $this->rest(
			'POST',
			self::ROUTE,
			array(
				'name' => 'Trails',
				'meta' => array(
					Group_Styles::META_LINE_COLOR   => '#C0392B',
					Group_Styles::META_LINE_WIDTH   => 5,
					Group_Styles::META_FILL_OPACITY => 0.4,
				),
			)
		);
		$this->assertSame( 201, $response->get_status(), (string) wp_json_encode( $response->get_data() ) );
		$group = (int) $response->get_data()['id'];
		$this->assertSame( '#c0392b', get_term_meta( $group, Group_Styles::META_LINE_COLOR, true ) );
		$this->assertSame( '5', get_term_meta( $group, Group_Styles::META_LINE_WIDTH, true ) );
		$this->assertSame( '0.4', get_term_meta( $group, Group_Styles::META_FILL_OPACITY, true ) );

		$meta = $this->rest( 'GET', self::ROUTE . '/' . $group, array( 'context' => 'edit' ) )->get_data()['meta'];
		$this->assertSame( '#c0392b', $meta[ Group_Styles::META_LINE_COLOR ] );
		$this->assertSame( 5, $meta[ Group_Styles::META_LINE_WIDTH ] );
		$this->assertSame( 0.4, $meta[ Group_Styles::META_FILL_OPACITY ] );

		// Numbers written in digits (as a form or a query string sends them) are numbers.
		$updated = $this->rest(
			'POST',
			self::ROUTE . '/' . $group,
			array(
				'meta' => array(
					Group_Styles::META_LINE_WIDTH   => '12',
					Group_Styles::META_FILL_OPACITY => '1',
				),
			)
		);
		$this->assertSame( 200, $updated->get_status(), (string) wp_json_encode( $updated->get_data() ) );
		$this->assertSame( '12', get_term_meta( $group, Group_Styles::META_LINE_WIDTH, true ) );
		$this->assertSame( '1', get_term_meta( $group, Group_Styles::META_FILL_OPACITY, true ) );

		$plain = $this->create_group( 'plain' );
		$meta  = $this->rest( 'GET', self::ROUTE . '/' . $plain, array( 'context' => 'edit' ) )->get_data()['meta'];
		$this->assertSame( '', $meta[ Group_Styles::META_LINE_COLOR ] );
		$this->assertSame( 3, $meta[ Group_Styles::META_LINE_WIDTH ] );
		$this->assertSame( 0.25, $meta[ Group_Styles::META_FILL_OPACITY ] );
	}

	/**
	 * Values each look refuses, with the message.
	 *
	 * @return array<string, array{0: string, 1: mixed, 2: string}>
	 */
	public function bad_looks(): array {
		$width   = 'The line width must be a whole number of pixels from 1 to 12.';
		$opacity = 'The fill opacity must be a number from 0 (transparent) to 1 (opaque), such as 0.25.';
		$color   = 'The line colour must be a hex colour such as #1e73be, or empty to use the group colour.';
		return array(
			'width 0'                => array( Group_Styles::META_LINE_WIDTH, 0, $width ),
			'width 13'               => array( Group_Styles::META_LINE_WIDTH, 13, $width ),
			'width -1'               => array( Group_Styles::META_LINE_WIDTH, -1, $width ),
			'width 2.5'              => array( Group_Styles::META_LINE_WIDTH, 2.5, $width ),
			'width "20"'             => array( Group_Styles::META_LINE_WIDTH, '20', $width ),
			'width "3px"'            => array( Group_Styles::META_LINE_WIDTH, '3px', $width ),
			'width "1e1"'            => array( Group_Styles::META_LINE_WIDTH, '1e1', $width ),
			'width ""'               => array( Group_Styles::META_LINE_WIDTH, '', $width ),
			'width true'             => array( Group_Styles::META_LINE_WIDTH, true, $width ),
			'width a list'           => array( Group_Styles::META_LINE_WIDTH, array( 3 ), $width ),
			'opacity -0.1'           => array( Group_Styles::META_FILL_OPACITY, -0.1, $opacity ),
			'opacity 1.5'            => array( Group_Styles::META_FILL_OPACITY, 1.5, $opacity ),
			'opacity 25 (a percent)' => array( Group_Styles::META_FILL_OPACITY, 25, $opacity ),
			'opacity "half"'         => array( Group_Styles::META_FILL_OPACITY, 'half', $opacity ),
			'opacity "0,5"'          => array( Group_Styles::META_FILL_OPACITY, '0,5', $opacity ),
			'opacity false'          => array( Group_Styles::META_FILL_OPACITY, false, $opacity ),
			'line colour a name'     => array( Group_Styles::META_LINE_COLOR, 'red', $color ),
			'line colour #f00'       => array( Group_Styles::META_LINE_COLOR, '#f00', $color ),
			'line colour markup'     => array( Group_Styles::META_LINE_COLOR, '#ff0000"><script>', $color ),
		);
	}

	/**
	 * A bad look is a 400 with its message: no group is created, an update stores nothing (not
	 * even the valid looks sent with it), and other ways in are refused too.
	 *
	 * @dataProvider bad_looks
	 *
	 * @param string $key     Meta key.
	 * @param mixed  $value   Value.
	 * @param string $message Message.
	 */
	public function test_a_bad_look_is_refused_and_nothing_is_stored( string $key, $value, string $message ): void {
		$group = $this->create_group( 'routes' );
		update_term_meta( $group, Group_Styles::META_LINE_COLOR, '#00aa00' );
		update_term_meta( $group, Group_Styles::META_LINE_WIDTH, 4 );
		update_term_meta( $group, Group_Styles::META_FILL_OPACITY, 0.5 );
		$before = self::stored( $group );
		$this->act_as( 'editor' );
		$groups = $this->count_groups();

		$created = $this->rest(
			'POST',
			self::ROUTE,
			array(
				'name' => 'Zones',
				'meta' => array( $key => $value ),
			)
		);
		$this->assertSame( 400, $created->get_status(), (string) wp_json_encode( $created->get_data() ) );
		$this->assertSame( $message, $created->get_data()['message'] );
		$this->assertSame( $key, $created->get_data()['data']['field'] );
		$this->assertSame( $groups, $this->count_groups(), 'no group was created' );

		$updated = $this->rest(
			'POST',
			self::ROUTE . '/' . $group,
			array(
				'name' => 'Renamed',
				'meta' => array( Group_Styles::META_COLOR => '#123456' ) + array( $key => $value ) + array( Group_Styles::META_LINE_WIDTH => 6 ),
			)
		);
		$this->assertSame( 400, $updated->get_status() );
		$this->assertSame( $message, $updated->get_data()['message'] );
		$this->assertSame( $before, self::stored( $group ), 'no look changed' );
		$this->assertSame( 'routes', get_term( $group )->name, 'nor the name' );

		$this->assertFalse( update_term_meta( $group, $key, $value ), 'a PHP write is refused' );
		$this->assertSame( $before, self::stored( $group ) );
	}

	/**
	 * Null clears a look: the default applies again.
	 */
	public function test_null_clears_the_line_looks(): void {
		$group = $this->create_group( 'cleared' );
		update_term_meta( $group, Group_Styles::META_LINE_COLOR, '#00aa00' );
		update_term_meta( $group, Group_Styles::META_LINE_WIDTH, 8 );
		update_term_meta( $group, Group_Styles::META_FILL_OPACITY, 0 );
		$this->assertSame( '0', get_term_meta( $group, Group_Styles::META_FILL_OPACITY, true ), 'a zero opacity is a value' );
		$this->act_as( 'editor' );
		$response = $this->rest(
			'POST',
			self::ROUTE . '/' . $group,
			array(
				'meta' => array(
					Group_Styles::META_LINE_COLOR   => null,
					Group_Styles::META_LINE_WIDTH   => null,
					Group_Styles::META_FILL_OPACITY => null,
				),
			)
		);
		$this->assertSame( 200, $response->get_status(), (string) wp_json_encode( $response->get_data() ) );
		$this->assertSame(
			array(
				'lineColor'   => '',
				'lineWidth'   => 3,
				'fillOpacity' => 0.25,
			),
			Group_Styles::line_looks( $group )
		);
		$this->assertSame( array_fill_keys( Group_Styles::META_KEYS, '' ), self::stored( $group ) );
	}

	/**
	 * Only users who may edit groups change their line looks.
	 */
	public function test_authors_may_not_change_line_looks(): void {
		$group = $this->create_group( 'guarded' );
		$this->act_as( 'author' );
		$response = $this->rest( 'POST', self::ROUTE . '/' . $group, array( 'meta' => array( Group_Styles::META_LINE_WIDTH => 9 ) ) );
		$this->assertSame( 403, $response->get_status() );
		$this->assertSame( '', self::stored( $group )[ Group_Styles::META_LINE_WIDTH ] );
	}

	/**
	 * Every change of a line look changes the markers version (maps and their caches follow).
	 */
	public function test_line_look_changes_bump_the_markers_version(): void {
		$version = Plugin::instance()->get( 'markers_version' );
		$this->assertInstanceOf( Markers_Version::class, $version );
		$group = $this->create_group( 'paths' );
		foreach ( array(
			'line colour added' => static fn() => update_term_meta( $group, Group_Styles::META_LINE_COLOR, '#aa0000' ),
			'width added'       => static fn() => update_term_meta( $group, Group_Styles::META_LINE_WIDTH, 6 ),
			'width changed'     => static fn() => update_term_meta( $group, Group_Styles::META_LINE_WIDTH, 7 ),
			'opacity added'     => static fn() => update_term_meta( $group, Group_Styles::META_FILL_OPACITY, 0.6 ),
			'opacity removed'   => static fn() => delete_term_meta( $group, Group_Styles::META_FILL_OPACITY ),
			'line colour gone'  => static fn() => delete_term_meta( $group, Group_Styles::META_LINE_COLOR ),
		) as $change => $run ) {
			$before = $version->get();
			$run();
			wp_cache_delete( 'alloptions', 'options' );
			$this->assertNotSame( $before, $version->get(), $change );
		}
	}

	/**
	 * Maps receive each group's line looks in `groupStyles` (the block, every marker selection, the
	 * posts-maps route and the editor's preview); a value stored before the rules (a direct
	 * database write) gives the default.
	 */
	public function test_maps_receive_the_line_looks(): void {
		update_option( Settings::TOKEN_OPTION, Map_BlockTest::public_token() );
		$trails = $this->create_group( 'trails', 'Trails' );
		update_term_meta( $trails, Group_Styles::META_COLOR, '#2e7d32' );
		update_term_meta( $trails, Group_Styles::META_LINE_COLOR, '#c0392b' );
		update_term_meta( $trails, Group_Styles::META_LINE_WIDTH, 5 );
		update_term_meta( $trails, Group_Styles::META_FILL_OPACITY, 0.4 );
		$legacy = $this->create_group( 'legacy', 'Legacy' );
		global $wpdb;
		foreach ( array(
			Group_Styles::META_LINE_COLOR   => 'red',
			Group_Styles::META_LINE_WIDTH   => '40',
			Group_Styles::META_FILL_OPACITY => 'lots',
		) as $key => $value ) {
			$wpdb->insert(
				$wpdb->termmeta,
				array(
					'term_id'    => $legacy,
					'meta_key'   => $key, // phpcs:ignore WordPress.DB.SlowDBQuery.slow_db_query_meta_key
					'meta_value' => $value, // phpcs:ignore WordPress.DB.SlowDBQuery.slow_db_query_meta_value
				)
			);
		}
		wp_cache_delete( $legacy, 'term_meta' );
		$marker = $this->create_marker( array( 'groups' => array( 'trails', 'legacy' ) ) );
		do_action( 'cairn_maps_markers_changed' );

		$expected = array(
			array(
				'slug'        => 'legacy',
				'name'        => 'Legacy',
				'color'       => '',
				'icon'        => '',
				'lineColor'   => '',
				'lineWidth'   => 3,
				'fillOpacity' => 0.25,
			),
			array(
				'slug'        => 'trails',
				'name'        => 'Trails',
				'color'       => '#2e7d32',
				'icon'        => '',
				'lineColor'   => '#c0392b',
				'lineWidth'   => 5,
				'fillOpacity' => 0.4,
			),
		);
		$post     = (int) wp_insert_post(
			array(
				'post_title'   => 'Maps',
				'post_status'  => 'publish',
				'post_content' => '<!-- wp:cairn/map /--><!-- wp:cairn/map {"markers":{"source":"groups","groups":["trails","legacy"],"ids":[]}} /-->'
					. '<!-- wp:cairn/map {"markers":{"source":"ids","groups":[],"ids":[' . $marker . ']}} /-->',
			)
		);
		$configs  = self::rendered_map_configs( get_post( $post ) );
		$this->assertCount( 3, $configs );
		foreach ( $configs as $i => $config ) {
			$this->assertSame( $expected, $config['groupStyles'], "map {$i}" );
		}
		$route = $this->rest( 'GET', "/cairn/v1/posts/{$post}/maps" );
		$this->assertSame( 200, $route->get_status() );
		$this->assertSame( array( $expected, $expected, $expected ), array_column( array_column( $route->get_data()['maps'], 'config' ), 'groupStyles' ) );
		$editor_data = Plugin::instance()->get( 'editor' );
		$this->assertInstanceOf( \Cairn\Maps\Blocks\Editor_Data::class, $editor_data );
		$this->assertSame( $expected, $editor_data->data()['groupStyles'] );

		// A change reaches the next page without waiting for the cache.
		update_term_meta( $trails, Group_Styles::META_LINE_WIDTH, 9 );
		$this->assertSame( 9, self::rendered_map_configs( get_post( $post ) )[0]['groupStyles'][1]['lineWidth'] );
	}

	/**
	 * The add form: a bad width refuses the whole group with the message; good looks are stored,
	 * and fields left empty or at their defaults store no row.
	 */
	public function test_the_add_form_refuses_a_bad_width_and_stores_good_looks(): void {
		$this->act_as( 'editor' );
		self::post_form(
			array(
				'color'        => '#336699',
				'line_color'   => '#aa5500',
				'line_width'   => '20',
				'fill_opacity' => '0.5',
			)
		);
		$refused = wp_insert_term( 'Routes', Post_Type::TAXONOMY );
		$this->assertInstanceOf( \WP_Error::class, $refused );
		$this->assertSame( Group_Style_Rules::line_width_message(), $refused->get_error_message() );
		$this->assertNull( term_exists( 'Routes', Post_Type::TAXONOMY ) );

		$_POST['cairn_maps_line_width'] = '6';
		$created                        = wp_insert_term( 'Routes', Post_Type::TAXONOMY );
		$this->assertIsArray( $created );
		$this->assertSame(
			array(
				Group_Styles::META_COLOR        => '#336699',
				Group_Styles::META_ICON         => '',
				Group_Styles::META_LINE_COLOR   => '#aa5500',
				Group_Styles::META_LINE_WIDTH   => '6',
				Group_Styles::META_FILL_OPACITY => '0.5',
			),
			self::stored( (int) $created['term_id'] )
		);

		self::post_form(
			array(
				'line_color'   => '',
				'line_width'   => '3',
				'fill_opacity' => '',
			)
		);
		$plain = wp_insert_term( 'Plain routes', Post_Type::TAXONOMY );
		$this->assertIsArray( $plain );
		$this->assertSame( array_fill_keys( Group_Styles::META_KEYS, '' ), self::stored( (int) $plain['term_id'] ) );
	}

	/**
	 * The edit form: a bad opacity stores none of the looks sent with it, and the screen it
	 * returns to shows every refusal.
	 */
	public function test_the_edit_form_stores_no_look_when_one_is_bad_and_says_why(): void {
		$this->act_as( 'editor' );
		$group = $this->create_group( 'zones' );
		update_term_meta( $group, Group_Styles::META_LINE_WIDTH, 4 );
		$before = self::stored( $group );

		self::post_form(
			array(
				'color'        => '#abcdef',
				'line_color'   => 'blue',
				'line_width'   => '5',
				'fill_opacity' => '2',
			)
		);
		wp_update_term( $group, Post_Type::TAXONOMY, array( 'name' => 'Zones' ) );
		$this->assertSame( $before, self::stored( $group ), 'no look was stored' );

		// phpcs:ignore WordPress.NamingConventions.PrefixAllGlobals.NonPrefixedHooknameFound -- core's filter, as edit-tags.php applies it.
		$location = apply_filters( 'redirect_term_location', admin_url( 'term.php?taxonomy=' . Post_Type::TAXONOMY ), get_taxonomy( Post_Type::TAXONOMY ) );
		$this->assertStringContainsString( 'cairn_maps_group_error=line_color.fill_opacity', $location );

		$_GET = array( 'cairn_maps_group_error' => 'line_color.fill_opacity.<script>' );
		require_once ABSPATH . 'wp-admin/includes/admin.php';
		set_current_screen( 'edit-' . Post_Type::TAXONOMY );
		ob_start();
		$this->screen()->print_screen_error();
		$notice                    = (string) ob_get_clean();
		$GLOBALS['current_screen'] = null; // phpcs:ignore WordPress.WP.GlobalVariablesOverride.Prohibited -- leaving the admin screen the test opened.
		$this->assertStringContainsString( '<p>' . esc_html( Group_Style_Rules::line_color_message() ) . '</p>', $notice );
		$this->assertStringContainsString( '<p>' . esc_html( Group_Style_Rules::fill_opacity_message() ) . '</p>', $notice );
		$this->assertSame( 2, substr_count( $notice, '<p>' ), 'only the refused looks, no other text' );

		// Corrected, the same form stores every look.
		$_POST['cairn_maps_line_color']   = '#0000ff';
		$_POST['cairn_maps_fill_opacity'] = '0.35';
		$screen                           = new Group_Term_Screen();
		$screen->save_form( $group );
		$this->assertSame(
			array(
				'lineColor'   => '#0000ff',
				'lineWidth'   => 5,
				'fillOpacity' => 0.35,
			),
			Group_Styles::line_looks( $group )
		);
		$this->assertSame( '#abcdef', get_term_meta( $group, Group_Styles::META_COLOR, true ) );
	}

	/**
	 * The add and edit forms show the fields with their labels, bounds and current values; the
	 * group list sums them up.
	 */
	public function test_the_forms_show_the_line_look_fields(): void {
		$this->act_as( 'editor' );
		ob_start();
		$this->screen()->render_add_fields();
		$add = (string) ob_get_clean();
		$this->assertStringContainsString( '<label for="cairn-maps-line-color">Line colour</label>', $add );
		$this->assertStringContainsString( '<label for="cairn-maps-line-width">Line width</label>', $add );
		$this->assertStringContainsString( '<label for="cairn-maps-fill-opacity">Area fill opacity</label>', $add );
		$this->assertMatchesRegularExpression( '/<input type="number" id="cairn-maps-line-width" name="cairn_maps_line_width" value="3" min="1" max="12" step="1"/', $add );
		$this->assertMatchesRegularExpression( '/<input type="number" id="cairn-maps-fill-opacity" name="cairn_maps_fill_opacity" value="0.25" min="0" max="1"/', $add );

		$group = $this->create_group( 'shown' );
		update_term_meta( $group, Group_Styles::META_LINE_COLOR, '#c0392b' );
		update_term_meta( $group, Group_Styles::META_LINE_WIDTH, 7 );
		update_term_meta( $group, Group_Styles::META_FILL_OPACITY, 0.1 );
		ob_start();
		$this->screen()->render_edit_fields( get_term( $group ) );
		$edit = (string) ob_get_clean();
		$this->assertStringContainsString( 'name="cairn_maps_line_color" class="cairn-maps-color-field" value="#c0392b"', $edit );
		$this->assertStringContainsString( 'name="cairn_maps_line_width" value="7"', $edit );
		$this->assertStringContainsString( 'name="cairn_maps_fill_opacity" value="0.1"', $edit );

		// The group list tells them, with a sample of the line; a group at the defaults shows none.
		$list = $this->screen()->render_column( '', 'cairn_maps_looks', $group );
		$this->assertStringContainsString( 'Lines: #c0392b, 7 px; area fill 0.10', $list );
		$this->assertStringContainsString( 'height:7px;vertical-align:middle;background:#c0392b', $list );
		update_term_meta( $group, Group_Styles::META_COLOR, '#2e7d32' );
		delete_term_meta( $group, Group_Styles::META_LINE_COLOR );
		$this->assertStringContainsString( 'Lines: group colour, 7 px; area fill 0.10', $this->screen()->render_column( '', 'cairn_maps_looks', $group ) );
		$plain = $this->create_group( 'plain-list' );
		$this->assertSame( '—', $this->screen()->render_column( '', 'cairn_maps_looks', $plain ) );
	}
}
