<?php
/**
 * Imports markers from a CSV, GeoJSON, GPX, KML or KMZ file.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Import_Export;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Markers\Markers_Version;
use Cairn\Maps\Markers\Post_Type;
use Cairn\Maps\Markers\Shape_Store;
use WP_Error;
use WP_Term;

/**
 * Imports a file: checks every record first (Import_Row_Validator; groups resolved by
 * Import_Groups), then creates the markers, published, in one batch (Marker_Batch_Writer), with
 * term counts updated once at the end and one markers-version change for the whole import.
 * CSV rows with an address and no coordinates become drafts, queued for the background
 * geocoding job (Geocode_Queue, Geocode_Job), which publishes each one once it is found. Also
 * the import's limits (MAX_ROWS, MAX_BYTES, both filtered) and who may import and export.
 *
 * A file with any bad record imports nothing: the answer lists every bad record with its place in
 * the file. With `$valid_only` the good records are imported and the bad ones reported as skipped.
 *
 * A group that does not exist yet is created (named as written in the file) when the importer may
 * create groups, and reported as an error otherwise. The per-post hooks of wp_insert_post()
 * (save_post, …) do not fire; `cairn_maps_markers_imported` fires once with the new ids.
 *
 * @since 0.1.0
 */
class Marker_Import {

	/**
	 * Most markers per file (filter `cairn_maps_import_max_rows`).
	 */
	public const MAX_ROWS = 5000;

	/**
	 * Largest file, in bytes (filter `cairn_maps_import_max_bytes`).
	 */
	public const MAX_BYTES = 8 * MB_IN_BYTES;

	/**
	 * Longest title, in characters (stricter than REST writes, which the database column bounds).
	 */
	public const TITLE_MAX = Import_Row_Validator::TITLE_MAX;

	/**
	 * Most groups per marker.
	 */
	public const GROUPS_MAX = Import_Row_Validator::GROUPS_MAX;

	/**
	 * Most markers per INSERT statement.
	 */
	public const BATCH = Marker_Batch_Writer::BATCH;

	/**
	 * Most text (titles and descriptions) per INSERT statement, in bytes.
	 */
	public const BATCH_BYTES = Marker_Batch_Writer::BATCH_BYTES;

	/**
	 * The markers version.
	 *
	 * @var Markers_Version
	 */
	private Markers_Version $version;

	/**
	 * Writes the rows.
	 *
	 * @var Marker_Batch_Writer
	 */
	private Marker_Batch_Writer $writer;

	/**
	 * The geocoding queue.
	 *
	 * @var Geocode_Queue
	 */
	private Geocode_Queue $queue;

	/**
	 * Creates the importer.
	 *
	 * @param Markers_Version|null $version The markers version.
	 * @param Geocode_Queue|null   $queue   The geocoding queue.
	 */
	public function __construct( ?Markers_Version $version = null, ?Geocode_Queue $queue = null ) {
		$this->version = $version ?? new Markers_Version();
		$this->writer  = new Marker_Batch_Writer();
		$this->queue   = $queue ?? new Geocode_Queue();
	}

	/**
	 * Whether the current user may import markers: imported markers are published, possibly into
	 * groups and beside others' markers, so it takes editing others' markers and publishing them.
	 * The REST route and the Tools page ask this one question.
	 */
	public static function current_user_can_import(): bool {
		$type = get_post_type_object( Post_Type::POST_TYPE );
		return null !== $type && current_user_can( $type->cap->edit_others_posts ) && current_user_can( $type->cap->publish_posts );
	}

	/**
	 * Whether the current user may export markers: editing others' markers.
	 */
	public static function current_user_can_export(): bool {
		$type = get_post_type_object( Post_Type::POST_TYPE );
		return null !== $type && current_user_can( $type->cap->edit_others_posts );
	}

	/**
	 * Most markers per file.
	 */
	public static function max_rows(): int {
		/**
		 * Filters how many markers one import may hold.
		 *
		 * @since 0.1.0
		 * @param int $max_rows Most markers per file.
		 */
		return max( 1, (int) apply_filters( 'cairn_maps_import_max_rows', self::MAX_ROWS ) );
	}

	/**
	 * Largest file, in bytes.
	 */
	public static function max_bytes(): int {
		/**
		 * Filters the largest file an import accepts, in bytes.
		 *
		 * @since 0.1.0
		 * @param int $max_bytes Bytes.
		 */
		return max( 1024, (int) apply_filters( 'cairn_maps_import_max_bytes', self::MAX_BYTES ) );
	}

