<?php
/**
 * Tools → Site Health: the data version test and the Info section.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Upgrade;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Plugin;
use Cairn\Maps\Settings\Settings;
use Cairn\Maps\Tests\TestCase;
use Cairn\Maps\Upgrade\Site_Health;
use Cairn\Maps\Upgrade\Upgrader;
use RuntimeException;
use WP_Debug_Data;
use WP_Site_Health;

/**
 * Site_Health read through core's own WP_Site_Health and WP_Debug_Data, on MariaDB.
 *
 * @since 0.2.0
 */
final class Site_HealthTest extends TestCase {

	private const TOKEN = 'pk.eyJ1IjoiY2Fpcm4taGVhbHRoIn0.c2lnbmF0dXJl';

	/**
	 * Loads core's Site Health classes and starts from a site whose data is at the code's version.
	 */
	protected function set_up(): void {
		parent::set_up();
		require_once ABSPATH . 'wp-admin/includes/class-wp-site-health.php';
		require_once ABSPATH . 'wp-admin/includes/class-wp-debug-data.php';
		require_once ABSPATH . 'wp-admin/includes/update.php';
		require_once ABSPATH . 'wp-admin/includes/misc.php';
		update_option( Upgrader::VERSION_OPTION, CAIRN_MAPS_VERSION );
		delete_option( Upgrader::STATE_OPTION );
		delete_option( Upgrader::LOCK_OPTION );
	}

	/**
	 * The plugin's test as core lists it, run as core runs a direct test.
	 *
	 * @return array<string, mixed>
	 */
	private function run_registered_test(): array {
		$tests = WP_Site_Health::get_tests();
		$this->assertArrayHasKey( Site_Health::TEST, $tests['direct'] );
		$test = $tests['direct'][ Site_Health::TEST ];
		$this->assertSame( 'Cairn Maps data version', $test['label'] );
		return call_user_func( $test['test'] );
	}

	/**
	 * The Info tab's sections as core's WP_Debug_Data::debug_data() ends: its filter over the
	 * sections it gathered (gathering core's own runs shell commands, which tells nothing here).
	 *
	 * @return array<string, array<string, mixed>>
	 */
	private function info(): array {
		$this->act_as( 'administrator' );
		return apply_filters( 'debug_information', array() ); // phpcs:ignore WordPress.NamingConventions.PrefixAllGlobals.NonPrefixedHooknameFound -- core's hook, run as core runs it.
	}

	/**
	 * The Cairn Maps section's fields.
	 *
	 * @return array<string, array<string, mixed>>
	 */
	private function info_fields(): array {
		$info = $this->info();
		$this->assertArrayHasKey( Site_Health::SECTION, $info );
		$this->assertSame( 'Cairn Maps', $info[ Site_Health::SECTION ]['label'] );
		return $info[ Site_Health::SECTION ]['fields'];
	}

	/**
	 * The text "Copy site info to clipboard" gives, made by core from the sections.
	 */
	private function copied_report(): string {
		return WP_Debug_Data::format( $this->info(), 'debug' );
	}

	/**
	 * An upgrader for the installed version whose one step fails.
	 */
	private function failing_upgrader(): Upgrader {
		return new Upgrader(
			CAIRN_MAPS_VERSION,
			array(
				CAIRN_MAPS_VERSION => array(
					'renew-cache' => static function (): void {
						throw new RuntimeException( 'the options table is read-only' );
					},
				),
			)
		);
	}

	/**
	 * Up to date: a good result naming the version.
	 */
	public function test_up_to_date_data_passes(): void {
		$result = $this->run_registered_test();

		$this->assertSame( 'good', $result['status'] );
		$this->assertSame( 'Cairn Maps’ map data is up to date', $result['label'] );
		$this->assertStringContainsString( 'at version ' . CAIRN_MAPS_VERSION, $result['description'] );
		$this->assertSame( Site_Health::TEST, $result['test'] );
	}

	/**
	 * Data of a newer version (an older zip over a newer one): a recommendation naming both.
	 */
	public function test_newer_data_is_a_recommendation(): void {
		update_option( Upgrader::VERSION_OPTION, '9.1.0' );

		$result = $this->run_registered_test();

		$this->assertSame( 'recommended', $result['status'] );
		$this->assertStringContainsString( 'last updated by Cairn Maps 9.1.0, and ' . CAIRN_MAPS_VERSION . ' is installed', $result['description'] );
		$this->assertSame( '9.1.0', get_option( Upgrader::VERSION_OPTION ), 'reading the state changes nothing' );
		$this->assertSame( 'Data is from a newer version; nothing is changed', $this->info_fields()['upgrade']['value'] );
	}

