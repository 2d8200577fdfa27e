<?php
/**
 * A REST answer whose body is a byte range of a file.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Rest;

defined( 'ABSPATH' ) || exit;

use WP_REST_Response;

/**
 * Holds which bytes of which file to send; Basemap_Archive_Controller::serve() prints them in
 * place of a JSON body. Its data (for code that reads the answer: tests, `rest_post_dispatch`
 * filters) describes the range.
 *
 * @since 0.7.0
 */
final class Byte_Range_Response extends WP_REST_Response {

	/**
	 * The file.
	 *
	 * @var string
	 */
	private string $file;

	/**
	 * First byte.
	 *
	 * @var int
	 */
	private int $start;

	/**
	 * Bytes to send.
	 *
	 * @var int
	 */
	private int $length;

	/**
	 * Creates the answer.
	 *
	 * @param string                $file    The file.
	 * @param int                   $start   First byte.
	 * @param int                   $length  Bytes to send (0: no body).
	 * @param int                   $status  Status.
	 * @param array<string, string> $headers Headers.
	 */
	public function __construct( string $file, int $start, int $length, int $status, array $headers ) {
		parent::__construct(
			array(
				'start'  => $start,
				'length' => $length,
			),
			$status,
			$headers
		);
		$this->file   = $file;
		$this->start  = $start;
		$this->length = $length;
	}

	/**
	 * The file.
	 */
	public function file(): string {
		return $this->file;
	}

	/**
	 * First byte.
	 */
	public function start(): int {
		return $this->start;
	}

	/**
	 * Bytes to send.
	 */
	public function length(): int {
		return $this->length;
	}
}
