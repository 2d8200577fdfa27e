<?php
/**
 * Imports markers from a CSV, GeoJSON, GPX, KML or KMZ file.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Import_Export;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Content\Location_Types;
use Cairn\Maps\Markers\Geometry_Measures;
use Cairn\Maps\Markers\Markers_Version;
use Cairn\Maps\Markers\Post_Type;
use Cairn\Maps\Markers\Shape_Store;
use WP_Error;

/**
 * Imports a file: every record is checked (Import_Row_Validator; groups resolved by
 * Import_Groups), and the good ones are written in batches (Marker_Batch_Writer) as they come,
 * published, with term counts updated once at the end and one markers-version change for the
 * whole import. CSV rows with an address and no coordinates become drafts, queued for the
 * background geocoding job (Geocode_Queue, Geocode_Job), which publishes each one once it is
 * found. Also the import's limits (MAX_ROWS, MAX_BYTES, both filtered; the WP-CLI import has
 * none) and who may import and export.
 *
 * A partial import: the valid records are imported and every other one is reported with its
 * place in the file and why (Import_Report), as are the remarks on rows that were imported. Only
 * a file none of whose records is valid is an error. A dry run answers the same report and
 * writes nothing.
 *
 * A row may name a `post_type` enabled for places (Location_Types): it is then imported as a
 * published post of that type with a public place, without groups. A group that does not exist
 * yet is created (named as written in the file) when the importer may create groups, and the row
 * is refused otherwise. The per-post hooks of wp_insert_post() (save_post, …) do not fire;
 * `cairn_maps_markers_imported` fires once per batch with the new ids.
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
	 * Records per CSV chunk read from disk (import_file()).
	 */
	public const CHUNK_ROWS = 2000;

	/**
	 * Batches between two flushes of the in-memory object cache.
	 */
	private const FLUSH_EVERY = 20;

	/**
	 * Batches written.
	 *
	 * @var int
	 */
	private int $batches = 0;

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
	 * Imports a file (REST, the Tools page): read whole, then run().
	 *
	 * @param string                    $content File content.
	 * @param string                    $format  `csv`, `geojson`, `gpx`, `kml` or `kmz`.
	 * @param array<string, mixed>|bool $options run()'s options (a bool: the former `$valid_only`,
	 *                                           now always on: valid rows import, the others are reported).
	 * @return array<string, mixed>|WP_Error The report (see run()).
	 */
	public function import( string $content, string $format, $options = array() ) {
		$options = is_array( $options ) ? $options : array();
		if ( strlen( $content ) > self::max_bytes() ) {
			return self::too_large();
		}
		if ( 'csv' !== $format ) {
			// Shapes are held as PHP arrays while they are checked: as much room as the admin gets.
			wp_raise_memory_limit( 'cairn_maps_import' );
		}
		$records = Import_Reader::read( $content, $format, self::max_rows(), self::reader_options( $options ) );
		if ( is_wp_error( $records ) ) {
			return $records;
		}
		return $this->run( $records, $options );
	}

	/**
	 * Imports a file from disk (WP-CLI): a CSV file is streamed in chunks of CHUNK_ROWS records,
	 * each read by Import_Reader, so memory stays bounded whatever the number of rows; the other
	 * formats are read whole. No row or size limit: the one running it owns the server.
	 *
	 * @param string                   $path     File path.
	 * @param string                   $format   Format.
	 * @param array<string, mixed>     $options  run()'s options (and `chunk_rows`, for tests).
	 * @param callable(int): void|null $progress Told the bytes read so far, after each chunk.
	 * @return array<string, mixed>|WP_Error The report.
	 */
	public function import_file( string $path, string $format, array $options = array(), ?callable $progress = null ) {
		if ( 'csv' === $format ) {
			$chunks = new Csv_Chunks( $path, (int) ( $options['chunk_rows'] ?? self::CHUNK_ROWS ) );
			$error  = $chunks->open();
			if ( is_wp_error( $error ) ) {
				return $error;
			}
			$reader  = self::reader_options( $options );
			$records = ( static function () use ( $chunks, $reader ) {
				foreach ( $chunks->chunks() as $chunk ) {
					$read = Import_Reader::read( $chunk['content'], 'csv', PHP_INT_MAX, $reader );
					if ( is_wp_error( $read ) ) {
						if ( 'cairn_maps_import_empty' === $read->get_error_code() ) {
							continue; // Only blank lines in this chunk.
						}
						yield array( 'fatal' => $read );
						return;
					}
					foreach ( $read as $record ) {
						/**
						 * The readers' keys, and `line`, `notices`, `folder` (imports-common.md).
						 *
						 * @var array<string, mixed> $record
						 */
						// The reader counted the chunk's header as line 1.
						$shift = $chunk['first_line'] - 2;
						if ( isset( $record['at']['line'] ) ) {
							$record['at']['line'] = (int) $record['at']['line'] + $shift;
						}
						if ( isset( $record['line'] ) ) {
							$record['line'] = (int) $record['line'] + $shift;
						}
						if ( isset( $record['notices'] ) && is_array( $record['notices'] ) ) {
							foreach ( $record['notices'] as $key => $notice ) {
								$record['notices'][ $key ]['line'] = (int) ( $notice['line'] ?? 0 ) + $shift;
							}
						}
						yield $record;
					}
					if ( null !== $chunk['progress'] ) {
						yield array( 'progress' => $chunk['progress'] );
					}
				}
			} )();
			return $this->run( $records, $options, $progress );
		}
		$content = file_get_contents( $path ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_get_contents_file_get_contents -- a local file named on the command line.
		if ( ! is_string( $content ) ) {
			return new WP_Error( 'cairn_maps_import_unreadable', __( 'The file could not be read.', 'cairn-maps' ) );
		}
		$records = Import_Reader::read( $content, $format, PHP_INT_MAX, self::reader_options( $options ) );
		unset( $content );
		if ( is_wp_error( $records ) ) {
			return $records;
		}
		$size = (int) filesize( $path );
		return $this->run( $records, $options, $progress, $size );
	}

	/**
	 * The readers' options, from the import's.
	 *
	 * @param array<string, mixed> $options Import options.
	 * @return array<string, string>
	 */
	private static function reader_options( array $options ): array {
		$title = self::title_property( $options['title_property'] ?? '' );
		return '' === $title ? array() : array( 'title_property' => $title );
	}

	/**
	 * A GeoJSON property name to take titles from: a plain name of at most 64 characters, or ''.
	 *
	 * @param mixed $value Value.
	 */
	public static function title_property( $value ): string {
		$value = is_string( $value ) ? trim( $value ) : '';
		return 1 === preg_match( '/^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$/', $value ) ? $value : '';
	}

	/**
	 * Checks the records and writes the good ones in batches of BATCH: a partial import. Every
	 * refused record is reported with its place in the file and why; rows imported with a remark
	 * (the readers' `notices`, a line without elevation…) are reported as notices.
	 *
	 * Options: `dry_run` (check everything, write nothing: no marker, post, group, queue or
	 * version change), `folder_groups` (a KML Folder path becomes a group of that name, matched
	 * to an existing group by name or slug, created only when the user may edit groups),
	 * `group` (a group every row joins, by name or slug, same rules).
	 *
	 * @param iterable                 $records  Records from Import_Reader (or a stream of them).
	 * @phpstan-param iterable<int, array<string, mixed>> $records
	 * @param array<string, mixed>     $options  Options.
	 * @param callable(int): void|null $progress Told progress after each batch.
	 * @param int                      $end      The progress value at the end, if known.
	 * @return array<string, mixed>|WP_Error What was done: `imported`, `shapes`, `geocoding`,
	 *         `groups_created`, `skipped` and `notices` (at most REPORT_MAX each; `skipped_count`
	 *         and `notices_count` count them all), `total` records, `kinds` (markers, routes,
	 *         areas, posts), `dry_run`, and for a dry run `groups_new` and `preview` (a GeoJSON
	 *         FeatureCollection of at most PREVIEW_MAX features). A WP_Error when the file cannot
	 *         be read or none of its records is valid (`data.errors` lists the bad records).
	 */
	public function run( iterable $records, array $options = array(), ?callable $progress = null, int $end = 0 ) {
		$dry_run       = ! empty( $options['dry_run'] );
		$folder_groups = ! empty( $options['folder_groups'] );
		$all_in        = is_string( $options['group'] ?? null ) ? trim( $options['group'] ) : '';
		$groups        = new Import_Groups();
		$report        = new Import_Report( $dry_run );
		$pending       = array();
		$pending_bytes = 0;

		$work = function () use ( $records, $dry_run, $folder_groups, $all_in, $groups, $report, $progress, $end, &$pending, &$pending_bytes ) {
			foreach ( $records as $record ) {
				if ( isset( $record['fatal'] ) ) {
					return $record['fatal'];
				}
				if ( isset( $record['progress'] ) ) {
					if ( null !== $progress ) {
						$progress( (int) $record['progress'] );
					}
					continue;
				}
				$report->count_record();
				$at = isset( $record['at'] ) && is_array( $record['at'] ) ? $record['at'] : array( 'line' => (int) ( $record['line'] ?? 0 ) );
				if ( ! empty( $record['skipped'] ) && ! isset( $record['fields'] ) ) {
					// Left out on purpose by the reader (nothing to draw): a note, not a refusal.
					$report->notice( $at, (string) ( $record['error'] ?? '' ) );
					continue;
				}
				if ( ! isset( $record['fields'] ) || ! is_array( $record['fields'] ) ) {
					$report->skip( $at, (string) ( $record['error'] ?? __( 'This record could not be read.', 'cairn-maps' ) ) );
					continue;
				}
				$row = $this->check( $record, $groups, $folder_groups, $all_in );
				if ( is_string( $row ) ) {
					$report->skip( $at, $row );
					continue;
				}
				$row['line'] = (int) ( $record['line'] ?? ( $at['line'] ?? $at['row'] ?? 0 ) );
				$row['at']   = $at;
				foreach ( (array) ( $record['notices'] ?? array() ) as $notice ) {
					if ( is_array( $notice ) && isset( $notice['message'] ) ) {
						$report->notice( $at, (string) $notice['message'] );
					}
				}
				if ( '' !== $row['post_notice'] ) {
					$report->notice( $at, $row['post_notice'] );
				}
				$row = self::with_shape_text( $row );
				if ( '' !== $row['notice'] ) {
					$report->notice( $at, $row['notice'] );
				}
				if ( $dry_run ) {
					$report->would_import( $row );
					continue;
				}
				$pending[]      = $row;
				$pending_bytes += strlen( $row['title'] ) + strlen( $row['description'] ) + strlen( $row['geometry_json'] ?? '' ) + strlen( $row['shape_json'] ?? '' );
				if ( count( $pending ) >= self::BATCH || $pending_bytes >= self::BATCH_BYTES ) {
					$failed = $this->write_rows( $pending, $groups, $report );
					if ( null !== $failed ) {
						$this->finish( $report );
						return $failed;
					}
					$pending       = array();
					$pending_bytes = 0;
					if ( null !== $progress && $end > 0 ) {
						$progress( 0 );
					}
				}
			}
			if ( array() !== $pending ) {
				$failed  = $this->write_rows( $pending, $groups, $report );
				$pending = array();
				if ( null !== $failed ) {
					$this->finish( $report );
					return $failed;
				}
			}
			if ( ! $dry_run ) {
				$this->finish( $report );
			}
			if ( null !== $progress && $end > 0 ) {
				$progress( $end );
			}
			return null;
		};

		$fatal = $dry_run ? $work() : $this->version->batch( $work );
		if ( is_wp_error( $fatal ) ) {
			return $fatal;
		}
		if ( $dry_run ) {
			$report->set_groups_new( array_values( $groups->missing() ) );
		} else {
			$report->set_groups_created( $groups->created() );
		}
		return $report->result();
	}

	/**
	 * One record's row, checked, or why it is refused.
	 *
	 * @param array<string, mixed> $record        Record.
	 * @param Import_Groups        $groups        Groups seen.
	 * @param bool                 $folder_groups A folder is a group.
	 * @param string               $all_in        A group for every row.
	 * @return array<string, mixed>|string
	 */
	private function check( array $record, Import_Groups $groups, bool $folder_groups, string $all_in ) {
		$fields = $record['fields'];
		$type   = trim( (string) ( $record['post_type'] ?? ( $fields['post_type'] ?? '' ) ) );
		$type   = '' === $type ? Post_Type::POST_TYPE : $type;
		$folder = trim( (string) ( $record['folder'] ?? ( $fields['folder'] ?? '' ) ) );
		$extra  = array();
		if ( $folder_groups && '' !== $folder ) {
			$extra[] = $folder;
		}
		if ( '' !== $all_in ) {
			$extra[] = $all_in;
		}
		$notice = '';
		if ( Post_Type::POST_TYPE !== $type ) {
			$refused = self::post_type_refusal( $type, $fields );
			if ( '' !== $refused ) {
				return $refused;
			}
			if ( array() !== (array) $fields['groups'] || array() !== $extra ) {
				$notice = __( 'Groups are for markers only: this post was imported without them.', 'cairn-maps' );
			}
			$fields['groups'] = array();
			$extra            = array();
		}
		$fields['groups'] = array_values( array_merge( (array) $fields['groups'], $extra ) );
		$row              = Import_Row_Validator::check( $fields, $groups );
		if ( is_string( $row ) ) {
			return $row;
		}
		$row['post_type']   = $type;
		$row['post_notice'] = $notice;
		return $row;
	}

	/**
	 * Why a row of another post type than markers is refused, or ''.
	 *
	 * @param string               $type   Post type.
	 * @param array<string, mixed> $fields Fields.
	 */
	private static function post_type_refusal( string $type, array $fields ): string {
		if ( ! Location_Types::is_enabled( $type ) ) {
			return sprintf(
				/* translators: %s: post type name from the file. */
				__( 'The post type "%s" is not enabled for places (Settings → Cairn Maps), so this row was not imported.', 'cairn-maps' ),
				$type
			);
		}
		$object  = get_post_type_object( $type );
		$cli     = defined( 'WP_CLI' ) && WP_CLI && 0 === get_current_user_id();
		$allowed = $cli || ( null !== $object && current_user_can( $object->cap->publish_posts ) && current_user_can( $object->cap->edit_others_posts ) );
		if ( null === $object || ! $allowed ) {
			return sprintf(
				/* translators: %s: post type name from the file. */
				__( 'You are not allowed to publish posts of the type "%s".', 'cairn-maps' ),
				$type
			);
		}
		if ( array_key_exists( 'geometry', $fields ) ) {
			return __( 'Only markers can be lines or areas; a post is a place with a latitude and a longitude.', 'cairn-maps' );
		}
		$blank = static fn( $value ): bool => null === $value || ( is_string( $value ) && '' === trim( $value ) );
		if ( $blank( $fields['lat'] ?? null ) || $blank( $fields['lng'] ?? null ) ) {
			return __( 'A post needs a latitude and a longitude (addresses are geocoded for markers only).', 'cairn-maps' );
		}
		return '';
	}

	/**
	 * A clean row with its shape (if any) as the two texts stored (`cairn_geometry` and the
	 * derived `_cairn_shape`) instead of arrays, and its report notice.
	 *
	 * @since 0.5.0
	 * @param array<string, mixed> $row A clean row.
	 * @return array<string, mixed>
	 */
	private static function with_shape_text( array $row ): array {
		$row['notice'] = Import_Row_Validator::notice( $row );
		if ( isset( $row['geometry'] ) ) {
			$row['kind']          = Geometry_Measures::is_line( $row['geometry'] ) ? 'routes' : 'areas';
			$row['geometry_json'] = Shape_Store::encode( $row['geometry'] );
			$row['shape_json']    = Shape_Store::derive( $row['geometry'] );
		} else {
			$row['kind'] = Post_Type::POST_TYPE === $row['post_type'] ? 'markers' : 'posts';
		}
		unset( $row['geometry'] );
		return $row;
	}

	/**
	 * Writes one batch of clean rows: their groups first (a row whose group could not be created
	 * is refused, never imported without it), then the rows, by post type.
	 *
	 * @param array<int, array<string, mixed>> $rows   Clean rows.
	 * @param Import_Groups                    $groups Groups seen.
	 * @param Import_Report                    $report The report.
	 * @return WP_Error|null Why the database stopped the import, if it did.
	 */
	private function write_rows( array $rows, Import_Groups $groups, Import_Report $report ): ?WP_Error {
		$tt_ids = array();
		foreach ( $groups->create_missing() as $slug => $term_id ) {
			$tt_id = $groups->tt_id( $slug );
			if ( $tt_id > 0 ) {
				$tt_ids[ $slug ] = $tt_id;
			}
		}
		$by_type = array();
		foreach ( $rows as $row ) {
			$missing = array_diff( $row['groups'], array_keys( $tt_ids ) );
			if ( array() !== $missing ) {
				$report->skip(
					$row['at'],
					sprintf(
						/* translators: %s: group slug. */
						__( 'The group "%s" could not be created, so this row was not imported. Try again, or create the group first.', 'cairn-maps' ),
						reset( $missing )
					)
				);
				continue;
			}
			$by_type[ $row['post_type'] ][] = $row;
		}
		foreach ( $by_type as $type => $typed ) {
			$slugs = $this->writer->unique_slugs( array_column( $typed, 'title' ), (string) $type );
			$ids   = $this->writer->insert_batch( $typed, $slugs, $tt_ids, (string) $type ); // @phpstan-ignore argument.type (rows from Import_Row_Validator::check(), with_shape_text(): the writer's keys and types)
			if ( is_wp_error( $ids ) ) {
				return new WP_Error(
					'cairn_maps_import_failed',
					sprintf(
						/* translators: %d: number of markers written before the failure. */
						__( 'The database stopped the import after %d markers. Those markers were kept; the others were not imported.', 'cairn-maps' ),
						$report->count_imported()
					),
					// The database's own words stay in the server's error log (wpdb writes them
					// there): they name tables and columns, and help no one importing a file.
					array( 'status' => 500 )
				);
			}
			$published = array();
			$queued    = 0;
			foreach ( $typed as $index => $row ) {
				$report->imported( $row );
				if ( null === $row['lat'] ) {
					++$queued;
				} else {
					$published[] = $ids[ $index ];
				}
				foreach ( $row['groups'] as $slug ) {
					$report->used_group( $tt_ids[ $slug ] );
				}
			}
			if ( $queued > 0 ) {
				// The drafts written join the geocoding queue; the job starts on the next cron run.
				$this->queue->add( $queued );
				Geocode_Job::schedule( time() );
			}
			if ( array() === $published ) {
				continue;
			}
			if ( Post_Type::POST_TYPE === $type ) {
				/**
				 * Fires after an import wrote markers (in bulk, without the per-post hooks of
				 * wp_insert_post()), once per batch.
				 *
				 * @since 0.1.0
				 * @param int[] $ids Ids of the new, published markers (not the drafts that
				 *                   wait for geocoding: they are published one by one later).
				 */
				do_action( 'cairn_maps_markers_imported', $published );
			} else {
				$report->posts_changed();
				/** This action is documented above (posts of a type enabled for places). */
				do_action( 'cairn_maps_markers_imported', $published );
			}
		}
		if ( 0 === ++$this->batches % self::FLUSH_EVERY && wp_cache_supports( 'flush_runtime' ) ) {
			wp_cache_flush_runtime(); // A long import (WP-CLI) keeps no cache of what it read.
		}
		return null;
	}

	/**
	 * After the last batch: term counts once, caches, one version change.
	 *
	 * @param Import_Report $report The report.
	 */
	private function finish( Import_Report $report ): void {
		$tt_ids = $report->groups_used();
		if ( array() !== $tt_ids ) {
			// Term counts once for the whole import, as wp_defer_term_counting() would.
			wp_update_term_count_now( $tt_ids, Post_Type::TAXONOMY );
		}
		if ( $report->count_imported() > 0 ) {
			wp_cache_set_posts_last_changed();
			wp_cache_set_terms_last_changed();
			$this->version->bump(); // Held by batch(): one change for the whole import.
		}
		if ( $report->has_posts() ) {
			/** Documented in Places_Version::add_hooks(). */
			do_action( 'cairn_maps_places_changed' );
		}
	}
}
