<?php
/**
 * What Tools → Site Health shows about Cairn Maps.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Upgrade;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Blocks\Basemap;
use Cairn\Maps\Content\Location_Types;
use Cairn\Maps\Markers\Post_Type;
use Cairn\Maps\Settings\Allowed_Origins;
use Cairn\Maps\Settings\Consent_Api;
use Cairn\Maps\Settings\Settings;
use Cairn\Maps\Settings\Settings_Page;

/**
 * Two status tests (is the map data at the installed version? can maps draw the site's basemap?)
 * and a "Cairn Maps" section in the Info tab, which owners copy into a support request: versions,
 * the upgrade state, whether a token is set (never the token), the basemap and whether it needs a
 * token and consent, the consent gate and the number of places. Reads options only when
 * Site Health asks, never on other requests.
 *
 * @since 0.2.0
 */
final class Site_Health {

	/**
	 * The status test's key (site_status_tests → direct).
	 */
	public const TEST = 'cairn_maps_data_version';

	/**
	 * The basemap status test's key (since 0.7.0).
	 */
	public const BASEMAP_TEST = 'cairn_maps_basemap';

	/**
	 * The Info section's key (debug_information).
	 */
	public const SECTION = 'cairn-maps';

	/**
	 * The upgrader whose state is reported.
	 *
	 * @var Upgrader
	 */
	private Upgrader $upgrader;

	/**
	 * The settings reported on.
	 *
	 * @var Settings
	 */
	private Settings $settings;

	/**
	 * Sets up the report.
	 *
	 * @param Upgrader $upgrader The upgrader.
	 * @param Settings $settings The settings.
	 */
	public function __construct( Upgrader $upgrader, Settings $settings ) {
		$this->upgrader = $upgrader;
		$this->settings = $settings;
	}

	/**
	 * Wires hooks.
	 */
	public function add_hooks(): void {
		add_filter( 'site_status_tests', array( $this, 'add_test' ) );
		add_filter( 'debug_information', array( $this, 'add_section' ) );
	}

	/**
	 * Adds the status test.
	 *
	 * @param mixed $tests Site Health's tests.
	 * @return mixed
	 */
	public function add_test( $tests ) {
		if ( is_array( $tests ) ) {
			$tests['direct'][ self::TEST ]         = array(
				'label' => __( 'Cairn Maps data version', 'cairn-maps' ),
				'test'  => array( $this, 'test' ),
			);
			$tests['direct'][ self::BASEMAP_TEST ] = array(
				'label' => __( 'Cairn Maps basemap', 'cairn-maps' ),
				'test'  => array( $this, 'basemap_test' ),
			);
		}
		return $tests;
	}

	/**
	 * The status test's result: good when the data is at the code's version.
	 *
	 * @return array{label: string, status: string, badge: array{label: string, color: string}, description: string, actions: string, test: string}
	 */
	public function test(): array {
		$code = $this->upgrader->code_version();
		$data = $this->upgrader->data_version();
		switch ( $this->upgrader->status() ) {
			case Upgrader::STATUS_CURRENT:
				return $this->result(
					'good',
					__( 'Cairn Maps’ map data is up to date', 'cairn-maps' ),
					sprintf(
						/* translators: %s: the installed version. */
						__( 'Markers, groups and settings are at version %s, the installed version.', 'cairn-maps' ),
						$code
					)
				);
			case Upgrader::STATUS_NEWER:
				return $this->result(
					'recommended',
					__( 'Cairn Maps’ map data is newer than the installed plugin', 'cairn-maps' ),
					sprintf(
						/* translators: 1: the version that last updated the data, 2: the installed version. */
						__( 'The data was last updated by Cairn Maps %1$s, and %2$s is installed. Nothing was changed. Install Cairn Maps %1$s or newer again so that every map works as it was saved.', 'cairn-maps' ),
						$data,
						$code
					)
				);
			case Upgrader::STATUS_FAILED:
				$failure = $this->upgrader->failure();
				return $this->result(
					'critical',
					__( 'Cairn Maps could not finish updating its map data', 'cairn-maps' ),
					sprintf(
						/* translators: 1: the installed version, 2: the name of the step that failed, 3: the reason. */
						__( 'Updating to version %1$s stopped at step “%2$s”: %3$s. Your markers, groups and settings are unchanged and maps keep working. It will try again within an hour.', 'cairn-maps' ),
						$code,
						$failure['step'] ?? '',
						$failure['message'] ?? ''
					),
					sprintf(
						'<a href="%1$s">%2$s</a>',
						esc_url( wp_nonce_url( admin_url( 'admin-post.php?action=' . Upgrader::RETRY_ACTION ), Upgrader::RETRY_ACTION ) ),
						esc_html__( 'Try again now', 'cairn-maps' )
					)
				);
			default:
				return $this->result(
					'recommended',
					__( 'Cairn Maps is updating its map data', 'cairn-maps' ),
					sprintf(
						/* translators: 1: the version the data is at, 2: the installed version. */
						__( 'The data is at version %1$s and is being brought to %2$s. This happens by itself on the next page load.', 'cairn-maps' ),
						'' === $data ? Upgrader::FIRST_VERSION : $data,
						$code
					)
				);
		}
	}

