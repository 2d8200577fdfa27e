<?php
/**
 * Reads marker files (CSV, GeoJSON, GPX, KML, KMZ) into records.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Import_Export;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Markers\Geometry_Rule;
use WP_Error;

/**
 * Turns an uploaded file into one record per marker, each with its place in the file `at` (CSV: the
 * line it starts on, the header being line 1; GeoJSON: the index in `features`, from 0) and its
 * raw fields, or the reason it cannot be read. Checking the fields is Marker_Import's job.
 *
 * CSV: a header names the columns `title` (required), `lat` and `lng`, `address` (or
 * `geo_address`; a header needs `lat` and `lng`, or `address`, or all three), `group`,
 * `description`, in any order; comma, semicolon or tab separated (guessed from the header); quoted as RFC 4180; a
 * leading UTF-8 byte-order mark is ignored. `group` holds group slugs or names separated by `|`.
 * A cell that starts with `'` followed by `=`, `+`, `-`, `@`, tab or carriage return loses that
 * `'`: it is how exports protect spreadsheets from formula injection.
 *
 * GeoJSON: a FeatureCollection, a single Feature or a bare geometry (RFC 7946) of Point,
 * LineString, MultiLineString, Polygon or MultiPolygon features; a MultiPoint or a
 * GeometryCollection is split into one record per part (each with a notice), a null geometry is
 * skipped (an error record with `skipped`). Title from the `title_property` option's property,
 * then `title`, `name`, `Name`, else "Place N"; description from `description` or `desc`;
 * `groups` (array) or `group` (string, `|`-separated); for a line or an area `anchor`
 * (`[lng, lat]`, its marker's point, as exports write it; else Geometry_Measures::anchor()
 * chooses it). A line or area record carries its raw `geometry` (Import_Row_Validator checks it).
 *
 * Every record has `line` (CSV: its first line; GeoJSON: the feature's index, from 1; GPX/KML:
 * the line its element starts on), `folder` ('' but in KML) and `notices` (`line`, `message`).
 *
 * GPX, KML and KMZ: Xml_Track_Reader (records placed by `row`, from 1, with a `label`).
 *
 * @since 0.1.0
 */
final class Import_Reader {

	public const FORMATS = array( 'csv', 'geojson', 'gpx', 'kml', 'kmz' );

	/**
	 * GeoJSON geometry types imported as shapes (lines and areas).
	 */
	public const SHAPE_TYPES = array( 'LineString', 'MultiLineString', 'Polygon', 'MultiPolygon' );

	/**
	 * GeoJSON geometry types a file may be on its own (RFC 7946: a bare geometry).
	 */
	private const GEOMETRY_TYPES = array( 'Point', 'MultiPoint', 'LineString', 'MultiLineString', 'Polygon', 'MultiPolygon', 'GeometryCollection' );

	/**
	 * Most coordinate positions in one GeoJSON file (counted as its `[`s, before decoding).
	 */
	public const MAX_GEOJSON_POSITIONS = 250000;

	/**
	 * Separator of several groups in one CSV cell (or a GeoJSON `group` string).
	 */
	public const GROUP_SEPARATOR = '|';

	/**
	 * CSV header names, by field (first is the canonical one, written by exports).
	 */
	private const COLUMNS = array(
		'title'       => array( 'title', 'name' ),
		'lat'         => array( 'lat', 'latitude' ),
		'lng'         => array( 'lng', 'lon', 'long', 'longitude' ),
		'group'       => array( 'group', 'groups' ),
		'description' => array( 'description' ),
		'address'     => array( 'address', 'geo_address' ),
		'post_type'   => array( 'post_type' ),
	);

