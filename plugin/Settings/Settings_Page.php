<?php
/**
 * Settings → Cairn Maps.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Settings;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Content\Location_Types;

/**
 * The settings screen (a React app in src/settings/ that saves through `/wp/v2/settings`), the
 * "Settings" link on the Plugins screen and the suggested privacy-policy text.
 *
 * @since 0.1.0
 */
class Settings_Page {

	public const SLUG          = 'cairn-maps';
	public const SCRIPT_HANDLE = 'cairn-maps-settings';

	/**
	 * Settings.
	 *
	 * @var Settings
	 */
	private Settings $settings;

	/**
	 * The page's hook suffix, set when the menu is registered.
	 *
	 * @var string
	 */
	private string $hook_suffix = '';

	/**
	 * Creates the page.
	 *
	 * @param Settings $settings Settings.
	 */
	public function __construct( Settings $settings ) {
		$this->settings = $settings;
	}

	/**
	 * Wires hooks.
	 */
	public function add_hooks(): void {
		add_action( 'admin_menu', array( $this, 'add_page' ) );
		add_action( 'admin_enqueue_scripts', array( $this, 'enqueue' ) );
		add_action( 'admin_init', array( $this, 'add_privacy_policy_content' ) );
		add_filter( 'plugin_action_links_' . plugin_basename( CAIRN_MAPS_FILE ), array( $this, 'add_action_link' ) );
	}

	/**
	 * The screen's address.
	 */
	public static function url(): string {
		return admin_url( 'options-general.php?page=' . self::SLUG );
	}

	/**
	 * Adds Settings → Cairn Maps for users who can manage options.
	 */
	public function add_page(): void {
		$hook_suffix       = add_options_page(
			__( 'Cairn Maps settings', 'cairn-maps' ),
			__( 'Cairn Maps', 'cairn-maps' ),
			'manage_options',
			self::SLUG,
			array( $this, 'render' )
		);
		$this->hook_suffix = is_string( $hook_suffix ) ? $hook_suffix : '';
	}

	/**
	 * The page shell; the React app renders into it.
	 */
	public function render(): void {
		if ( ! current_user_can( 'manage_options' ) ) {
			return;
		}
		printf(
			'<div class="wrap cairn-maps-settings"><h1>%1$s</h1><div id="cairn-maps-settings-root"><p class="hide-if-js">%2$s</p></div></div>',
			esc_html__( 'Cairn Maps', 'cairn-maps' ),
			esc_html__( 'This screen needs JavaScript.', 'cairn-maps' )
		);
	}

	/**
	 * Loads the screen's script and styles, on this screen only.
	 *
	 * @param string $hook_suffix The current admin page.
	 */
	public function enqueue( $hook_suffix ): void {
		if ( '' === $this->hook_suffix || $hook_suffix !== $this->hook_suffix ) {
			return;
		}
		$asset_file = CAIRN_MAPS_DIR . 'build/settings/index.asset.php';
		if ( ! is_readable( $asset_file ) ) {
			return;
		}
		$asset = require $asset_file;
		wp_enqueue_script(
			self::SCRIPT_HANDLE,
			plugins_url( 'build/settings/index.js', CAIRN_MAPS_FILE ),
			$asset['dependencies'] ?? array(),
			$asset['version'] ?? CAIRN_MAPS_VERSION,
			true
		);
		wp_add_inline_script(
			self::SCRIPT_HANDLE,
			'window.cairnMapsSettingsPage = ' . wp_json_encode( $this->script_data(), JSON_HEX_TAG | JSON_HEX_AMP ) . ';',
			'before'
		);
		// The basemap chooser picks a .pmtiles archive from the media library (wp.media).
		wp_enqueue_media();
		wp_enqueue_style( 'wp-components' );
		if ( is_readable( CAIRN_MAPS_DIR . 'build/settings/index.css' ) ) {
			wp_enqueue_style(
				self::SCRIPT_HANDLE,
				plugins_url( 'build/settings/index.css', CAIRN_MAPS_FILE ),
				array( 'wp-components' ),
				$asset['version'] ?? CAIRN_MAPS_VERSION
			);
		}
	}