	/**
	 * The error for a file above max_bytes().
	 */
	public static function too_large(): WP_Error {
		return new WP_Error(
			'cairn_maps_import_too_large',
			sprintf(
				/* translators: %s: largest file size, e.g. "8 MB". */
				__( 'The file is larger than %s. Split it into smaller files and import them one by one.', 'cairn-maps' ),
				size_format( self::max_bytes() )
			),
			array( 'status' => 413 )
		);
	}

	/**
	 * Imports a file.
	 *
	 * @param string $content    File content.
	 * @param string $format     `csv`, `geojson`, `gpx`, `kml` or `kmz`.
	 * @param bool   $valid_only Import the good records of a file that has bad ones.
	 * @return array{imported: int, shapes: int, geocoding: int, groups_created: string[], skipped: array<int, array<string, int|string>>, notices: array<int, array<string, int|string>>}|WP_Error
	 *         What was done (`shapes`: how many of the imported markers are lines or areas;
	 *         `geocoding`: how many are drafts waiting for their address to be geocoded;
	 *         `notices`: rows imported with a remark, e.g. a track without elevation), or why
	 *         nothing was (`data.errors` lists the bad records).
	 */
	public function import( string $content, string $format, bool $valid_only = false ) {
		if ( strlen( $content ) > self::max_bytes() ) {
			return self::too_large();
		}
		if ( 'csv' !== $format ) {
			// Shapes are held as PHP arrays while they are checked: as much room as the admin gets.
			wp_raise_memory_limit( 'cairn_maps_import' );
		}
		$records = Import_Reader::read( $content, $format, self::max_rows() );
		if ( is_wp_error( $records ) ) {
			return $records;
		}

		$rows   = array();
		$errors = array();
		$groups = new Import_Groups();
		foreach ( $records as $record ) {
			$row = isset( $record['fields'] ) ? Import_Row_Validator::check( $record['fields'], $groups ) : (string) ( $record['error'] ?? '' );
			if ( is_string( $row ) ) {
				$errors[] = $record['at'] + array( 'message' => $row );
				continue;
			}
			$row['line'] = (int) ( $record['at']['line'] ?? 0 );
			$row['at']   = $record['at'];
			$rows[]      = self::with_shape_text( $row );
		}

		if ( array() !== $errors && ( ! $valid_only || array() === $rows ) ) {
			$message = $valid_only
				? __( 'No marker in the file is valid, so nothing was imported.', 'cairn-maps' )
				: sprintf(
					/* translators: 1: number of bad rows, 2: number of rows. */
					_n( '%1$d of %2$d markers in the file has errors, so nothing was imported. Correct it, or import only the valid markers.', '%1$d of %2$d markers in the file have errors, so nothing was imported. Correct them, or import only the valid markers.', count( $errors ), 'cairn-maps' ),
					count( $errors ),
					count( $records )
				);
			return new WP_Error(
				'cairn_maps_import_invalid',
				$message,
				array(
					'status' => 400,
					'errors' => $errors,
					'total'  => count( $records ),
					'valid'  => count( $rows ),
				)
			);
		}

		$created = $this->write( $rows, $groups );
		if ( is_wp_error( $created ) ) {
			return $created;
		}
		$written = array_slice( $rows, 0, $created['imported'] );
		$notices = array();
		foreach ( $written as $row ) {
			if ( '' !== $row['notice'] ) {
				$notices[] = $row['at'] + array( 'message' => $row['notice'] );
			}
		}
		return array(
			'imported'       => $created['imported'],
			'shapes'         => count( array_filter( $written, static fn( array $row ): bool => isset( $row['geometry_json'] ) ) ),
			'geocoding'      => $created['geocoding'],
			'groups_created' => $created['groups_created'],
			'skipped'        => array_merge( $errors, $created['failed'] ),
			'notices'        => $notices,
		);
	}

	/**
	 * A clean row with its shape (if any) as the two texts stored (`cairn_geometry` and the
	 * derived `_cairn_shape`) instead of arrays, and its report notice.
	 *
	 * @since 0.5.0
	 * @param array{title: string, lat: float|null, lng: float|null, groups: string[], description: string, address: string, line: int, at: array<string, int|string>, geometry?: array{type: string, coordinates: array<int, mixed>}} $row A clean row.
	 * @return array{title: string, lat: float|null, lng: float|null, groups: string[], description: string, address: string, line: int, at: array<string, int|string>, notice: string, geometry_json?: string, shape_json?: string}
	 */
	private static function with_shape_text( array $row ): array {
		$row['notice'] = Import_Row_Validator::notice( $row );
		if ( isset( $row['geometry'] ) ) {
			$row['geometry_json'] = Shape_Store::encode( $row['geometry'] );
			$row['shape_json']    = Shape_Store::derive( $row['geometry'] );
		}
		unset( $row['geometry'] );
		return $row;
	}

