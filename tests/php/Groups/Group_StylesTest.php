<?php
/**
 * Marker group looks: colour and icon term meta.
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
use WP_REST_Response;

/**
 * `cairn_color` and `cairn_icon` through REST, the term screens and PHP; the block's group styles.
 *
 * @since 0.1.0
 */
final class Group_StylesTest extends TestCase {

	private const ROUTE = '/wp/v2/cairn-marker-groups';

	/**
	 * The line looks of a group that sets none.
	 */
	private const LINE_DEFAULTS = array(
		'lineColor'   => '',
		'lineWidth'   => 3,
		'fillOpacity' => 0.25,
	);

	/**
	 * The plugin's part.
	 */
	private function styles(): Group_Styles {
		$styles = Plugin::instance()->get( 'group_styles' );
		$this->assertInstanceOf( Group_Styles::class, $styles );
		return $styles;
	}

	/**
	 * The plugin's part for the group screens.
	 */
	private function screen(): Group_Term_Screen {
		$screen = Plugin::instance()->get( 'group_term_screen' );
		$this->assertInstanceOf( Group_Term_Screen::class, $screen );
		return $screen;
	}

	/**
	 * Creates an attachment of a mime type (no file needed for the checks).
	 *
	 * @param string $mime  Mime type.
	 * @param string $file  File path below uploads.
	 * @param string $title Title.
	 */
	private function attachment( string $mime, string $file, string $title = 'Pin' ): int {
		$id = wp_insert_attachment(
			array(
				'post_title'     => $title,
				'post_mime_type' => $mime,
				'post_status'    => 'inherit',
			),
			$file
		);
		$this->assertIsInt( $id );
		$this->assertGreaterThan( 0, $id );
		return $id;
	}