	/**
	 * The basemap status test: good when maps can draw the site's basemap; recommended when it is
	 * a Mapbox style without a usable token (maps show an error), or the stored choice is refused.
	 * Says whether the basemap needs a token and the visitor's consent.
	 *
	 * @since 0.7.0
	 *
	 * @return array{label: string, status: string, badge: array{label: string, color: string}, description: string, actions: string, test: string}
	 */
	public function basemap_test(): array {
		$style   = Basemap::site_style();
		$token   = $this->settings->map_token();
		$stored  = get_option( Settings::BASEMAP_OPTION, '' );
		$actions = sprintf( '<a href="%1$s">%2$s</a>', esc_url( Settings_Page::url() ), esc_html__( 'Choose the basemap', 'cairn-maps' ) );
		if ( is_string( $stored ) && '' !== $stored && $stored !== $style ) {
			return $this->result(
				'recommended',
				__( 'Cairn Maps cannot use the basemap stored for the site', 'cairn-maps' ),
				sprintf(
					/* translators: 1: the stored basemap, 2: the basemap maps draw instead. */
					__( 'The stored basemap (%1$s) is not one maps accept (an http address, or an archive that is not on this site), so maps draw %2$s instead. Choose the basemap again in Settings → Cairn Maps.', 'cairn-maps' ),
					$stored,
					$style
				),
				$actions,
				self::BASEMAP_TEST
			);
		}
		if ( 'mapbox' === Basemap::engine_for( $style ) && '' !== $token['error'] ) {
			return $this->result(
				'recommended',
				__( 'Cairn Maps’ basemap is a Mapbox style, but there is no usable Mapbox token', 'cairn-maps' ),
				sprintf(
					/* translators: %s: a Mapbox style. */
					__( 'Maps of the site’s basemap (%s) show an error instead of the map until a public Mapbox token is saved in Settings → Cairn Maps. Choosing “Automatic”, OpenFreeMap or a self-hosted archive needs no token.', 'cairn-maps' ),
					$style
				),
				$actions,
				self::BASEMAP_TEST
			);
		}
		return $this->result(
			'good',
			__( 'Cairn Maps can draw the site’s basemap', 'cairn-maps' ),
			$this->basemap_state( $style ) . ' ' . $this->basemap_needs( $style ),
			'',
			self::BASEMAP_TEST
		);
	}

	/**
	 * The site's basemap in words: who serves it and which style.
	 *
	 * @param string $style The site's basemap (Basemap::site_style()).
	 */
	private function basemap_state( string $style ): string {
		$automatic = '' === Basemap::chosen();
		switch ( Basemap::provider_for( $style ) ) {
			case 'openfreemap':
				/* translators: %s: a style URL. */
				$text = __( 'OpenFreeMap (%s).', 'cairn-maps' );
				break;
			case 'self-hosted':
				/* translators: %s: a pmtiles:// reference. */
				$text = __( 'A self-hosted archive on this site (%s).', 'cairn-maps' );
				break;
			case 'style-url':
				/* translators: %s: a style URL. */
				$text = __( 'A MapLibre style (%s).', 'cairn-maps' );
				break;
			default:
				/* translators: %s: a Mapbox style. */
				$text = __( 'Mapbox (%s).', 'cairn-maps' );
		}
		$text = sprintf( $text, $style );
		return $automatic ? $text . ' ' . __( 'Chosen automatically: Mapbox Standard with a Mapbox token, else OpenFreeMap.', 'cairn-maps' ) : $text;
	}

	/**
	 * Whether the site's basemap needs a token and the visitor's consent, in words.
	 *
	 * @param string $style The site's basemap.
	 */
	private function basemap_needs( string $style ): string {
		if ( 'self-hosted' === Basemap::provider_for( $style ) ) {
			return __( 'It needs no token, and no consent for the map itself: maps contact no other server.', 'cairn-maps' );
		}
		$hosts = 'mapbox' === Basemap::engine_for( $style ) ? array( 'api.mapbox.com' ) : Basemap::hosts_for( $style );
		$needs = 'mapbox' === Basemap::engine_for( $style ) ? __( 'It needs the Mapbox token.', 'cairn-maps' ) : __( 'It needs no token.', 'cairn-maps' );
		return $needs . ' ' . sprintf(
			/* translators: %s: host names. */
			__( 'Visitors’ browsers contact %s, so maps are subject to the consent setting (Maps wait for consent).', 'cairn-maps' ),
			implode( ', ', $hosts )
		);
	}

