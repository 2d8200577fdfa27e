<?php
/**
 * Reads GPX and KML files into import records.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Import_Export;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Markers\Geometry_Rule;
use WP_Error;
use XMLReader;

/**
 * Turns a GPX or KML file into one record per place, as Import_Reader does for CSV and GeoJSON:
 * `at` (`row`, 1-based, and `label`, e.g. `track "Ridge loop"`), `line` (the line its element
 * starts on), `folder` (KML Folder names, outermost first, joined with ' / '), `notices` (parts
 * dropped or repaired while the place stands) and the raw fields, with `geometry` (a GeoJSON
 * geometry, not yet checked) for lines and areas; or an `error` (with `skipped` when there was
 * nothing to draw: an empty track, a placemark without geometry).
 *
 * GPX: `trk` → LineString (one `trkseg`) or MultiLineString, `rte` → LineString, `wpt` → a point;
 * `ele` is kept as the third coordinate; `name` → title, `desc` and `cmt` → content. A segment of
 * one point (a GPS fix before a pause) is dropped with a notice when the rest of the track stands.
 * KML (root `kml`, or a bare `Document`, `Folder` or `Placemark`): each `Placemark` with a
 * `Point`, `LineString`, `LinearRing` (a closed line), `Polygon` (outer and inner boundaries; a
 * ring left open is closed, with a notice), `gx:Track` (a line; one fix is a point),
 * `gx:MultiTrack`, or a `MultiGeometry` of one kind of shape (→ Multi*), with at most one Point,
 * which is then the shapes' anchor (Google Earth's labelled areas). Mixing lines and areas, or
 * several points, is a row error. `name` → title, `description` → content, followed by
 * ExtendedData/SchemaData as an escaped definition list. Altitudes are elevations only under
 * `altitudeMode` (or `gx:altitudeMode`) `absolute`, and not when every one is 0.
 *
 * The XML is read as a stream (XMLReader), never with external entities: LIBXML_NONET, no
 * LIBXML_NOENT or DTDLOAD, an external entity loader that loads nothing, and a file with a DOCTYPE
 * is refused as a whole (seen by the reader as a node, and in the prolog when the parser stops on
 * it before). A file that is not well-formed is refused as a whole: nothing of it is imported.
 * A shape's vertices beyond Geometry_Rule::max_vertices() are counted, not kept, so a file with a
 * million of them is refused with its count and without holding them.
 *
 * @since 0.5.0
 */
final class Xml_Track_Reader {
	// phpcs:disable WordPress.NamingConventions.ValidVariableName.UsedPropertyNotSnakeCase -- XMLReader's own property names (nodeType, localName, isEmptyElement).

	private const LIBXML_FLAGS = LIBXML_NONET | LIBXML_COMPACT | LIBXML_NOCDATA;

	/**
	 * The XML reader.
	 *
	 * @var XMLReader
	 */
	private XMLReader $xml;

	/**
	 * Most records accepted.
	 *
	 * @var int
	 */
	private int $max_rows;

	/**
	 * Records read so far.
	 *
	 * @var array<int, array{at: array<string, int|string>, fields?: array{title: mixed, lat: mixed, lng: mixed, groups: string[], description: mixed, address: mixed, geometry?: mixed}, error?: string}>
	 */
	private array $records = array();

	/**
	 * The document's text (to find the line an item starts on).
	 *
	 * @var string
	 */
	private string $content;

	/**
	 * Where the last item found starts in the text, and its line.
	 *
	 * @var array{0: int, 1: int}
	 */
	private array $cursor = array( 0, 1 );

	/**
	 * The open KML Folders: depth and name, outermost first.
	 *
	 * @var array<int, array{0: int, 1: string}>
	 */
	private array $folders = array();

