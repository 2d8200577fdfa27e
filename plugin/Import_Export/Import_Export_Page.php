<?php
/**
 * Tools → Import/export markers.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Import_Export;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Markers\Post_Type;
use Cairn\Maps\Support\Inline_Script;
use Cairn\Maps\Support\Rest_Routes;
use WP_Error;

/**
 * A plain admin page: upload a CSV, GeoJSON, GPX, KML or KMZ file (with "import only valid
 * rows"), see the report line by line (with notices, e.g. a track without elevation), download
 * the markers as CSV or GeoJSON (the page says how many routes and areas a CSV leaves out).
 *
 * The upload posts to admin-post.php with a nonce; the report is kept for the user for a few
 * minutes and shown after the redirect (so reloading the page never imports twice). The export
 * buttons post to the REST route, the REST nonce in the form's body (never in an address).
 *
 * While imported addresses are geocoded in the background (Geocode_Job), the page shows the
 * progress and the rows not found; its script (build/import-export) polls the progress route
 * and offers to cancel. Without the script, the same is rendered on each load and the cancel
 * button posts to admin-post.php.
 *
 * The script previews a file before importing it: its report, and a small map of what it holds
 * on the site's basemap, drawn by the map runtime the block uses. The map gets what the block
 * editor's maps get, printed before the script: the editor data (Blocks\Editor_Data,
 * `window.cairnMapsEditor`: the site's basemap, the public token) and where mapbox-gl comes from
 * (Blocks\Mapbox_Gl), both given by Plugin.
 *
 * @since 0.1.0
 */
class Import_Export_Page {

	public const SLUG   = 'cairn-maps-import-export';
	public const ACTION = 'cairn_maps_import';

	/**
	 * The admin-post action that cancels (or dismisses) the geocoding job without JavaScript.
	 *
	 * @since 0.3.0
	 */
	public const STOP_ACTION = 'cairn_maps_geocode_stop';

	/**
	 * The script handle.
	 *
	 * @since 0.3.0
	 */
	public const SCRIPT = 'cairn-maps-import-export';

	/**
	 * Most report lines kept and shown.
	 */
	public const REPORT_LINES = 500;

	private const REPORT_KEY = 'cairn_maps_import_report_';

	/**
	 * The importer.
	 *
	 * @var Marker_Import
	 */
	private Marker_Import $import;

	/**
	 * The geocoding queue.
	 *
	 * @var Geocode_Queue
	 */
	private Geocode_Queue $queue;

	/**
	 * The exporter (how many shapes a CSV leaves out).
	 *
	 * @var Marker_Export
	 */
	private Marker_Export $export;

	/**
	 * What the preview's map is drawn with: the editor data and where mapbox-gl comes from
	 * (Blocks\Editor_Data and Blocks\Mapbox_Gl, given by Plugin). None: the preview sketches.
	 *
	 * @var Inline_Script[]
	 */
	private array $map_data;

	/**
	 * The page's hook suffix, once added.
	 *
	 * @var string
	 */
	private string $hook_suffix = '';

	/**
	 * Creates the page.
	 *
	 * @since 0.7.0 The data the preview's map is drawn with (`$map_data`).
	 *
	 * @param Marker_Import      $import   The importer.
	 * @param Geocode_Queue|null $queue    The geocoding queue.
	 * @param Marker_Export|null $export   The exporter.
	 * @param Inline_Script[]    $map_data What the preview's map needs printed before the script.
	 */
	public function __construct( Marker_Import $import, ?Geocode_Queue $queue = null, ?Marker_Export $export = null, array $map_data = array() ) {
		$this->import   = $import;
		$this->queue    = $queue ?? new Geocode_Queue();
		$this->export   = $export ?? new Marker_Export();
		$this->map_data = $map_data;
	}

