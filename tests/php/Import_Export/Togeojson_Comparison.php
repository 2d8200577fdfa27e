<?php
/**
 * Compares what Cairn's readers make of a GPX, KML or KMZ file with what @tmcw/togeojson makes of it.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Import_Export;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Import_Export\Import_Groups;
use Cairn\Maps\Import_Export\Import_Reader;
use Cairn\Maps\Import_Export\Import_Row_Validator;
use Cairn\Maps\Import_Export\Kmz_Archive;

/**
 * Both sides as a list of places, each `type`, `vertices` (positions before simplification, every
 * ring counted) and `name`, in the file's order; then the differences between the two lists.
 *
 * The features of togeojson are read as Cairn imports places: a feature without geometry is no place;
 * a GeometryCollection of one Point and shapes of one kind is those shapes (the point is the
 * marker's anchor, not a vertex); several lines or areas in one are a MultiLineString or a
 * MultiPolygon.
 *
 * @since 0.7.0
 */
final class Togeojson_Comparison {

	/**
	 * Cairn's places of a file.
	 *
	 * @param string $path File path.
	 * @return array<int, array{type: string, vertices: int, name: string, line: int, kind: string}>|string The places, or the error that refused the file.
	 */
	public static function cairn( string $path ) {
		$content = (string) file_get_contents( $path ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_get_contents_file_get_contents -- a test fixture.
		$format  = Import_Reader::detect_format( $content, basename( $path ) );
		$records = Import_Reader::read( $content, $format, 100000 );
		if ( is_wp_error( $records ) ) {
			return $records->get_error_code() . ': ' . $records->get_error_message();
		}
		$places = array();
		$groups = new Import_Groups();
		foreach ( $records as $record ) {
			if ( ! isset( $record['fields'] ) || is_string( Import_Row_Validator::check( $record['fields'], $groups ) ) ) {
				continue; // Refused: not a place.
			}
			$fields   = $record['fields'];
			$geometry = $fields['geometry'] ?? array(
				'type'        => 'Point',
				'coordinates' => array( $fields['lng'], $fields['lat'] ),
			);
			$places[] = array(
				'type'     => (string) $geometry['type'],
				'vertices' => self::vertices( $geometry ),
				'name'     => (string) $fields['title'],
				'line'     => (int) ( $record['line'] ?? 0 ),
				'kind'     => (string) strtok( (string) ( $record['at']['label'] ?? '' ), ' ' ),
			);
		}
		if ( 'gpx' === $format ) {
			// togeojson lists a GPX file's tracks, then its routes, then its waypoints.
			$order = array_flip( array( 'track', 'route', 'waypoint' ) );
			$keyed = array();
			foreach ( $places as $index => $place ) {
				$keyed[] = array( $order[ $place['kind'] ] ?? 3, $index, $place );
			}
			sort( $keyed );
			$places = array_column( $keyed, 2 );
		}
		return $places;
	}

	/**
	 * The XML text togeojson reads of a file (a KMZ's KML).
	 *
	 * @param string $path File path.
	 */
	public static function xml( string $path ): string {
		$content = (string) file_get_contents( $path ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_get_contents_file_get_contents -- a test fixture.
		if ( Kmz_Archive::is_zip( $content ) ) {
			$kml = Kmz_Archive::kml( $content );
			return is_string( $kml ) ? $kml : '';
		}
		return $content;
	}

	/**
	 * The places togeojson finds in a file, read as Cairn reads places.
	 *
	 * @param array<string, mixed> $collection togeojson's FeatureCollection.
	 * @return array<int, array{type: string, vertices: int, name: string}>
	 */
	public static function togeojson( array $collection ): array {
		$places = array();
		foreach ( $collection['features'] ?? array() as $feature ) {
			$geometry = $feature['geometry'] ?? null;
			if ( ! is_array( $geometry ) ) {
				continue;
			}
			if ( 'GeometryCollection' === $geometry['type'] ) {
				$geometry = self::collection_as_place( $geometry );
				if ( null === $geometry ) {
					continue;
				}
			}
			$name     = $feature['properties']['name'] ?? '';
			$places[] = array(
				'type'     => (string) $geometry['type'],
				'vertices' => self::vertices( $geometry ),
				'name'     => is_scalar( $name ) ? trim( (string) $name ) : '',
			);
		}
		return $places;
	}

	/**
	 * A GeometryCollection as the place Cairn makes of it: its shapes (Multi* when several), the
	 * point being their anchor; null when it mixes kinds Cairn does not import together.
	 *
	 * @param array<string, mixed> $collection The collection.
	 * @return array{type: string, coordinates: array<int, mixed>}|null
	 */
	private static function collection_as_place( array $collection ): ?array {
		$members = $collection['geometries'] ?? array();
		$points  = array_values( array_filter( $members, static fn( array $member ): bool => 'Point' === $member['type'] ) );
		$shapes  = array_values( array_filter( $members, static fn( array $member ): bool => 'Point' !== $member['type'] ) );
		$kinds   = array_values( array_unique( array_map( static fn( array $member ): string => str_replace( 'Multi', '', $member['type'] ), $shapes ) ) );
		if ( count( $points ) > 1 || count( $kinds ) > 1 ) {
			return null;
		}
		if ( array() === $shapes ) {
			return array() === $points ? null : $points[0];
		}
		if ( 1 === count( $shapes ) ) {
			return $shapes[0];
		}
		$parts = array();
		foreach ( $shapes as $shape ) {
			if ( 0 === strpos( $shape['type'], 'Multi' ) ) {
				array_push( $parts, ...$shape['coordinates'] );
			} else {
				$parts[] = $shape['coordinates'];
			}
		}
		return array(
			'type'        => 'Multi' . $kinds[0],
			'coordinates' => $parts,
		);
	}

	/**
	 * Positions in a geometry, every ring and part counted.
	 *
	 * @param array<string, mixed> $geometry A geometry.
	 */
	public static function vertices( array $geometry ): int {
		$depth = array(
			'Point'           => 0,
			'LineString'      => 1,
			'MultiLineString' => 2,
			'Polygon'         => 2,
			'MultiPolygon'    => 3,
		)[ $geometry['type'] ] ?? 0;
		$lists = array( $geometry['coordinates'] ?? array() );
		for ( $i = 1; $i < $depth; $i++ ) {
			$lists = array_merge( ...array_map( 'array_values', $lists ) );
		}
		return 0 === $depth ? 1 : array_sum( array_map( 'count', $lists ) );
	}

	/**
	 * The differences between both sides' places: one line each.
	 *
	 * @param array<int, array{type: string, vertices: int, name: string, line?: int}> $cairn     Cairn's places.
	 * @param array<int, array{type: string, vertices: int, name: string}>             $togeojson togeojson's places.
	 * @return string[]
	 */
	public static function differences( array $cairn, array $togeojson ): array {
		if ( count( $cairn ) !== count( $togeojson ) ) {
			return array( sprintf( 'count: cairn %d, togeojson %d', count( $cairn ), count( $togeojson ) ) );
		}
		$differences = array();
		foreach ( $cairn as $i => $place ) {
			$other = $togeojson[ $i ];
			if ( $place['type'] !== $other['type'] ) {
				$differences[] = sprintf( '#%d type: cairn %s, togeojson %s', $i + 1, $place['type'], $other['type'] );
			}
			if ( $place['vertices'] !== $other['vertices'] ) {
				$differences[] = sprintf( '#%d vertices: cairn %d, togeojson %d', $i + 1, $place['vertices'], $other['vertices'] );
			}
			if ( '' !== $other['name'] && $place['name'] !== $other['name'] ) {
				$differences[] = sprintf( '#%d name: cairn "%s", togeojson "%s"', $i + 1, $place['name'], $other['name'] );
			}
		}
		return $differences;
	}
}
