<?php
/**
 * What the place index holds of a marker or a post, read from WordPress' tables.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Index;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Content\Location_Types;
use Cairn\Maps\Content\Post_Places_Repository;
use Cairn\Maps\Markers\Post_Batch;
use Cairn\Maps\Markers\Post_Type;
use Cairn\Maps\Markers\Wpdb_Rows;

/**
 * Reads markers as the index stores them, from posts, postmeta and the group relationships
 * directly (never from caches, which hooks may see stale): the same rule as the markers feed
 * (Markers\Marker_Repository) — published, no password, both coordinates stored — and the
 * coordinates must be numbers on the globe (|lat| ≤ 90, |lng| ≤ 180). The title is the feed's plain
 * title; the group slugs are sorted.
 *
 * Since 0.10.0 the index also holds the places of posts, under the posts feed's rule
 * (Content\Post_Places_Repository: an enabled type, published, no password, valid coordinates,
 * `geo_public` true). A post's "slugs" are its type as `@<type>` and its group keys
 * (`<taxonomy>:<slug>`, the keys the posts feed and its legend use): a marker group's slug never
 * holds `@` or `:`, so one list of combinations keeps both apart (Place_Filter::selects()).
 *
 * @since 0.5.0
 */
final class Place_Source {

	/**
	 * Longest title kept, in characters (as the feed's Geojson_Writer::TITLE_MAX).
	 */
	public const TITLE_MAX = 200;

	/**
	 * What starts a post type's slug in a place's combination (`@post`).
	 *
	 * @since 0.10.0
	 */
	public const TYPE_PREFIX = '@';

	/**
	 * Row reads.
	 *
	 * @var Wpdb_Rows
	 */
	private Wpdb_Rows $db;

	/**
	 * Creates the source.
	 */
	public function __construct() {
		$this->db = new Wpdb_Rows();
	}

	/**
	 * The places of some markers (those the index holds), by id.
	 *
	 * @param int[] $ids Post ids.
	 * @return array<int, array{lat: float, lng: float, title: string, slugs: string[]}>
	 */
	public function of( array $ids ): array {
		global $wpdb;
		$ids = array_values( array_unique( array_filter( array_map( 'intval', $ids ), static fn( int $id ): bool => $id > 0 ) ) );
		if ( array() === $ids ) {
			return array();
		}
		sort( $ids );
		$in    = implode( ',', $ids );
		$types = self::types();
		// phpcs:ignore WordPress.DB.PreparedSQL.InterpolatedNotPrepared, WordPress.DB.PreparedSQL.NotPrepared -- $in is a list of integers, the types placeholders.
		$posts = $this->db->rows( $wpdb->prepare( "SELECT ID, post_title, post_type FROM {$wpdb->posts} WHERE ID IN ($in) AND post_type IN (" . implode( ',', array_fill( 0, count( $types ), '%s' ) ) . ") AND post_status = 'publish' AND post_password = '' ORDER BY ID", $types ) );
		return $this->read( $posts, null );
	}

	/**
	 * The posts (`p`) a rebuild reads, prepared: published markers without a password, and the
	 * published posts without a password of the enabled types that have a latitude stored (a blog
	 * of 100,000 posts with 10 places reads 10).
	 *
	 * @since 0.10.0
	 */
	private static function read_condition(): string {
		global $wpdb;
		$others = array_values( array_diff( self::types(), array( Post_Type::POST_TYPE ) ) );
		$sql    = $wpdb->prepare( "p.post_status = 'publish' AND p.post_password = '' AND (p.post_type = %s", Post_Type::POST_TYPE );
		if ( array() !== $others ) {
			// phpcs:ignore WordPress.DB.PreparedSQL.NotPrepared, WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- placeholders only.
			$sql .= $wpdb->prepare( ' OR (p.post_type IN (' . implode( ',', array_fill( 0, count( $others ), '%s' ) ) . ") AND EXISTS (SELECT 1 FROM {$wpdb->postmeta} m WHERE m.post_id = p.ID AND m.meta_key = %s))", array_merge( $others, array( Location_Types::META_LAT ) ) );
		}
		return $sql . ')';
	}

	/**
	 * The post types the index reads: markers, and the types enabled for locations.
	 *
	 * @since 0.10.0
	 *
	 * @return string[]
	 */
	public static function types(): array {
		return array_values( array_unique( array_merge( array( Post_Type::POST_TYPE ), Location_Types::enabled() ) ) );
	}

