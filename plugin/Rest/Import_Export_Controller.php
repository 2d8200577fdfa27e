<?php
/**
 * Marker import and export over REST.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Rest;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Import_Export\Import_Reader;
use Cairn\Maps\Import_Export\Marker_Export;
use Cairn\Maps\Import_Export\Marker_Import;
use Cairn\Maps\Support\Rest_Routes;
use WP_Error;
use WP_REST_Request;
use WP_REST_Response;
use WP_REST_Server;

/**
 * `POST /cairn/v1/markers/import` and `GET|POST /cairn/v1/markers/export?format=csv|geojson`, for
 * editors (users who may edit others' markers). The export also answers a POST so that the Tools
 * page's download form sends the cookie's REST nonce in its body, not in the address.
 *
 * The import takes the file as a multipart upload named `file`, or as the raw request body
 * (`Content-Type: text/csv`, `application/geo+json`, `application/gpx+xml`,
 * `application/vnd.google-earth.kml+xml` or `application/vnd.google-earth.kmz`). The format
 * (`csv`, `geojson`, `gpx`, `kml`, `kmz`) comes from `format`, else the file name, else the content
 * type, else the content. Answers: 200 with what was imported (`shapes`: how many are lines or
 * areas; `notices`: rows imported with a remark, e.g. a track without elevation), 400 listing
 * every bad record (`data.errors`, each with `line` (CSV), `feature` (GeoJSON) or `row` and
 * `label` (GPX, KML), and a `message`) or saying why the file cannot be read at all, 413 when the
 * file is too large or holds too many markers.
 *
 * The CSV export cannot hold lines and areas (it keeps their marker's point): its response says
 * how many it left out in the header `X-Cairn-Shapes-Omitted`.
 *
 * @since 0.1.0
 */
class Import_Export_Controller {

	/**
	 * The importer.
	 *
	 * @var Marker_Import
	 */
	private Marker_Import $import;

	/**
	 * The exporter.
	 *
	 * @var Marker_Export
	 */
	private Marker_Export $export;

	/**
	 * Creates the controller.
	 *
	 * @param Marker_Import $import The importer.
	 * @param Marker_Export $export The exporter.
	 */
	public function __construct( Marker_Import $import, Marker_Export $export ) {
		$this->import = $import;
		$this->export = $export;
	}

	/**
	 * Wires hooks.
	 */
	public function add_hooks(): void {
		add_action( 'rest_api_init', array( $this, 'register_routes' ) );
		add_filter( 'rest_pre_serve_request', array( $this, 'serve_export' ), 10, 3 );
		add_filter( 'rest_pre_dispatch', array( $this, 'keep_file_body_raw' ), 0, 3 );
	}

	/**
	 * An import's body is a file, not the request's parameters. With a JSON content type
	 * (`application/geo+json`, `application/json`) the REST server would decode the whole file as
	 * parameters before the route runs, past the import's own checks: a 6 MB file of a million
	 * tiny positions takes ~230 MB of PHP memory that way. So the import's body is kept as text:
	 * its content type becomes `application/octet-stream`, and `format` says `geojson` unless the
	 * request says otherwise. Hooked to `rest_pre_dispatch`, before anything reads the parameters.
	 *
	 * @since 0.5.0
	 *
	 * @param mixed                $result  A response to use instead of dispatching, or null.
	 * @param mixed                $server  The REST server.
	 * @param WP_REST_Request|null $request The request.
	 * @return mixed The same result.
	 */
	public function keep_file_body_raw( $result, $server = null, $request = null ) {
		if (
			null !== $result ||
			! $request instanceof WP_REST_Request ||
			'POST' !== $request->get_method() ||
			'/' . Rest_Routes::NAMESPACE . '/markers/import' !== untrailingslashit( $request->get_route() ) ||
			! $request->is_json_content_type()
		) {
			return $result;
		}
		$query = $request->get_query_params();
		if ( ! isset( $query['format'] ) ) {
			$query['format'] = 'geojson';
			$request->set_query_params( $query );
		}
		$request->set_header( 'Content-Type', 'application/octet-stream' );
		return $result;
	}

	/**
	 * Registers the routes.
	 */
	public function register_routes(): void {
		register_rest_route(
			Rest_Routes::NAMESPACE,
			'/markers/import',
			array(
				'methods'             => WP_REST_Server::CREATABLE,
				'callback'            => array( $this, 'import' ),
				'permission_callback' => array( $this, 'can_import' ),
				'args'                => array(
					'format'         => array(
						'description' => __( 'File format; guessed from the file name, content type or content when omitted.', 'cairn-maps' ),
						'type'        => 'string',
						'enum'        => Import_Reader::FORMATS,
					),
					'valid_only'     => array(
						'description' => __( 'Kept for older clients: every import now imports the valid rows of a file and reports the others line by line.', 'cairn-maps' ),
						'type'        => 'boolean',
						'default'     => true,
					),
					'dry_run'        => array(
						'description' => __( 'Check the file and answer the same report, with a preview of what would be imported, without writing anything.', 'cairn-maps' ),
						'type'        => 'boolean',
						'default'     => false,
					),
					'folder_groups'  => array(
						'description' => __( 'Put each KML folder\'s placemarks in a group named after the folder (an existing group of that name, or a new one if you may create groups).', 'cairn-maps' ),
						'type'        => 'boolean',
						'default'     => false,
					),
					'group'          => array(
						'description' => __( 'A group (name or slug) every imported marker joins.', 'cairn-maps' ),
						'type'        => 'string',
						'maxLength'   => 200,
						'default'     => '',
					),
					'title_property' => array(
						'description' => __( 'GeoJSON: the feature property to take titles from.', 'cairn-maps' ),
						'type'        => 'string',
						'pattern'     => '^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$',
					),
				),
			)
		);
		register_rest_route(
			Rest_Routes::NAMESPACE,
			'/markers/export',
			array(
				// POST: the Tools page's form (its nonce in the body). It reads only.
				'methods'             => array( 'GET', 'POST' ),
				'callback'            => array( $this, 'export' ),
				'permission_callback' => array( $this, 'can_export' ),
				'args'                => array(
					'format' => array(
						'description' => __( 'File format.', 'cairn-maps' ),
						'type'        => 'string',
						'enum'        => Marker_Export::FORMATS,
						'default'     => 'csv',
					),
				),
			)
		);
	}