	/**
	 * What the screen needs besides `/wp/v2/settings`. Never contains a refused token.
	 *
	 * @return array<string, mixed>
	 */
	public function script_data(): array {
		return array(
			'siteUrl'            => home_url( '/' ),
			'storedTokenProblem' => $this->settings->stored_token_problem(),
			'privacyPolicyUrl'   => current_user_can( 'manage_privacy_options' ) ? admin_url( 'options-privacy.php?tab=policyguide' ) : '',
			// The privacy panel says whether the visitor's choice in a consent banner counts.
			'consentApi'         => ( new Consent_Api() )->state(),
			'consentCategories'  => Consent_Api::labels(),
			// The post types that can be given locations, with their names (setting cairn_maps_post_types).
			'locationTypes'      => Location_Types::labels(),
			// Where a self-hosted archive may be (the basemap setting checks it again).
			'localHosts'         => Style_Reference::local_hosts(),
		);
	}

	/**
	 * Adds a "Settings" link beside "Deactivate" on the Plugins screen.
	 *
	 * @param mixed $links Action links (an array, unless another filter broke it).
	 * @return array<string|int, string>
	 */
	public function add_action_link( $links ): array {
		$links = is_array( $links ) ? $links : array();
		if ( current_user_can( 'manage_options' ) ) {
			array_unshift( $links, sprintf( '<a href="%1$s">%2$s</a>', esc_url( self::url() ), esc_html__( 'Settings', 'cairn-maps' ) ) );
		}
		return $links;
	}

	/**
	 * Suggests text for the site's privacy policy (Settings → Privacy → Policy guide).
	 */
	public function add_privacy_policy_content(): void {
		if ( ! function_exists( 'wp_add_privacy_policy_content' ) ) {
			return;
		}
		$tutorial = static fn( string $text ): string => '<p class="privacy-policy-tutorial">' . esc_html( $text ) . '</p>';
		$content  = $tutorial( __( 'Cairn Maps shows maps from the basemap you choose: Mapbox, Inc., OpenFreeMap, another style\'s host, or an archive on this site. Visitors\' browsers contact that provider directly; this site does not send it any personal data itself. Adapt the text below to your site.', 'cairn-maps' ) );
		$content .= '<p><strong class="privacy-policy-tutorial">' . esc_html__( 'Suggested text:', 'cairn-maps' ) . ' </strong>'
			. esc_html__( 'Some pages of this site show interactive maps provided by Mapbox, Inc. To draw a map, your browser downloads map styles, tiles, fonts and images directly from Mapbox. Mapbox therefore receives your IP address, your browser\'s user agent, the address of the page you are viewing and the area of the map you look at.', 'cairn-maps' ) . '</p>';
		$content .= '<p>' . esc_html__( 'As the Mapbox terms of service require, the map also sends usage events (map loads and sessions) to Mapbox. To count sessions, the map keeps an anonymous identifier, renewed every 24 hours, in your browser\'s local storage (entries whose names start with "mapbox.eventData"). This site switches off Mapbox\'s optional performance metrics.', 'cairn-maps' ) . '</p>';
		$content .= '<p>' . sprintf(
			/* translators: %s: link to the Mapbox privacy policy. */
			esc_html__( 'How Mapbox handles this data is described in its privacy policy: %s', 'cairn-maps' ),
			'<a href="' . esc_url( 'https://www.mapbox.com/legal/privacy' ) . '">https://www.mapbox.com/legal/privacy</a>'
		) . '</p>';
		$content .= $tutorial( __( 'The text above is for a Mapbox basemap. If your basemap (Settings → Cairn Maps → Basemap) is OpenFreeMap, use instead:', 'cairn-maps' ) );
		$content .= '<p>' . esc_html__( 'Some pages of this site show interactive maps from OpenFreeMap. To draw a map, your browser downloads the map style, tiles and fonts directly from tiles.openfreemap.org, which therefore receives your IP address, your browser\'s user agent, the address of the page you are viewing and the area of the map you look at.', 'cairn-maps' ) . '</p>';
		$content .= $tutorial( __( 'If your basemap is a self-hosted archive, maps are drawn from this site alone and no map provider receives any data; you need not mention one.', 'cairn-maps' ) );
		$content .= $tutorial( __( 'If you turn on "Load maps only after the visitor agrees" in Settings → Cairn Maps, add:', 'cairn-maps' ) );
		$content .= '<p>' . esc_html__( 'Maps on this site are not loaded, and nothing is sent to the map provider, until you select "Load map".', 'cairn-maps' ) . '</p>';
		wp_add_privacy_policy_content( __( 'Cairn Maps', 'cairn-maps' ), wp_kses_post( $content ) );
	}
}