	/**
	 * Asserts a 400 with a message.
	 *
	 * @param WP_REST_Response $response Response.
	 * @param string           $message  Expected message.
	 */
	private function assert_refused( WP_REST_Response $response, string $message ): void {
		$this->assertSame( 400, $response->get_status(), 'answer: ' . wp_json_encode( $response->get_data() ) );
		$this->assertSame( $message, $response->get_data()['message'] );
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
	 * Hooks are named methods.
	 */
	public function test_hooks_are_named_methods(): void {
		$this->assertSame( 10, has_filter( 'rest_dispatch_request', array( $this->styles(), 'validate_rest_write' ) ) );
		$this->assertSame( 10, has_filter( 'update_term_metadata', array( $this->styles(), 'refuse_invalid_meta' ) ) );
		$this->assertSame( 10, has_action( 'edited_' . Post_Type::TAXONOMY, array( $this->screen(), 'save_form' ) ) );
		$version = Plugin::instance()->get( 'markers_version' );
		$this->assertInstanceOf( Markers_Version::class, $version );
		$this->assertSame( 10, has_action( 'updated_term_meta', array( $version, 'on_term_meta_change' ) ) );
	}

	/**
	 * An editor sets a colour and a PNG icon when creating a group; REST shows them.
	 */
	public function test_an_editor_sets_colour_and_icon_over_rest(): void {
		$this->act_as( 'editor' );
		$icon     = $this->attachment( 'image/png', '2024/01/pin.png' );
		$response = $this->rest(
			'POST',
			self::ROUTE,
			array(
				'name' => 'Peaks',
				'meta' => array(
					Group_Styles::META_COLOR => '#1E73BE',
					Group_Styles::META_ICON  => $icon,
				),
			)
		);
		$this->assertSame( 201, $response->get_status(), wp_json_encode( $response->get_data() ) );
		$term_id = (int) $response->get_data()['id'];
		$this->assertSame( '#1e73be', get_term_meta( $term_id, Group_Styles::META_COLOR, true ) );
		$this->assertSame( $icon, (int) get_term_meta( $term_id, Group_Styles::META_ICON, true ) );

		$read = $this->rest( 'GET', self::ROUTE . '/' . $term_id, array( 'context' => 'edit' ) );
		$this->assertSame( '#1e73be', $read->get_data()['meta'][ Group_Styles::META_COLOR ] );
		$this->assertSame( $icon, $read->get_data()['meta'][ Group_Styles::META_ICON ] );

		$jpeg    = $this->attachment( 'image/jpeg', '2024/01/pin.jpg' );
		$updated = $this->rest( 'POST', self::ROUTE . '/' . $term_id, array( 'meta' => array( Group_Styles::META_ICON => $jpeg ) ) );
		$this->assertSame( 200, $updated->get_status() );
		$this->assertSame( $jpeg, (int) get_term_meta( $term_id, Group_Styles::META_ICON, true ) );
	}

	/**
	 * Who may change a group's looks.
	 *
	 * @return array<string, array{0: string, 1: int}>
	 */
	public function roles(): array {
		return array(
			'anonymous'     => array( 'anonymous', 401 ),
			'subscriber'    => array( 'subscriber', 403 ),
			'contributor'   => array( 'contributor', 403 ),
			'author'        => array( 'author', 403 ),
			'editor'        => array( 'editor', 200 ),
			'administrator' => array( 'administrator', 200 ),
		);
	}

	/**
	 * Only users who may edit groups change their looks.
	 *
	 * @dataProvider roles
	 *
	 * @param string $role   Role.
	 * @param int    $status Expected status.
	 */
	public function test_roles( string $role, int $status ): void {
		$group = $this->create_group( 'huts' );
		$this->act_as( $role );
		$response = $this->rest( 'POST', self::ROUTE . '/' . $group, array( 'meta' => array( Group_Styles::META_COLOR => '#ff0000' ) ) );
		$this->assertSame( $status, $response->get_status() );
		$this->assertSame( 200 === $status ? '#ff0000' : '', get_term_meta( $group, Group_Styles::META_COLOR, true ) );
	}

	/**
	 * Bad colours.
	 *
	 * @return array<string, array{0: mixed}>
	 */
	public function bad_colours(): array {
		return array(
			'a name'          => array( 'red' ),
			'three digits'    => array( '#f00' ),
			'no hash'         => array( 'ff0000' ),
			'not hex'         => array( '#gg0000' ),
			'seven digits'    => array( '#ff00000' ),
			'css function'    => array( 'rgb(1,2,3)' ),
			'markup'          => array( '#ff0000"><script>' ),
			'a number'        => array( 123456 ),
			'trailing spaces' => array( "#ff0000\n#00ff00" ),
		);
	}

	/**
	 * A bad colour is a 400 on create (no group is created) and on update (the old one stays).
	 *
	 * @dataProvider bad_colours
	 *
	 * @param mixed $colour Colour.
	 */
	public function test_a_bad_colour_is_refused_and_not_stored( $colour ): void {
		$group = $this->create_group( 'lochs' );
		update_term_meta( $group, Group_Styles::META_COLOR, '#00ff00' );
		$this->act_as( 'editor' );
		$groups = $this->count_groups();

		$created = $this->rest(
			'POST',
			self::ROUTE,
			array(
				'name' => 'Rivers',
				'meta' => array( Group_Styles::META_COLOR => $colour ),
			)
		);
		$this->assert_refused( $created, Group_Style_Rules::color_message() );
		$this->assertSame( $groups, $this->count_groups(), 'no group was created' );

		$updated = $this->rest( 'POST', self::ROUTE . '/' . $group, array( 'meta' => array( Group_Styles::META_COLOR => $colour ) ) );
		$this->assertSame( 400, $updated->get_status() );
		$this->assertSame( '#00ff00', get_term_meta( $group, Group_Styles::META_COLOR, true ) );
	}

	/**
	 * Icons that are not a PNG or JPEG attachment.
	 *
	 * @return array<string, array{0: string, 1: string}>
	 */
	public function bad_icons(): array {
		return array(
			'gif'  => array( 'image/gif', '2024/01/pin.gif' ),
			'svg'  => array( 'image/svg+xml', '2024/01/pin.svg' ),
			'webp' => array( 'image/webp', '2024/01/pin.webp' ),
			'pdf'  => array( 'application/pdf', '2024/01/pin.pdf' ),
		);
	}

	/**
	 * A GIF, SVG, … icon is a 400 with the contract's message, and nothing is stored.
	 *
	 * @dataProvider bad_icons
	 *
	 * @param string $mime Mime type.
	 * @param string $file File.
	 */
	public function test_an_icon_of_another_type_is_refused_and_not_stored( string $mime, string $file ): void {
		$png   = $this->attachment( 'image/png', '2024/01/ok.png' );
		$bad   = $this->attachment( $mime, $file );
		$group = $this->create_group( 'bothies' );
		update_term_meta( $group, Group_Styles::META_ICON, $png );
		$this->act_as( 'editor' );
		$groups = $this->count_groups();

		$created = $this->rest(
			'POST',
			self::ROUTE,
			array(
				'name' => 'Shelters',
				'meta' => array( Group_Styles::META_ICON => $bad ),
			)
		);
		$this->assert_refused( $created, 'A supported PNG or JPEG image is required.' );
		$this->assertSame( $groups, $this->count_groups(), 'no group was created' );

		$updated = $this->rest( 'POST', self::ROUTE . '/' . $group, array( 'meta' => array( Group_Styles::META_ICON => $bad ) ) );
		$this->assert_refused( $updated, 'A supported PNG or JPEG image is required.' );
		$this->assertSame( $png, (int) get_term_meta( $group, Group_Styles::META_ICON, true ) );

		// Other ways in are refused too.
		$this->assertFalse( update_term_meta( $group, Group_Styles::META_ICON, $bad ) );
		$this->assertSame( $png, (int) get_term_meta( $group, Group_Styles::META_ICON, true ) );
	}

	/**
	 * Ids that are not attachments at all.
	 */
	public function test_an_icon_that_is_not_an_attachment_is_refused(): void {
		$this->act_as( 'editor' );
		$post = self::factory_post();
		foreach ( array( $post, 999999, -3, 'abc', '12abc' ) as $value ) {
			$response = $this->rest(
				'POST',
				self::ROUTE,
				array(
					'name' => 'Caves ' . wp_json_encode( $value ),
					'meta' => array( Group_Styles::META_ICON => $value ),
				)
			);
			$this->assertSame( 400, $response->get_status(), 'icon ' . wp_json_encode( $value ) );
		}
	}

	/**
	 * Null, '' and 0 clear the looks.
	 */
	public function test_looks_can_be_cleared(): void {
		$png   = $this->attachment( 'image/png', '2024/01/ok.png' );
		$group = $this->create_group( 'cairns' );
		update_term_meta( $group, Group_Styles::META_ICON, $png );
		update_term_meta( $group, Group_Styles::META_COLOR, '#123456' );
		$this->act_as( 'editor' );
		$response = $this->rest(
			'POST',
			self::ROUTE . '/' . $group,
			array(
				'meta' => array(
					Group_Styles::META_ICON  => 0,
					Group_Styles::META_COLOR => null,
				),
			)
		);
		$this->assertSame( 200, $response->get_status(), wp_json_encode( $response->get_data() ) );
		$this->assertSame( 0, (int) get_term_meta( $group, Group_Styles::META_ICON, true ) );
		$this->assertSame( '', get_term_meta( $group, Group_Styles::META_COLOR, true ) );
	}

	/**
	 * Changing the looks changes the markers version; so does deleting the icon's image.
	 */
	public function test_looks_changes_bump_the_markers_version(): void {
		$version = Plugin::instance()->get( 'markers_version' );
		$this->assertInstanceOf( Markers_Version::class, $version );
		$group = $this->create_group( 'peaks' );
		$png   = $this->attachment( 'image/png', '2024/01/ok.png' );
		foreach ( array(
			'colour added'   => static fn() => update_term_meta( $group, Group_Styles::META_COLOR, '#aa0000' ),
			'colour changed' => static fn() => update_term_meta( $group, Group_Styles::META_COLOR, '#bb0000' ),
			'icon added'     => static fn() => update_term_meta( $group, Group_Styles::META_ICON, $png ),
			'image deleted'  => static fn() => wp_delete_attachment( $png, true ),
			'colour removed' => static fn() => delete_term_meta( $group, Group_Styles::META_COLOR ),
		) as $change => $run ) {
			$before = $version->get();
			$run();
			wp_cache_delete( 'alloptions', 'options' );
			$this->assertNotSame( $before, $version->get(), $change );
		}
		$this->assertFalse( metadata_exists( 'term', $group, Group_Styles::META_ICON ), 'the deleted image is no longer the icon' );
	}

	/**
	 * The add form: a bad icon refuses the whole group with the message; a good one is stored.
	 */
	public function test_the_add_form_refuses_a_bad_icon_and_stores_good_looks(): void {
		$this->act_as( 'editor' );
		$gif = $this->attachment( 'image/gif', '2024/01/pin.gif' );
		$png = $this->attachment( 'image/png', '2024/01/pin.png' );

		$_POST   = array(
			'cairn_maps_group_style_nonce' => wp_create_nonce( 'cairn_maps_group_style' ),
			'cairn_maps_color'             => '#336699',
			'cairn_maps_icon'              => (string) $gif,
		);
		$refused = wp_insert_term( 'Summits', Post_Type::TAXONOMY );
		$this->assertInstanceOf( \WP_Error::class, $refused );
		$this->assertSame( 'A supported PNG or JPEG image is required.', $refused->get_error_message() );
		$this->assertNull( term_exists( 'Summits', Post_Type::TAXONOMY ) );

		$_POST['cairn_maps_icon'] = (string) $png;
		$created                  = wp_insert_term( 'Summits', Post_Type::TAXONOMY );
		$this->assertIsArray( $created );
		$this->assertSame( '#336699', get_term_meta( (int) $created['term_id'], Group_Styles::META_COLOR, true ) );
		$this->assertSame( $png, (int) get_term_meta( (int) $created['term_id'], Group_Styles::META_ICON, true ) );
	}

	/**
	 * The edit form: a bad icon is not stored, nor the other looks of the same save (all or none),
	 * and the screen it returns to says why.
	 */
	public function test_the_edit_form_does_not_store_a_bad_icon_and_says_why(): void {
		$this->act_as( 'editor' );
		$png   = $this->attachment( 'image/png', '2024/01/pin.png' );
		$svg   = $this->attachment( 'image/svg+xml', '2024/01/pin.svg' );
		$group = $this->create_group( 'tops' );
		update_term_meta( $group, Group_Styles::META_ICON, $png );

		$_POST = array(
			'cairn_maps_group_style_nonce' => wp_create_nonce( 'cairn_maps_group_style' ),
			'cairn_maps_color'             => '#abcdef',
			'cairn_maps_icon'              => (string) $svg,
		);
		wp_update_term( $group, Post_Type::TAXONOMY, array( 'name' => 'Tops' ) );
		$this->assertSame( $png, (int) get_term_meta( $group, Group_Styles::META_ICON, true ), 'the SVG was not stored' );
		$this->assertSame( '', get_term_meta( $group, Group_Styles::META_COLOR, true ), 'nor the colour sent with it' );

		// phpcs:ignore WordPress.NamingConventions.PrefixAllGlobals.NonPrefixedHooknameFound -- core's filter, as edit-tags.php applies it.
		$location = apply_filters( 'redirect_term_location', admin_url( 'term.php?taxonomy=' . Post_Type::TAXONOMY ), get_taxonomy( Post_Type::TAXONOMY ) );
		$this->assertStringContainsString( 'cairn_maps_group_error=icon', $location );

		// The next, valid save returns to the same screen without the old refusal.
		$_POST['cairn_maps_icon'] = (string) $png;
		$screen                   = new Group_Term_Screen();
		$screen->save_form( $group );
		$this->assertSame( admin_url( 'term.php?taxonomy=cairn_marker_group' ), $screen->redirect_with_error( $location, get_taxonomy( Post_Type::TAXONOMY ) ) );
	}

	/**
	 * Without our nonce (a request that did not come from our form), nothing is read from $_POST.
	 */
	public function test_the_form_fields_need_the_nonce(): void {
		$this->act_as( 'editor' );
		$_POST   = array(
			'cairn_maps_group_style_nonce' => 'forged',
			'cairn_maps_color'             => '#abcdef',
		);
		$created = wp_insert_term( 'Glens', Post_Type::TAXONOMY );
		$this->assertIsArray( $created );
		$this->assertSame( '', get_term_meta( (int) $created['term_id'], Group_Styles::META_COLOR, true ) );
	}

	/**
	 * The edit form escapes what it prints (image titles are user text).
	 */
	public function test_the_edit_fields_escape_image_titles(): void {
		$this->act_as( 'editor' );
		$png   = $this->attachment( 'image/png', '2024/01/pin.png', '"><script>alert(1)</script>' );
		$group = $this->create_group( 'ridges' );
		update_term_meta( $group, Group_Styles::META_ICON, $png );
		update_term_meta( $group, Group_Styles::META_COLOR, '#010203' );
		ob_start();
		$this->screen()->render_edit_fields( get_term( $group ) );
		$html = (string) ob_get_clean();
		$this->assertStringNotContainsString( '<script>', $html );
		$this->assertStringContainsString( 'value="#010203"', $html );
		$this->assertMatchesRegularExpression( '/<option value="' . $png . '" selected=\'selected\'>/', $html );
	}

	/**
	 * The edit form and the group list show the icon as the attachment image core renders (the
	 * group list with "Icon" as its text alternative); an image of another type shows nothing.
	 */
	public function test_the_group_screens_show_the_icon_image(): void {
		$this->act_as( 'editor' );
		$png   = $this->attachment( 'image/png', '2024/01/summit.png' );
		$gif   = $this->attachment( 'image/gif', '2024/01/old.gif' );
		$group = $this->create_group( 'summits' );
		update_term_meta( $group, Group_Styles::META_ICON, $png );
		ob_start();
		$this->screen()->render_edit_fields( get_term( $group ) );
		$form = (string) ob_get_clean();
		$list = $this->screen()->render_column( '', 'cairn_maps_looks', $group );

		$this->assertStringContainsString( '<p><img', $form );
		$this->assertStringContainsString( 'src="' . wp_get_attachment_url( $png ) . '"', $form );
		$this->assertStringContainsString( 'alt=""', $form );
		$this->assertStringContainsString( 'src="' . wp_get_attachment_url( $png ) . '"', $list );
		$this->assertStringContainsString( 'alt="Icon"', $list );

		global $wpdb; // A value stored before this plugin checked it.
		$wpdb->update(
			$wpdb->termmeta,
			array( 'meta_value' => (string) $gif ), // phpcs:ignore WordPress.DB.SlowDBQuery.slow_db_query_meta_value
			array(
				'term_id'  => $group,
				'meta_key' => Group_Styles::META_ICON, // phpcs:ignore WordPress.DB.SlowDBQuery.slow_db_query_meta_key
			)
		);
		wp_cache_delete( $group, 'term_meta' );
		$this->assertStringNotContainsString( '<img', $this->screen()->render_column( '', 'cairn_maps_looks', $group ) );
	}

	/**
	 * The block's client config lists every group its places use with its plain-text name and its
	 * looks (the icon's URL), also groups without looks: the visitors' legend shows them all.
	 */
	public function test_the_block_config_contains_the_group_styles(): void {
		update_option( Settings::TOKEN_OPTION, Map_BlockTest::public_token() );
		$png = $this->attachment( 'image/png', '2024/01/peak.png' );
		$gif = $this->attachment( 'image/gif', '2024/01/old.gif' );
		update_term_meta( $this->create_group( 'peaks', 'Peaks' ), Group_Styles::META_COLOR, '#aa0000' );
		update_term_meta( $this->create_group( 'huts', 'Huts' ), Group_Styles::META_ICON, $png );
		$this->create_group( 'plain', 'Plain <b>&</b> "simple"' );
		$legacy = $this->create_group( 'legacy', 'Legacy' );
		// A value stored before this plugin checked it (a direct database write) is ignored.
		global $wpdb;
		$wpdb->insert(
			$wpdb->termmeta,
			array(
				'term_id'    => $legacy,
				'meta_key'   => Group_Styles::META_ICON, // phpcs:ignore WordPress.DB.SlowDBQuery.slow_db_query_meta_key
				'meta_value' => (string) $gif, // phpcs:ignore WordPress.DB.SlowDBQuery.slow_db_query_meta_value
			)
		);
		$this->create_marker( array( 'groups' => array( 'peaks', 'huts', 'plain', 'legacy' ) ) );
		do_action( 'cairn_maps_markers_changed' );

		$tags = new \WP_HTML_Tag_Processor( do_blocks( '<!-- wp:cairn/map /-->' ) );
		$this->assertTrue( $tags->next_tag( array( 'class_name' => 'wp-block-cairn-map' ) ) );
		$config = json_decode( (string) $tags->get_attribute( 'data-cairn-config' ), true );
		$this->assertIsArray( $config );
		$this->assertSame(
			array(
				array(
					'slug'  => 'huts',
					'name'  => 'Huts',
					'color' => '',
					'icon'  => wp_get_attachment_url( $png ),
				) + self::LINE_DEFAULTS,
				array(
					'slug'  => 'legacy',
					'name'  => 'Legacy',
					'color' => '',
					'icon'  => '',
				) + self::LINE_DEFAULTS,
				array(
					'slug'  => 'peaks',
					'name'  => 'Peaks',
					'color' => '#aa0000',
					'icon'  => '',
				) + self::LINE_DEFAULTS,
				array(
					'slug'  => 'plain',
					'name'  => 'Plain & "simple"',
					'color' => '',
					'icon'  => '',
				) + self::LINE_DEFAULTS,
			),
			$config['groupStyles']
		);
		$this->assertStringEndsWith( '/2024/01/peak.png', $config['groupStyles'][0]['icon'] );
	}

	/**
	 * The editor's preview gets the same looks as visitors (window.cairnMapsEditor.groupStyles).
	 */
	public function test_the_editor_data_contains_the_group_styles(): void {
		update_term_meta( $this->create_group( 'peaks', 'Peaks' ), Group_Styles::META_COLOR, '#aa0000' );
		$this->create_group( 'plain', 'Plain' );
		$this->create_group( 'unused', 'Unused' );
		$this->create_marker( array( 'groups' => array( 'peaks', 'plain' ) ) );
		do_action( 'cairn_maps_markers_changed' );

		$editor_data = Plugin::instance()->get( 'editor' );
		$this->assertInstanceOf( \Cairn\Maps\Blocks\Editor_Data::class, $editor_data );
		$this->assertSame(
			array(
				array(
					'slug'  => 'peaks',
					'name'  => 'Peaks',
					'color' => '#aa0000',
					'icon'  => '',
				) + self::LINE_DEFAULTS,
				array(
					'slug'  => 'plain',
					'name'  => 'Plain',
					'color' => '',
					'icon'  => '',
				) + self::LINE_DEFAULTS,
			),
			$editor_data->data()['groupStyles']
		);
		$this->assertStringContainsString( '"groupStyles":[{"slug":"peaks","name":"Peaks","color":"#aa0000","icon":"","lineColor":"","lineWidth":3,"fillOpacity":0.25}', $editor_data->inline_script() );
	}

	/**
	 * The list is bounded, cached by markers version, and refreshed when looks change.
	 */
	public function test_group_styles_are_bounded_and_cached_by_markers_version(): void {
		$slugs = array();
		for ( $i = 0; $i < Group_Styles::MAX_STYLES + 5; $i++ ) {
			$slugs[] = sprintf( 'g%03d', $i );
			update_term_meta( $this->create_group( end( $slugs ) ), Group_Styles::META_COLOR, '#000000' );
		}
		$this->create_marker( array( 'groups' => $slugs ) );
		$styles = $this->styles()->styles();
		$this->assertCount( Group_Styles::MAX_STYLES, $styles );
		$this->assertSame( 'g000', $styles[0]['slug'] );
		$this->assertSame( sprintf( 'g%03d', Group_Styles::MAX_STYLES - 1 ), $styles[ Group_Styles::MAX_STYLES - 1 ]['slug'], 'in name order' );

		global $wpdb;
		$queries = $wpdb->num_queries;
		$this->styles()->styles();
		$this->assertLessThanOrEqual( 2, $wpdb->num_queries - $queries, 'a cached read costs at most the transient' );

		update_term_meta( (int) get_term_by( 'slug', 'g000', Post_Type::TAXONOMY )->term_id, Group_Styles::META_COLOR, '#ffffff' );
		$this->assertSame( '#ffffff', $this->styles()->styles()[0]['color'] );
	}

	/**
	 * A map takes its group looks from the groups it shows: 101 empty groups named to sort first
	 * (`0-…`, the review's attack) push no group of the map out of its config, for a map of all
	 * markers, of chosen groups and of chosen markers, and in the posts-maps route's config too.
	 * Groups only drafts use are not a published place's.
	 */
	public function test_a_map_gets_the_looks_of_the_groups_it_shows_whatever_other_groups_exist(): void {
		update_option( Settings::TOKEN_OPTION, Map_BlockTest::public_token() );
		for ( $i = 0; $i <= Group_Styles::MAX_STYLES; $i++ ) {
			$this->create_group( sprintf( '0-junk-%03d', $i ), sprintf( '0-junk %03d', $i ) );
		}
		update_term_meta( $this->create_group( 'huts', 'Huts' ), Group_Styles::META_COLOR, '#aa0000' );
		$marker = $this->create_marker( array( 'groups' => array( 'huts' ) ) );
		$this->create_marker(
			array(
				'post_status' => 'draft',
				'groups'      => array( 'drafts' ),
			)
		);
		do_action( 'cairn_maps_markers_changed' );

		$huts    = array(
			array(
				'slug'  => 'huts',
				'name'  => 'Huts',
				'color' => '#aa0000',
				'icon'  => '',
			) + self::LINE_DEFAULTS,
		);
		$post    = self::factory_post(
			'<!-- wp:cairn/map /--><!-- wp:cairn/map {"markers":{"source":"groups","groups":["huts"],"ids":[]}} /-->'
			. '<!-- wp:cairn/map {"markers":{"source":"ids","groups":[],"ids":[' . $marker . ']}} /-->'
		);
		$configs = self::rendered_map_configs( get_post( $post ) );
		$this->assertCount( 3, $configs );
		foreach ( array( 'all', 'groups', 'ids' ) as $i => $source ) {
			$this->assertSame( $huts, $configs[ $i ]['groupStyles'], "source {$source}: the group its places use, no other" );
		}
		$this->assertSame( $huts, $this->styles()->styles(), 'the editor\'s preview too' );

		$route = $this->rest( 'GET', "/cairn/v1/posts/{$post}/maps" );
		$this->assertSame( 200, $route->get_status() );
		$this->assertSame( array( $huts, $huts, $huts ), array_column( array_column( $route->get_data()['maps'], 'config' ), 'groupStyles' ) );
	}

	/**
	 * A published post: a wrong icon id, or a page of maps.
	 *
	 * @param string $content Content.
	 */
	private static function factory_post( string $content = '' ): int {
		return (int) wp_insert_post(
			array(
				'post_title'   => 'Not an image',
				'post_status'  => 'publish',
				'post_content' => $content,
			)
		);
	}
}
