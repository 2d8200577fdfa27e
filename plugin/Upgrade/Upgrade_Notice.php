<?php
/**
 * What site owners are told about an upgrade that needs them.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Upgrade;

defined( 'ABSPATH' ) || exit;

/**
 * Admin notices for the two cases where the owner must act: an upgrade that failed, and data
 * written by a newer version than the installed one. Shown to users who manage options.
 *
 * @since 0.2.0
 */
final class Upgrade_Notice {

	/**
	 * Query argument the "Try again" button returns with: done or failed.
	 */
	public const RESULT_ARG = 'cairn-maps-upgrade';

	/**
	 * The upgrader whose state is shown.
	 *
	 * @var Upgrader
	 */
	private Upgrader $upgrader;

	/**
	 * Sets up the notice.
	 *
	 * @param Upgrader $upgrader The upgrader.
	 */
	public function __construct( Upgrader $upgrader ) {
		$this->upgrader = $upgrader;
	}

	/**
	 * Wires hooks.
	 */
	public function add_hooks(): void {
		add_action( 'admin_notices', array( $this, 'render' ) );
	}

	/**
	 * Prints the notice that applies, if any.
	 */
	public function render(): void {
		if ( ! current_user_can( 'manage_options' ) ) {
			return;
		}
		if ( $this->upgrader->data_is_newer() ) {
			$this->print_notice(
				'warning',
				sprintf(
					/* translators: 1: the version that last updated the data, 2: the installed version. */
					__( 'Cairn Maps: this site’s map data was last updated by version %1$s, which is newer than the installed version %2$s. Nothing was changed, and your markers, groups and settings are kept. Install Cairn Maps %1$s or newer again so that every map works as it was saved.', 'cairn-maps' ),
					$this->upgrader->data_version(),
					$this->upgrader->code_version()
				)
			);
			return;
		}
		$failure = $this->upgrader->failure();
		if ( null !== $failure ) {
			$this->print_notice(
				'error',
				sprintf(
					/* translators: 1: the installed version, 2: the name of the step that failed, 3: the reason. */
					__( 'Cairn Maps could not finish updating this site’s map data to version %1$s (step “%2$s”: %3$s). Your markers, groups and settings are unchanged and maps keep working. It will try again within an hour, or now:', 'cairn-maps' ),
					$this->upgrader->code_version(),
					$failure['step'],
					$failure['message']
				),
				true
			);
			return;
		}
		// phpcs:ignore WordPress.Security.NonceVerification.Recommended -- only chooses which message to show.
		$result = isset( $_GET[ self::RESULT_ARG ] ) ? sanitize_key( wp_unslash( $_GET[ self::RESULT_ARG ] ) ) : '';
		if ( 'done' === $result ) {
			$this->print_notice( 'success', __( 'Cairn Maps finished updating this site’s map data.', 'cairn-maps' ) );
		}
	}

	/**
	 * Prints one notice, escaped.
	 *
	 * @param string $type      success, warning or error.
	 * @param string $message   The text.
	 * @param bool   $retryable Whether to add the "Try again" button.
	 */
	private function print_notice( string $type, string $message, bool $retryable = false ): void {
		printf( '<div class="notice notice-%1$s" data-cairn-upgrade-notice="%1$s"><p>%2$s', esc_attr( $type ), esc_html( $message ) );
		if ( $retryable ) {
			printf(
				' <a class="button" href="%1$s">%2$s</a>',
				esc_url( wp_nonce_url( admin_url( 'admin-post.php?action=' . Upgrader::RETRY_ACTION ), Upgrader::RETRY_ACTION ) ),
				esc_html__( 'Try again now', 'cairn-maps' )
			);
		}
		echo '</p></div>';
	}
}
