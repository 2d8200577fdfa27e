<?php
/**
 * Posts with a public place as a GeoJSON FeatureCollection.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Feed;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Content\Location_Types;
use Cairn\Maps\Content\Places_Version;
use Cairn\Maps\Content\Post_Places_Repository;

/**
 * The posts feed (`GET /cairn/v1/markers?post_type=…`): Geojson_Feed's build, cache, locks and
 * cuts, over Post_Places_Repository's rows and under the places version (Places_Version), which
 * is kept apart from the markers version so that each feed's 304s outlive changes to the other.
 *
 * Filters: `types` (post types), `terms` (`taxonomy:slug` keys: posts with any of them), `ids`,
 * `bbox`. Made canonical before they become a cache key, as the markers' are: types that are not
 * enabled for places, terms of no public taxonomy of those types or naming no term, and ids of
 * no published post of those types are dropped (like unknown group slugs); nothing left answers
 * an empty collection at once. The whole feed of each canonical type set is cached; a `terms`
 * selection in group taxonomies (category…) and any box are cut from it, like a group selection
 * from the markers feed; `terms` naming other taxonomies (tags) and `include` are read by SQL;
 * `terms` and `include` selections are stored within the feed cache's bound.
 *
 * @since 0.3.0
 */
class Post_Places_Feed extends Geojson_Feed {

	/**
	 * Post reads.
	 *
	 * @var Post_Places_Repository
	 */
	private Post_Places_Repository $posts;

	/**
	 * Creates the feed.
	 *
	 * @param Post_Places_Repository $posts   Post reads.
	 * @param Places_Version         $version The places version.
	 * @param Feed_Cache             $cache   Built payloads.
	 */
	public function __construct( Post_Places_Repository $posts, Places_Version $version, Feed_Cache $cache ) {
		parent::__construct( null, $version, $cache );
		$this->posts = $posts;
	}

	/**
	 * The posts feed's filters in one canonical order.
	 *
	 * @param array<string, mixed> $filters Validated filters (`types`, `terms`, `ids`, `bbox`).
	 * @return array{types: string[], terms: string[], ids: int[], bbox: float[]}
	 */
	public static function normalize_posts( array $filters ): array {
		$types = array_values( array_unique( array_map( 'strval', (array) ( $filters['types'] ?? array() ) ) ) );
		$terms = array_values( array_unique( array_map( 'strval', (array) ( $filters['terms'] ?? array() ) ) ) );
		sort( $types );
		sort( $terms );
		$rest = self::normalize(
			array(
				'ids'  => $filters['ids'] ?? array(),
				'bbox' => $filters['bbox'] ?? array(),
			)
		);
		return array(
			'types' => $types,
			'terms' => $terms,
			'ids'   => $rest['ids'],
			'bbox'  => $rest['bbox'],
		);
	}

	/**
	 * The payload for these filters: its post types made canonical first (only those enabled for
	 * places), so that the whole feed is cached per canonical type set only.
	 *
	 * @param array<string, mixed> $filters     Validated filters.
	 * @param bool                 $allow_stale Whether the previous build may be served while another
	 *        request rebuilds.
	 */
	public function payload( array $filters, bool $allow_stale = false ): Feed_Payload {
		$normalized          = self::normalize_posts( $filters );
		$normalized['types'] = array_values( array_intersect( $normalized['types'], Location_Types::enabled() ) );
		if ( array() === $normalized['types'] ) {
			return Geojson_Writer::compress( array(), self::GZIP_LEVEL_UNCACHED, '' ); // Nothing can match.
		}
		return parent::payload( $normalized, $allow_stale );
	}

	/**
	 * The option holding the places version.
	 */
	protected function version_option(): string {
		return Places_Version::OPTION;
	}

	/**
	 * Filters in canonical order.
	 *
	 * @param array<string, mixed> $filters Validated filters.
	 * @return array<string, mixed>
	 */
	protected function normalized( array $filters ): array {
		return self::normalize_posts( $filters );
	}

	/**
	 * Whether normalised filters ask for the whole feed of their types.
	 *
	 * @param array<string, mixed> $filters Normalised filters.
	 */
	protected function is_whole( array $filters ): bool {
		return array() === $filters['terms'] && array() === $filters['ids'] && array() === $filters['bbox'];
	}

	/**
	 * The whole feed of the same (canonical) types.
	 *
	 * @param array<string, mixed> $filters Normalised or canonical filters.
	 * @return array<string, mixed>
	 */
	protected function whole_filters( array $filters ): array {
		return self::normalize_posts( array( 'types' => $filters['types'] ?? array() ) );
	}

	/**
	 * Filters in canonical form: enabled types, known terms of their public taxonomies, ids of
	 * their published posts. Null when nothing can match.
	 *
	 * @param array<string, mixed> $filters Normalised filters.
	 * @return array<string, mixed>|null
	 */
	protected function canonical( array $filters ): ?array {
		$filters['types'] = array_values( array_intersect( $filters['types'], Location_Types::enabled() ) );
		if ( array() === $filters['types'] ) {
			return null;
		}
		if ( array() !== $filters['terms'] ) {
			$filters['terms'] = array_keys( $this->posts->known_terms( $filters['terms'], Post_Places_Repository::filter_taxonomies( $filters['types'] ) ) );
			if ( array() === $filters['terms'] ) {
				return null;
			}
		}
		if ( array() !== $filters['ids'] ) {
			$filters['ids'] = $this->posts->published_ids( $filters['ids'], $filters['types'] );
			if ( array() === $filters['ids'] ) {
				return null;
			}
		}
		return $filters;
	}

	/**
	 * Whether the selection's terms are all groups of its features (then it is cut from the whole
	 * feed; tags and other flat taxonomies are read by SQL).
	 *
	 * @param array<string, mixed> $filters Canonical filters.
	 */
	protected function derivable( array $filters ): bool {
		if ( array() === $filters['terms'] ) {
			return true;
		}
		$groups = Post_Places_Repository::group_taxonomies( $filters['types'] );
		foreach ( $filters['terms'] as $key ) {
			if ( ! in_array( strtok( $key, ':' ), $groups, true ) ) {
				return false;
			}
		}
		return true;
	}

	/**
	 * Terms match as group keys do.
	 *
	 * @param array<string, mixed> $filters Canonical filters.
	 * @return array{groups: string[], ids: int[], bbox: float[]}
	 */
	protected function scan_filters( array $filters ): array {
		return array(
			'groups' => $filters['terms'],
			'ids'    => $filters['ids'],
			'bbox'   => $filters['bbox'],
		);
	}

	/**
	 * The posts with a public place matching canonical filters.
	 *
	 * @param array<string, mixed> $filters Canonical filters.
	 * @return iterable<array{id: int, title: string, lng: float, lat: float, groups: string[], type: string, thumb?: string}>
	 */
	protected function rows( array $filters ): iterable {
		/**
		 * Canonical filters (see canonical()).
		 *
		 * @var array{types: string[], terms?: string[], ids?: int[], bbox?: float[]} $filters
		 */
		return $this->posts->each( $filters, true );
	}
}