	/**
	 * Creates a reader over one document.
	 *
	 * @param XMLReader $xml      The opened reader.
	 * @param int       $max_rows Most records.
	 * @param string    $content  The document's text.
	 */
	private function __construct( XMLReader $xml, int $max_rows, string $content ) {
		$this->xml      = $xml;
		$this->max_rows = $max_rows;
		$this->content  = $content;
	}

	/**
	 * Starts an item at the current element, with its line (the next start tag of that name past
	 * the last item's: XMLReader does not tell lines) and its folders.
	 *
	 * @param string $kind `track`, `route`, `waypoint` or `placemark`.
	 */
	private function start_item( string $kind ): Xml_Track_Item {
		$item = new Xml_Track_Item( $kind, $this->xml->depth, count( $this->records ) + 1 );
		if ( 1 === preg_match( '/<' . preg_quote( $this->xml->name, '/' ) . '[\s>\/]/', $this->content, $found, PREG_OFFSET_CAPTURE, $this->cursor[0] ) ) {
			$at           = (int) $found[0][1];
			$this->cursor = array( $at + 1, $this->cursor[1] + substr_count( $this->content, "\n", $this->cursor[0], $at - $this->cursor[0] ) );
		}
		$item->line   = $this->cursor[1];
		$item->folder = implode( ' / ', array_filter( array_column( $this->folders, 1 ), static fn( string $name ): bool => '' !== $name ) );
		return $item;
	}

	/**
	 * Reads a GPX file.
	 *
	 * @param string $content  File content.
	 * @param int    $max_rows Most records; more is a 413.
	 * @return array<int, array{at: array<string, int|string>, fields?: array{title: mixed, lat: mixed, lng: mixed, groups: string[], description: mixed, address: mixed, geometry?: mixed}, error?: string}>|WP_Error The records, or why the file cannot be read.
	 */
	public static function read_gpx( string $content, int $max_rows ) {
		return self::parse( $content, 'gpx', $max_rows );
	}

	/**
	 * Reads a KML file, or a KMZ archive (its `doc.kml`, else its first `.kml` entry).
	 *
	 * @param string $content  File content.
	 * @param int    $max_rows Most records; more is a 413.
	 * @return array<int, array{at: array<string, int|string>, fields?: array{title: mixed, lat: mixed, lng: mixed, groups: string[], description: mixed, address: mixed, geometry?: mixed}, error?: string}>|WP_Error The records, or why the file cannot be read.
	 */
	public static function read_kml( string $content, int $max_rows ) {
		if ( Kmz_Archive::is_zip( $content ) ) {
			$content = Kmz_Archive::kml( $content );
			if ( is_wp_error( $content ) ) {
				return $content;
			}
		}
		return self::parse( $content, 'kml', $max_rows );
	}

	/**
	 * Parses a document of one kind.
	 *
	 * @param string $content  File content.
	 * @param string $kind     `gpx` or `kml`.
	 * @param int    $max_rows Most records.
	 * @return array<int, array{at: array<string, int|string>, fields?: array{title: mixed, lat: mixed, lng: mixed, groups: string[], description: mixed, address: mixed, geometry?: mixed}, error?: string}>|WP_Error
	 */
	private static function parse( string $content, string $kind, int $max_rows ) {
		if ( '' === trim( $content ) ) {
			return new WP_Error( 'cairn_maps_import_empty', __( 'The file holds no markers.', 'cairn-maps' ), array( 'status' => 400 ) );
		}
		if ( self::has_doctype( $content ) ) {
			return self::doctype_error();
		}
		$internal = libxml_use_internal_errors( true );
		$previous = function_exists( 'libxml_get_external_entity_loader' ) ? libxml_get_external_entity_loader() : null;
		// Nothing outside the file is ever read: no DTD, no entity, no XInclude.
		libxml_set_external_entity_loader( array( self::class, 'refuse_entity' ) );
		libxml_clear_errors();
		try {
			$xml = new XMLReader();
			if ( ! $xml->XML( $content, null, self::LIBXML_FLAGS ) ) {
				return self::xml_error( $kind );
			}
			$reader = new self( $xml, $max_rows, $content );
			$result = 'gpx' === $kind ? $reader->walk_gpx() : $reader->walk_kml();
			$xml->close();
			if ( is_wp_error( $result ) ) {
				return $result;
			}
			if ( array() !== libxml_get_errors() ) {
				return self::xml_error( $kind );
			}
			return $reader->records;
		} finally {
			libxml_clear_errors();
			libxml_set_external_entity_loader( $previous );
			libxml_use_internal_errors( $internal );
		}
	}