	/**
	 * A failed upgrade is critical, names the step and the reason, and offers the nonce'd retry.
	 */
	public function test_a_failed_upgrade_is_critical_with_a_retry(): void {
		delete_option( Upgrader::VERSION_OPTION );
		$upgrader = $this->failing_upgrader();
		$log      = ini_set( 'error_log', '/dev/null' ); // phpcs:ignore WordPress.PHP.IniSet.Risky -- the failure's detail is logged; not this test's subject (UpgraderTest reads it).
		$this->assertFalse( $upgrader->run() );
		ini_set( 'error_log', (string) $log ); // phpcs:ignore WordPress.PHP.IniSet.Risky
		$health = new Site_Health( $upgrader, new Settings() );

		$result = $health->test();

		$this->assertSame( 'critical', $result['status'] );
		$this->assertStringContainsString( 'stopped at step “renew-cache”: an unexpected error stopped it; the details are in the PHP error log', $result['description'] );
		$this->assertStringNotContainsString( 'the options table is read-only', $result['description'], 'what a step throws stays in the error log' );
		$this->assertMatchesRegularExpression( '~href="[^"]*admin-post\.php\?action=cairn_maps_retry_upgrade&#038;_wpnonce=[0-9a-f]{10}"~', $result['actions'] );
		$this->assertSame( 'red', $result['badge']['color'] );
		$this->assertFalse( get_option( Upgrader::VERSION_OPTION ) );
	}

	/**
	 * Data behind the code with no failure: it is being updated.
	 */
	public function test_pending_data_is_reported_as_updating(): void {
		update_option( Upgrader::VERSION_OPTION, '0.0.9' );

		$result = $this->run_registered_test();

		$this->assertSame( 'recommended', $result['status'] );
		$this->assertSame( 'Cairn Maps is updating its map data', $result['label'] );
		$this->assertSame( 'Waiting to run', $this->info_fields()['upgrade']['value'] );
	}

	/**
	 * A message with markup in it (a step's WP_Error) is shown as text.
	 */
	public function test_the_reason_is_escaped(): void {
		delete_option( Upgrader::VERSION_OPTION );
		$upgrader = new Upgrader(
			CAIRN_MAPS_VERSION,
			array(
				CAIRN_MAPS_VERSION => array(
					'<b>step</b>' => static fn() => new \WP_Error( 'cairn_maps_test', '<img src=x onerror=alert(1)>' ),
				),
			)
		);
		$upgrader->run();

		$result = ( new Site_Health( $upgrader, new Settings() ) )->test();

		$this->assertStringNotContainsString( '<img', $result['description'] );
		$this->assertStringContainsString( '&lt;img src=x onerror=alert(1)&gt;', $result['description'] );
	}

	/**
	 * The Info section: versions, token state without the token, consent, places; origins private.
	 */
	public function test_the_info_section_reports_the_install_without_the_token(): void {
		update_option( Settings::TOKEN_OPTION, self::TOKEN );
		update_option( Settings::CONSENT_OPTION, true );
		update_option( Settings::CATEGORY_OPTION, 'statistics' );
		update_option( Settings::ORIGINS_OPTION, array( 'https://app.example.com' ) );
		update_option( 'cairn_maps_post_types', array( 'post' ) );
		$this->create_marker( array( 'post_title' => 'Hut' ) );
		$this->create_marker( array( 'post_title' => 'Bridge' ) );
		$this->create_marker(
			array(
				'post_title'  => 'Draft',
				'post_status' => 'draft',
			)
		);

		$fields = $this->info_fields();

		$this->assertSame( CAIRN_MAPS_VERSION, $fields['version']['value'] );
		$this->assertSame( CAIRN_MAPS_VERSION, $fields['data_version']['value'] );
		$this->assertSame( 'Up to date', $fields['upgrade']['value'] );
		$this->assertSame( 'Set (a public token)', $fields['token']['value'] );
		$this->assertSame( 'Yes (category statistics; WP Consent API: absent)', $fields['consent']['value'] );
		$this->assertSame( 'https://app.example.com', $fields['allowed_origins']['value'] );
		$this->assertTrue( $fields['allowed_origins']['private'], 'the copied report leaves origins out' );
		$this->assertSame( 2, $fields['places']['value'] );
		$this->assertSame( 'post', $fields['location_types']['value'] );

		$report = $this->copied_report();
		$this->assertStringContainsString( '### cairn-maps ###', $report );
		$this->assertStringContainsString( 'data_version: ' . CAIRN_MAPS_VERSION, $report );
		$this->assertStringContainsString( 'token: set', $report );
		$this->assertStringContainsString( 'places: 2', $report );
		$this->assertStringNotContainsString( self::TOKEN, $report . wp_json_encode( $this->info() ), 'the token is never shown' );
		$this->assertStringNotContainsString( 'app.example.com', $report, 'private fields stay out of the copied report' );
	}

	/**
	 * No token, or a secret one: said in words. Since 0.7.0 a site without a token draws a
	 * basemap that needs none; only maps of a Mapbox style show an error.
	 */
	public function test_a_missing_or_secret_token_is_named(): void {
		delete_option( Settings::TOKEN_OPTION );
		$this->assertSame( 'Not set: maps draw a basemap that needs none; a map of a Mapbox style shows an error instead', $this->info_fields()['token']['value'] );

		$secret = 'sk.eyJ1IjoiY2Fpcm4taGVhbHRoIn0.c2VjcmV0';
		add_filter( 'cairn_maps_access_token', static fn() => $secret );
		$fields = $this->info_fields();
		$this->assertSame( 'Refused: a secret token reached the plugin, and maps do not use it', $fields['token']['value'] );
		$this->assertSame( 'secret-token', $fields['token']['debug'] );
		$this->assertStringNotContainsString( $secret, $this->copied_report() . wp_json_encode( $this->info() ) );
	}