	/**
	 * Creates the groups and markers.
	 *
	 * @param array<int, array{title: string, lat: float|null, lng: float|null, groups: string[], description: string, address: string, line: int, at: array<string, int|string>, notice: string, geometry_json?: string, shape_json?: string}> $rows   Clean rows.
	 * @param Import_Groups                                                                                                                                                                                                                     $groups Groups seen.
	 * @return array{imported: int, geocoding: int, groups_created: string[], failed: array<int, array<string, int|string>>}|WP_Error
	 */
	private function write( array $rows, Import_Groups $groups ) {
		return $this->version->batch(
			function () use ( $rows, $groups ) {
				$tt_ids = array();
				foreach ( $groups->create_missing() as $slug => $term_id ) {
					$term = get_term( $term_id, Post_Type::TAXONOMY );
					if ( $term instanceof WP_Term ) {
						$tt_ids[ $slug ] = (int) $term->term_taxonomy_id;
					}
				}
				// A marker never silently loses a group: when a group could not be created, nothing
				// is imported, and the groups this import created are removed again.
				$missing = array_values( array_diff( array_unique( array_merge( array(), ...array_column( $rows, 'groups' ) ) ), array_keys( $tt_ids ) ) );
				if ( array() !== $missing ) {
					$groups->delete_created();
					return new WP_Error(
						'cairn_maps_import_failed',
						sprintf(
							/* translators: %s: group slug. */
							__( 'The group "%s" could not be created, so nothing was imported. Try again, or create the group first.', 'cairn-maps' ),
							$missing[0]
						),
						array( 'status' => 500 )
					);
				}
				$slugs = $this->writer->unique_slugs( array_column( $rows, 'title' ) );
				$ids   = array();
				$error = null;
				foreach ( $this->writer->batches( $rows ) as $offset => $batch ) {
					$batch_ids = $this->writer->insert_batch( $batch, array_slice( $slugs, $offset, count( $batch ) ), $tt_ids );
					if ( is_wp_error( $batch_ids ) ) {
						$error = $batch_ids;
						break;
					}
					array_push( $ids, ...$batch_ids );
				}
				// The drafts written join the geocoding queue; the job starts on the next cron run.
				$written   = array_slice( $rows, 0, count( $ids ) );
				$published = array();
				$queued    = 0;
				foreach ( $written as $index => $row ) {
					if ( null === $row['lat'] ) {
						++$queued;
					} else {
						$published[] = $ids[ $index ];
					}
				}
				if ( $queued > 0 ) {
					$this->queue->add( $queued );
					Geocode_Job::schedule( time() );
				}
				// Term counts once for the whole import, as wp_defer_term_counting() would.
				if ( array() !== $tt_ids ) {
					wp_update_term_count_now( array_values( $tt_ids ), Post_Type::TAXONOMY );
				}
				wp_cache_set_posts_last_changed();
				wp_cache_set_terms_last_changed();
				$this->version->bump(); // Held by batch(): one change for the whole import.
				if ( array() !== $published ) {
					/**
					 * Fires after an import wrote markers (in bulk, without the per-post hooks of
					 * wp_insert_post()).
					 *
					 * @since 0.1.0
					 * @param int[] $ids Ids of the new, published markers (not the drafts that
					 *                   wait for geocoding: they are published one by one later).
					 */
					do_action( 'cairn_maps_markers_imported', $published );
				}
				if ( null !== $error ) {
					return new WP_Error(
						'cairn_maps_import_failed',
						sprintf(
							/* translators: %d: number of markers written before the failure. */
							__( 'The database stopped the import after %d markers. Those markers were kept; the others were not imported.', 'cairn-maps' ),
							count( $ids )
						),
						// The database's own words stay in the server's error log (wpdb writes them
						// there): they name tables and columns, and help no one importing a file.
						array( 'status' => 500 )
					);
				}
				return array(
					'imported'       => count( $ids ),
					'geocoding'      => $queued,
					'groups_created' => $groups->created(),
					'failed'         => array(),
				);
			}
		);
	}

}