	/**
	 * Wires hooks.
	 */
	public function add_hooks(): void {
		add_action( 'admin_menu', array( $this, 'add_page' ) );
		add_action( 'admin_post_' . self::ACTION, array( $this, 'handle_upload' ) );
		add_action( 'admin_post_' . self::STOP_ACTION, array( $this, 'handle_stop' ) );
		add_action( 'admin_enqueue_scripts', array( $this, 'enqueue' ) );
	}

	/**
	 * The capability the page (and its export links) needs: editing others' markers. Importing
	 * needs more: see Marker_Import::current_user_can_import().
	 */
	public static function capability(): string {
		$type = get_post_type_object( Post_Type::POST_TYPE );
		return $type ? (string) $type->cap->edit_others_posts : 'edit_others_posts';
	}

	/**
	 * Adds the page under Tools.
	 */
	public function add_page(): void {
		$this->hook_suffix = (string) add_management_page(
			__( 'Import/export markers', 'cairn-maps' ),
			__( 'Import/export markers', 'cairn-maps' ),
			self::capability(),
			self::SLUG,
			array( $this, 'render' )
		);
	}

	/**
	 * Loads the page's script (the import preview and its map, the progress of the geocoding)
	 * and its styles on the page only.
	 *
	 * @since 0.3.0
	 * @since 0.7.0 With the data of the preview's map, and the page's styles.
	 * @param string $hook_suffix The current admin page.
	 */
	public function enqueue( $hook_suffix ): void {
		if ( '' === $this->hook_suffix || $hook_suffix !== $this->hook_suffix ) {
			return;
		}
		$asset_file = CAIRN_MAPS_DIR . 'build/import-export/index.asset.php';
		if ( ! is_readable( $asset_file ) ) {
			return; // Not built: the page works without its script.
		}
		$asset = require $asset_file;
		wp_enqueue_script( self::SCRIPT, plugins_url( 'build/import-export/index.js', CAIRN_MAPS_FILE ), $asset['dependencies'], $asset['version'], true );
		wp_set_script_translations( self::SCRIPT, 'cairn-maps', CAIRN_MAPS_DIR . 'languages' );
		$inline = '';
		foreach ( $this->map_data as $data ) {
			$inline .= $data->inline_script();
		}
		if ( '' !== $inline ) {
			wp_add_inline_script( self::SCRIPT, $inline, 'before' );
		}
		if ( is_readable( CAIRN_MAPS_DIR . 'build/import-export/index.css' ) ) {
			wp_enqueue_style( self::SCRIPT, plugins_url( 'build/import-export/index.css', CAIRN_MAPS_FILE ), array(), $asset['version'] );
		}
	}

	/**
	 * Cancels the geocoding job, or forgets a finished one (the form's fallback without
	 * JavaScript), then returns to the page.
	 *
	 * @since 0.3.0
	 */
	public function handle_stop(): void {
		if ( ! Marker_Import::current_user_can_import() ) {
			wp_die( esc_html__( 'Sorry, you are not allowed to import markers.', 'cairn-maps' ), 403 );
		}
		check_admin_referer( self::STOP_ACTION );
		if ( $this->queue->is_running() ) {
			$this->queue->cancel();
			wp_clear_scheduled_hook( Geocode_Job::HOOK );
		} else {
			$this->queue->dismiss();
		}
		wp_safe_redirect( self::url() );
		exit;
	}

