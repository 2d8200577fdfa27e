<?php
/**
 * A REST response whose body is written while it is sent.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Rest;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Import_Export\Marker_Export;
use WP_REST_Response;

/**
 * Carries a marker export through the REST server. Served over HTTP,
 * `Import_Export_Controller::serve_export()` prints it batch by batch, so the export never exists
 * as one string; internal callers (`rest_do_request()`) get the whole text from `get_data()`.
 *
 * @since 0.1.0
 */
class Export_Response extends WP_REST_Response {

	/**
	 * The exporter.
	 *
	 * @var Marker_Export
	 */
	private Marker_Export $export;

	/**
	 * `csv` or `geojson`.
	 *
	 * @var string
	 */
	private string $format;

	/**
	 * Whether someone replaced the data.
	 *
	 * @var bool
	 */
	private bool $replaced = false;

	/**
	 * Creates the response.
	 *
	 * @param Marker_Export $export The exporter.
	 * @param string        $format `csv` or `geojson`.
	 */
	public function __construct( Marker_Export $export, string $format ) {
		parent::__construct(
			null,
			200,
			array(
				'Content-Type'           => Marker_Export::content_type( $format ),
				'Content-Disposition'    => 'attachment; filename="' . Marker_Export::file_name( $format ) . '"',
				'Cache-Control'          => 'private, no-store',
				'X-Content-Type-Options' => 'nosniff',
			)
		);
		if ( 'csv' === $format ) {
			$this->header( 'X-Cairn-Shapes-Omitted', (string) $export->count_shapes() );
		}
		$this->export   = $export;
		$this->format   = $format;
		$this->replaced = false; // The parent constructor went through set_data().
	}

	/**
	 * Prints the export, batch by batch.
	 */
	public function print_body(): void {
		$this->export->write(
			$this->format,
			static function ( string $piece ): void {
				echo $piece; // phpcs:ignore WordPress.Security.EscapeOutput.OutputNotEscaped -- a CSV or GeoJSON download, not HTML; cells are quoted/encoded by Marker_Export.
			}
		);
	}

	/**
	 * Whether the export still is the whole body.
	 */
	public function is_pristine(): bool {
		return ! $this->replaced;
	}

	/**
	 * The whole export as text.
	 *
	 * @return mixed
	 */
	public function get_data() {
		return $this->replaced ? $this->data : $this->export->to_string( $this->format );
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
