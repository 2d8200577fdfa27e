<?php
/**
 * Imported markers written in bulk.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Import_Export;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Content\Location_Types;
use Cairn\Maps\Markers\Post_Type;
use Cairn\Maps\Markers\Shape_Store;
use WP_Error;

/**
 * Writes clean import rows as markers, in bulk: one multi-row INSERT per batch of at
 * most BATCH rows (posts, then their coordinates, then their groups), after the same sanitising
 * filters wp_insert_post() applies (kses for users without unfiltered_html), with post names
 * unique as wp_unique_post_slug() makes them. A batch that cannot be completed is removed again.
 *
 * Rows with coordinates are published; a row with a shape (`geometry_json` and `shape_json`, see
 * Marker_Import) gets its two meta rows beside its coordinates, in the same INSERT. Rows without (an address to geocode) are written as
 * drafts with their address (`geo_address`) and the geocoding queue's meta (Geocode_Queue): they
 * are published only once the background job has found their coordinates.
 *
 * Through wp_insert_post() each marker costs about 20 queries: 5,000 markers took 48 s on MariaDB,
 * past any request time limit; in batches they take well under 2 s. Term counts, caches, the
 * markers version and hooks are the caller's (Marker_Import::import()).
 *
 * @since 0.2.0
 */
class Marker_Batch_Writer {

	/**
	 * Most markers per INSERT statement.
	 */
	public const BATCH = 500;

	/**
	 * Most text (titles, descriptions and shapes) per INSERT statement, in bytes. A shape larger
	 * than that goes in a batch of its own.
	 */
	public const BATCH_BYTES = MB_IN_BYTES;

	/**
	 * Post names for the titles, unique among markers as wp_unique_post_slug() makes them
	 * (`castle`, `castle-2`, …), with a few queries for the whole import.
	 *
	 * @param string[] $titles    Titles.
	 * @param string   $post_type Post type whose names they must not take (since 0.7.0).
	 * @return string[] Names, in the same order.
	 */
	public function unique_slugs( array $titles, string $post_type = Post_Type::POST_TYPE ): array {
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
			$names = $wpdb->get_col( $wpdb->prepare( "SELECT post_name FROM {$wpdb->posts} WHERE post_type = %s AND post_name IN (" . implode( ',', array_fill( 0, count( $chunk ), '%s' ) ) . ')', array_merge( array( $post_type ), $chunk ) ) );
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
			$names = $wpdb->get_col( $wpdb->prepare( "SELECT post_name FROM {$wpdb->posts} WHERE post_type = %s AND (" . implode( ' OR ', array_fill( 0, count( $likes ), 'post_name LIKE %s' ) ) . ')', array_merge( array( $post_type ), $likes ) ) );
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

	/**
	 * Rows in batches of at most BATCH markers and about BATCH_BYTES of text (far below MySQL's
	 * `max_allowed_packet`), keyed by the offset of their first row.
	 *
	 * @param array<int, array{title: string, lat: float|null, lng: float|null, groups: string[], description: string, address?: string, line?: int, geometry_json?: string, shape_json?: string}> $rows Rows.
	 * @return \Generator<int, array<int, array{title: string, lat: float|null, lng: float|null, groups: string[], description: string, address?: string, line?: int, geometry_json?: string, shape_json?: string}>>
	 */
	public function batches( array $rows ): \Generator {
		$batch  = array();
		$bytes  = 0;
		$offset = 0;
		foreach ( $rows as $index => $row ) {
			$size = strlen( $row['title'] ) + strlen( $row['description'] ) + strlen( $row['geometry_json'] ?? '' ) + strlen( $row['shape_json'] ?? '' );
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
	 * @param array<int, array{title: string, lat: float|null, lng: float|null, groups: string[], description: string, address?: string, line?: int, geometry_json?: string, shape_json?: string}> $batch  Rows.
	 * @param string[]                                                                                                                                                                             $slugs  Their post names.
	 * @param array<string, int>                                                                                                                                                                   $tt_ids Term taxonomy ids by group slug.
	 * @param string                                                                                                                                                                               $post_type Post type (since 0.7.0: another type enabled for places gets `geo_*` meta, public).
	 * @return int[]|WP_Error Ids of the new markers, in row order.
	 */
	public function insert_batch( array $batch, array $slugs, array $tt_ids, string $post_type = Post_Type::POST_TYPE ) {
		$is_marker = Post_Type::POST_TYPE === $post_type;
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
							'post_type'    => $post_type,
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
				'post_status'           => null === $row['lat'] ? 'draft' : 'publish',
				'comment_status'        => get_default_comment_status( $post_type ),
				'ping_status'           => get_default_comment_status( $post_type, 'pingback' ),
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
				'post_type'             => $post_type,
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
				"SELECT ID, guid FROM {$wpdb->posts} WHERE post_type = %s AND post_status IN ('publish','draft') AND post_date = %s AND guid LIKE %s",
				$post_type,
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

		$guid = $is_marker ? home_url( '/?post_type=' . Post_Type::POST_TYPE . '&p=' ) : home_url( '/?p=' );
		// phpcs:ignore WordPress.DB.PreparedSQL.InterpolatedNotPrepared, WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching, WordPress.DB.PreparedSQLPlaceholders.UnfinishedPrepare -- prepared; the id list holds only placeholders.
		$wpdb->query( $wpdb->prepare( "UPDATE {$wpdb->posts} SET guid = CONCAT( %s, ID ) WHERE ID IN (" . implode( ',', array_fill( 0, count( $ids ), '%d' ) ) . ')', array_merge( array( $guid ), array_values( $ids ) ) ) );

		$meta      = array();
		$relations = array();
		foreach ( $batch as $index => $row ) {
			$id = $ids[ $index ];
			if ( ! $is_marker ) {
				// A post of a type enabled for places: its place, public (the file asks it on maps).
				array_push( $meta, $id, Location_Types::META_LAT, Post_Type::format_coordinate( (float) $row['lat'] ), $id, Location_Types::META_LNG, Post_Type::format_coordinate( (float) $row['lng'] ), $id, Location_Types::META_PUBLIC, '1' );
			} elseif ( null !== $row['lat'] && null !== $row['lng'] ) {
				array_push( $meta, $id, Post_Type::META_LAT, Post_Type::format_coordinate( $row['lat'] ), $id, Post_Type::META_LNG, Post_Type::format_coordinate( $row['lng'] ) );
			} else {
				foreach ( Geocode_Queue::queue_meta( (int) ( $row['line'] ?? 0 ) ) as $key => $value ) {
					array_push( $meta, $id, $key, $value );
				}
			}
			if ( '' !== ( $row['address'] ?? '' ) ) {
				array_push( $meta, $id, Location_Types::META_ADDRESS, $row['address'] );
			}
			if ( isset( $row['geometry_json'], $row['shape_json'] ) ) {
				// The two meta rows Shape_Store::save() writes, as a batch.
				array_push( $meta, $id, Shape_Store::META_GEOMETRY, $row['geometry_json'], $id, Shape_Store::META_SHAPE, $row['shape_json'] );
			}
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
}