	/**
	 * The sentence that says where geocoding stands, e.g. "Geocoding addresses: 37 of 120 done,
	 * 2 not found."
	 *
	 * @since 0.3.0
	 * @param array<string, mixed> $progress Geocode_Queue::progress().
	 */
	public static function geocoding_summary( array $progress ): string {
		$total     = number_format_i18n( (int) ( $progress['total'] ?? 0 ) );
		$done      = number_format_i18n( (int) ( $progress['done'] ?? 0 ) );
		$not_found = number_format_i18n( (int) ( $progress['not_found'] ?? 0 ) );
		switch ( $progress['state'] ?? 'none' ) {
			case Geocode_Queue::STATE_RUNNING:
				/* translators: 1: addresses done, 2: addresses imported, 3: addresses not found. */
				return sprintf( __( 'Geocoding addresses: %1$s of %2$s done, %3$s not found.', 'cairn-maps' ), $done, $total, $not_found );
			case Geocode_Queue::STATE_DONE:
				/* translators: 1: addresses done, 2: addresses imported, 3: addresses not found. */
				return sprintf( __( 'Geocoding finished: %1$s of %2$s done, %3$s not found.', 'cairn-maps' ), $done, $total, $not_found );
			case Geocode_Queue::STATE_CANCELLED:
				/* translators: 1: addresses done, 2: addresses imported, 3: addresses not found, 4: addresses left as drafts by the cancellation. */
				return sprintf( __( 'Geocoding cancelled: %1$s of %2$s done, %3$s not found, %4$s not tried.', 'cairn-maps' ), $done, $total, $not_found, number_format_i18n( (int) ( $progress['cancelled'] ?? 0 ) ) );
			default:
				return '';
		}
	}

	/**
	 * Where the geocoding of imported addresses stands, as the Tools page renders it and
	 * `GET /cairn/v1/markers/import/geocoding` (Rest\Import_Geocoding_Controller) answers it.
	 *
	 * @since 0.4.0 Moved here from Rest\Import_Geocoding_Controller::state().
	 *
	 * @param Geocode_Queue $queue The queue.
	 * @return array<string, mixed>
	 */
	public static function geocoding_state( Geocode_Queue $queue ): array {
		$progress = $queue->progress();
		$report   = array();
		foreach ( 'none' === $progress['state'] ? array() : $queue->report() as $row ) {
			$row['edit_link'] = current_user_can( 'edit_post', $row['id'] ) ? (string) get_edit_post_link( $row['id'], 'raw' ) : '';
			$report[]         = $row;
		}
		$next = wp_next_scheduled( Geocode_Job::HOOK );
		return $progress + array(
			'next_run' => false === $next ? null : (int) $next,
			'summary'  => self::geocoding_summary( $progress ),
			'report'   => $report,
			'more'     => max( 0, $progress['not_found'] + $progress['cancelled'] - count( $report ) ),
		);
	}

	/**
	 * The page's URL.
	 */
	public static function url(): string {
		return admin_url( 'tools.php?page=' . self::SLUG );
	}

	/**
	 * Handles the upload form, then returns to the page.
	 */
	public function handle_upload(): void {
		if ( ! Marker_Import::current_user_can_import() ) {
			wp_die( esc_html__( 'Sorry, you are not allowed to import markers.', 'cairn-maps' ), 403 );
		}
		check_admin_referer( self::ACTION );
		$result = $this->import_upload( self::options_from_form() );
		set_transient( self::REPORT_KEY . get_current_user_id(), self::report( $result ), 10 * MINUTE_IN_SECONDS );
		wp_safe_redirect( add_query_arg( 'report', '1', self::url() ) );
		exit;
	}

