<?php
/**
 * Exports markers as CSV or GeoJSON.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Import_Export;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Feed\Geojson_Feed;
use Cairn\Maps\Markers\Marker_Repository;
use Cairn\Maps\Markers\Post_Type;
use Cairn\Maps\Markers\Shape_Store;

/**
 * Writes the published markers (with both coordinates) in id order, reading them in batches, so an
 * export of 100,000 markers never holds more than one batch in memory. What it writes imports back
 * unchanged (Marker_Import): titles as plain text, coordinates as stored (up to 7 decimals),
 * groups as slugs, descriptions as stored HTML.
 *
 * CSV: UTF-8 with a byte-order mark (so spreadsheets pick the right encoding), RFC 4180 quoting,
 * columns `title,lat,lng,group,description`, groups joined with `|`. Text cells that a spreadsheet
 * would run as a formula (`=cmd`, `+`, `-`, `@`, …), at their start or after a line break, tab, `;` or
 * `,` inside them, get a `'` before it (Import_Reader::escape_cell()).
 *
 * GeoJSON: a FeatureCollection; `id` = marker id; properties `title`, `groups`, `description`.
 * A marker with a shape (a line or an area) is written with its full geometry as stored
 * (elevations kept) and its point in `properties.anchor` (`[lng, lat]`), so the import restores
 * both. CSV cannot hold shapes: it keeps their marker's point (count_shapes() says how many).
 *
 * @since 0.1.0
 */
class Marker_Export {

	public const BATCH = 500;

	/**
	 * Export formats.
	 *
	 * @since 0.5.0
	 */
	public const FORMATS = array( 'csv', 'geojson' );

	public const CSV_COLUMNS = array( 'title', 'lat', 'lng', 'group', 'description' );

	/**
	 * Marker reads (groups).
	 *
	 * @var Marker_Repository
	 */
	private Marker_Repository $repository;

	/**
	 * Markers read per query.
	 *
	 * @var int
	 */
	private int $batch_size;

	/**
	 * Creates the exporter.
	 *
	 * @param Marker_Repository|null $repository Marker reads.
	 * @param int                    $batch_size Markers read per query.
	 */
	public function __construct( ?Marker_Repository $repository = null, int $batch_size = self::BATCH ) {
		$this->repository = $repository ?? new Marker_Repository();
		$this->batch_size = max( 1, $batch_size );
	}

	/**
	 * Content type of a format.
	 *
	 * @param string $format `csv` or `geojson`.
	 */
	public static function content_type( string $format ): string {
		return 'csv' === $format ? 'text/csv; charset=utf-8' : 'application/geo+json; charset=utf-8';
	}

	/**
	 * Download file name of a format.
	 *
	 * @param string $format `csv` or `geojson`.
	 */
	public static function file_name( string $format ): string {
		return 'cairn-markers-' . gmdate( 'Y-m-d' ) . ( 'csv' === $format ? '.csv' : '.geojson' );
	}

	/**
	 * Writes the export, piece by piece.
	 *
	 * @param string                 $format `csv` or `geojson`.
	 * @param callable(string): void $write  Receives each piece.
	 */
	public function write( string $format, callable $write ): void {
		if ( 'csv' === $format ) {
			$write( "\xEF\xBB\xBF" . self::csv_line( self::CSV_COLUMNS ) );
		} else {
			$write( '{"type":"FeatureCollection","features":[' );
		}
		$count = 0;
		foreach ( $this->batches() as $batch ) {
			$piece = '';
			foreach ( $batch as $marker ) {
				if ( 'csv' !== $format && $marker['shape'] ) {
					// A shape may be megabytes: written on its own, never gathered into a batch.
					$write( $piece . ( $count > 0 ? ',' : '' ) . self::feature_json( $marker, $this->geometry( $marker['id'] ) ) );
					$piece = '';
					++$count;
					continue;
				}
				if ( 'csv' === $format ) {
					$piece .= self::csv_line(
						array(
							Import_Reader::escape_cell( $marker['title'] ),
							$marker['lat'],
							$marker['lng'],
							Import_Reader::escape_cell( implode( Import_Reader::GROUP_SEPARATOR, $marker['groups'] ) ),
							Import_Reader::escape_cell( $marker['description'] ),
						)
					);
				} else {
					$piece .= ( $count > 0 ? ',' : '' ) . self::feature_json( $marker );
				}
				++$count;
			}
			$write( $piece );
		}
		if ( 'csv' !== $format ) {
			$write( ']}' );
		}
	}

