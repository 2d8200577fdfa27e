<?php
/**
 * A REST response whose body is a pre-built GeoJSON payload.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Rest;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Feed\Feed_Payload;
use WP_REST_Response;

/**
 * Carries the feed's pre-encoded JSON through the REST server.
 *
 * Served over HTTP, `Markers_Controller::serve_feed()` prints the payload directly (gzip when the
 * client accepts it), so the feed never exists as a PHP array. Internal callers
 * (`rest_do_request()`, preloading) call `get_data()` as with any response and get the decoded
 * array. If something replaces the data (`set_data()`), the response is served the normal way.
 *
 * @since 0.1.0
 */
class Geojson_Response extends WP_REST_Response {

	/**
	 * The payload.
	 *
	 * @var Feed_Payload
	 */
	private Feed_Payload $payload;

	/**
	 * Whether `$data` holds the decoded payload.
	 *
	 * @var bool
	 */
	private bool $decoded = false;

	/**
	 * Whether someone replaced the data, so the payload no longer describes the response.
	 *
	 * @var bool
	 */
	private bool $replaced = false;

	/**
	 * Creates the response.
	 *
	 * @param Feed_Payload          $payload The payload.
	 * @param int                   $status  HTTP status.
	 * @param array<string, string> $headers Headers.
	 */
	public function __construct( Feed_Payload $payload, int $status = 200, array $headers = array() ) {
		parent::__construct( null, $status, $headers );
		$this->payload  = $payload;
		$this->replaced = false; // The parent constructor went through set_data().
		$this->decoded  = false;
	}

	/**
	 * The payload, to print.
	 */
	public function get_payload(): Feed_Payload {
		return $this->payload;
	}

	/**
	 * Whether the payload still is the whole body.
	 */
	public function is_pristine(): bool {
		return ! $this->replaced;
	}

	/**
	 * The decoded FeatureCollection (decoded once, on demand).
	 *
	 * @return mixed
	 */
	public function get_data() {
		if ( ! $this->replaced && ! $this->decoded ) {
			$this->data    = json_decode( $this->payload->json(), true );
			$this->decoded = true;
		}
		return $this->data;
	}

	/**
	 * Replaces the data; the response is then served from it.
	 *
	 * @param mixed $data Response data.
	 * @return void
	 */
	public function set_data( $data ) {
		$this->replaced = true;
		$this->data     = $data;
	}
}