	/**
	 * The external entity loader used while reading: loads nothing.
	 *
	 * @return null
	 */
	public static function refuse_entity() {
		return null;
	}

	/**
	 * Reads the next node; false at the end or at an error (then libxml holds the error).
	 */
	private function next_node(): bool {
		return $this->xml->read();
	}

	/**
	 * Walks a GPX document.
	 *
	 * @return true|WP_Error
	 */
	private function walk_gpx() {
		$root = $this->root( 'gpx' );
		if ( is_wp_error( $root ) ) {
			return $root;
		}
		$xml   = $this->xml;
		$item  = null;
		$point = null;
		while ( $this->next_node() ) {
			if ( XMLReader::DOC_TYPE === $xml->nodeType ) {
				return self::doctype_error();
			}
			$name = $xml->localName;
			if ( XMLReader::END_ELEMENT === $xml->nodeType ) {
				if ( null !== $item && null !== $point && ( 'trkpt' === $name || 'rtept' === $name ) ) {
					$item->add_position( $point );
					$point = null;
				} elseif ( null !== $item && $xml->depth === $item->depth ) {
					$added = $this->add( $item );
					if ( is_wp_error( $added ) ) {
						return $added;
					}
					$item = null;
				}
				continue;
			}
			if ( XMLReader::ELEMENT !== $xml->nodeType ) {
				continue;
			}
			if ( null === $item ) {
				if ( 'wpt' === $name || 'trk' === $name || 'rte' === $name ) {
					$item           = $this->start_item(
						array(
							'wpt' => 'waypoint',
							'trk' => 'track',
							'rte' => 'route',
						)[ $name ]
					);
					$item->absolute = true; // GPX `ele` is an elevation.
					if ( 'wpt' === $name ) {
						$item->add_part( 'Point' );
						$item->add_position( $this->position_attributes() );
					}
					if ( $xml->isEmptyElement ) {
						$added = $this->add( $item );
						if ( is_wp_error( $added ) ) {
							return $added;
						}
						$item = null;
					}
				}
				continue;
			}
			if ( 'trkseg' === $name ) {
				$item->add_part( 'LineString' );
			} elseif ( 'trkpt' === $name || 'rtept' === $name ) {
				if ( 'rtept' === $name && array() === $item->parts ) {
					$item->add_part( 'LineString' );
				}
				$point = $this->position_attributes();
				if ( $xml->isEmptyElement ) {
					$item->add_position( $point );
					$point = null;
				}
			} elseif ( 'ele' === $name ) {
				$elevation = trim( $xml->readString() );
				if ( is_numeric( $elevation ) ) {
					if ( null !== $point ) {
						$point[2] = (float) $elevation;
					}
				}
			} elseif ( $xml->depth === $item->depth + 1 && in_array( $name, array( 'name', 'desc', 'cmt' ), true ) ) {
				$item->text[ $name ] = $xml->readString();
			}
		}
		return true;
	}

