<?php
/**
 * One place of a GPX or KML file while it is read.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Import_Export;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Markers\Geometry_Rule;

/**
 * A track, route, waypoint or placemark as Xml_Track_Reader collects it: its texts, and its
 * geometry as parts (a Point, a LineString, or a Polygon of rings, the outer ring first), which
 * record() turns into the import record (a point, a LineString/Polygon, or a Multi* of one kind).
 *
 * @since 0.5.0
 */
final class Xml_Track_Item {

	/**
	 * `track`, `route`, `waypoint` or `placemark`.
	 *
	 * @var string
	 */
	public string $kind;

	/**
	 * The element's depth in the document.
	 *
	 * @var int
	 */
	public int $depth;

	/**
	 * Its place in the file, from 1.
	 *
	 * @var int
	 */
	public int $row;

	/**
	 * Texts by element name (`name`, `desc`, `cmt`, `description`).
	 *
	 * @var array<string, string>
	 */
	public array $text = array();

	/**
	 * Geometry parts: `type` (Point, LineString, Polygon) and `rings` (one list of positions for a
	 * point or a line, the rings of a polygon).
	 *
	 * @var array<int, array{type: string, rings: array<int, array<int, array<int, mixed>>>, ring?: int}>
	 */
	public array $parts = array();

	/**
	 * Vertices seen (kept up to Geometry_Rule::max_vertices(), counted beyond).
	 *
	 * @var int
	 */
	public int $vertices = 0;

	/**
	 * Whether a KML Polygon is open.
	 *
	 * @var bool
	 */
	public bool $in_polygon = false;

	/**
	 * A KML geometry Cairn does not read (gx:Track, Model), if seen.
	 *
	 * @var string
	 */
	public string $unsupported = '';

	/**
	 * Creates an item.
	 *
	 * @param string $kind  `track`, `route`, `waypoint` or `placemark`.
	 * @param int    $depth The element's depth.
	 * @param int    $row   Its place in the file, from 1.
	 */
	public function __construct( string $kind, int $depth, int $row ) {
		$this->kind  = $kind;
		$this->depth = $depth;
		$this->row   = $row;
	}

	/**
	 * Starts a part.
	 *
	 * @param string $type Point, LineString or Polygon.
	 */
	public function add_part( string $type ): void {
		$this->parts[] = array(
			'type'  => $type,
			'rings' => 'Polygon' === $type ? array() : array( array() ),
		);
	}

	/**
	 * Starts a ring of the current polygon.
	 *
	 * @param bool $outer Whether it is the outer boundary (kept first).
	 */
	public function add_ring( bool $outer ): void {
		$last = count( $this->parts ) - 1;
		if ( $last < 0 ) {
			return;
		}
		$part = $this->parts[ $last ];
		if ( $outer ) {
			array_unshift( $part['rings'], array() );
		} else {
			$part['rings'][] = array();
		}
		$part['ring']         = $outer ? 0 : count( $part['rings'] ) - 1;
		$this->parts[ $last ] = $part;
	}

	/**
	 * Adds a position to the current part (its current ring).
	 *
	 * @param array<int, mixed> $position `[lng, lat]` or `[lng, lat, ele]`.
	 */
	public function add_position( array $position ): void {
		++$this->vertices;
		$last = count( $this->parts ) - 1;
		if ( $last < 0 || $this->vertices > Geometry_Rule::max_vertices() ) {
			return;
		}
		$ring = (int) ( $this->parts[ $last ]['ring'] ?? 0 );
		if ( ! isset( $this->parts[ $last ]['rings'][ $ring ] ) ) {
			return; // A Polygon's coordinates outside any ring.
		}
		$this->parts[ $last ]['rings'][ $ring ][] = $position;
	}

	/**
	 * The item as an import record.
	 *
	 * @return array{at: array<string, int|string>, fields?: array{title: mixed, lat: mixed, lng: mixed, groups: string[], description: mixed, address: mixed, geometry?: mixed}, error?: string}
	 */
	public function record(): array {
		$name     = trim( wp_strip_all_tags( $this->text['name'] ?? '', true ) );
		$at       = array(
			'row'   => $this->row,
			'label' => $this->label( $name ),
		);
		$geometry = $this->geometry();
		if ( is_string( $geometry ) ) {
			return array(
				'at'    => $at,
				'error' => $geometry,
			);
		}
		$description = array_values( array_unique( array_filter( array_map( 'trim', array( $this->text['desc'] ?? '', $this->text['cmt'] ?? '', $this->text['description'] ?? '' ) ) ) ) );
		$fields      = array(
			'title'       => '' !== $name ? $name : $this->default_title(),
			'lat'         => null,
			'lng'         => null,
			'groups'      => array(),
			'description' => implode( "\n\n", $description ),
			'address'     => '',
		);
		if ( 'Point' === $geometry['type'] ) {
			$fields['lng'] = $geometry['coordinates'][0] ?? null;
			$fields['lat'] = $geometry['coordinates'][1] ?? null;
		} else {
			$fields['geometry'] = $geometry;
		}
		return array(
			'at'     => $at,
			'fields' => $fields,
		);
	}

