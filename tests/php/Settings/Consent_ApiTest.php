<?php
/**
 * The consent gate with the WP Consent API.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Settings;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Blocks\Map_Block;
use Cairn\Maps\Settings\Consent_Api;
use Cairn\Maps\Settings\Settings;
use Cairn\Maps\Settings\Settings_Page;
use Cairn\Maps\Tests\TestCase;

/**
 * The category setting, the plugin's declaration to the API, and what the server renders with the
 * API's functions there, half there or absent.
 *
 * The test site has no WP Consent API plugin, and global functions once declared cannot be taken
 * back for the tests that follow: the "API there" cases give Consent_Api stand-ins of the API's
 * two PHP functions (`wp_has_consent`, `wp_get_consent_type`) instead, behaving as the API
 * documents them. The real lookup (function_exists) is what the "absent" cases run.
 *
 * @since 0.4.0
 */
final class Consent_ApiTest extends TestCase {

	/**
	 * A public token.
	 */
	private const TOKEN = 'pk.eyJ1IjoiY2Fpcm4ifQ.c2lnbmF0dXJl';

	/**
	 * The block type's own render callback, put back after each test.
	 *
	 * @var callable|null
	 */
	private $render_callback = null;

	/**
	 * Categories the stand-in API was asked about.
	 *
	 * @var string[]
	 */
	private array $asked = array();

	/**
	 * Puts the block's own renderer back.
	 */
	public function tear_down(): void {
		if ( null !== $this->render_callback ) {
			$this->block_type()->render_callback = $this->render_callback;
		}
		parent::tear_down();
	}

	/**
	 * The registered block type.
	 */
	private function block_type(): \WP_Block_Type {
		$type = \WP_Block_Type_Registry::get_instance()->get_registered( 'cairn/map' );
		$this->assertNotNull( $type );
		return $type;
	}

	/**
	 * Stand-ins of the API's PHP functions: `$type` as wp_get_consent_type() answers, the visitor's
	 * cookies as `$choices` (category → allow/deny), answered the way wp_has_consent() does.
	 *
	 * @param string|false          $type    Consent type (`optin`, `optout`), false when none is set.
	 * @param array<string, string> $choices The visitor's choices.
	 * @return array<string, callable>
	 */
	private function api( $type, array $choices = array() ): array {
		return array(
			'wp_get_consent_type' => static fn() => $type,
			'wp_has_consent'      => function ( string $category ) use ( $type, $choices ): bool {
				$this->asked[] = $category;
				if ( false === $type ) {
					return true;
				}
				if ( 'optout' === $type && ! isset( $choices[ $category ] ) ) {
					return true;
				}
				return 'allow' === ( $choices[ $category ] ?? '' );
			},
		);
	}

	/**
	 * Renders a map block through core's renderer, with the block rendered by a Map_Block that
	 * sees `$functions` as the consent API (null: the real lookup).
	 *
	 * @param array<string, callable>|null $functions The API's functions.
	 */
	private function render_with( ?array $functions ): string {
		$type                  = $this->block_type();
		$this->render_callback = $this->render_callback ?? $type->render_callback;
		$block                 = new Map_Block( new Settings(), null, null, new Consent_Api( $functions ) );
		$type->render_callback = array( $block, 'render' );
		return do_blocks( '<!-- wp:cairn/map /-->' );
	}

	/**
	 * The wrapper as a tag processor positioned on it.
	 *
	 * @param string $html Rendered HTML.
	 */
	private function wrapper( string $html ): \WP_HTML_Tag_Processor {
		$tags = new \WP_HTML_Tag_Processor( $html );
		$this->assertTrue( $tags->next_tag( array( 'class_name' => 'wp-block-cairn-map' ) ) );
		return $tags;
	}

	/**
	 * A token and the gate on, as a site owner who asked for consent has it.
	 */
	private function gate_on(): void {
		update_option( Settings::TOKEN_OPTION, self::TOKEN );
		update_option( Settings::CONSENT_OPTION, true );
	}

	/**
	 * The default category is marketing: Mapbox records usage events.
	 */
	public function test_the_category_defaults_to_marketing(): void {
		$this->act_as( 'administrator' );
		$response = $this->rest( 'GET', '/wp/v2/settings' );
		$this->assertSame( 'marketing', $response->get_data()[ Settings::CATEGORY_OPTION ] );
		$this->assertSame( 'marketing', ( new Settings() )->consent_category() );
	}

	/**
	 * Every category of the API.
	 *
	 * @return array<string, array{string}>
	 */
	public function categories(): array {
		$cases = array();
		foreach ( Consent_Api::CATEGORIES as $category ) {
			$cases[ $category ] = array( $category );
		}
		return $cases;
	}

	/**
	 * Each of the API's categories can be saved through REST.
	 *
	 * @dataProvider categories
	 * @param string $category A category.
	 */
	public function test_each_category_is_saved_through_rest( string $category ): void {
		$this->act_as( 'administrator' );
		$response = $this->rest( 'POST', '/wp/v2/settings', array( Settings::CATEGORY_OPTION => $category ) );
		$this->assertSame( 200, $response->get_status() );
		$this->assertSame( $category, $response->get_data()[ Settings::CATEGORY_OPTION ] );
		$this->assertSame( $category, get_option( Settings::CATEGORY_OPTION ) );
	}