	/**
	 * Guesses the format: the name's extension, then the content type, then the first character.
	 *
	 * @param string $content      File content.
	 * @param string $file_name    File name, if any.
	 * @param string $content_type Content type, if any.
	 */
	public static function detect_format( string $content, string $file_name = '', string $content_type = '' ): string {
		$extension  = strtolower( (string) pathinfo( $file_name, PATHINFO_EXTENSION ) );
		$extensions = array(
			'csv'     => 'csv',
			'txt'     => 'csv',
			'geojson' => 'geojson',
			'json'    => 'geojson',
			'gpx'     => 'gpx',
			'kml'     => 'kml',
			'kmz'     => 'kmz',
		);
		if ( isset( $extensions[ $extension ] ) ) {
			return $extensions[ $extension ];
		}
		$types = array(
			'text/csv'                             => 'csv',
			'application/csv'                      => 'csv',
			'text/plain'                           => 'csv',
			'application/geo+json'                 => 'geojson',
			'application/json'                     => 'geojson',
			'application/gpx+xml'                  => 'gpx',
			'application/vnd.google-earth.kml+xml' => 'kml',
			'application/vnd.google-earth.kmz'     => 'kmz',
		);
		$type  = strtolower( trim( explode( ';', $content_type )[0] ) );
		if ( isset( $types[ $type ] ) ) {
			return $types[ $type ];
		}
		if ( Kmz_Archive::is_zip( $content ) ) {
			return 'kmz';
		}
		$start = ltrim( self::strip_bom( $content ) );
		if ( '<' === substr( $start, 0, 1 ) ) {
			// The root element's name, past the prolog.
			return 1 === preg_match( '/<(?:[\w.-]+:)?kml[\s>]/', substr( $start, 0, 4096 ) ) ? 'kml' : 'gpx';
		}
		return '{' === substr( $start, 0, 1 ) ? 'geojson' : 'csv';
	}

	/**
	 * Reads a file.
	 *
	 * @param string                         $content  File content.
	 * @param string                         $format   `csv`, `geojson`, `gpx`, `kml` or `kmz` (Import_Reader::FORMATS).
	 * @param int                            $max_rows Most records accepted; more is a 413.
	 * @param array{title_property?: string} $options `title_property`: the GeoJSON property titles come from first.
	 * @return array<int, array{at: array<string, int|string>, line?: int, folder?: string, notices?: array<int, array{line: int, message: string}>, fields?: array{title: mixed, lat: mixed, lng: mixed, groups: string[], description: mixed, address: mixed, geometry?: mixed}, error?: string, skipped?: bool}>|WP_Error
	 *         The records, or why the file as a whole cannot be read.
	 */
	public static function read( string $content, string $format, int $max_rows, array $options = array() ) {
		switch ( $format ) {
			case 'geojson':
				$records = self::read_geojson( $content, $max_rows, $options );
				break;
			case 'gpx':
				$records = Xml_Track_Reader::read_gpx( $content, $max_rows );
				break;
			case 'kml':
			case 'kmz':
				if ( 'kmz' === $format && ! Kmz_Archive::is_zip( $content ) ) {
					return new WP_Error( 'cairn_maps_import_kmz', __( 'The KMZ file is not a zip archive. Export it again, or import the KML inside it.', 'cairn-maps' ), array( 'status' => 400 ) );
				}
				$records = Xml_Track_Reader::read_kml( $content, $max_rows );
				break;
			default:
				$records = self::read_csv( $content, $max_rows );
		}
		if ( ! is_wp_error( $records ) && array() === $records ) {
			return new WP_Error( 'cairn_maps_import_empty', __( 'The file holds no markers.', 'cairn-maps' ), array( 'status' => 400 ) );
		}
		return $records;
	}

	/**
	 * The error for a file with too many markers.
	 *
	 * @param int $max_rows Most records accepted.
	 */
	public static function too_many( int $max_rows ): WP_Error {
		return new WP_Error(
			'cairn_maps_import_too_large',
			sprintf(
				/* translators: %s: most markers per file. */
				__( 'The file holds more than %s markers. Split it into files of at most that many and import them one by one.', 'cairn-maps' ),
				number_format_i18n( $max_rows )
			),
			array( 'status' => 413 )
		);
	}

