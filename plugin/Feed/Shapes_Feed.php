<?php
/**
 * The markers' shapes as a GeoJSON FeatureCollection.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Feed;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Markers\Markers_Version;

/**
 * The shapes feed (`GET /cairn/v1/shapes`): the lines and areas of published markers, one feature
 * per marker (Shape_Writer's format), with the markers feed's filters, build, cache, locks and
 * ETag under the same markers version (a shape's change bumps it, as a coordinate change does).
 *
 * What differs from Geojson_Feed: the rows (Shape_Rows, from the stored `_cairn_shape` text, the
 * geometry spliced in undecoded), the cache key and ETag (a `feed` member in the filters keeps
 * them apart from the points feed's), and every filtered answer is read, not cut from the whole
 * feed (a shape's bbox is not where Feature_Scanner looks; a site has few shapes). `group` and
 * `include` answers are stored within the feed cache's bound like the markers feed's; a box is
 * never stored.
 *
 * @since 0.5.0
 */
class Shapes_Feed extends Geojson_Feed {

	/**
	 * The private meta holding a marker's derived shape (JSON text; written by Markers\Shape_Store).
	 */
	public const META = '_cairn_shape';

	/**
	 * Highest gzip level of a build. Coordinates compress no better above it: measured on routes
	 * of 2,000 vertices, level 5 gave the bytes of levels 6 and 8 in a third of level 8's time
	 * (21 MB of JSON: about 1 s against 3).
	 */
	public const GZIP_LEVEL_MAX = 5;

	/**
	 * Shape reads.
	 *
	 * @var Shape_Rows
	 */
	private Shape_Rows $shapes;

	/**
	 * The markers version.
	 *
	 * @var Markers_Version
	 */
	private Markers_Version $markers_version;

	/**
	 * Creates the feed.
	 *
	 * @param Markers_Version $version The markers version.
	 * @param Feed_Cache      $cache   Built payloads.
	 * @param Shape_Rows|null $shapes  Shape reads.
	 */
	public function __construct( Markers_Version $version, Feed_Cache $cache, ?Shape_Rows $shapes = null ) {
		parent::__construct( null, $version, $cache );
		$this->markers_version = $version;
		$this->shapes          = $shapes ?? new Shape_Rows();
	}

	/**
	 * Filters in canonical order, marked as the shapes feed's (their cache key and ETag differ
	 * from the points feed's for the same selection).
	 *
	 * @param array<string, mixed> $filters Validated filters.
	 * @return array<string, mixed>
	 */
	protected function normalized( array $filters ): array {
		return array( 'feed' => 'shapes' ) + self::normalize( $filters );
	}

	/**
	 * The whole shapes feed.
	 *
	 * @param array<string, mixed> $filters Normalised or canonical filters.
	 * @return array<string, mixed>
	 */
	protected function whole_filters( array $filters ): array {
		unset( $filters );
		return $this->normalized( array() );
	}

	/**
	 * Filtered answers are read (see the class comment).
	 *
	 * @param array<string, mixed> $filters Canonical filters.
	 */
	protected function derivable( array $filters ): bool {
		unset( $filters );
		return false;
	}

	/**
	 * Builds the payload from the stored shapes: JSON text, compressed on the fly, cut into chunks.
	 *
	 * @param array<string, mixed> $filters Canonical filters.
	 * @param int                  $level   gzip level (at most GZIP_LEVEL_MAX is used).
	 * @param string               $version The markers version read before the shapes.
	 */
	public function build( array $filters, int $level = self::GZIP_LEVEL, string $version = '' ): Feed_Payload {
		$features = function () use ( $filters ): \Generator {
			foreach ( $this->shapes->each( $filters ) as $row ) {
				yield Shape_Writer::feature_json( $row['id'], $row['title'], $row['groups'], $row['shape'] );
			}
		};
		return Geojson_Writer::compress( $features(), min( $level, self::GZIP_LEVEL_MAX ), '' !== $version ? $version : $this->markers_version->get() );
	}
}