	/**
	 * Values that are no category of the API.
	 *
	 * @return array<string, array{mixed}>
	 */
	public function not_categories(): array {
		return array(
			'unknown name'      => array( 'cookies' ),
			'wrong case'        => array( 'Marketing' ),
			'empty'             => array( '' ),
			'a list'            => array( array( 'marketing' ) ),
			'a number'          => array( 3 ),
			'markup'            => array( '<b>marketing</b>' ),
			'category and more' => array( 'marketing statistics' ),
		);
	}

	/**
	 * Anything else answers 400 and keeps the stored category.
	 *
	 * @dataProvider not_categories
	 * @param mixed $value The submitted value.
	 */
	public function test_anything_else_is_refused_through_rest( $value ): void {
		update_option( Settings::CATEGORY_OPTION, 'statistics' );
		$this->act_as( 'administrator' );
		$response = $this->rest( 'POST', '/wp/v2/settings', array( Settings::CATEGORY_OPTION => $value ) );
		$this->assertSame( 400, $response->get_status() );
		$this->assertSame( 'statistics', get_option( Settings::CATEGORY_OPTION ) );
	}

	/**
	 * The other ways in (options.php, update_option) keep the stored category too.
	 *
	 * @dataProvider not_categories
	 * @param mixed $value The submitted value.
	 */
	public function test_anything_else_is_refused_by_the_sanitizer( $value ): void {
		update_option( Settings::CATEGORY_OPTION, 'preferences' );
		update_option( Settings::CATEGORY_OPTION, $value );
		$this->assertSame( 'preferences', get_option( Settings::CATEGORY_OPTION ) );
	}

	/**
	 * Cairn Maps tells the API it follows the visitor's choice (the API's Site Health check reads
	 * this filter for every active plugin, by its basename).
	 */
	public function test_the_plugin_declares_itself_registered_with_the_api(): void {
		$filter = 'wp_consent_api_registered_' . plugin_basename( CAIRN_MAPS_FILE );
		$this->assertSame( $filter, Consent_Api::registration_filter() );
		$this->assertStringEndsWith( '/cairn-maps.php', $filter );
		$this->assertNotFalse( has_filter( $filter, '__return_true' ) );
		$this->assertTrue( apply_filters( $filter, false ) ); // phpcs:ignore WordPress.NamingConventions.PrefixAllGlobals.DynamicHooknameFound -- asking as the WP Consent API does.
	}

	/**
	 * This test site has no WP Consent API: the real lookup finds nothing.
	 */
	public function test_without_the_plugin_the_api_is_absent(): void {
		$this->assertFalse( function_exists( 'wp_has_consent' ), 'the test site runs no consent API' );
		$api = new Consent_Api();
		$this->assertSame( Consent_Api::ABSENT, $api->state() );
		$this->assertFalse( $api->present() );
		$this->assertFalse( $api->has_consent( 'marketing' ) );
	}

	/**
	 * The API in each state it can be found in.
	 *
	 * @return array<string, array{string, array<string, callable>|null}>
	 */
	public function api_states(): array {
		$has_consent = static fn(): bool => true;
		return array(
			'not installed'            => array( Consent_Api::ABSENT, null ),
			'functions missing'        => array( Consent_Api::ABSENT, array() ),
			'only wp_has_consent'      => array( Consent_Api::ABSENT, array( 'wp_has_consent' => $has_consent ) ),
			'no consent type'          => array(
				Consent_Api::NO_CONSENT_TYPE,
				array(
					'wp_has_consent'      => $has_consent,
					'wp_get_consent_type' => static fn() => false,
				),
			),
			'a consent plugin (optin)' => array(
				Consent_Api::ACTIVE,
				array(
					'wp_has_consent'      => $has_consent,
					'wp_get_consent_type' => static fn(): string => 'optin',
				),
			),
		);
	}

	/**
	 * What the settings screen is told about the API.
	 *
	 * @dataProvider api_states
	 * @param string                       $state     Expected state.
	 * @param array<string, callable>|null $functions The API's functions.
	 */
	public function test_the_api_state( string $state, ?array $functions ): void {
		$this->assertSame( $state, ( new Consent_Api( $functions ) )->state() );
	}

	/**
	 * The settings screen learns the API's state and the categories with their names.
	 */
	public function test_the_settings_screen_is_told_the_state_and_categories(): void {
		$this->act_as( 'administrator' );
		$data = ( new Settings_Page( new Settings() ) )->script_data();
		$this->assertSame( Consent_Api::ABSENT, $data['consentApi'] );
		$this->assertSame( Consent_Api::CATEGORIES, array_keys( $data['consentCategories'] ) );
		$this->assertSame( 'Marketing', $data['consentCategories']['marketing'] );
	}