	/**
	 * The basemap test as core lists and runs it.
	 *
	 * @return array<string, mixed>
	 */
	private function run_basemap_test(): array {
		$tests = WP_Site_Health::get_tests();
		$this->assertArrayHasKey( Site_Health::BASEMAP_TEST, $tests['direct'] );
		$this->assertSame( 'Cairn Maps basemap', $tests['direct'][ Site_Health::BASEMAP_TEST ]['label'] );
		return call_user_func( $tests['direct'][ Site_Health::BASEMAP_TEST ]['test'] );
	}

	/**
	 * A new site (no token, nothing chosen): good, OpenFreeMap chosen automatically, no token
	 * needed, visitors contact tiles.openfreemap.org; the Info tab says the same.
	 */
	public function test_a_new_site_draws_openfreemap(): void {
		delete_option( Settings::TOKEN_OPTION );
		$result = $this->run_basemap_test();
		$this->assertSame( 'good', $result['status'] );
		$this->assertSame( Site_Health::BASEMAP_TEST, $result['test'] );
		$this->assertStringContainsString( 'OpenFreeMap (https://tiles.openfreemap.org/styles/liberty)', $result['description'] );
		$this->assertStringContainsString( 'Chosen automatically', $result['description'] );
		$this->assertStringContainsString( 'needs no token', $result['description'] );
		$this->assertStringContainsString( 'contact tiles.openfreemap.org', $result['description'] );
		$fields = $this->info_fields();
		$this->assertStringContainsString( 'OpenFreeMap', $fields['basemap']['value'] );
		$this->assertSame( 'openfreemap (automatic)', $fields['basemap']['debug'] );
	}

	/**
	 * A self-hosted basemap: no token, no consent for the map itself.
	 */
	public function test_a_self_hosted_basemap_needs_neither_token_nor_consent(): void {
		update_option( Settings::BASEMAP_OPTION, 'pmtiles://' . home_url( '/wp-content/uploads/world.pmtiles' ) );
		$result = $this->run_basemap_test();
		$this->assertSame( 'good', $result['status'] );
		$this->assertStringContainsString( 'self-hosted archive on this site', $result['description'] );
		$this->assertStringContainsString( 'no consent for the map itself', $result['description'] );
		$this->assertSame( 'self-hosted', $this->info_fields()['basemap']['debug'] );
	}

	/**
	 * A Mapbox basemap without a usable token is a recommendation saying maps show an error.
	 */
	public function test_a_mapbox_basemap_without_a_token_is_a_recommendation(): void {
		delete_option( Settings::TOKEN_OPTION );
		update_option( Settings::BASEMAP_OPTION, 'mapbox://styles/mapbox/outdoors-v12' );
		$result = $this->run_basemap_test();
		$this->assertSame( 'recommended', $result['status'] );
		$this->assertStringContainsString( 'show an error instead of the map', $result['description'] );
		$this->assertStringContainsString( 'options-general.php?page=cairn-maps', $result['actions'] );

		update_option( Settings::TOKEN_OPTION, self::TOKEN );
		$fixed = $this->run_basemap_test();
		$this->assertSame( 'good', $fixed['status'] );
		$this->assertStringContainsString( 'It needs the Mapbox token', $fixed['description'] );
	}

	/**
	 * A stored basemap maps refuse (a database edit) is named, with what maps draw instead.
	 */
	public function test_a_refused_stored_basemap_is_named(): void {
		global $wpdb;
		// phpcs:ignore WordPress.DB.DirectDatabaseQuery -- a database edit, past the sanitizer.
		$wpdb->insert(
			$wpdb->options,
			array(
				'option_name'  => Settings::BASEMAP_OPTION,
				'option_value' => 'http://tiles.example.net/style.json',
				'autoload'     => 'on',
			)
		);
		wp_cache_delete( 'alloptions', 'options' );
		wp_cache_delete( 'notoptions', 'options' );
		$result = $this->run_basemap_test();
		$this->assertSame( 'recommended', $result['status'] );
		$this->assertStringContainsString( 'http://tiles.example.net/style.json', $result['description'] );
		$this->assertStringContainsString( 'https://tiles.openfreemap.org/styles/liberty', $result['description'] );
	}

	/**
	 * The plugin's hooks are in place on a real boot.
	 */
	public function test_the_hooks_are_wired(): void {
		$health = Plugin::instance()->get( 'site_health' );
		$this->assertInstanceOf( Site_Health::class, $health );
		$this->assertSame( 10, has_filter( 'site_status_tests', array( $health, 'add_test' ) ) );
		$this->assertSame( 10, has_filter( 'debug_information', array( $health, 'add_section' ) ) );
	}
}
