<?php
/**
 * Whether a map is served as tiles, and its tiled routes' addresses.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Blocks;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Index\Place_Index;
use Cairn\Maps\Index\Tile_Radii;
use Cairn\Maps\Markers\Markers_Version;
use Cairn\Maps\Support\Limits;

/**
 * The server decides per map whether it ships its whole feed (as always) or is served as
 * server-clustered tiles with the places panel answered by the server: tiled when the map shows
 * markers of all or of some groups (not a list of ids), clusters them, shows no posts, the place
 * index is ready, and the selection holds at least Limits::tile_threshold() places. A tiled map's
 * configuration carries `tilesUrl`, `placesUrl` and `summaryUrl`; every other map gets '' for the
 * three and nothing else changes for it.
 *
 * @since 0.6.0
 */
final class Tile_Config {

	/**
	 * The place index; null: no map is tiled.
	 *
	 * @var Place_Index|null
	 */
	private ?Place_Index $index;

	/**
	 * The markers version, which the addresses carry.
	 *
	 * @var Markers_Version
	 */
	private Markers_Version $version;

	/**
	 * Creates the rule.
	 *
	 * @param Place_Index|null     $index   The place index; null: no map is tiled.
	 * @param Markers_Version|null $version The markers version.
	 */
	public function __construct( ?Place_Index $index = null, ?Markers_Version $version = null ) {
		$this->index   = $index;
		$this->version = $version ?? new Markers_Version();
	}

	/**
	 * The three addresses of a map: all '' unless it is tiled.
	 *
	 * @param array<string, mixed> $config    The map's parsed configuration (`markers`, `cluster`).
	 * @param string               $posts_url The map's posts feed ('' when it shows no posts).
	 * @return array{tilesUrl: string, placesUrl: string, summaryUrl: string}
	 */
	public function urls( array $config, string $posts_url ): array {
		$none    = array(
			'tilesUrl'   => '',
			'placesUrl'  => '',
			'summaryUrl' => '',
		);
		$markers = $config['markers'];
		$cluster = $config['cluster'];
		if ( ! $this->is_tiled( $markers, ! empty( $cluster['enabled'] ), $posts_url ) ) {
			return $none;
		}
		$version = $this->version->get();
		$radius  = (int) round( (float) $cluster['radius'] );
		$maxzoom = (int) Limits::get( 'cluster.maxZoom' );
		// Only tiles of radii that maps use are kept on the server (Index\Tile_Radii).
		( new Tile_Radii() )->remember( $radius, $maxzoom );
		return array(
			'tilesUrl'   => Feed_Url::tiles( $markers, $version, $radius, $maxzoom ),
			'placesUrl'  => Feed_Url::places( $markers, $version ),
			'summaryUrl' => Feed_Url::summary( $markers, $version ),
		);
	}

	/**
	 * Whether a map is served as tiles.
	 *
	 * @param array{source: string, groups: string[], ids: int[]} $markers   The map's `markers`.
	 * @param bool                                                $clusters  Whether it clusters.
	 * @param string                                              $posts_url Its posts feed, '' for none.
	 */
	private function is_tiled( array $markers, bool $clusters, string $posts_url ): bool {
		if ( null === $this->index || ! $clusters || '' !== $posts_url ) {
			return false;
		}
		if ( 'all' !== $markers['source'] && ( 'groups' !== $markers['source'] || array() === $markers['groups'] ) ) {
			return false;
		}
		if ( ! $this->index->is_ready() ) {
			return false;
		}
		$groups = 'groups' === $markers['source'] ? $markers['groups'] : array();
		// A ready index counts from its coarsest cells: a few hundred rows, whatever the places.
		return $this->index->count( $groups ) >= Limits::tile_threshold();
	}
}