	/**
	 * Reads CSV.
	 *
	 * @param string $content  File content.
	 * @param int    $max_rows Most records.
	 * @return array<int, array{at: array<string, int|string>, fields?: array{title: mixed, lat: mixed, lng: mixed, groups: string[], description: mixed, address: mixed, geometry?: mixed}, error?: string}>|WP_Error
	 */
	private static function read_csv( string $content, int $max_rows ) {
		$content = self::strip_bom( $content );
		if ( false === strpos( $content, "\n" ) && false !== strpos( $content, "\r" ) ) {
			$content = str_replace( "\r", "\n", $content ); // Classic Mac OS line ends.
		}
		$first_line = (string) strtok( $content, "\n" );
		$delimiter  = ',';
		foreach ( array( ';', "\t" ) as $candidate ) {
			if ( substr_count( $first_line, $candidate ) > substr_count( $first_line, $delimiter ) ) {
				$delimiter = $candidate;
			}
		}

		$stream = fopen( 'php://temp', 'r+' ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_system_read_fopen, WordPress.WP.AlternativeFunctions.file_system_operations_fopen -- an in-memory stream for fgetcsv, not a file.
		if ( false === $stream ) {
			return new WP_Error( 'cairn_maps_import_unreadable', __( 'The file could not be read.', 'cairn-maps' ), array( 'status' => 500 ) );
		}
		fwrite( $stream, $content ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_system_read_fwrite, WordPress.WP.AlternativeFunctions.file_system_operations_fwrite -- as above.
		rewind( $stream );

		$line    = 1;
		$offset  = 0;
		$advance = static function () use ( $stream, $content, &$line, &$offset ): void {
			$position = (int) ftell( $stream );
			$line    += substr_count( $content, "\n", $offset, $position - $offset );
			$offset   = $position;
		};
		$header  = fgetcsv( $stream, 0, $delimiter, '"', '' );
		$advance();
		$columns         = is_array( $header ) ? self::columns( $header ) : null;
		$has_coordinates = null !== $columns && isset( $columns['lat'], $columns['lng'] );
		if ( null === $columns || ! isset( $columns['title'] ) || ( ! $has_coordinates && ! isset( $columns['address'] ) ) ) {
			fclose( $stream ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_system_read_fclose, WordPress.WP.AlternativeFunctions.file_system_operations_fclose -- as above.
			return new WP_Error(
				'cairn_maps_import_header',
				__( 'The first line of the CSV file must name its columns: title, then lat and lng or address (or all three), and optionally group and description (for example "title,lat,lng,address,group,description").', 'cairn-maps' ),
				array( 'status' => 400 )
			);
		}

		$records = array();
		while ( true ) {
			$start = $line;
			$cells = fgetcsv( $stream, 0, $delimiter, '"', '' );
			if ( false === $cells ) {
				break;
			}
			$advance();
			if ( array( null ) === $cells || array( '' ) === array_unique( array_map( 'strval', $cells ) ) ) {
				continue; // A blank line.
			}
			if ( count( $records ) >= $max_rows ) {
				fclose( $stream ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_system_read_fclose, WordPress.WP.AlternativeFunctions.file_system_operations_fclose -- as above.
				return self::too_many( $max_rows );
			}
			$at       = array( 'line' => $start );
			$row_base = array(
				'at'      => $at,
				'line'    => $start,
				'folder'  => '',
				'notices' => array(),
			);
			if ( ! self::is_utf8( $cells ) ) {
				$records[] = $row_base + array( 'error' => self::utf8_message() );
				continue;
			}
			$cells = array_map( array( self::class, 'unescape_cell' ), array_map( 'strval', $cells ) );
			$extra = array_filter( array_slice( $cells, count( $header ) ), static fn( string $cell ): bool => '' !== trim( $cell ) );
			if ( array() !== $extra ) {
				$records[] = $row_base + array(
					'error' => sprintf(
						/* translators: 1: number of cells in the row, 2: number of columns in the header. */
						__( 'This row has %1$d cells, but the header names only %2$d columns. Put text that contains the separator in double quotes.', 'cairn-maps' ),
						count( $cells ),
						count( $header )
					),
				);
				continue;
			}
			$value     = static fn( string $field ) => isset( $columns[ $field ] ) ? ( $cells[ $columns[ $field ] ] ?? '' ) : '';
			$records[] = $row_base + array(
				'fields' => array(
					'title'       => $value( 'title' ),
					'lat'         => trim( $value( 'lat' ) ),
					'lng'         => trim( $value( 'lng' ) ),
					'groups'      => self::split_groups( $value( 'group' ) ),
					'description' => $value( 'description' ),
					'address'     => $value( 'address' ),
					'post_type'   => trim( $value( 'post_type' ) ),
				),
			);
		}
		fclose( $stream ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_system_read_fclose, WordPress.WP.AlternativeFunctions.file_system_operations_fclose -- as above.
		return $records;
	}

	/**
	 * Column index of each known field in a CSV header.
	 *
	 * @param array<int, string|null> $header Header cells.
	 * @return array<string, int>|null Null when the header is not valid UTF-8.
	 */
	private static function columns( array $header ): ?array {
		if ( ! self::is_utf8( $header ) ) {
			return null;
		}
		$columns = array();
		foreach ( $header as $index => $name ) {
			$name = strtolower( trim( (string) $name ) );
			foreach ( self::COLUMNS as $field => $names ) {
				if ( in_array( $name, $names, true ) && ! isset( $columns[ $field ] ) ) {
					$columns[ $field ] = (int) $index;
				}
			}
		}
		return $columns;
	}

	/**
	 * Reads GeoJSON.
	 *
	 * @param string                         $content  File content.
	 * @param int                            $max_rows Most records.
	 * @param array{title_property?: string} $options Options (Import_Reader::read()).
	 * @return array<int, array{at: array<string, int|string>, line: int, folder: string, notices: array<int, array{line: int, message: string}>, fields?: array{title: mixed, lat: mixed, lng: mixed, groups: string[], description: mixed, address: mixed, geometry?: mixed}, error?: string, skipped?: bool}>|WP_Error
	 */
	private static function read_geojson( string $content, int $max_rows, array $options ) {
		// Decoded, each position costs ~200 bytes of PHP memory: count them (an upper bound, from
		// the brackets) before decoding, so a file of a million tiny positions is refused cheaply.
		$positions = substr_count( $content, '[' );
		if ( $positions > self::MAX_GEOJSON_POSITIONS ) {
			return new WP_Error(
				'cairn_maps_import_too_large',
				sprintf(
					/* translators: 1: number of positions in the file, 2: most positions per file, 3: most vertices per shape. */
					__( 'The file holds about %1$s coordinate positions; a GeoJSON import may hold at most %2$s (and a shape at most %3$s vertices). Simplify the shapes, or split the file and import the parts one by one.', 'cairn-maps' ),
					number_format_i18n( $positions ),
					number_format_i18n( self::MAX_GEOJSON_POSITIONS ),
					number_format_i18n( Geometry_Rule::max_vertices() )
				),
				array( 'status' => 413 )
			);
		}
		$data = json_decode( self::strip_bom( $content ), true, 32 );
		if ( JSON_ERROR_NONE !== json_last_error() ) {
			return new WP_Error(
				'cairn_maps_import_json',
				sprintf(
					/* translators: %s: the JSON parser's explanation. */
					__( 'The file is not valid GeoJSON: %s. GeoJSON files must be UTF-8 encoded JSON.', 'cairn-maps' ),
					json_last_error_msg()
				),
				array( 'status' => 400 )
			);
		}
		$type = is_array( $data ) ? ( $data['type'] ?? null ) : null;
		if ( 'Feature' === $type ) {
			$data = array( 'features' => array( $data ) ); // RFC 7946: a single Feature is a file too.
		} elseif ( in_array( $type, self::GEOMETRY_TYPES, true ) ) {
			$data = array(
				'features' => array(
					array(
						'type'       => 'Feature',
						'geometry'   => $data,
						'properties' => array(),
					),
				),
			);
		} elseif ( 'FeatureCollection' !== $type ) {
			$data = null;
		}
		if ( ! is_array( $data ) || ! isset( $data['features'] ) || ! is_array( $data['features'] ) || ! array_is_list( $data['features'] ) ) {
			return new WP_Error( 'cairn_maps_import_geojson', __( 'The file must be GeoJSON: a FeatureCollection {"type":"FeatureCollection","features":[…]}, a single Feature, or a geometry.', 'cairn-maps' ), array( 'status' => 400 ) );
		}
		if ( count( $data['features'] ) > $max_rows ) {
			return self::too_many( $max_rows );
		}
		$title_property = (string) ( $options['title_property'] ?? '' );
		$records        = array();
		foreach ( $data['features'] as $index => $feature ) {
			foreach ( self::geojson_feature( $feature, $index, $title_property ) as $record ) {
				if ( count( $records ) >= $max_rows ) {
					return self::too_many( $max_rows );
				}
				$records[] = $record;
			}
		}
		return $records;
	}

	/**
	 * The records of one GeoJSON feature: one, or one per part of a MultiPoint or a
	 * GeometryCollection (each with a notice).
	 *
	 * @param mixed  $feature        The feature.
	 * @param int    $index          Its index in `features`, from 0.
	 * @param string $title_property The property titles come from first ('' for none).
	 * @return array<int, array{at: array<string, int|string>, line: int, folder: string, notices: array<int, array{line: int, message: string}>, fields?: array{title: mixed, lat: mixed, lng: mixed, groups: string[], description: mixed, address: mixed, geometry?: mixed}, error?: string, skipped?: bool}>
	 */
	private static function geojson_feature( $feature, int $index, string $title_property ): array {
		$line = $index + 1;
		$base = array(
			'at'      => array( 'feature' => $index ),
			'line'    => $line,
			'folder'  => '',
			'notices' => array(),
		);
		if ( ! is_array( $feature ) || 'Feature' !== ( $feature['type'] ?? null ) ) {
			return array( $base + array( 'error' => __( 'This is not a GeoJSON Feature.', 'cairn-maps' ) ) );
		}
		$geometry = $feature['geometry'] ?? null;
		if ( null === $geometry ) {
			return array(
				$base + array(
					'error'   => __( 'This feature has no geometry (it is null), so it was left out.', 'cairn-maps' ),
					'skipped' => true,
				),
			);
		}
		$properties = isset( $feature['properties'] ) && is_array( $feature['properties'] ) ? $feature['properties'] : array();
		$groups     = $properties['groups'] ?? ( $properties['group'] ?? array() );
		if ( is_string( $groups ) ) {
			$groups = self::split_groups( $groups );
		}
		if ( ! is_array( $groups ) || array() !== array_filter( $groups, static fn( $group ): bool => ! is_string( $group ) ) ) {
			return array( $base + array( 'error' => __( 'The groups property must be a list of group slugs or names.', 'cairn-maps' ) ) );
		}
		$title       = self::first_text( $properties, array_values( array_filter( array( $title_property, 'title', 'name', 'Name' ) ) ) );
		$description = self::first_text( $properties, array( 'description', 'desc' ) );
		if ( null === $title || null === $description ) {
			return array( $base + array( 'error' => __( 'The title and description properties must be text.', 'cairn-maps' ) ) );
		}
		$fields = array(
			'title'       => '' !== trim( $title ) ? $title : sprintf(
				/* translators: %d: the feature's place in the file. */
				__( 'Place %d', 'cairn-maps' ),
				$line
			),
			'lat'         => null,
			'lng'         => null,
			'groups'      => array_values( array_filter( array_map( 'trim', $groups ), static fn( string $group ): bool => '' !== $group ) ),
			'description' => $description,
			'address'     => '',
			'post_type'   => is_string( $properties['post_type'] ?? null ) ? trim( $properties['post_type'] ) : '',
		);
		$parts  = self::geometry_parts( $geometry );
		$split  = count( $parts ) > 1 || ( is_array( $geometry ) && 'MultiPoint' === ( $geometry['type'] ?? null ) );
		$notice = $split ? sprintf(
			/* translators: 1: MultiPoint or GeometryCollection, 2: number of places. */
			_n( 'This %1$s was imported as %2$s place.', 'This %1$s was split into %2$s places, one per part.', count( $parts ), 'cairn-maps' ),
			(string) $geometry['type'],
			number_format_i18n( count( $parts ) )
		) : '';
		$records = array();
		foreach ( $parts as $part ) {
			$record = $base;
			if ( '' !== $notice ) {
				$record['notices'][] = array(
					'line'    => $line,
					'message' => $notice,
				);
			}
			$type = is_array( $part ) ? ( $part['type'] ?? null ) : null;
			if ( in_array( $type, self::SHAPE_TYPES, true ) ) {
				// A shape's marker point: the export's `anchor`, else (null) the geometry's own.
				$anchor    = $properties['anchor'] ?? null;
				$anchor    = is_array( $anchor ) && array_is_list( $anchor ) && count( $anchor ) >= 2 ? $anchor : array( null, null );
				$shape     = array_merge(
					$fields,
					array(
						'lat'      => $anchor[1],
						'lng'      => $anchor[0],
						'geometry' => $part,
					)
				);
				$records[] = $record + array( 'fields' => $shape );
			} elseif ( 'Point' === $type && isset( $part['coordinates'] ) && is_array( $part['coordinates'] ) && count( $part['coordinates'] ) >= 2 ) {
				$point     = array_merge(
					$fields,
					array(
						'lat' => $part['coordinates'][1],
						'lng' => $part['coordinates'][0],
					)
				);
				$records[] = $record + array( 'fields' => $point );
			} else {
				$records[] = $record + array( 'error' => __( 'Only Point, MultiPoint, LineString, MultiLineString, Polygon, MultiPolygon and GeometryCollection geometries can be imported, for example "geometry": {"type": "Point", "coordinates": [longitude, latitude]}.', 'cairn-maps' ) );
			}
		}
		if ( array() === $records ) {
			return array(
				$base + array(
					'error'   => __( 'This feature\'s geometry has no parts, so it was left out.', 'cairn-maps' ),
					'skipped' => true,
				),
			);
		}
		return $records;
	}

	/**
	 * The parts a geometry is imported as: a MultiPoint's points, a GeometryCollection's members
	 * (nested ones flattened), else the geometry itself.
	 *
	 * @param mixed $geometry A geometry.
	 * @param int   $depth    Collections around it.
	 * @return array<int, mixed>
	 */
	private static function geometry_parts( $geometry, int $depth = 0 ): array {
		$type = is_array( $geometry ) ? ( $geometry['type'] ?? null ) : null;
		if ( 'MultiPoint' === $type && isset( $geometry['coordinates'] ) && is_array( $geometry['coordinates'] ) ) {
			return array_map(
				static fn( $position ): array => array(
					'type'        => 'Point',
					'coordinates' => $position,
				),
				array_values( $geometry['coordinates'] )
			);
		}
		if ( 'GeometryCollection' === $type && $depth < 4 && isset( $geometry['geometries'] ) && is_array( $geometry['geometries'] ) ) {
			$parts = array();
			foreach ( $geometry['geometries'] as $member ) {
				array_push( $parts, ...self::geometry_parts( $member, $depth + 1 ) );
			}
			return $parts;
		}
		return array( $geometry );
	}

	/**
	 * The first of some properties that is set: as text ('' when none is), or null when it is
	 * not text. An object with a `value` (as togeojson writes HTML descriptions) gives its value.
	 *
	 * @param array<mixed> $properties Properties.
	 * @param string[]     $names      Property names, in order.
	 */
	private static function first_text( array $properties, array $names ): ?string {
		foreach ( $names as $name ) {
			$value = $properties[ $name ] ?? null;
			if ( is_array( $value ) && isset( $value['value'] ) ) {
				$value = $value['value'];
			}
			if ( null === $value || '' === $value ) {
				continue;
			}
			return is_scalar( $value ) ? (string) $value : null;
		}
		return '';
	}

	/**
	 * Group values of a `|`-separated cell.
	 *
	 * @param string $cell Cell.
	 * @return string[]
	 */
	private static function split_groups( string $cell ): array {
		return array_values( array_filter( array_map( 'trim', explode( self::GROUP_SEPARATOR, $cell ) ), static fn( string $group ): bool => '' !== $group ) );
	}

	/**
	 * Where a spreadsheet may start a new cell inside one of ours: after a line break, a tab, or a
	 * `;` or `,` (a spreadsheet that splits on `;` and ignores the quotes sees `a;=cmd` as two
	 * cells), past any spaces and quotes.
	 */
	private const INNER_CELL_START = '(?<=[;,\t\r\n])([ "]*)';

	/**
	 * Characters that make a spreadsheet read what follows as a formula.
	 */
	private const FORMULA_START = '[=+\-@]';

	/**
	 * Removes the `'`s escape_cell() added, so exports import back unchanged.
	 *
	 * @param string $cell Cell.
	 */
	public static function unescape_cell( string $cell ): string {
		$cell = (string) preg_replace( '/' . self::INNER_CELL_START . "'(?='*" . self::FORMULA_START . ')/', '$1', $cell );
		return 1 === preg_match( "/^'+[=+\\-@\t\r]/", $cell ) ? substr( $cell, 1 ) : $cell;
	}

	/**
	 * Protects a text cell from spreadsheet formula injection. A cell that starts with `=`, `+`,
	 * `-`, `@`, tab or carriage return (possibly after `'`s) gets a leading `'`; so does every
	 * place inside the cell where a spreadsheet that splits differently would start a cell with
	 * `=`, `+`, `-` or `@`: after a line break, tab, `;` or `,`, past spaces and quotes.
	 * `unescape_cell()` undoes it, so exports import back unchanged.
	 *
	 * @param string $cell Cell.
	 */
	public static function escape_cell( string $cell ): string {
		$cell = (string) preg_replace( '/' . self::INNER_CELL_START . "(?='*" . self::FORMULA_START . ')/', "$1'", $cell );
		return 1 === preg_match( "/^'*[=+\\-@\t\r]/", $cell ) ? "'" . $cell : $cell;
	}

	/**
	 * Whether every cell is valid UTF-8.
	 *
	 * @param array<int, string|null> $cells Cells.
	 */
	private static function is_utf8( array $cells ): bool {
		foreach ( $cells as $cell ) {
			if ( null !== $cell && 1 !== preg_match( '//u', $cell ) ) {
				return false;
			}
		}
		return true;
	}

	/**
	 * Why a row that is not UTF-8 is refused.
	 */
	private static function utf8_message(): string {
		return __( 'This row is not valid UTF-8 text. Save the file as CSV UTF-8 and import it again.', 'cairn-maps' );
	}

	/**
	 * The content without a UTF-8 byte-order mark.
	 *
	 * @param string $content Content.
	 */
	private static function strip_bom( string $content ): string {
		return "\xEF\xBB\xBF" === substr( $content, 0, 3 ) ? substr( $content, 3 ) : $content;
	}
}