	/**
	 * Whether the index reads posts of a type.
	 *
	 * @since 0.10.0
	 *
	 * @param string $type A post type.
	 */
	public static function reads( string $type ): bool {
		return Post_Type::POST_TYPE === $type || Location_Types::is_enabled( $type );
	}

	/**
	 * The places of rows `[ ID, post_title, post_type ]` (in id order): markers read here, posts
	 * through the posts feed's repository, in id order.
	 *
	 * @param array<int, array<int, string|null>>       $posts Rows.
	 * @param array<int, array{0: int, 1: string}>|null $terms The marker groups by term_taxonomy_id (a rebuild's batch), or null.
	 * @return array<int, array{lat: float, lng: float, title: string, slugs: string[]}>
	 */
	private function read( array $posts, ?array $terms ): array {
		$markers = array();
		$others  = array();
		foreach ( $posts as $post ) {
			if ( Post_Type::POST_TYPE === $post[2] ) {
				$markers[] = $post;
			} else {
				$others[ (int) $post[0] ] = (string) $post[2];
			}
		}
		$places = array() === $markers ? array() : $this->places( $markers, Post_Batch::ids( $markers ), $terms );
		if ( array() !== $others ) {
			$repository = new Post_Places_Repository();
			$filters    = array(
				'types' => array_values( array_unique( $others ) ),
				'ids'   => array_keys( $others ),
			);
			foreach ( $repository->each( $filters ) as $row ) {
				$slugs = array_merge( array( self::TYPE_PREFIX . $row['type'] ), $row['groups'] );
				sort( $slugs, SORT_STRING );
				$places[ $row['id'] ] = array(
					'lat'   => $row['lat'],
					'lng'   => $row['lng'],
					'title' => self::plain_title( $row['title'] ),
					'slugs' => $slugs,
				);
			}
			ksort( $places );
		}
		return $places;
	}

	/**
	 * How many markers and posts a rebuild reads: the published ones without a password of the
	 * types read (those without a place among them are read and left out). One count over the
	 * type_status_date index.
	 *
	 * @since 0.8.0
	 */
	public function count(): int {
		global $wpdb;
		// phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.NotPrepared -- a rebuild's progress, counted once when it starts; the condition is prepared.
		return (int) $wpdb->get_var( "SELECT COUNT(*) FROM {$wpdb->posts} p WHERE " . self::read_condition() );
	}

	/**
	 * The places of the next markers and posts after an id, for a rebuild: at most $limit read.
	 *
	 * @param int $after Last post id read.
	 * @param int $limit Markers and posts to read.
	 * @return array{0: array<int, array{lat: float, lng: float, title: string, slugs: string[]}>, 1: int} The places and the last id read (0 when none).
	 */
	public function after( int $after, int $limit ): array {
		global $wpdb;
		// phpcs:ignore WordPress.DB.PreparedSQL.NotPrepared -- the condition is prepared.
		$posts = $this->db->rows( $wpdb->prepare( "SELECT p.ID, p.post_title, p.post_type FROM {$wpdb->posts} p WHERE " . self::read_condition() . ' AND p.ID > %d ORDER BY p.ID LIMIT %d', $after, $limit ) );
		if ( array() === $posts ) {
			return array( array(), 0 );
		}
		return array( $this->read( $posts, $this->group_terms() ), (int) $posts[ count( $posts ) - 1 ][0] );
	}

	/**
	 * The places of a batch of posts.
	 *
	 * @param array<int, array<int, string|null>>       $posts Rows `[ ID, post_title ]`, in id order.
	 * @param array{0: int, 1: int, 2: int[]|null}      $ids   The batch (see Post_Batch::ids()).
	 * @param array<int, array{0: int, 1: string}>|null $terms The groups by term_taxonomy_id as [rank, slug] (a
	 *        rebuild's batch: its relationships are read by object id alone), or null to join the
	 *        term tables (a few posts).
	 * @return array<int, array{lat: float, lng: float, title: string, slugs: string[]}>
	 */
	private function places( array $posts, array $ids, ?array $terms = null ): array {
		if ( array() === $posts ) {
			return array();
		}
		$coords = $this->coordinates( $ids );
		$groups = null === $terms ? $this->groups( $ids ) : Post_Batch::groups( $this->db, $ids, $terms );
		$places = array();
		foreach ( $posts as $post ) {
			$id    = (int) $post[0];
			$coord = $coords[ $id ] ?? null;
			if ( null === $coord || ! self::valid( $coord[1], $coord[2] ) ) {
				continue;
			}
			$slugs = $groups[ $id ] ?? array();
			sort( $slugs, SORT_STRING );
			$places[ $id ] = array(
				'lat'   => (float) $coord[1],
				'lng'   => (float) $coord[2],
				'title' => self::plain_title( (string) $post[1] ),
				'slugs' => $slugs,
			);
		}
		return $places;
	}