	/**
	 * Walks a KML document (its root `kml`, or a bare `Document`, `Folder` or `Placemark`).
	 *
	 * @return true|WP_Error
	 */
	private function walk_kml() {
		$root = $this->root( 'kml', array( 'Document', 'Folder', 'Placemark' ) );
		if ( is_wp_error( $root ) ) {
			return $root;
		}
		$xml      = $this->xml;
		$item     = null;
		$geometry = ''; // The innermost Point, LineString, LinearRing or gx:Track being read.
		$boundary = ''; // `outer` or `inner` inside a Polygon.
		$path     = array(); // Local names of the open elements.
		$pending  = 'Placemark' === $root || 'Folder' === $root;
		while ( $pending || $this->next_node() ) {
			if ( XMLReader::DOC_TYPE === $xml->nodeType ) {
				return self::doctype_error();
			}
			$name = $xml->localName;
			if ( XMLReader::END_ELEMENT === $xml->nodeType ) {
				array_pop( $path );
				if ( null === $item ) {
					if ( 'Folder' === $name && array() !== $this->folders && end( $this->folders )[0] === $xml->depth ) {
						array_pop( $this->folders );
					}
					continue;
				}
				if ( $xml->depth === $item->depth ) {
					$added = $this->add( $item );
					if ( is_wp_error( $added ) ) {
						return $added;
					}
					$item = null;
				} elseif ( $name === $geometry ) {
					$geometry = '';
				} elseif ( 'outerBoundaryIs' === $name || 'innerBoundaryIs' === $name ) {
					$boundary = '';
				} elseif ( 'Polygon' === $name ) {
					$item->in_polygon = false;
				} elseif ( 'MultiTrack' === $name ) {
					$item->absolute = false;
				}
				continue;
			}
			if ( XMLReader::ELEMENT !== $xml->nodeType ) {
				continue;
			}
			$pending = false;
			$parent  = end( $path );
			if ( ! $xml->isEmptyElement ) {
				$path[] = $name;
			}
			if ( null === $item ) {
				if ( 'Placemark' === $name && ! $xml->isEmptyElement ) {
					$item = $this->start_item( 'placemark' );
				} elseif ( 'Folder' === $name && ! $xml->isEmptyElement ) {
					$this->folders[] = array( $xml->depth, '' );
				} elseif ( 'name' === $name && array() !== $this->folders && end( $this->folders )[0] + 1 === $xml->depth ) {
					$this->folders[ count( $this->folders ) - 1 ][1] = trim( wp_strip_all_tags( $xml->readString(), true ) );
				}
				continue;
			}
			switch ( $name ) {
				case 'Point':
				case 'LineString':
					$geometry = $name;
					$item->add_part( $name );
					break;
				case 'Track':
					$geometry = $name;
					$item->add_part( 'LineString', false, true );
					break;
				case 'LinearRing':
					$geometry = $name;
					if ( ! $item->in_polygon ) {
						$item->add_part( 'LineString', true ); // A ring alone is a closed line, as Google Earth draws it.
					} else {
						$item->add_ring( 'inner' !== $boundary );
					}
					break;
				case 'Polygon':
					$item->add_part( 'Polygon' );
					$item->in_polygon = ! $xml->isEmptyElement;
					break;
				case 'outerBoundaryIs':
				case 'innerBoundaryIs':
					$boundary = 'outerBoundaryIs' === $name ? 'outer' : 'inner';
					break;
				case 'coordinates':
					if ( '' !== $geometry && 'Track' !== $geometry ) {
						$this->read_coordinates( $item, $xml->readString() );
					}
					break;
				case 'coord':
					if ( 'Track' === $geometry ) {
						$this->read_track_coordinate( $item, $xml->readString() );
					}
					break;
				case 'altitudeMode':
					// Altitudes are elevations only above the sea level (`absolute`); relative to
					// the ground or the sea floor, or clamped to it, they are not.
					if ( 'absolute' === trim( $xml->readString() ) ) {
						if ( 'MultiTrack' === $parent ) {
							$item->absolute = true;
							foreach ( array_keys( $item->parts ) as $index ) {
								$item->parts[ $index ]['absolute'] = true;
							}
						} elseif ( in_array( $parent, array( 'Point', 'LineString', 'LinearRing', 'Polygon', 'Track' ), true ) ) {
							$item->set_absolute();
						}
					}
					break;
				case 'name':
				case 'description':
					if ( $xml->depth === $item->depth + 1 ) {
						$item->text[ $name ] = $xml->readString();
					}
					break;
				case 'Data':
					if ( 'ExtendedData' === $parent ) {
						$this->read_data( $item );
					}
					break;
				case 'SimpleData':
					if ( 'SchemaData' === $parent ) {
						$label = trim( (string) $xml->getAttribute( 'name' ) );
						$value = trim( $xml->readString() );
						if ( '' !== $label && '' !== $value ) {
							$item->data[] = array( $label, $value );
						}
					}
					break;
				default:
					if ( 'Model' === $name ) {
						$item->unsupported = $name;
					}
			}
		}
		return true;
	}