	/**
	 * How many published markers have a shape (what a CSV export leaves out of them).
	 *
	 * @since 0.5.0
	 */
	public function count_shapes(): int {
		global $wpdb;
		// phpcs:ignore WordPress.DB.DirectDatabaseQuery -- a count for the export's header; cached nowhere on purpose (exports are rare).
		return (int) $wpdb->get_var(
			$wpdb->prepare(
				"SELECT COUNT(*) FROM {$wpdb->posts} p INNER JOIN {$wpdb->postmeta} m ON m.post_id = p.ID AND m.meta_key = %s
				WHERE p.post_type = %s AND p.post_status = 'publish'",
				Shape_Store::META_GEOMETRY,
				Post_Type::POST_TYPE
			)
		);
	}

	/**
	 * A marker's stored geometry, or null when it has none (or it is not readable).
	 *
	 * @param int $id Marker id.
	 * @return array<string, mixed>|null
	 */
	private function geometry( int $id ): ?array {
		global $wpdb;
		// phpcs:ignore WordPress.DB.DirectDatabaseQuery -- one shape at a time: the meta cache would keep every shape of the export in memory.
		$text = $wpdb->get_var( $wpdb->prepare( "SELECT meta_value FROM {$wpdb->postmeta} WHERE post_id = %d AND meta_key = %s LIMIT 1", $id, Shape_Store::META_GEOMETRY ) );
		return Shape_Store::decode_geometry( $text );
	}

	/**
	 * The whole export as one string (for internal REST callers and tests).
	 *
	 * @param string $format `csv` or `geojson`.
	 */
	public function to_string( string $format ): string {
		$text = '';
		$this->write(
			$format,
			static function ( string $piece ) use ( &$text ): void {
				$text .= $piece;
			}
		);
		return $text;
	}