	/**
	 * Whether stored coordinates are numbers on the globe.
	 *
	 * @param string|null $lat Stored latitude.
	 * @param string|null $lng Stored longitude.
	 */
	public static function valid( ?string $lat, ?string $lng ): bool {
		if ( null === $lat || null === $lng || ! is_numeric( $lat ) || ! is_numeric( $lng ) ) {
			return false;
		}
		$lat = (float) $lat;
		$lng = (float) $lng;
		return is_finite( $lat ) && is_finite( $lng ) && abs( $lat ) <= 90.0 && abs( $lng ) <= 180.0;
	}

	/**
	 * A title as the feed gives it: tags stripped, entities decoded, at most TITLE_MAX characters.
	 *
	 * @param string $title Stored title.
	 */
	public static function plain_title( string $title ): string {
		$text = false === strpbrk( $title, "<&\0" ) ? trim( $title ) : html_entity_decode( wp_strip_all_tags( $title ), ENT_QUOTES | ENT_HTML5, 'UTF-8' );
		if ( strlen( $text ) > self::TITLE_MAX && mb_strlen( $text, 'UTF-8' ) > self::TITLE_MAX ) {
			$text = rtrim( mb_substr( $text, 0, self::TITLE_MAX - 1, 'UTF-8' ) ) . '…';
		}
		return $text;
	}

	/**
	 * Stored coordinates of a batch, `[ id => [ id, lat, lng ] ]`.
	 *
	 * @param array{0: int, 1: int, 2: int[]|null} $ids The batch.
	 * @return array<int, array<int, string|null>>
	 */
	private function coordinates( array $ids ): array {
		global $wpdb;
		$sql = "SELECT post_id, MAX(CASE WHEN meta_key = %s THEN meta_value END), MAX(CASE WHEN meta_key = %s THEN meta_value END)
			FROM {$wpdb->postmeta} WHERE " . Post_Batch::condition( 'post_id', $ids ) . ' AND meta_key IN (%s, %s) GROUP BY post_id';
		// phpcs:ignore WordPress.DB.PreparedSQL.NotPrepared -- the id condition holds integers only.
		return Post_Batch::by_id( $this->db->rows( $wpdb->prepare( $sql, Post_Type::META_LAT, Post_Type::META_LNG, Post_Type::META_LAT, Post_Type::META_LNG ) ) );
	}

	/**
	 * Every group by term_taxonomy_id, as [rank, slug] (for Post_Batch::groups()).
	 *
	 * @return array<int, array{0: int, 1: string}>
	 */
	private function group_terms(): array {
		global $wpdb;
		$terms = array();
		$rows  = $this->db->rows( $wpdb->prepare( "SELECT tt.term_taxonomy_id, t.slug FROM {$wpdb->term_taxonomy} tt INNER JOIN {$wpdb->terms} t ON t.term_id = tt.term_id WHERE tt.taxonomy = %s ORDER BY t.slug", Post_Type::TAXONOMY ) );
		foreach ( $rows as $rank => $row ) {
			$terms[ (int) $row[0] ] = array( $rank, (string) $row[1] );
		}
		return $terms;
	}

	/**
	 * Group slugs of a few posts, by post id (one join: the relationships by object id).
	 *
	 * @param array{0: int, 1: int, 2: int[]|null} $ids The batch.
	 * @return array<int, string[]>
	 */
	private function groups( array $ids ): array {
		global $wpdb;
		$sql    = "SELECT tr.object_id, t.slug FROM {$wpdb->term_relationships} tr
			INNER JOIN {$wpdb->term_taxonomy} tt ON tt.term_taxonomy_id = tr.term_taxonomy_id AND tt.taxonomy = %s
			INNER JOIN {$wpdb->terms} t ON t.term_id = tt.term_id
			WHERE " . Post_Batch::condition( 'tr.object_id', $ids );
		$groups = array();
		// phpcs:ignore WordPress.DB.PreparedSQL.NotPrepared -- the id condition holds integers only.
		foreach ( $this->db->rows( $wpdb->prepare( $sql, Post_Type::TAXONOMY ) ) as $row ) {
			$groups[ (int) $row[0] ][] = (string) $row[1];
		}
		return $groups;
	}
}