	/**
	 * Reads an ExtendedData `Data` element (its `displayName`, else its `name`, and its `value`).
	 *
	 * @param Xml_Track_Item $item The placemark.
	 */
	private function read_data( Xml_Track_Item $item ): void {
		$label = trim( (string) $this->xml->getAttribute( 'name' ) );
		$node  = $this->xml->expand(); // One Data element: small.
		if ( false === $node ) {
			return;
		}
		$value = '';
		foreach ( $node->childNodes as $child ) {
			if ( 'displayName' === $child->localName && '' !== trim( (string) $child->textContent ) ) {
				$label = trim( wp_strip_all_tags( (string) $child->textContent, true ) );
			} elseif ( 'value' === $child->localName ) {
				$value = trim( (string) $child->textContent );
			}
		}
		if ( '' !== $label && '' !== $value ) {
			$item->data[] = array( $label, $value );
		}
	}

	/**
	 * Reads a gx:Track `gx:coord` (`lon lat [alt]`, separated by spaces) into the current part.
	 *
	 * @param Xml_Track_Item $item The placemark.
	 * @param string         $text The text.
	 */
	private function read_track_coordinate( Xml_Track_Item $item, string $text ): void {
		if ( $item->vertices >= Geometry_Rule::max_vertices() ) {
			++$item->vertices;
			return;
		}
		$values = preg_split( '/\s+/', trim( $text ), 4 );
		$item->add_position( array_map( array( self::class, 'number' ), false === $values ? array() : array_slice( $values, 0, 3 ) ) );
	}

	/**
	 * Moves to the root element and checks it is the one expected (or another one accepted).
	 *
	 * @param string   $expected `gpx` or `kml`.
	 * @param string[] $also     Other root elements read (KML: a bare Document, Folder or Placemark).
	 * @return string|true|WP_Error The root's local name; true when there is none.
	 */
	private function root( string $expected, array $also = array() ) {
		while ( $this->next_node() ) {
			if ( XMLReader::DOC_TYPE === $this->xml->nodeType ) {
				return self::doctype_error();
			}
			if ( XMLReader::ELEMENT !== $this->xml->nodeType ) {
				continue;
			}
			if ( $expected === $this->xml->localName || in_array( $this->xml->localName, $also, true ) ) {
				return $this->xml->localName;
			}
			return new WP_Error(
				'cairn_maps_import_xml',
				sprintf(
					/* translators: 1: GPX or KML, 2: the name of the file's first element. */
					__( 'This is not a %1$s file: its first element is <%2$s>.', 'cairn-maps' ),
					strtoupper( $expected ),
					$this->xml->localName
				),
				array( 'status' => 400 )
			);
		}
		return true; // Nothing at all: the caller reports the parser's error.
	}

	/**
	 * `[lon, lat]` from the current element's attributes (numbers as floats, anything else as
	 * given, for Geometry_Rule to refuse with its message).
	 *
	 * @return array<int, mixed>
	 */
	private function position_attributes(): array {
		$lon = $this->xml->getAttribute( 'lon' );
		$lat = $this->xml->getAttribute( 'lat' );
		return array( self::number( $lon ), self::number( $lat ) );
	}