	/**
	 * Whether the current user may import: edit others' markers and publish them.
	 *
	 * @return true|WP_Error
	 */
	public function can_import() {
		if ( Marker_Import::current_user_can_import() ) {
			return true;
		}
		return new WP_Error( 'rest_forbidden', __( 'Sorry, you are not allowed to import markers.', 'cairn-maps' ), array( 'status' => rest_authorization_required_code() ) );
	}

	/**
	 * Whether the current user may export: edit others' markers.
	 *
	 * @return true|WP_Error
	 */
	public function can_export() {
		if ( Marker_Import::current_user_can_export() ) {
			return true;
		}
		return new WP_Error( 'rest_forbidden', __( 'Sorry, you are not allowed to export markers.', 'cairn-maps' ), array( 'status' => rest_authorization_required_code() ) );
	}

	/**
	 * Imports a file.
	 *
	 * @param WP_REST_Request $request The request.
	 * @return WP_REST_Response|WP_Error
	 */
	public function import( WP_REST_Request $request ) {
		$file = $this->uploaded_file( $request );
		if ( is_wp_error( $file ) ) {
			return $file;
		}
		$type   = $request->get_content_type();
		$format = is_string( $request['format'] ) && '' !== $request['format']
			? $request['format']
			: Import_Reader::detect_format( $file['content'], $file['name'], is_array( $type ) ? (string) $type['value'] : '' );
		$result = $this->import->import(
			$file['content'],
			$format,
			array(
				'dry_run'        => (bool) $request['dry_run'],
				'folder_groups'  => (bool) $request['folder_groups'],
				'group'          => is_string( $request['group'] ) ? $request['group'] : '',
				'title_property' => is_string( $request['title_property'] ) ? $request['title_property'] : '',
			)
		);
		if ( is_wp_error( $result ) ) {
			return $result;
		}
		return new WP_REST_Response( array( 'format' => $format ) + $result, 200 );
	}

	/**
	 * The file of an import request: the `file` upload, else the body.
	 *
	 * @param WP_REST_Request $request The request.
	 * @return array{content: string, name: string}|WP_Error
	 */
	private function uploaded_file( WP_REST_Request $request ) {
		/**
		 * Checked below. The stubs type each entry as one file's upload; an entry may be a list of
		 * files (`file[]`), or whatever WP_REST_Request::set_file_params() was given.
		 *
		 * @var array<string, mixed> $files
		 */
		$files = $request->get_file_params();
		if ( isset( $files['file'] ) && is_array( $files['file'] ) ) {
			$upload = $files['file'];
			$error  = (int) ( $upload['error'] ?? UPLOAD_ERR_NO_FILE );
			if ( UPLOAD_ERR_INI_SIZE === $error || UPLOAD_ERR_FORM_SIZE === $error ) {
				return Marker_Import::too_large();
			}
			$path = (string) ( $upload['tmp_name'] ?? '' );
			if ( UPLOAD_ERR_OK !== $error || '' === $path || ! is_uploaded_file( $path ) ) {
				return new WP_Error( 'cairn_maps_import_upload', __( 'The file could not be uploaded. Try again.', 'cairn-maps' ), array( 'status' => 400 ) );
			}
			if ( (int) filesize( $path ) > Marker_Import::max_bytes() ) {
				return Marker_Import::too_large();
			}
			$content = file_get_contents( $path ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_get_contents_file_get_contents -- PHP's temporary copy of the upload.
			return array(
				'content' => is_string( $content ) ? $content : '',
				'name'    => sanitize_file_name( (string) ( $upload['name'] ?? '' ) ),
			);
		}
		$body = $request->get_body();
		if ( strlen( $body ) > Marker_Import::max_bytes() ) {
			return Marker_Import::too_large();
		}
		if ( '' === trim( $body ) ) {
			return new WP_Error( 'cairn_maps_import_no_file', __( 'Send a CSV, GeoJSON, GPX, KML or KMZ file: as the request body, or as a multipart upload named "file".', 'cairn-maps' ), array( 'status' => 400 ) );
		}
		return array(
			'content' => $body,
			'name'    => '',
		);
	}

	/**
	 * Exports the markers.
	 *
	 * @param WP_REST_Request $request The request.
	 */
	public function export( WP_REST_Request $request ): WP_REST_Response {
		return new Export_Response( $this->export, 'geojson' === $request['format'] ? 'geojson' : 'csv' );
	}

	/**
	 * Prints an export batch by batch instead of letting the server json_encode it. Hooked to
	 * `rest_pre_serve_request`, after the status and headers are sent.
	 *
	 * @param bool                   $served  Whether the request was served already.
	 * @param \WP_HTTP_Response|null $result  The response.
	 * @param WP_REST_Request|null   $request The request.
	 */
	public function serve_export( $served, $result = null, $request = null ): bool {
		if ( $served || ! $result instanceof Export_Response || ! $result->is_pristine() ) {
			return (bool) $served;
		}
		if ( ! $request instanceof WP_REST_Request || 'HEAD' !== $request->get_method() ) {
			$result->print_body();
		}
		return true;
	}
}