	/**
	 * Imports the uploaded file.
	 *
	 * @param array<string, mixed> $options Import options (options_from_form()).
	 * @return array<string, mixed>|WP_Error
	 */
	private function import_upload( array $options ) {
		// The nonce was checked by handle_upload(); the file is read from PHP's own temporary copy.
		// phpcs:disable WordPress.Security.NonceVerification.Missing, WordPress.Security.ValidatedSanitizedInput.InputNotValidated, WordPress.Security.ValidatedSanitizedInput.MissingUnslash, WordPress.Security.ValidatedSanitizedInput.InputNotSanitized
		$upload = isset( $_FILES['cairn_maps_file'] ) && is_array( $_FILES['cairn_maps_file'] ) ? $_FILES['cairn_maps_file'] : array();
		// phpcs:enable
		$error = (int) ( $upload['error'] ?? UPLOAD_ERR_NO_FILE );
		if ( UPLOAD_ERR_INI_SIZE === $error || UPLOAD_ERR_FORM_SIZE === $error ) {
			return Marker_Import::too_large();
		}
		$path = (string) ( $upload['tmp_name'] ?? '' );
		if ( UPLOAD_ERR_OK !== $error || '' === $path || ! is_uploaded_file( $path ) ) {
			return new WP_Error( 'cairn_maps_import_upload', __( 'Choose a CSV, GeoJSON, GPX, KML or KMZ file to import.', 'cairn-maps' ) );
		}
		if ( (int) filesize( $path ) > Marker_Import::max_bytes() ) {
			return Marker_Import::too_large();
		}
		$content = file_get_contents( $path ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_get_contents_file_get_contents -- PHP's temporary copy of the upload.
		$content = is_string( $content ) ? $content : '';
		$format  = Import_Reader::detect_format( $content, sanitize_file_name( (string) ( $upload['name'] ?? '' ) ) );
		return $this->import->import( $content, $format, $options );
	}

	/**
	 * The import options the form sent: `folders` (`file`: the groups the file names;
	 * `folders`: one group per KML folder; `one`: all in the group `group`) and `title_property`.
	 *
	 * @return array<string, mixed>
	 */
	private static function options_from_form(): array {
		// phpcs:disable WordPress.Security.NonceVerification.Missing -- handle_upload() checked it.
		$folders = isset( $_POST['folders'] ) ? sanitize_key( wp_unslash( $_POST['folders'] ) ) : 'file';
		$group   = isset( $_POST['group'] ) ? sanitize_text_field( wp_unslash( $_POST['group'] ) ) : '';
		$title   = isset( $_POST['title_property'] ) ? sanitize_text_field( wp_unslash( $_POST['title_property'] ) ) : '';
		// phpcs:enable
		return array(
			'folder_groups'  => 'folders' === $folders,
			'group'          => 'one' === $folders ? $group : '',
			'title_property' => Marker_Import::title_property( $title ),
		);
	}

	/**
	 * The report to show, from an import result.
	 *
	 * @param array<string, mixed>|WP_Error $result Result.
	 * @param int                           $lines  Most problems and notices listed (WP-CLI: all).
	 * @return array{ok: bool, message: string, problems: array<int, string>, more: int, notices: array<int, string>, more_notices: int}
	 */
	public static function report( $result, int $lines = self::REPORT_LINES ): array {
		if ( is_wp_error( $result ) ) {
			$data     = $result->get_error_data();
			$problems = is_array( $data ) && isset( $data['errors'] ) && is_array( $data['errors'] ) ? $data['errors'] : array();
			return array(
				'ok'           => false,
				'message'      => $result->get_error_message(),
				'problems'     => array_map( array( self::class, 'problem_text' ), array_slice( $problems, 0, $lines ) ),
				'more'         => max( 0, max( count( $problems ), (int) ( $data['skipped_count'] ?? 0 ) ) - min( $lines, count( $problems ) ) ),
				'notices'      => array(),
				'more_notices' => 0,
			);
		}
		$skipped = is_array( $result['skipped'] ?? null ) ? $result['skipped'] : array();
		$message = empty( $result['dry_run'] )
			? sprintf(
				/* translators: %s: number of markers. */
				_n( '%s marker was imported.', '%s markers were imported.', (int) $result['imported'], 'cairn-maps' ),
				number_format_i18n( (int) $result['imported'] )
			)
			: sprintf(
				/* translators: %s: number of markers. */
				_n( '%s marker would be imported.', '%s markers would be imported.', (int) $result['imported'], 'cairn-maps' ),
				number_format_i18n( (int) $result['imported'] )
			);
		$posts = (int) ( $result['kinds']['posts'] ?? 0 );
		if ( $posts > 0 ) {
			$message .= ' ' . sprintf(
				/* translators: %s: number of posts. */
				_n( '%s of them is a post with a place.', '%s of them are posts with a place.', $posts, 'cairn-maps' ),
				number_format_i18n( $posts )
			);
		}
		$shapes = (int) ( $result['shapes'] ?? 0 );
		if ( $shapes > 0 ) {
			$message .= ' ' . sprintf(
				/* translators: %s: number of markers. */
				_n( '%s of them is a route or an area.', '%s of them are routes or areas.', $shapes, 'cairn-maps' ),
				number_format_i18n( $shapes )
			);
		}
		$geocoding = (int) ( $result['geocoding'] ?? 0 );
		if ( $geocoding > 0 ) {
			$message .= ' ' . sprintf(
				/* translators: %s: number of markers. */
				_n( '%s of them has an address and no coordinates: it was saved as a draft, and is published once its address is found (geocoding runs in the background, about one address a second).', '%s of them have an address and no coordinates: they were saved as drafts, and each is published once its address is found (geocoding runs in the background, about one address a second).', $geocoding, 'cairn-maps' ),
				number_format_i18n( $geocoding )
			);
		}
		$created = is_array( $result['groups_created'] ?? null ) ? $result['groups_created'] : array();
		if ( array() !== $created ) {
			/* translators: %s: comma-separated group slugs. */
			$message .= ' ' . sprintf( __( 'New groups: %s.', 'cairn-maps' ), implode( ', ', $created ) );
		}
		$skipped_count = max( count( $skipped ), (int) ( $result['skipped_count'] ?? 0 ) );
		if ( array() !== $skipped ) {
			$message .= ' ' . sprintf(
				/* translators: %s: number of rows. */
				_n( '%s row was not imported:', '%s rows were not imported:', $skipped_count, 'cairn-maps' ),
				number_format_i18n( $skipped_count )
			);
		}
		$notices       = is_array( $result['notices'] ?? null ) ? $result['notices'] : array();
		$notices_count = max( count( $notices ), (int) ( $result['notices_count'] ?? 0 ) );
		return array(
			'ok'           => true,
			'message'      => $message,
			'problems'     => array_map( array( self::class, 'problem_text' ), array_slice( $skipped, 0, $lines ) ),
			'more'         => max( 0, $skipped_count - min( $lines, count( $skipped ) ) ),
			'notices'      => array_map( array( self::class, 'problem_text' ), array_slice( $notices, 0, $lines ) ),
			'more_notices' => max( 0, $notices_count - min( $lines, count( $notices ) ) ),
		);
	}

	/**
	 * One report line: "Line 4: …", "Feature 2: …" or "Row 3 (track "Ridge loop"): …".
	 *
	 * @param mixed $problem A bad record: `line`, `feature` or `row` and `label`, and `message`.
	 */
	private static function problem_text( $problem ): string {
		$problem = is_array( $problem ) ? $problem : array();
		$message = (string) ( $problem['message'] ?? '' );
		if ( isset( $problem['row'] ) ) {
			/* translators: 1: place of the track, route, waypoint or placemark in the GPX or KML file (from 1), 2: what it is, e.g. track "Ridge loop", 3: what is wrong. */
			return sprintf( __( 'Row %1$d (%2$s): %3$s', 'cairn-maps' ), (int) $problem['row'], (string) ( $problem['label'] ?? '' ), $message );
		}
		if ( isset( $problem['line'] ) ) {
			/* translators: 1: line number in the CSV file, 2: what is wrong. */
			return sprintf( __( 'Line %1$d: %2$s', 'cairn-maps' ), (int) $problem['line'], $message );
		}
		if ( isset( $problem['feature'] ) ) {
			/* translators: 1: index of the feature in the GeoJSON file (from 0), 2: what is wrong. */
			return sprintf( __( 'Feature %1$d: %2$s', 'cairn-maps' ), (int) $problem['feature'], $message );
		}
		return $message;
	}

	/**
	 * Renders the page.
	 */
	public function render(): void {
		if ( ! current_user_can( self::capability() ) ) {
			return;
		}
		$report = null;
		// phpcs:ignore WordPress.Security.NonceVerification.Recommended -- read-only: shows the current user's own report.
		if ( isset( $_GET['report'] ) ) {
			$key    = self::REPORT_KEY . get_current_user_id();
			$report = get_transient( $key );
			delete_transient( $key );
		}
		echo '<div class="wrap cairn-maps-import-export">';
		printf( '<h1>%s</h1>', esc_html__( 'Import/export markers', 'cairn-maps' ) );
		if ( is_array( $report ) ) {
			$this->render_report( $report );
		}

		$this->render_geocoding();

		printf( '<h2>%s</h2>', esc_html__( 'Import', 'cairn-maps' ) );
		if ( Marker_Import::current_user_can_import() ) {
			$this->render_import_form();
		} else {
			printf( '<p>%s</p>', esc_html__( 'Imported markers are published, so importing needs the right to publish markers, which your account does not have.', 'cairn-maps' ) );
		}

		printf( '<h2>%s</h2>', esc_html__( 'Export', 'cairn-maps' ) );
		printf( '<p>%s</p>', esc_html__( 'Download all published markers. The files import back unchanged.', 'cairn-maps' ) );
		$shapes = $this->export->count_shapes();
		if ( $shapes > 0 ) {
			printf(
				'<p class="cairn-maps-export-shapes">%s</p>',
				esc_html(
					sprintf(
						/* translators: %s: number of markers that are routes or areas. */
						_n( '%s route or area is not in CSV (CSV keeps only its marker\'s point); export GeoJSON to keep it.', '%s routes and areas are not in CSV (CSV keeps only their marker\'s point); export GeoJSON to keep them.', $shapes, 'cairn-maps' ),
						number_format_i18n( $shapes )
					)
				)
			);
		}
		// A form posting to the REST route: the REST nonce travels in the body, never in an address
		// that browsers keep in their history and servers in their logs.
		printf( '<form method="post" action="%s"><p>', esc_url( Rest_Routes::url( 'markers/export' ) ) );
		printf( '<input type="hidden" name="_wpnonce" value="%s" />', esc_attr( wp_create_nonce( 'wp_rest' ) ) );
		foreach ( array(
			'csv'     => __( 'Download CSV', 'cairn-maps' ),
			'geojson' => __( 'Download GeoJSON', 'cairn-maps' ),
		) as $format => $label ) {
			printf( '<button type="submit" class="button" name="format" value="%1$s">%2$s</button> ', esc_attr( $format ), esc_html( $label ) );
		}
		echo '</p></form></div>';
	}

	/**
	 * Renders the upload form.
	 */
	private function render_import_form(): void {
		printf(
			'<p>%1$s</p><p>%2$s</p>',
			esc_html__( 'A CSV file with a header line naming the columns title, lat, lng, address, group and description (title is required, and lat and lng or address); a GeoJSON FeatureCollection of points, lines and areas with the properties title, groups and description; or a GPX, KML or KMZ file (tracks, routes and waypoints; placemarks with points, lines and areas; names become titles, descriptions content, elevations are kept). Groups are given by slug or name; several groups in one CSV cell are separated by "|". Groups that do not exist yet are created. Imported markers are published; a CSV row with an address and no coordinates is saved as a draft, its address is geocoded in the background (about one a second), and it is published once found.', 'cairn-maps' ),
			esc_html(
				sprintf(
					/* translators: 1: most markers per file, 2: largest file size. */
					__( 'You see what the file holds before anything is imported: the markers, routes and areas, and every row that cannot be imported and why. The valid rows are imported; the others are listed line by line. At most %1$s markers and %2$s per file.', 'cairn-maps' ),
					number_format_i18n( Marker_Import::max_rows() ),
					size_format( min( Marker_Import::max_bytes(), wp_max_upload_size() ) )
				)
			)
		);
		printf( '<form method="post" action="%s" enctype="multipart/form-data" class="cairn-maps-import-form">', esc_url( admin_url( 'admin-post.php' ) ) );
		printf( '<input type="hidden" name="action" value="%s" />', esc_attr( self::ACTION ) );
		wp_nonce_field( self::ACTION );
		printf(
			'<p><label for="cairn-maps-import-file">%1$s</label><br /><input type="file" id="cairn-maps-import-file" name="cairn_maps_file" accept="%2$s" required /></p>',
			esc_html__( 'File (CSV, GeoJSON, GPX, KML or KMZ)', 'cairn-maps' ),
			esc_attr( '.csv,.geojson,.json,.gpx,.kml,.kmz,text/csv,application/geo+json,application/json,application/gpx+xml,application/vnd.google-earth.kml+xml,application/vnd.google-earth.kmz' )
		);
		printf( '<fieldset class="cairn-maps-import-folders"><legend>%s</legend>', esc_html__( 'Groups', 'cairn-maps' ) );
		$choices = array(
			'file'    => __( 'The groups the file names (KML folders are ignored)', 'cairn-maps' ),
			'folders' => __( 'One group per folder (KML): an existing group of the folder\'s name, or a new one', 'cairn-maps' ),
			'one'     => __( 'All in this group:', 'cairn-maps' ),
		);
		foreach ( $choices as $value => $label ) {
			printf(
				'<label><input type="radio" name="folders" value="%1$s"%2$s /> %3$s</label> ',
				esc_attr( $value ),
				checked( 'file', $value, false ),
				esc_html( $label )
			);
		}
		printf(
			'<input type="text" name="group" class="regular-text" list="cairn-maps-import-groups" aria-label="%1$s" maxlength="200" /><datalist id="cairn-maps-import-groups">',
			esc_attr__( 'Group for every imported marker', 'cairn-maps' )
		);
		$terms = get_terms(
			array(
				'taxonomy'   => Post_Type::TAXONOMY,
				'hide_empty' => false,
				'number'     => 500,
			)
		);
		foreach ( is_array( $terms ) ? $terms : array() as $term ) {
			printf( '<option value="%s"></option>', esc_attr( $term->name ) );
		}
		echo '</datalist>';
		if ( ! Import_Groups::may_create() ) {
			printf( '<p class="description">%s</p>', esc_html__( 'You may not create groups: rows whose group does not exist yet are not imported.', 'cairn-maps' ) );
		}
		echo '</fieldset>';
		printf(
			'<p><label for="cairn-maps-import-title-property">%1$s</label><br /><input type="text" id="cairn-maps-import-title-property" name="title_property" class="regular-text" maxlength="64" pattern="%2$s" placeholder="title" /></p>',
			esc_html__( 'GeoJSON: property to take titles from (optional)', 'cairn-maps' ),
			esc_attr( '[A-Za-z_][A-Za-z0-9_.:\-]{0,63}' )
		);
		printf(
			'<p class="submit"><button type="submit" class="button button-primary" name="preview" value="1">%1$s</button></p></form><div class="cairn-maps-import-preview" hidden></div>',
			esc_html__( 'Import markers', 'cairn-maps' )
		);
	}

	/**
	 * Renders an import report.
	 *
	 * @param array<string, mixed> $report Report.
	 */
	private function render_report( array $report ): void {
		printf(
			'<div class="notice %1$s cairn-maps-import-report" role="status"><p>%2$s</p>',
			! empty( $report['ok'] ) ? 'notice-success' : 'notice-error',
			esc_html( (string) ( $report['message'] ?? '' ) )
		);
		$problems = is_array( $report['problems'] ?? null ) ? $report['problems'] : array();
		if ( array() !== $problems ) {
			echo '<ul class="cairn-maps-import-problems">';
			foreach ( $problems as $problem ) {
				printf( '<li>%s</li>', esc_html( (string) $problem ) );
			}
			echo '</ul>';
		}
		$more = (int) ( $report['more'] ?? 0 );
		if ( $more > 0 ) {
			/* translators: %s: number of further problems. */
			printf( '<p>%s</p>', esc_html( sprintf( __( 'and %s more.', 'cairn-maps' ), number_format_i18n( $more ) ) ) );
		}
		$notices = is_array( $report['notices'] ?? null ) ? $report['notices'] : array();
		if ( array() !== $notices ) {
			printf( '<p>%s</p><ul class="cairn-maps-import-notices">', esc_html__( 'Notes:', 'cairn-maps' ) );
			foreach ( $notices as $notice ) {
				printf( '<li>%s</li>', esc_html( (string) $notice ) );
			}
			echo '</ul>';
			$more = (int) ( $report['more_notices'] ?? 0 );
			if ( $more > 0 ) {
				/* translators: %s: number of further notes. */
				printf( '<p>%s</p>', esc_html( sprintf( __( 'and %s more.', 'cairn-maps' ), number_format_i18n( $more ) ) ) );
			}
		}
		echo '</div>';
	}

	/**
	 * Renders the progress of the background geocoding and its report (the page's script keeps
	 * them up to date).
	 *
	 * @since 0.3.0
	 */
	private function render_geocoding(): void {
		$state = self::geocoding_state( $this->queue );
		if ( 'none' === $state['state'] ) {
			echo '<div class="cairn-maps-geocoding" hidden></div>';
			return;
		}
		$running = Geocode_Queue::STATE_RUNNING === $state['state'];
		echo '<div class="cairn-maps-geocoding">';
		printf( '<h2>%s</h2>', esc_html__( 'Geocoding addresses', 'cairn-maps' ) );
		printf( '<p class="cairn-maps-geocoding-summary" role="status">%s</p>', esc_html( (string) $state['summary'] ) );
		printf(
			'<p><progress class="cairn-maps-geocoding-progress" max="%1$d" value="%2$d" aria-label="%3$s"></progress></p>',
			esc_attr( (string) max( 1, (int) $state['total'] ) ),
			esc_attr( (string) (int) $state['done'] ),
			esc_attr__( 'Geocoding progress', 'cairn-maps' )
		);
		$report = is_array( $state['report'] ) ? $state['report'] : array();
		echo '<ul class="cairn-maps-geocoding-report">';
		foreach ( $report as $row ) {
			$text = sprintf(
				/* translators: 1: line number in the CSV file, 2: the address, 3: what happened. */
				__( 'Line %1$d: "%2$s": %3$s', 'cairn-maps' ),
				(int) $row['line'],
				(string) $row['address'],
				(string) $row['message']
			);
			echo '<li>' . esc_html( $text );
			if ( '' !== $row['edit_link'] ) {
				printf( ' <a href="%1$s">%2$s</a>', esc_url( $row['edit_link'] ), esc_html__( 'Edit the marker', 'cairn-maps' ) );
			}
			echo '</li>';
		}
		echo '</ul>';
		if ( (int) $state['more'] > 0 ) {
			/* translators: %s: number of further rows. */
			printf( '<p class="cairn-maps-geocoding-more">%s</p>', esc_html( sprintf( __( 'and %s more.', 'cairn-maps' ), number_format_i18n( (int) $state['more'] ) ) ) );
		}
		if ( Marker_Import::current_user_can_import() ) {
			printf( '<form method="post" action="%s" class="cairn-maps-geocoding-stop">', esc_url( admin_url( 'admin-post.php' ) ) );
			printf( '<input type="hidden" name="action" value="%s" />', esc_attr( self::STOP_ACTION ) );
			wp_nonce_field( self::STOP_ACTION );
			printf(
				'<p><button type="submit" class="button">%s</button></p></form>',
				esc_html( $running ? __( 'Cancel geocoding', 'cairn-maps' ) : __( 'Dismiss this report', 'cairn-maps' ) )
			);
		}
		echo '</div>';
	}
}