	/**
	 * The API not there, or only part of it (a plugin deactivated or half loaded).
	 *
	 * @return array<string, array{array<string, callable>|null}>
	 */
	public function api_absent(): array {
		return array(
			'not installed'       => array( null ),
			'functions missing'   => array( array() ),
			'only wp_has_consent' => array( array( 'wp_has_consent' => static fn(): bool => true ) ),
		);
	}

	/**
	 * Without the API, or with part of it, today's gate: the button, no category, no warning.
	 *
	 * @dataProvider api_absent
	 * @param array<string, callable>|null $functions The API's functions.
	 */
	public function test_without_the_api_the_gate_is_todays( ?array $functions ): void {
		$this->gate_on();
		$html    = $this->render_with( $functions );
		$wrapper = $this->wrapper( $html );
		$this->assertSame( 'required', $wrapper->get_attribute( 'data-cairn-consent' ) );
		$this->assertNull( $wrapper->get_attribute( 'data-cairn-consent-category' ) );
		$this->assertMatchesRegularExpression( '#<button[^>]*>Load map</button>#', $html );
		$this->assertStringNotContainsString( 'cookie settings', $html );
	}

	/**
	 * With the API and a consent plugin, a visitor who has not agreed sees the gate, named with
	 * the owner's category for the view script, and a note saying what the button records.
	 */
	public function test_with_the_api_and_no_consent_yet_the_gate_names_the_category(): void {
		$this->gate_on();
		update_option( Settings::CATEGORY_OPTION, 'statistics' );
		$html    = $this->render_with( $this->api( 'optin', array( 'marketing' => 'allow' ) ) );
		$wrapper = $this->wrapper( $html );

		$this->assertSame( array( 'statistics' ), $this->asked, 'the owner’s category is the one asked about' );
		$this->assertSame( 'required', $wrapper->get_attribute( 'data-cairn-consent' ) );
		$this->assertSame( 'statistics', $wrapper->get_attribute( 'data-cairn-consent-category' ) );
		$this->assertMatchesRegularExpression( '#<button[^>]*>Load map</button>#', $html );
		$this->assertStringContainsString( 'accept “Statistics” cookies and services', $html );
		$this->assertStringContainsString( 'IP address', $html );
	}

	/**
	 * With the API but no consent plugin setting a consent type, the API's blanket "yes" does not
	 * open the gate the owner asked for: the button stays.
	 */
	public function test_with_the_api_but_no_consent_type_the_gate_stays(): void {
		$this->gate_on();
		$html    = $this->render_with( $this->api( false ) );
		$wrapper = $this->wrapper( $html );
		$this->assertSame( 'required', $wrapper->get_attribute( 'data-cairn-consent' ) );
		$this->assertSame( 'marketing', $wrapper->get_attribute( 'data-cairn-consent-category' ) );
		$this->assertStringContainsString( 'Load map', $html );
	}

	/**
	 * Consent given on an earlier page (the consent plugin's cookie, or an opt-out region where
	 * the visitor did not refuse): the map renders without the gate and starts without a click.
	 *
	 * @return array<string, array{string, array<string, string>}>
	 */
	public function consent_given(): array {
		return array(
			'opt-in, allowed'         => array( 'optin', array( 'marketing' => 'allow' ) ),
			'opt-out, nothing chosen' => array( 'optout', array() ),
		);
	}

	/**
	 * With consent already given, no gate.
	 *
	 * @dataProvider consent_given
	 * @param string                $type    Consent type.
	 * @param array<string, string> $choices The visitor's choices.
	 */
	public function test_with_consent_already_given_there_is_no_gate( string $type, array $choices ): void {
		$this->gate_on();
		$html    = $this->render_with( $this->api( $type, $choices ) );
		$wrapper = $this->wrapper( $html );
		$this->assertNull( $wrapper->get_attribute( 'data-cairn-consent' ) );
		$this->assertNull( $wrapper->get_attribute( 'data-cairn-consent-category' ) );
		$this->assertSame( 'loading', $wrapper->get_attribute( 'data-cairn-state' ) );
		$this->assertStringNotContainsString( 'wp-block-cairn-map__consent', $html );
	}

	/**
	 * A refusal keeps the gate, even in an opt-out region.
	 */
	public function test_a_refusal_keeps_the_gate(): void {
		$this->gate_on();
		$html = $this->render_with( $this->api( 'optout', array( 'marketing' => 'deny' ) ) );
		$this->assertSame( 'required', $this->wrapper( $html )->get_attribute( 'data-cairn-consent' ) );
	}

	/**
	 * The owner's setting stays the switch: the API alone holds no map back.
	 */
	public function test_without_the_owners_gate_the_api_changes_nothing(): void {
		update_option( Settings::TOKEN_OPTION, self::TOKEN );
		$html    = $this->render_with( $this->api( 'optin' ) );
		$wrapper = $this->wrapper( $html );
		$this->assertNull( $wrapper->get_attribute( 'data-cairn-consent' ) );
		$this->assertNull( $wrapper->get_attribute( 'data-cairn-consent-category' ) );
		$this->assertSame( array(), $this->asked );
		$this->assertStringNotContainsString( 'Load map', $html );
	}
}
