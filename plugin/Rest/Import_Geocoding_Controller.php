<?php
/**
 * The progress of the import's background geocoding over REST.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Rest;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Import_Export\Geocode_Job;
use Cairn\Maps\Import_Export\Geocode_Queue;
use Cairn\Maps\Import_Export\Import_Export_Page;
use Cairn\Maps\Import_Export\Marker_Import;
use Cairn\Maps\Support\Rest_Routes;
use WP_Error;
use WP_REST_Request;
use WP_REST_Response;
use WP_REST_Server;

/**
 * `GET /cairn/v1/markers/import/geocoding`: where the geocoding of imported addresses stands —
 * `state` (`none`, `running`, `done`, `cancelled`), `total`, `done`, `not_found`, `cancelled`,
 * `pending`, `next_run` (Unix time of the next scheduled run, or null), `summary` (the sentence
 * the Tools page shows), and `report`: the rows not geocoded (`line`, `title`, `address`,
 * `reason`, `message`, `edit_link`), at most Geocode_Queue::REPORT_LINES, `more` counting the
 * rest. For users who may export markers (edit others' markers), as the Tools page.
 *
 * `DELETE` on the same route cancels a running job (its queued markers stay drafts, reported as
 * cancelled) or forgets a finished one; for users who may import. It never waits for geocoding.
 *
 * @since 0.3.0
 */
class Import_Geocoding_Controller {

	public const ROUTE = '/markers/import/geocoding';

	/**
	 * The queue.
	 *
	 * @var Geocode_Queue
	 */
	private Geocode_Queue $queue;

	/**
	 * Creates the controller.
	 *
	 * @param Geocode_Queue $queue The queue.
	 */
	public function __construct( Geocode_Queue $queue ) {
		$this->queue = $queue;
	}

	/**
	 * Wires hooks.
	 */
	public function add_hooks(): void {
		add_action( 'rest_api_init', array( $this, 'register_routes' ) );
	}

	/**
	 * Registers the route.
	 */
	public function register_routes(): void {
		register_rest_route(
			Rest_Routes::NAMESPACE,
			self::ROUTE,
			array(
				array(
					'methods'             => WP_REST_Server::READABLE,
					'callback'            => array( $this, 'progress' ),
					'permission_callback' => array( $this, 'can_read' ),
					'args'                => array(),
				),
				array(
					'methods'             => WP_REST_Server::DELETABLE,
					'callback'            => array( $this, 'stop' ),
					'permission_callback' => array( $this, 'can_stop' ),
					'args'                => array(),
				),
			)
		);
	}

	/**
	 * Whether the current user may see the progress: as the Tools page.
	 *
	 * @return true|WP_Error
	 */
	public function can_read() {
		if ( Marker_Import::current_user_can_export() ) {
			return true;
		}
		return new WP_Error( 'rest_forbidden', __( 'Sorry, you are not allowed to see the import of markers.', 'cairn-maps' ), array( 'status' => rest_authorization_required_code() ) );
	}

	/**
	 * Whether the current user may cancel: as importing.
	 *
	 * @return true|WP_Error
	 */
	public function can_stop() {
		if ( Marker_Import::current_user_can_import() ) {
			return true;
		}
		return new WP_Error( 'rest_forbidden', __( 'Sorry, you are not allowed to import markers.', 'cairn-maps' ), array( 'status' => rest_authorization_required_code() ) );
	}

	/**
	 * The progress.
	 */
	public function progress(): WP_REST_Response {
		$response = new WP_REST_Response( Import_Export_Page::geocoding_state( $this->queue ), 200 );
		$response->header( 'Cache-Control', 'no-store' );
		return $response;
	}

	/**
	 * Cancels the running job, or forgets the finished one.
	 */
	public function stop(): WP_REST_Response {
		if ( $this->queue->is_running() ) {
			$this->queue->cancel();
			wp_clear_scheduled_hook( Geocode_Job::HOOK );
		} else {
			$this->queue->dismiss();
		}
		return $this->progress();
	}
}