	/**
	 * Adds the "Cairn Maps" section to the Info tab.
	 *
	 * @param mixed $info Site Health's sections.
	 * @return mixed
	 */
	public function add_section( $info ) {
		if ( ! is_array( $info ) ) {
			return $info;
		}
		$token   = $this->settings->map_token();
		$gate    = $this->settings->require_consent();
		$origins = Allowed_Origins::allowed_origins();
		$places  = wp_count_posts( Post_Type::POST_TYPE );

		$info[ self::SECTION ] = array(
			'label'  => __( 'Cairn Maps', 'cairn-maps' ),
			'fields' => array(
				'version'         => array(
					'label' => __( 'Plugin version', 'cairn-maps' ),
					'value' => $this->upgrader->code_version(),
				),
				'data_version'    => array(
					'label' => __( 'Map data version', 'cairn-maps' ),
					'value' => '' === $this->upgrader->data_version() ? sprintf(
						/* translators: %s: the first release's version. */
						__( 'none stored (%s)', 'cairn-maps' ),
						Upgrader::FIRST_VERSION
					) : $this->upgrader->data_version(),
				),
				'upgrade'         => array(
					'label' => __( 'Data update', 'cairn-maps' ),
					'value' => $this->upgrade_state(),
				),
				'token'           => array(
					'label' => __( 'Mapbox access token', 'cairn-maps' ),
					'value' => $this->token_state( $token['error'] ),
					'debug' => '' === $token['error'] ? 'set' : $token['error'],
				),
				'basemap'         => array(
					'label' => __( 'Basemap', 'cairn-maps' ),
					'value' => $this->basemap_state( Basemap::site_style() ) . ' ' . $this->basemap_needs( Basemap::site_style() ),
					'debug' => Basemap::provider_for( Basemap::site_style() ) . ( '' === Basemap::chosen() ? ' (automatic)' : '' ),
				),
				'consent'         => array(
					'label' => __( 'Maps wait for consent', 'cairn-maps' ),
					'value' => $gate
						? sprintf(
							/* translators: 1: a WP Consent API category, 2: whether the WP Consent API was found. */
							__( 'Yes (category %1$s; WP Consent API: %2$s)', 'cairn-maps' ),
							$this->settings->consent_category(),
							( new Consent_Api() )->state()
						)
						: __( 'No', 'cairn-maps' ),
				),
				'allowed_origins' => array(
					'label'   => __( 'Origins allowed to read the REST routes', 'cairn-maps' ),
					'value'   => array() === $origins ? __( 'Any', 'cairn-maps' ) : implode( ', ', $origins ),
					'private' => true,
				),
				'location_types'  => array(
					'label' => __( 'Post types with locations', 'cairn-maps' ),
					'value' => array() === Location_Types::enabled() ? __( 'None', 'cairn-maps' ) : implode( ', ', Location_Types::enabled() ),
					'debug' => implode( ', ', Location_Types::enabled() ),
				),
				'places'          => array(
					'label' => __( 'Published places', 'cairn-maps' ),
					'value' => isset( $places->publish ) ? (int) $places->publish : 0,
				),
			),
		);
		return $info;
	}

	/**
	 * Whether maps have a token, in words (the token itself is never shown).
	 *
	 * @param string $error '' or the front-end error code of Settings::map_token().
	 */
	private function token_state( string $error ): string {
		switch ( $error ) {
			case '':
				return __( 'Set (a public token)', 'cairn-maps' );
			case 'missing-token':
				return __( 'Not set: maps draw a basemap that needs none; a map of a Mapbox style shows an error instead', 'cairn-maps' );
			case 'secret-token':
				return __( 'Refused: a secret token reached the plugin, and maps do not use it', 'cairn-maps' );
			default:
				return __( 'Refused: not a Mapbox access token', 'cairn-maps' );
		}
	}

	/**
	 * The upgrade state in words, for the Info tab.
	 */
	private function upgrade_state(): string {
		switch ( $this->upgrader->status() ) {
			case Upgrader::STATUS_CURRENT:
				return __( 'Up to date', 'cairn-maps' );
			case Upgrader::STATUS_NEWER:
				return __( 'Data is from a newer version; nothing is changed', 'cairn-maps' );
			case Upgrader::STATUS_FAILED:
				$failure = $this->upgrader->failure();
				return sprintf(
					/* translators: 1: the name of the step that failed, 2: the reason. */
					__( 'Failed at step “%1$s”: %2$s', 'cairn-maps' ),
					$failure['step'] ?? '',
					$failure['message'] ?? ''
				);
			default:
				return __( 'Waiting to run', 'cairn-maps' );
		}
	}

	/**
	 * One status test result.
	 *
	 * @param string $status      good, recommended or critical.
	 * @param string $label       The headline.
	 * @param string $description The explanation (plain text).
	 * @param string $actions     HTML of the actions, already escaped.
	 * @param string $test        The test's key.
	 * @return array{label: string, status: string, badge: array{label: string, color: string}, description: string, actions: string, test: string}
	 */
	private function result( string $status, string $label, string $description, string $actions = '', string $test = self::TEST ): array {
		return array(
			'label'       => $label,
			'status'      => $status,
			'badge'       => array(
				'label' => __( 'Cairn Maps', 'cairn-maps' ),
				'color' => 'good' === $status ? 'blue' : ( 'critical' === $status ? 'red' : 'orange' ),
			),
			'description' => '<p>' . esc_html( $description ) . '</p>',
			'actions'     => $actions,
			'test'        => $test,
		);
	}
}