	/**
	 * The markers, one batch at a time, in id order.
	 *
	 * Two plain queries per batch, portable to every database WordPress runs on (the SQLite of
	 * Playground included): published markers after the last id read (keyset paging on the
	 * primary key), then the coordinates of just those markers (the postmeta post_id index).
	 * Markers without both coordinates are left out: no map shows them, and an import needs them.
	 *
	 * @return \Generator<int, array<int, array{id: int, title: string, lat: string, lng: string, groups: string[], description: string, shape: bool}>>
	 */
	private function batches(): \Generator {
		global $wpdb;
		$after = 0;
		do {
			$posts   = $wpdb->get_results( // phpcs:ignore WordPress.DB.DirectDatabaseQuery -- batched export read; the post cache would only fill memory.
				$wpdb->prepare(
					"SELECT ID, post_title, post_content FROM {$wpdb->posts}
					WHERE post_type = %s AND post_status = 'publish' AND ID > %d
					ORDER BY ID ASC LIMIT %d",
					Post_Type::POST_TYPE,
					$after,
					$this->batch_size
				),
				ARRAY_A
			);
			$posts   = is_array( $posts ) ? $posts : array();
			$fetched = count( $posts );
			if ( 0 === $fetched ) {
				break;
			}
			$ids   = array_map( 'intval', array_column( $posts, 'ID' ) );
			$after = (int) end( $ids );
			$in    = implode( ',', array_fill( 0, count( $ids ), '%d' ) );
			// phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared, WordPress.DB.PreparedSQLPlaceholders.UnfinishedPrepare, WordPress.DB.PreparedSQLPlaceholders.ReplacementsWrongNumber -- the id list holds only placeholders; post_id is indexed.
			$meta        = $wpdb->get_results( $wpdb->prepare( "SELECT post_id AS id, meta_key AS field, meta_value AS degrees FROM {$wpdb->postmeta} WHERE post_id IN ($in) AND meta_key IN (%s, %s) AND meta_value <> ''", array_merge( $ids, array( Post_Type::META_LAT, Post_Type::META_LNG ) ) ), ARRAY_A );
			$coordinates = array();
			foreach ( is_array( $meta ) ? $meta : array() as $row ) {
				$coordinates[ (int) $row['id'] ][ (string) $row['field'] ] = (string) $row['degrees'];
			}
			// phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.InterpolatedNotPrepared, WordPress.DB.PreparedSQLPlaceholders.UnfinishedPrepare, WordPress.DB.PreparedSQLPlaceholders.ReplacementsWrongNumber -- the id list holds only placeholders; post_id is indexed.
			$shapes = $wpdb->get_col( $wpdb->prepare( "SELECT post_id FROM {$wpdb->postmeta} WHERE post_id IN ($in) AND meta_key = %s", array_merge( $ids, array( Shape_Store::META_GEOMETRY ) ) ) );
			$shapes = array_flip( array_map( 'intval', is_array( $shapes ) ? $shapes : array() ) );
			$groups = $this->repository->groups_of( $ids );
			$batch  = array();
			foreach ( $posts as $post ) {
				$id = (int) $post['ID'];
				if ( ! isset( $coordinates[ $id ][ Post_Type::META_LAT ], $coordinates[ $id ][ Post_Type::META_LNG ] ) ) {
					continue;
				}
				$batch[] = array(
					'id'          => $id,
					'title'       => Geojson_Feed::plain_title( (string) $post['post_title'] ),
					'lat'         => $coordinates[ $id ][ Post_Type::META_LAT ],
					'lng'         => $coordinates[ $id ][ Post_Type::META_LNG ],
					'groups'      => $groups[ $id ] ?? array(),
					'description' => (string) $post['post_content'],
					'shape'       => isset( $shapes[ $id ] ),
				);
			}
			if ( array() !== $batch ) {
				yield $batch;
			}
		} while ( $this->batch_size === $fetched );
	}

	/**
	 * One feature as JSON: a point, or a shape with its point as `properties.anchor`.
	 *
	 * @param array{id: int, title: string, lat: string, lng: string, groups: string[], description: string, shape: bool} $marker   Marker.
	 * @param array<string, mixed>|null                                                                                   $geometry Its shape, if any.
	 */
	private static function feature_json( array $marker, ?array $geometry = null ): string {
		$flags      = JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_INVALID_UTF8_SUBSTITUTE | JSON_HEX_TAG;
		$point      = array( (float) $marker['lng'], (float) $marker['lat'] );
		$properties = array(
			'title'       => $marker['title'],
			'groups'      => $marker['groups'],
			'description' => $marker['description'],
		);
		if ( null !== $geometry ) {
			$properties['anchor'] = $point;
		}
		return (string) wp_json_encode(
			array(
				'type'       => 'Feature',
				'id'         => $marker['id'],
				'geometry'   => $geometry ?? array(
					'type'        => 'Point',
					'coordinates' => $point,
				),
				'properties' => $properties,
			),
			$flags
		);
	}

	/**
	 * One CSV line (RFC 4180 quoting, no backslash escapes).
	 *
	 * @param array<int, string> $cells Cells.
	 */
	private static function csv_line( array $cells ): string {
		$quoted = array();
		foreach ( $cells as $cell ) {
			$quoted[] = 1 === preg_match( '/[",\r\n;\t]|^\s|\s$/', $cell ) ? '"' . str_replace( '"', '""', $cell ) . '"' : $cell;
		}
		return implode( ',', $quoted ) . "\r\n";
	}
}
