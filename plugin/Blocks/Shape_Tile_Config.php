<?php
/**
 * Whether a map draws its shapes from tiles.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Blocks;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Feed\Shape_Tile_Index;
use Cairn\Maps\Markers\Marker_Filters;
use Cairn\Maps\Markers\Markers_Version;
use Cairn\Maps\Support\Limits;

/**
 * The server decides per map whether it downloads its whole shapes feed (as always) or the shape
 * tiles of each view, simplified for its zoom: tiles when the shape tiles' tables are complete and
 * the published shapes of the map's selection hold at least Limits::shape_tile_threshold()
 * positions in all (as the feed serves them). Such a map's configuration carries `shapeTilesUrl`
 * beside its `shapesUrl`; every other map gets '' and nothing else changes for it.
 *
 * The positions of a selection, and whether the tables are complete, are kept in one autoloaded
 * option under the markers version (every shape change renews it, and so do a rebuild's start and
 * end), at most MAX_ANSWERS selections: a page render asks the database nothing once known.
 *
 * @since 0.7.0
 */
final class Shape_Tile_Config {

	/**
	 * The option holding the answers: `{version, ready, answers: {key: positions}}`.
	 */
	public const OPTION = 'cairn_maps_shape_tile_weights';

	/**
	 * Most selections remembered.
	 */
	public const MAX_ANSWERS = 64;

	/**
	 * The shape tiles' tables; null: no map draws tiles.
	 *
	 * @var Shape_Tile_Index|null
	 */
	private ?Shape_Tile_Index $index;

	/**
	 * The markers version, which the address carries.
	 *
	 * @var Markers_Version
	 */
	private Markers_Version $version;

	/**
	 * Creates the rule.
	 *
	 * @param Shape_Tile_Index|null $index   The shape tiles' tables; null: no map draws tiles.
	 * @param Markers_Version|null  $version The markers version.
	 */
	public function __construct( ?Shape_Tile_Index $index = null, ?Markers_Version $version = null ) {
		$this->index   = $index;
		$this->version = $version ?? new Markers_Version();
	}

	/**
	 * A map's `shapeTilesUrl`: '' unless its shapes are drawn from tiles.
	 *
	 * @param array{source: string, groups: string[], ids: int[]} $markers The map's `markers`.
	 * @param array{groups?: string[], ids?: int[]}|null          $filters Its filters, null when it shows no markers.
	 */
	public function url( array $markers, ?array $filters ): string {
		if ( null === $filters || null === $this->index ) {
			return '';
		}
		$version = $this->version->get(); // Read before the shapes: a change meanwhile renews it again.
		$normal  = Marker_Filters::normalize( array_intersect_key( $filters, array_flip( array( 'groups', 'ids' ) ) ) );
		$normal  = array(
			'groups' => $normal['groups'],
			'ids'    => $normal['ids'],
		);
		return $this->positions( $normal, $version ) >= Limits::shape_tile_threshold() ? Feed_Url::shape_tiles( $markers, $version ) : '';
	}

	/**
	 * The positions of a selection's published shapes, remembered under the markers version; 0
	 * while the tables are not complete (a rebuild starts and ends with a new markers version, so
	 * that is remembered too).
	 *
	 * @param array{groups: string[], ids: int[]} $filters The map's filters, normalised.
	 * @param string                              $version The markers version.
	 */
	private function positions( array $filters, string $version ): int {
		$key    = substr( md5( (string) wp_json_encode( $filters ) ), 0, 12 );
		$stored = get_option( self::OPTION );
		if ( ! is_array( $stored ) || ( $stored['version'] ?? null ) !== $version || ! is_array( $stored['answers'] ?? null ) ) {
			$stored = array(
				'version' => $version,
				'ready'   => null !== $this->index && $this->index->is_ready(),
				'answers' => array(),
			);
		} elseif ( isset( $stored['answers'][ $key ] ) ) {
			return (int) $stored['answers'][ $key ];
		}
		$stored['answers'][ $key ] = ! empty( $stored['ready'] ) && null !== $this->index ? $this->index->positions( $filters ) : 0;
		if ( count( $stored['answers'] ) > self::MAX_ANSWERS ) {
			$stored['answers'] = array_slice( $stored['answers'], -self::MAX_ANSWERS, null, true );
		}
		update_option( self::OPTION, $stored, true );
		return (int) $stored['answers'][ $key ];
	}
}
