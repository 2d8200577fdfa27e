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
	 * point or a line, the rings of a polygon); `absolute` whether its altitudes are elevations;
	 * `ring_line` for a KML LinearRing outside a Polygon (a closed line).
	 *
	 * @var array<int, array{type: string, rings: array<int, array<int, array<int, mixed>>>, ring?: int, absolute: bool, ring_line?: bool, fix?: bool}>
	 */
	public array $parts = array();

	/**
	 * Vertices seen (kept up to Geometry_Rule::max_vertices(), counted beyond).
	 *
	 * @var int
	 */
	public int $vertices = 0;

	/**
	 * The 1-based line of the file the item starts on.
	 *
	 * @var int
	 */
	public int $line = 0;

	/**
	 * The KML Folder names around it, outermost first, joined with ' / ' ('' when none).
	 *
	 * @var string
	 */
	public string $folder = '';

	/**
	 * KML ExtendedData: label and value pairs, in the file's order.
	 *
	 * @var array<int, array{0: string, 1: string}>
	 */
	public array $data = array();

	/**
	 * Whether new parts count their altitudes as elevations (a GPX `ele`, a KML gx:MultiTrack
	 * under `absolute`).
	 *
	 * @var bool
	 */
	public bool $absolute = false;

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
	 * Notices about parts dropped or repaired while the item stands.
	 *
	 * @var array<int, array{line: int, message: string}>
	 */
	private array $notices = array();

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
	 * @param string $type      Point, LineString or Polygon.
	 * @param bool   $ring_line Whether it is a LinearRing read as a closed line.
	 * @param bool   $fix       Whether it is a gx:Track (a single fix of which is a point).
	 */
	public function add_part( string $type, bool $ring_line = false, bool $fix = false ): void {
		$part = array(
			'type'     => $type,
			'rings'    => 'Polygon' === $type ? array() : array( array() ),
			'absolute' => $this->absolute,
		);
		if ( $ring_line ) {
			$part['ring_line'] = true;
		}
		if ( $fix ) {
			$part['fix'] = true;
		}
		$this->parts[] = $part;
	}

	/**
	 * Marks the current part's altitudes as elevations (KML `altitudeMode` `absolute`).
	 */
	public function set_absolute(): void {
		$last = count( $this->parts ) - 1;
		if ( $last >= 0 ) {
			$this->parts[ $last ]['absolute'] = true;
		}
	}

	/**
	 * Adds a notice about a part dropped or repaired.
	 *
	 * @param string $message The notice.
	 */
	private function notice( string $message ): void {
		$this->notices[] = array(
			'line'    => $this->line,
			'message' => $message,
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
	 * The item as an import record: `at`, `line`, `folder`, `notices`, and `fields` or `error`
	 * (`skipped` when the item has nothing to draw: an empty track, a placemark without geometry).
	 *
	 * @return array{at: array<string, int|string>, line: int, folder: string, notices: array<int, array{line: int, message: string}>, fields?: array{title: mixed, lat: mixed, lng: mixed, groups: string[], description: mixed, address: mixed, geometry?: mixed}, error?: string, skipped?: bool}
	 */
	public function record(): array {
		$name     = trim( wp_strip_all_tags( $this->text['name'] ?? '', true ) );
		$base     = array(
			'at'     => array(
				'row'   => $this->row,
				'label' => $this->label( $name ),
			),
			'line'   => $this->line,
			'folder' => $this->folder,
		);
		$geometry = $this->geometry();
		if ( is_string( $geometry ) || null === $geometry ) {
			$record = $base + array(
				'notices' => array(),
				'error'   => $geometry ?? $this->nothing_to_draw(),
			);
			return null === $geometry ? $record + array( 'skipped' => true ) : $record;
		}
		$description = array_values( array_unique( array_filter( array_map( 'trim', array( $this->text['desc'] ?? '', $this->text['cmt'] ?? '', $this->text['description'] ?? '' ) ) ) ) );
		if ( array() !== $this->data ) {
			$description[] = $this->data_list();
		}
		$fields = array(
			'title'       => '' !== $name ? $name : $this->default_title(),
			'lat'         => null,
			'lng'         => null,
			'groups'      => array(),
			'description' => implode( "\n\n", $description ),
			'address'     => '',
		);
		$anchor = $geometry['anchor'] ?? null;
		unset( $geometry['anchor'] );
		if ( 'Point' === $geometry['type'] ) {
			$anchor = $geometry['coordinates'];
		} else {
			$fields['geometry'] = $geometry;
		}
		if ( is_array( $anchor ) ) {
			$fields['lng'] = $anchor[0] ?? null;
			$fields['lat'] = $anchor[1] ?? null;
		}
		return $base + array(
			'notices' => $this->notices,
			'fields'  => $fields,
		);
	}

	/**
	 * ExtendedData as an HTML definition list, every label and value escaped.
	 */
	private function data_list(): string {
		$items = '';
		foreach ( $this->data as $pair ) {
			$items .= '<dt>' . esc_html( $pair[0] ) . '</dt><dd>' . esc_html( $pair[1] ) . '</dd>';
		}
		return '<dl>' . $items . '</dl>';
	}

	/**
	 * Why an item without anything to draw is left out.
	 */
	private function nothing_to_draw(): string {
		if ( '' !== $this->unsupported ) {
			/* translators: %s: a KML element, e.g. Model. */
			return sprintf( __( 'This placemark holds a %s, which Cairn does not import: only Point, LineString, LinearRing, Polygon, MultiGeometry and gx:Track. It was left out.', 'cairn-maps' ), $this->unsupported );
		}
		return 'placemark' === $this->kind
			? __( 'This placemark has no geometry (no Point, LineString, LinearRing, Polygon or gx:Track with coordinates), so it was left out.', 'cairn-maps' )
			: __( 'This track or route has no points, so it was left out.', 'cairn-maps' );
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
	 * The geometry (not yet checked, with `anchor` when a Point came with shapes), why there is
	 * none (a string), or null when there is nothing to draw. Parts that cannot be drawn while
	 * others can (a line of one point) are dropped, and rings left open are closed, each with a
	 * notice.
	 *
	 * @return array{type: string, coordinates: array<int, mixed>, anchor?: array<int, mixed>}|string|null
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
			return null;
		}
		$parts = $this->drawable_lines( $parts );
		if ( is_string( $parts ) ) {
			return $parts;
		}
		$parts  = array_map( array( $this, 'closed' ), $parts );
		$parts  = array_map( array( self::class, 'elevations' ), $parts );
		$points = array_values( array_filter( $parts, static fn( array $part ): bool => 'Point' === $part['type'] ) );
		$shapes = array_values( array_filter( $parts, static fn( array $part ): bool => 'Point' !== $part['type'] ) );
		$types  = array_values( array_unique( array_column( $shapes, 'type' ) ) );
		if ( count( $types ) > 1 ) {
			return __( 'This placemark\'s MultiGeometry mixes lines and areas; Cairn imports one kind of shape per place. Split it into several placemarks.', 'cairn-maps' );
		}
		if ( count( $points ) > 1 ) {
			return array() === $shapes
				? __( 'This placemark\'s MultiGeometry holds several points; Cairn imports one point per place. Split it into several placemarks.', 'cairn-maps' )
				: __( 'This placemark\'s MultiGeometry holds several points besides its lines or areas; Cairn takes one point as the marker of a shape. Split it into several placemarks.', 'cairn-maps' );
		}
		$this->altitudes_off_the_ground( $parts );
		$points = array_values( array_filter( $parts, static fn( array $part ): bool => 'Point' === $part['type'] ) );
		$shapes = array_values( array_filter( $parts, static fn( array $part ): bool => 'Point' !== $part['type'] ) );
		if ( array() === $shapes ) {
			return array(
				'type'        => 'Point',
				'coordinates' => $points[0]['rings'][0][0],
			);
		}
		$type        = $types[0];
		$coordinates = array_map( static fn( array $part ): array => 'Polygon' === $type ? $part['rings'] : $part['rings'][0], $shapes );
		$geometry    = 1 === count( $coordinates )
			? array(
				'type'        => $type,
				'coordinates' => $coordinates[0],
			)
			: array(
				'type'        => 'Multi' . $type,
				'coordinates' => $coordinates,
			);
		if ( array() !== $points ) {
			$geometry['anchor'] = $points[0]['rings'][0][0]; // A labelled area: the point is its marker.
		}
		return $geometry;
	}

	/**
	 * The parts without the lines of fewer than 2 different positions (a GPS fix before a pause),
	 * each dropped with a notice; why the item cannot stand when nothing else is left.
	 *
	 * @param array<int, array{type: string, rings: array<int, array<int, array<int, mixed>>>, ring?: int, absolute: bool, ring_line?: bool, fix?: bool}> $parts Parts with positions.
	 * @return array<int, array{type: string, rings: array<int, array<int, array<int, mixed>>>, ring?: int, absolute: bool, ring_line?: bool, fix?: bool}>|string
	 */
	private function drawable_lines( array $parts ) {
		$kept    = array();
		$dropped = array();
		foreach ( $parts as $index => $part ) {
			if ( ! empty( $part['fix'] ) && 1 === count( $part['rings'][0] ) ) {
				// A gx:Track of one fix (Location History's places visited) is that point.
				$kept[] = array(
					'type'     => 'Point',
					'rings'    => $part['rings'],
					'absolute' => $part['absolute'],
				);
				continue;
			}
			if ( 'LineString' === $part['type'] && count( array_unique( array_map( static fn( array $position ): string => (string) wp_json_encode( array_slice( $position, 0, 2 ) ), $part['rings'][0] ) ) ) < 2 ) {
				$dropped[] = $index + 1;
				continue;
			}
			$kept[] = $part;
		}
		if ( array() === $dropped ) {
			return $kept;
		}
		if ( array() === $kept ) {
			return 'placemark' === $this->kind
				? __( 'This line has only one position; a line needs at least 2 different positions.', 'cairn-maps' )
				: __( 'This track or route has only one point; a line needs at least 2 different points.', 'cairn-maps' );
		}
		foreach ( $dropped as $number ) {
			$this->notice(
				sprintf(
					/* translators: %s: the line's place among the item's lines, from 1. */
					'placemark' === $this->kind ? __( 'Line %s has only one position, so it was left out; the rest was imported.', 'cairn-maps' ) : __( 'Segment %s has only one point, so it was left out; the rest of the track was imported.', 'cairn-maps' ),
					number_format_i18n( $number )
				)
			);
		}
		return $kept;
	}

	/**
	 * A part with its open rings closed (as Google Earth draws them), with a notice; a KML
	 * LinearRing outside a Polygon becomes a closed LineString.
	 *
	 * @param array{type: string, rings: array<int, array<int, array<int, mixed>>>, ring?: int, absolute: bool, ring_line?: bool, fix?: bool} $part A part.
	 * @return array{type: string, rings: array<int, array<int, array<int, mixed>>>, ring?: int, absolute: bool, ring_line?: bool, fix?: bool}
	 */
	private function closed( array $part ): array {
		if ( 'Polygon' !== $part['type'] && empty( $part['ring_line'] ) ) {
			return $part;
		}
		foreach ( $part['rings'] as $index => $ring ) {
			$first = $ring[0] ?? null;
			$last  = $ring[ count( $ring ) - 1 ] ?? null;
			if ( null === $first || count( $ring ) < 3 || array_slice( $first, 0, 2 ) === array_slice( (array) $last, 0, 2 ) ) {
				continue;
			}
			$part['rings'][ $index ][] = $first;
			$this->notice(
				sprintf(
					/* translators: %s: the ring's place in its polygon, from 1 (1 is the outer boundary). */
					__( 'Ring %s did not end where it started, so it was closed.', 'cairn-maps' ),
					number_format_i18n( $index + 1 )
				)
			);
		}
		if ( ! empty( $part['ring_line'] ) ) {
			$part['type'] = 'LineString';
		}
		return $part;
	}

	/**
	 * A part without its altitudes, unless they are elevations (GPX `ele`, KML `absolute`).
	 *
	 * @param array{type: string, rings: array<int, array<int, array<int, mixed>>>, ring?: int, absolute: bool, ring_line?: bool, fix?: bool} $part A part.
	 * @return array{type: string, rings: array<int, array<int, array<int, mixed>>>, ring?: int, absolute: bool, ring_line?: bool, fix?: bool}
	 */
	private static function elevations( array $part ): array {
		if ( $part['absolute'] ) {
			return $part;
		}
		foreach ( $part['rings'] as &$ring ) {
			foreach ( $ring as &$position ) {
				$position = array_slice( $position, 0, 2 );
			}
			unset( $position );
		}
		unset( $ring );
		return $part;
	}

	/**
	 * Drops KML altitudes that are all 0 (a shape on the ground, not a measured elevation).
	 *
	 * @param array<int, array{type: string, rings: array<int, array<int, array<int, mixed>>>, ring?: int, absolute: bool, ring_line?: bool, fix?: bool}> $parts Parts, changed in place.
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
