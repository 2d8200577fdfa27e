<?php
/**
 * A REST answer whose body is a pre-encoded JSON document.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Rest;

defined( 'ABSPATH' ) || exit;

use WP_REST_Response;

/**
 * Holds a tile's JSON as built (or kept) so that it is printed as it is, not decoded and encoded
 * again (Tiles_Controller::serve_tile()). get_data() decodes it for code that reads the answer
 * (tests, `rest_post_dispatch` filters); once a filter replaces the data, the data is printed
 * the usual way.
 *
 * @since 0.6.0
 */
class Tile_Response extends WP_REST_Response {

	/**
	 * The body.
	 *
	 * @var string
	 */
	private string $json;

	/**
	 * Whether $data holds the decoded body.
	 *
	 * @var bool
	 */
	private bool $decoded = false;

	/**
	 * Whether set_data() replaced the body.
	 *
	 * @var bool
	 */
	private bool $replaced = false;

	/**
	 * Creates the answer.
	 *
	 * @param string                $json    The body.
	 * @param int                   $status  Status.
	 * @param array<string, string> $headers Headers.
	 */
	public function __construct( string $json, int $status = 200, array $headers = array() ) {
		parent::__construct( null, $status, $headers );
		$this->json     = $json;
		$this->replaced = false; // The parent constructor went through set_data().
		$this->decoded  = false;
	}

	/**
	 * The body as built.
	 */
	public function get_json(): string {
		return $this->json;
	}

	/**
	 * Whether the body is still the built one.
	 */
	public function is_pristine(): bool {
		return ! $this->replaced;
	}

	/**
	 * The body, decoded.
	 *
	 * @return mixed
	 */
	public function get_data() {
		if ( ! $this->replaced && ! $this->decoded ) {
			$this->data    = json_decode( $this->json, true );
			$this->decoded = true;
		}
		return $this->data;
	}

	/**
	 * Replaces the body.
	 *
	 * @param mixed $data Data.
	 * @return void
	 */
	public function set_data( $data ) {
		$this->replaced = true;
		$this->data     = $data;
	}
}