	/**
	 * A number as a float, anything else as given.
	 *
	 * @param string|null $value Text.
	 * @return float|string|null
	 */
	private static function number( ?string $value ) {
		if ( null === $value ) {
			return null;
		}
		$value = trim( $value );
		return is_numeric( $value ) ? (float) $value : $value;
	}

	/**
	 * Reads a KML `coordinates` text (`lon,lat[,alt]` tuples separated by white space) into the
	 * current part, without splitting the whole text into an array first.
	 *
	 * @param Xml_Track_Item $item The placemark.
	 * @param string         $text The text.
	 */
	private function read_coordinates( Xml_Track_Item $item, string $text ): void {
		$tuple = strtok( $text, " \t\r\n" );
		while ( false !== $tuple ) {
			if ( $item->vertices >= Geometry_Rule::max_vertices() ) {
				++$item->vertices; // Counted, not kept.
			} else {
				$item->add_position( array_map( array( self::class, 'number' ), explode( ',', $tuple, 4 ) ) );
			}
			$tuple = strtok( " \t\r\n" );
		}
	}

	/**
	 * Ends an item: adds its record.
	 *
	 * @param Xml_Track_Item $item The item.
	 * @return true|WP_Error
	 */
	private function add( Xml_Track_Item $item ) {
		if ( count( $this->records ) >= $this->max_rows ) {
			return Import_Reader::too_many( $this->max_rows );
		}
		$this->records[] = $item->record();
		return true;
	}

	/**
	 * Whether the prolog (before the first element) declares a DOCTYPE. The reader sees a
	 * DOCTYPE as a node too; this finds the ones the parser stops on before (an entity loop).
	 *
	 * @param string $content File content.
	 */
	private static function has_doctype( string $content ): bool {
		$at = strpos( $content, '<' );
		for ( ; false !== $at; $at = strpos( $content, '<', $at + 1 ) ) {
			$next = substr( $content, $at + 1, 1 );
			if ( '!' === $next ) {
				if ( 0 === strncasecmp( substr( $content, $at, 9 ), '<!DOCTYPE', 9 ) ) {
					return true;
				}
			} elseif ( '?' !== $next ) {
				return false; // The first element: the prolog is over.
			}
		}
		return false;
	}

	/**
	 * The error for a file with a DOCTYPE.
	 */
	private static function doctype_error(): WP_Error {
		return new WP_Error(
			'cairn_maps_import_doctype',
			__( 'The file contains a DOCTYPE; Cairn does not read DOCTYPEs or external entities. Export the file again without one (GPX and KML files do not need it).', 'cairn-maps' ),
			array( 'status' => 400 )
		);
	}

	/**
	 * The error for a file the parser stopped on, with its first complaint and line.
	 *
	 * @param string $kind `gpx` or `kml`.
	 */
	private static function xml_error( string $kind ): WP_Error {
		$errors = libxml_get_errors();
		$first  = $errors[0] ?? null;
		foreach ( $errors as $error ) {
			if ( false !== stripos( $error->message, 'entity' ) ) {
				return self::doctype_error(); // An entity without a DOCTYPE: never expanded.
			}
		}
		return new WP_Error(
			'cairn_maps_import_xml',
			null === $first
				? sprintf(
					/* translators: %s: GPX or KML. */
					__( 'The file is not a readable %s file, so nothing was imported.', 'cairn-maps' ),
					strtoupper( $kind )
				)
				: sprintf(
					/* translators: 1: GPX or KML, 2: line number, 3: the XML parser's explanation (in English). */
					__( 'The file is not well-formed %1$s (line %2$d: %3$s), so nothing was imported. It may be cut short: export or download it again.', 'cairn-maps' ),
					strtoupper( $kind ),
					(int) $first->line,
					trim( $first->message )
				),
			array( 'status' => 400 )
		);
	}
}
