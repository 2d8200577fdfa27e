<?php
/**
 * Imports markers from a CSV or GeoJSON file.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Import_Export;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Markers\Marker_Validation;
use Cairn\Maps\Markers\Markers_Version;
use Cairn\Maps\Markers\Post_Type;
use WP_Error;
use WP_Term;

/**
 * Checks every record of a file first, then creates the markers, published, in one batch.
 *
 * Rules for a record:
 * - `title` is required: plain text (tags removed), at most TITLE_MAX characters;
 * - `lat` and `lng` follow Marker_Validation::coordinate(), the rules of the REST API;
 * - `description` is optional; HTML is kept as far as posts allow it (wp_kses_post);
 * - groups are slugs or names, each turned into a slug with sanitize_title(). A group that does not
 *   exist yet is created (named as written in the file) when the importer may create groups,
 *   and reported as an error otherwise; at most GROUPS_MAX per marker;
 * - text must be valid UTF-8.
 *
 * A file with any bad record imports nothing: the answer lists every bad record with its place in
 * the file. With `$valid_only` the good records are imported and the bad ones reported as skipped.
 *
 * Writing is bulk work, bounded by MAX_ROWS: markers go in with one multi-row INSERT per batch of
 * BATCH rows (posts, then their coordinates, then their groups), after the same sanitising filters
 * wp_insert_post() applies (kses for users without unfiltered_html), with unique post names, term
 * counts updated once at the end and one markers-version change for the whole import. Through
 * wp_insert_post() each marker costs about 20 queries: 5,000 markers took 48 s on MariaDB, past
 * any request time limit; in batches they take well under 2 s. The per-post hooks of
 * wp_insert_post() (save_post, …) do not fire; `cairn_maps_markers_imported` fires once with the
 * new ids.
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
	public const TITLE_MAX = 500;

	/**
	 * Most groups per marker.
	 */
	public const GROUPS_MAX = 20;

	/**
	 * Most markers per INSERT statement.
	 */
	public const BATCH = 500;

	/**
	 * Most text (titles and descriptions) per INSERT statement, in bytes.
	 */
	public const BATCH_BYTES = MB_IN_BYTES;

	/**
	 * The markers version.
	 *
	 * @var Markers_Version
	 */
	private Markers_Version $version;

	/**
	 * Creates the importer.
	 *
	 * @param Markers_Version|null $version The markers version.
	 */
	public function __construct( ?Markers_Version $version = null ) {
		$this->version = $version ?? new Markers_Version();
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
	 * @param string $format     `csv` or `geojson`.
	 * @param bool   $valid_only Import the good records of a file that has bad ones.
	 * @return array{imported: int, groups_created: string[], skipped: array<int, array<string, int|string>>}|WP_Error
	 *         What was done, or why nothing was (`data.errors` lists the bad records).
	 */
	public function import( string $content, string $format, bool $valid_only = false ) {
		if ( strlen( $content ) > self::max_bytes() ) {
			return self::too_large();
		}
		$records = Import_Reader::read( $content, $format, self::max_rows() );
		if ( is_wp_error( $records ) ) {
			return $records;
		}

		$rows   = array();
		$errors = array();
		$groups = new Import_Groups();
		foreach ( $records as $record ) {
			$row = isset( $record['fields'] ) ? $this->check( $record['fields'], $groups ) : (string) ( $record['error'] ?? '' );
			if ( is_string( $row ) ) {
				$errors[] = $record['at'] + array( 'message' => $row );
				continue;
			}
			$rows[] = $row;
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
		return array(
			'imported'       => $created['imported'],
			'groups_created' => $created['groups_created'],
			'skipped'        => array_merge( $errors, $created['failed'] ),
		);
	}

	/**
	 * Checks one record.
	 *
	 * @param array{title: mixed, lat: mixed, lng: mixed, groups: string[], description: mixed} $fields Raw fields.
	 * @param Import_Groups                                                                     $groups Groups seen so far.
	 * @return array{title: string, lat: float, lng: float, groups: string[], description: string}|string The clean row, or why it is refused.
	 */
	private function check( array $fields, Import_Groups $groups ) {
		foreach ( array( $fields['title'], $fields['description'], ...$fields['groups'] ) as $text ) {
			if ( is_string( $text ) && 1 !== preg_match( '//u', $text ) ) {
				return __( 'This row is not valid UTF-8 text. Save the file as CSV UTF-8 and import it again.', 'cairn-maps' );
			}
		}
		$title = trim( wp_strip_all_tags( (string) $fields['title'], true ) );
		if ( '' === $title ) {
			return __( 'A title is required.', 'cairn-maps' );
		}
		if ( mb_strlen( $title, 'UTF-8' ) > self::TITLE_MAX ) {
			/* translators: %d: most characters. */
			return sprintf( __( 'The title is longer than %d characters.', 'cairn-maps' ), self::TITLE_MAX );
		}
		$coordinates = array();
		foreach ( array( Post_Type::META_LAT, Post_Type::META_LNG ) as $key ) {
			$checked = Marker_Validation::coordinate( $key, Post_Type::META_LAT === $key ? $fields['lat'] : $fields['lng'] );
			if ( is_wp_error( $checked ) ) {
				return $checked->get_error_message();
			}
			$coordinates[ $key ] = $checked;
		}
		if ( count( $fields['groups'] ) > self::GROUPS_MAX ) {
			/* translators: %d: most groups per marker. */
			return sprintf( __( 'A marker may be in at most %d groups.', 'cairn-maps' ), self::GROUPS_MAX );
		}
		$slugs = array();
		foreach ( $fields['groups'] as $name ) {
			$slug = $groups->resolve( $name );
			if ( is_wp_error( $slug ) ) {
				return $slug->get_error_message();
			}
			$slugs[] = $slug;
		}
		return array(
			'title'       => $title,
			'lat'         => $coordinates[ Post_Type::META_LAT ],
			'lng'         => $coordinates[ Post_Type::META_LNG ],
			'groups'      => array_values( array_unique( $slugs ) ),
			'description' => trim( wp_kses_post( (string) $fields['description'] ) ),
		);
	}

	/**
	 * Creates the groups and markers.
	 *
	 * @param array<int, array{title: string, lat: float, lng: float, groups: string[], description: string}> $rows   Clean rows.
	 * @param Import_Groups                                                                                   $groups Groups seen.
	 * @return array{imported: int, groups_created: string[], failed: array<int, array<string, int|string>>}|WP_Error
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
				$slugs = $this->unique_slugs( array_column( $rows, 'title' ) );
				$ids   = array();
				$error = null;
				foreach ( $this->batches( $rows ) as $offset => $batch ) {
					$batch_ids = $this->insert_batch( $batch, array_slice( $slugs, $offset, count( $batch ) ), $tt_ids );
					if ( is_wp_error( $batch_ids ) ) {
						$error = $batch_ids;
						break;
					}
					array_push( $ids, ...$batch_ids );
				}
				// Term counts once for the whole import, as wp_defer_term_counting() would.
				if ( array() !== $tt_ids ) {
					wp_update_term_count_now( array_values( $tt_ids ), Post_Type::TAXONOMY );
				}
				wp_cache_set_posts_last_changed();
				wp_cache_set_terms_last_changed();
				$this->version->bump(); // Held by batch(): one change for the whole import.
				if ( array() !== $ids ) {
					/**
					 * Fires after an import wrote markers (in bulk, without the per-post hooks of
					 * wp_insert_post()).
					 *
					 * @since 0.1.0
					 * @param int[] $ids Ids of the new, published markers.
					 */
					do_action( 'cairn_maps_markers_imported', $ids );
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
					'groups_created' => $groups->created(),
					'failed'         => array(),
				);
			}
		);
	}

	/**
	 * Rows in batches of at most BATCH markers and about BATCH_BYTES of text (far below MySQL's
	 * `max_allowed_packet`), keyed by the offset of their first row.
	 *
	 * @param array<int, array{title: string, lat: float, lng: float, groups: string[], description: string}> $rows Rows.
	 * @return \Generator<int, array<int, array{title: string, lat: float, lng: float, groups: string[], description: string}>>
	 */
	private function batches( array $rows ): \Generator {
		$batch  = array();
		$bytes  = 0;
		$offset = 0;
		foreach ( $rows as $index => $row ) {
			$size = strlen( $row['title'] ) + strlen( $row['description'] );
			if ( array() !== $batch && ( count( $batch ) >= self::BATCH || $bytes + $size > self::BATCH_BYTES ) ) {
				yield $offset => $batch;
				$batch  = array();
				$bytes  = 0;
				$offset = $index;
			}
			$batch[] = $row;
			$bytes  += $size;
		}
		if ( array() !== $batch ) {
			yield $offset => $batch;
		}
	}

	/**
	 * Writes one batch: one multi-row INSERT each for posts, meta and group relationships.
	 *
	 * @param array<int, array{title: string, lat: float, lng: float, groups: string[], description: string}> $batch  Rows.
	 * @param string[]                                                                                        $slugs  Their post names.
	 * @param array<string, int>                                                                              $tt_ids Term taxonomy ids by group slug.
	 * @return int[]|WP_Error Ids of the new markers, in row order.
	 */
	private function insert_batch( array $batch, array $slugs, array $tt_ids ) {
		global $wpdb;
		$token   = 'cairn-import-' . wp_generate_password( 12, false ) . '-';
		$now     = current_time( 'mysql' );
		$now_gmt = current_time( 'mysql', true );
		$author  = get_current_user_id();
		$columns = array(
			'post_author'           => '%d',
			'post_date'             => '%s',
			'post_date_gmt'         => '%s',
			'post_content'          => '%s',
			'post_title'            => '%s',
			'post_excerpt'          => '%s',
			'post_status'           => '%s',
			'comment_status'        => '%s',
			'ping_status'           => '%s',
			'post_password'         => '%s',
			'post_name'             => '%s',
			'to_ping'               => '%s',
			'pinged'                => '%s',
			'post_modified'         => '%s',
			'post_modified_gmt'     => '%s',
			'post_content_filtered' => '%s',
			'post_parent'           => '%d',
			'guid'                  => '%s',
			'menu_order'            => '%d',
			'post_type'             => '%s',
			'post_mime_type'        => '%s',
			'comment_count'         => '%d',
		);
		$tuples  = array();
		$values  = array();
		foreach ( $batch as $index => $row ) {
			// The filters wp_insert_post() applies (kses for users without unfiltered_html, …).
			$post     = wp_unslash(
				sanitize_post(
					wp_slash(
						array(
							'post_title'   => $row['title'],
							'post_content' => $row['description'],
							'post_name'    => $slugs[ $index ],
							'post_type'    => Post_Type::POST_TYPE,
						)
					),
					'db'
				)
			);
			$record   = array(
				'post_author'           => $author,
				'post_date'             => $now,
				'post_date_gmt'         => $now_gmt,
				'post_content'          => (string) $post['post_content'],
				'post_title'            => (string) $post['post_title'],
				'post_excerpt'          => '',
				'post_status'           => 'publish',
				'comment_status'        => get_default_comment_status( Post_Type::POST_TYPE ),
				'ping_status'           => get_default_comment_status( Post_Type::POST_TYPE, 'pingback' ),
				'post_password'         => '',
				'post_name'             => (string) $post['post_name'],
				'to_ping'               => '',
				'pinged'                => '',
				'post_modified'         => $now,
				'post_modified_gmt'     => $now_gmt,
				'post_content_filtered' => '',
				'post_parent'           => 0,
				'guid'                  => $token . $index,
				'menu_order'            => 0,
				'post_type'             => Post_Type::POST_TYPE,
				'post_mime_type'        => '',
				'comment_count'         => 0,
			);
			$tuples[] = '(' . implode( ',', $columns ) . ')';
			array_push( $values, ...array_values( $record ) );
		}
		$sql = "INSERT INTO {$wpdb->posts} (" . implode( ',', array_keys( $columns ) ) . ') VALUES ' . implode( ',', $tuples );
		// phpcs:ignore WordPress.DB.PreparedSQL.NotPrepared, WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching -- prepared here; only placeholders are interpolated. Bulk insert: see the class comment.
		if ( false === $wpdb->query( $wpdb->prepare( $sql, $values ) ) ) {
			return new WP_Error( 'cairn_maps_import_failed' );
		}
		// The new ids, found through the row tokens: neither the auto-increment step nor which row
		// `insert_id` names (MySQL: the first; SQLite: the last) is the same everywhere. Type,
		// status and date narrow the search to this batch through the type_status_date index.
		$rows = $wpdb->get_results( // phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching -- the rows just inserted.
			$wpdb->prepare(
				"SELECT ID, guid FROM {$wpdb->posts} WHERE post_type = %s AND post_status = 'publish' AND post_date = %s AND guid LIKE %s",
				Post_Type::POST_TYPE,
				$now,
				$wpdb->esc_like( $token ) . '%'
			),
			ARRAY_A
		);
		$ids  = array();
		foreach ( is_array( $rows ) ? $rows : array() as $row ) {
			$ids[ (int) substr( (string) $row['guid'], strlen( $token ) ) ] = (int) $row['ID'];
		}
		ksort( $ids );
		if ( count( $ids ) !== count( $batch ) ) {
			$this->delete_posts( array_values( $ids ) );
			return new WP_Error( 'cairn_maps_import_failed' );
		}

		$guid = home_url( '/?post_type=' . Post_Type::POST_TYPE . '&p=' );
		// phpcs:ignore WordPress.DB.PreparedSQL.InterpolatedNotPrepared, WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching, WordPress.DB.PreparedSQLPlaceholders.UnfinishedPrepare -- prepared; the id list holds only placeholders.
		$wpdb->query( $wpdb->prepare( "UPDATE {$wpdb->posts} SET guid = CONCAT( %s, ID ) WHERE ID IN (" . implode( ',', array_fill( 0, count( $ids ), '%d' ) ) . ')', array_merge( array( $guid ), array_values( $ids ) ) ) );

		$meta      = array();
		$relations = array();
		foreach ( $batch as $index => $row ) {
			$id = $ids[ $index ];
			array_push( $meta, $id, Post_Type::META_LAT, Post_Type::format_coordinate( $row['lat'] ), $id, Post_Type::META_LNG, Post_Type::format_coordinate( $row['lng'] ) );
			foreach ( $row['groups'] as $slug ) {
				if ( isset( $tt_ids[ $slug ] ) ) {
					array_push( $relations, $id, $tt_ids[ $slug ] );
				}
			}
		}
		$sql = "INSERT INTO {$wpdb->postmeta} (post_id, meta_key, meta_value) VALUES " . implode( ',', array_fill( 0, intdiv( count( $meta ), 3 ), '(%d,%s,%s)' ) );
		// phpcs:ignore WordPress.DB.PreparedSQL.NotPrepared, WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching -- prepared here; only placeholders are interpolated.
		if ( false === $wpdb->query( $wpdb->prepare( $sql, $meta ) ) ) {
			$this->delete_posts( array_values( $ids ) );
			return new WP_Error( 'cairn_maps_import_failed' );
		}
		if ( array() !== $relations ) {
			$sql = "INSERT INTO {$wpdb->term_relationships} (object_id, term_taxonomy_id) VALUES " . implode( ',', array_fill( 0, intdiv( count( $relations ), 2 ), '(%d,%d)' ) );
			// A batch whose groups could not be written is not kept: no marker silently loses a group.
			// phpcs:ignore WordPress.DB.PreparedSQL.NotPrepared, WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching -- prepared here; only placeholders are interpolated.
			if ( false === $wpdb->query( $wpdb->prepare( $sql, $relations ) ) ) {
				$this->delete_posts( array_values( $ids ) );
				return new WP_Error( 'cairn_maps_import_failed' );
			}
		}
		return array_values( $ids );
	}

	/**
	 * Removes the markers of a batch that could not be completed.
	 *
	 * @param int[] $ids Marker ids.
	 */
	private function delete_posts( array $ids ): void {
		global $wpdb;
		$in = implode( ',', array_fill( 0, count( $ids ), '%d' ) );
		// phpcs:disable WordPress.DB.PreparedSQL.InterpolatedNotPrepared, WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching, WordPress.DB.PreparedSQLPlaceholders.UnfinishedPrepare -- prepared; the id list holds only placeholders.
		$wpdb->query( $wpdb->prepare( "DELETE FROM {$wpdb->postmeta} WHERE post_id IN ($in)", $ids ) );
		$wpdb->query( $wpdb->prepare( "DELETE FROM {$wpdb->posts} WHERE ID IN ($in)", $ids ) );
		// phpcs:enable
	}

	/**
	 * Post names for the titles, unique among markers as wp_unique_post_slug() makes them
	 * (`castle`, `castle-2`, …), with a few queries for the whole import.
	 *
	 * @param string[] $titles Titles.
	 * @return string[] Names, in the same order.
	 */
	private function unique_slugs( array $titles ): array {
		global $wpdb;
		$bases = array();
		foreach ( $titles as $title ) {
			$base = sanitize_title( $title );
			if ( strlen( $base ) > 190 ) {
				// Never cut a %xx escape of a non-ASCII character in two.
				$base = rtrim( (string) preg_replace( '/%[0-9a-f]?$/', '', substr( $base, 0, 190 ) ), '-' );
			}
			$bases[] = '' !== $base ? $base : 'marker';
		}
		$taken = array();
		foreach ( array_chunk( array_values( array_unique( $bases ) ), 500 ) as $chunk ) {
			// phpcs:ignore WordPress.DB.PreparedSQL.InterpolatedNotPrepared, WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching -- prepared; the list holds only placeholders.
			$names = $wpdb->get_col( $wpdb->prepare( "SELECT post_name FROM {$wpdb->posts} WHERE post_type = %s AND post_name IN (" . implode( ',', array_fill( 0, count( $chunk ), '%s' ) ) . ')', array_merge( array( Post_Type::POST_TYPE ), $chunk ) ) );
			foreach ( $names as $name ) {
				$taken[ $name ] = true;
			}
		}
		// Names that need a suffix: taken already, or repeated in the file. Their highest suffix
		// in use is read for 50 names per query.
		$repeated = array_keys( array_filter( array_count_values( $bases ), static fn( int $count ): bool => $count > 1 ) );
		$suffixed = array_values( array_unique( array_merge( array_keys( array_intersect_key( $taken, array_flip( $bases ) ) ), $repeated ) ) );
		$next     = array_fill_keys( $suffixed, 2 ); // Next suffix to try, by name.
		foreach ( array_chunk( $suffixed, 50 ) as $chunk ) {
			$likes = array();
			foreach ( $chunk as $base ) {
				$likes[] = $wpdb->esc_like( $base . '-' ) . '%';
			}
			// phpcs:ignore WordPress.DB.PreparedSQL.InterpolatedNotPrepared, WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching, WordPress.DB.PreparedSQLPlaceholders.ReplacementsWrongNumber -- prepared; the list holds only placeholders.
			$names = $wpdb->get_col( $wpdb->prepare( "SELECT post_name FROM {$wpdb->posts} WHERE post_type = %s AND (" . implode( ' OR ', array_fill( 0, count( $likes ), 'post_name LIKE %s' ) ) . ')', array_merge( array( Post_Type::POST_TYPE ), $likes ) ) );
			foreach ( $names as $name ) {
				if ( 1 === preg_match( '/^(.+)-(\d+)$/', $name, $match ) && isset( $next[ $match[1] ] ) ) {
					$next[ $match[1] ] = max( $next[ $match[1] ], (int) $match[2] + 1 );
				}
			}
		}
		$slugs = array();
		foreach ( $bases as $base ) {
			if ( ! isset( $taken[ $base ] ) ) {
				$taken[ $base ] = true;
				$slugs[]        = $base;
				continue;
			}
			$next[ $base ] = $next[ $base ] ?? 2; // A name another title's suffix took in this file.
			do {
				$slug = $base . '-' . $next[ $base ]++;
			} while ( isset( $taken[ $slug ] ) );
			$taken[ $slug ] = true;
			$slugs[]        = $slug;
		}
		return $slugs;
	}
}