	/**
	 * The label of the row in a report: `track "Ridge loop"`, or `track` without a name.
	 *
	 * @param string $name The name.
	 */
	private function label( string $name ): string {
		$kinds = array(
			'track'     => __( 'track', 'cairn-maps' ),
			'route'     => __( 'route', 'cairn-maps' ),
			'waypoint'  => __( 'waypoint', 'cairn-maps' ),
			'placemark' => __( 'placemark', 'cairn-maps' ),
		);
		$kind  = $kinds[ $this->kind ] ?? $this->kind;
		if ( '' === $name ) {
			return $kind;
		}
		if ( mb_strlen( $name, 'UTF-8' ) > 60 ) {
			$name = mb_substr( $name, 0, 59, 'UTF-8' ) . '…';
		}
		/* translators: 1: track, route, waypoint or placemark, 2: its name. */
		return sprintf( __( '%1$s "%2$s"', 'cairn-maps' ), $kind, $name );
	}

	/**
	 * The title of an item without a name: "Track 3".
	 */
	private function default_title(): string {
		switch ( $this->kind ) {
			case 'track':
				/* translators: %d: the track's place in the file. */
				return sprintf( __( 'Track %d', 'cairn-maps' ), $this->row );
			case 'route':
				/* translators: %d: the route's place in the file. */
				return sprintf( __( 'Route %d', 'cairn-maps' ), $this->row );
			case 'waypoint':
				/* translators: %d: the waypoint's place in the file. */
				return sprintf( __( 'Waypoint %d', 'cairn-maps' ), $this->row );
			default:
				/* translators: %d: the placemark's place in the file. */
				return sprintf( __( 'Place %d', 'cairn-maps' ), $this->row );
		}
	}

	/**
	 * The geometry (not yet checked), or why there is none.
	 *
	 * @return array{type: string, coordinates: array<int, mixed>}|string
	 */
	private function geometry() {
		if ( $this->vertices > Geometry_Rule::max_vertices() ) {
			return sprintf(
				/* translators: 1: number of vertices, 2: most vertices per shape. */
				__( 'This shape has %1$s vertices; the most a shape may have is %2$s. Simplify it (most GPS tools can) and import it again.', 'cairn-maps' ),
				number_format_i18n( $this->vertices ),
				number_format_i18n( Geometry_Rule::max_vertices() )
			);
		}
		// Empty track segments and placemark parts without coordinates are nothing to draw.
		$parts = array_values( array_filter( $this->parts, static fn( array $part ): bool => array() !== $part['rings'] && array() !== $part['rings'][0] ) );
		if ( array() === $parts ) {
			if ( '' !== $this->unsupported ) {
				/* translators: %s: a KML element, e.g. gx:Track. */
				return sprintf( __( 'This placemark holds a %s, which Cairn does not import: only Point, LineString, LinearRing, Polygon and MultiGeometry.', 'cairn-maps' ), $this->unsupported );
			}
			return 'placemark' === $this->kind
				? __( 'This placemark has no coordinates: a Point, LineString, LinearRing or Polygon with coordinates is needed.', 'cairn-maps' )
				: __( 'This track or route has no points with coordinates.', 'cairn-maps' );
		}
		$types = array_values( array_unique( array_column( $parts, 'type' ) ) );
		if ( count( $types ) > 1 ) {
			return __( 'This placemark\'s MultiGeometry mixes points, lines and areas; Cairn imports one kind of shape per place. Split it into several placemarks.', 'cairn-maps' );
		}
		$this->altitudes_off_the_ground( $parts );
		$type = $types[0];
		if ( 'Point' === $type ) {
			if ( count( $parts ) > 1 ) {
				return __( 'This placemark\'s MultiGeometry holds several points; Cairn imports one point per place. Split it into several placemarks.', 'cairn-maps' );
			}
			return array(
				'type'        => 'Point',
				'coordinates' => $parts[0]['rings'][0][0],
			);
		}
		$coordinates = array_map( static fn( array $part ): array => 'Polygon' === $type ? $part['rings'] : $part['rings'][0], $parts );
		if ( 1 === count( $coordinates ) ) {
			return array(
				'type'        => $type,
				'coordinates' => $coordinates[0],
			);
		}
		return array(
			'type'        => 'Multi' . $type,
			'coordinates' => $coordinates,
		);
	}

	/**
	 * Drops KML altitudes that are all 0 (a shape on the ground, not a measured elevation).
	 *
	 * @param array<int, array{type: string, rings: array<int, array<int, array<int, mixed>>>, ring?: int}> $parts Parts, changed in place.
	 */
	private function altitudes_off_the_ground( array &$parts ): void {
		if ( 'placemark' !== $this->kind ) {
			return;
		}
		foreach ( $parts as $part ) {
			foreach ( $part['rings'] as $ring ) {
				foreach ( $ring as $position ) {
					if ( isset( $position[2] ) && 0.0 !== $position[2] ) {
						return;
					}
				}
			}
		}
		foreach ( $parts as &$part ) {
			foreach ( $part['rings'] as &$ring ) {
				foreach ( $ring as &$position ) {
					$position = array_slice( $position, 0, 2 );
				}
				unset( $position );
			}
			unset( $ring );
		}
		unset( $part );
	}
}
