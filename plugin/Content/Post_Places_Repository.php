<?php
/**
 * Reads the public places of posts in bounded batches.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Content;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Markers\Marker_Filter_Sql;
use Cairn\Maps\Markers\Post_Batch;
use Cairn\Maps\Markers\Wpdb_Rows;
use Cairn\Maps\Support\Limits;
use WP_Post;

/**
 * The posts feed's reads (and the popup's check): posts of enabled types whose place a visitor may
 * see. A place is public when the post is published, has no password, both coordinates are stored
 * and valid (numbers within the marker ranges), `geo_public` is true and its type is enabled (the
 * caller passes enabled types only: the feed's canonical filters, public_post()).
 *
 * Like the markers' repository it reads posts/postmeta/term relationships with prepared SQL in
 * batches of BATCH posts, never WP_Post objects, so 100,000 posts take a bounded amount of memory:
 * per batch the posts by primary key from the last id read, their place, visibility and featured
 * image in one pivoted postmeta read, their terms in the group taxonomies, and the thumbnails of
 * the featured images not seen yet (two reads). With $prefetch the next batch's meta is queried
 * asynchronously while the caller works (native MySQL connection only; see Wpdb_Rows).
 *
 * A feature's groups are `"<taxonomy>:<slug>"` keys of its terms in the group taxonomies of the
 * types read: public, hierarchical taxonomies shown in REST (category for posts; tags are not
 * groups), in taxonomy then term name order.
 *
 * @since 0.3.0
 */
class Post_Places_Repository {

	public const BATCH = 2000;

	/**
	 * Thumbnail URLs remembered during one read (a site reuses few images, or has many: bounded).
	 */
	private const THUMB_MEMORY = 4000;

	/**
	 * Values of `geo_public` that mean "public" (WordPress's geodata convention is 1 or 0; REST
	 * stores a boolean true as "1").
	 */
	public const PUBLIC_VALUES = array( '1', 'true', 'yes', 'on' );

	/**
	 * Database reads.
	 *
	 * @var Wpdb_Rows
	 */
	private Wpdb_Rows $db;

	/**
	 * Creates the repository.
	 */
	public function __construct() {
		$this->db = new Wpdb_Rows();
	}

	/**
	 * The group taxonomies of post types: public, hierarchical, shown in REST, sorted.
	 *
	 * @param string[] $types Post type names.
	 * @return string[]
	 */
	public static function group_taxonomies( array $types ): array {
		$names = array();
		foreach ( $types as $type ) {
			foreach ( get_object_taxonomies( $type, 'objects' ) as $taxonomy ) {
				if ( $taxonomy->public && $taxonomy->hierarchical && $taxonomy->show_in_rest ) {
					$names[ $taxonomy->name ] = true;
				}
			}
		}
		$names = array_map( 'strval', array_keys( $names ) );
		sort( $names );
		return $names;
	}

	/**
	 * The taxonomies the `terms` filter may name for post types: any public one of theirs.
	 *
	 * @param string[] $types Post type names.
	 * @return string[]
	 */
	public static function filter_taxonomies( array $types ): array {
		$names = array();
		foreach ( $types as $type ) {
			foreach ( get_object_taxonomies( $type, 'objects' ) as $taxonomy ) {
				if ( $taxonomy->public ) {
					$names[ $taxonomy->name ] = true;
				}
			}
		}
		return array_map( 'strval', array_keys( $names ) );
	}

	/**
	 * Term keys (`taxonomy:slug`) that name an existing term of one of these taxonomies, with their
	 * term taxonomy ids.
	 *
	 * @param string[] $keys       Term keys.
	 * @param string[] $taxonomies Allowed taxonomies.
	 * @return array<string, int> Term taxonomy id by key, in the order of $keys.
	 */
	public function known_terms( array $keys, array $taxonomies ): array {
		global $wpdb;
		$pairs = array();
		$args  = array();
		foreach ( $keys as $key ) {
			$parts = explode( ':', $key, 2 );
			if ( 2 === count( $parts ) && in_array( $parts[0], $taxonomies, true ) ) {
				$pairs[] = '(tt.taxonomy = %s AND t.slug = %s)';
				$args[]  = $parts[0];
				$args[]  = $parts[1];
			}
		}
		if ( array() === $pairs ) {
			return array();
		}
		$sql  = "SELECT tt.taxonomy, t.slug, tt.term_taxonomy_id FROM {$wpdb->terms} t
			INNER JOIN {$wpdb->term_taxonomy} tt ON tt.term_id = t.term_id WHERE " . implode( ' OR ', $pairs );
		$rows = $this->db->rows( $wpdb->prepare( $sql, $args ) ); // phpcs:ignore WordPress.DB.PreparedSQL.NotPrepared -- placeholders only.
		$ids  = array();
		foreach ( $rows as $row ) {
			$ids[ $row[0] . ':' . $row[1] ] = (int) $row[2];
		}
		$known = array();
		foreach ( $keys as $key ) {
			if ( isset( $ids[ $key ] ) ) {
				$known[ $key ] = $ids[ $key ];
			}
		}
		return $known;
	}

	/**
	 * Ids among $ids of published, unprotected posts of these types (their places are checked
	 * when they are read).
	 *
	 * @param int[]    $ids   Post ids.
	 * @param string[] $types Post type names.
	 * @return int[]
	 */
	public function published_ids( array $ids, array $types ): array {
		global $wpdb;
		if ( array() === $ids || array() === $types ) {
			return array();
		}
		$sql   = "SELECT ID FROM {$wpdb->posts} WHERE ID IN (" . implode( ',', array_fill( 0, count( $ids ), '%d' ) ) . ')
			AND post_type IN (' . implode( ',', array_fill( 0, count( $types ), '%s' ) ) . ") AND post_status = 'publish' AND post_password = ''";
		$found = array_map( 'intval', array_column( $this->db->rows( $wpdb->prepare( $sql, array_merge( $ids, $types ) ) ), 0 ) ); // phpcs:ignore WordPress.DB.PreparedSQL.NotPrepared -- placeholders only.
		return array_values( array_intersect( $ids, $found ) );
	}

	/**
	 * Published posts of these types with a public place, matching the filters, in id order, one
	 * batch at a time.
	 *
	 * @param array{types: string[], terms?: string[], ids?: int[], bbox?: float[]} $filters  Canonical
	 *        filters: enabled types, known term keys (posts with any of them), ids, a bounding box
	 *        `[west, south, east, north]` (west > east crosses the antimeridian).
	 * @param bool                                                                  $prefetch Whether to
	 *        overlap the next batch's meta read with the caller's work (the caller must then not
	 *        query the database until the generator is done).
	 * @return \Generator<int, array{id: int, title: string, lng: float, lat: float, groups: string[], type: string, thumb?: string}>
	 */
	public function each( array $filters, bool $prefetch = false ): \Generator {
		$types = array_values( $filters['types'] );
		if ( array() === $types ) {
			return;
		}
		$tt_ids = array();
		if ( ! empty( $filters['terms'] ) ) {
			$tt_ids = array_values( $this->known_terms( $filters['terms'], self::filter_taxonomies( $types ) ) );
			if ( array() === $tt_ids ) {
				return;
			}
		}
		$box      = isset( $filters['bbox'] ) && 4 === count( $filters['bbox'] ) ? array_map( 'floatval', array_values( $filters['bbox'] ) ) : null;
		$ids      = $filters['ids'] ?? array();
		$groups   = $this->group_terms( self::group_taxonomies( $types ) );
		$limits   = self::coordinate_limits();
		$thumbs   = array();
		$prefetch = $prefetch && null !== Wpdb_Rows::native_connection();
		$pending  = false;
		$posts    = $this->post_batch( $types, $tt_ids, $ids, 0 );
		try {
			while ( array() !== $posts ) {
				$fetched = count( $posts );
				$batch   = Post_Batch::ids( $posts );
				$meta    = $pending ? $this->reap_meta() : null;
				$pending = false;
				$meta    = $meta ?? Post_Batch::by_id( $this->db->rows( $this->meta_sql( $batch ) ) );
				$terms   = Post_Batch::groups( $this->db, $batch, $groups );
				$thumbs  = $this->thumbs_for( $meta, $thumbs );
				$next    = self::BATCH === $fetched ? $this->post_batch( $types, $tt_ids, $ids, (int) $posts[ $fetched - 1 ][0] ) : array();
				if ( $prefetch && array() !== $next ) {
					$pending = $this->db->send( $this->meta_sql( Post_Batch::ids( $next ) ) );
				}
				foreach ( $posts as $post ) {
					$id    = (int) $post[0];
					$place = self::place( $meta[ $id ] ?? null, $limits );
					if ( null === $place || ( null !== $box && ! Post_Batch::in_box( $place[1], $place[0], $box ) ) ) {
						continue;
					}
					$row   = array(
						'id'     => $id,
						'title'  => (string) $post[1],
						'lng'    => $place[1],
						'lat'    => $place[0],
						'groups' => $terms[ $id ] ?? array(),
						'type'   => (string) $post[2],
					);
					$thumb = (int) ( $meta[ $id ][4] ?? 0 );
					if ( $thumb > 0 && isset( $thumbs[ $thumb ] ) && '' !== $thumbs[ $thumb ] ) {
						$row['thumb'] = $thumbs[ $thumb ];
					}
					yield $row;
				}
				$posts = $next;
			}
		} finally {
			if ( $pending ) {
				$this->db->reap(); // Abandoned early: free the connection.
			}
		}
	}

	/**
	 * The place of a post a visitor may see, or null: published, no password, an enabled type,
	 * valid coordinates, `geo_public` true.
	 *
	 * @param WP_Post $post The post.
	 * @return array{lat: float, lng: float}|null
	 */
	public static function public_place( WP_Post $post ): ?array {
		if ( 'publish' !== $post->post_status || '' !== $post->post_password || ! Location_Types::is_enabled( $post->post_type ) ) {
			return null;
		}
		$place = self::place(
			array(
				$post->ID,
				get_post_meta( $post->ID, Location_Types::META_LAT, true ),
				get_post_meta( $post->ID, Location_Types::META_LNG, true ),
				get_post_meta( $post->ID, Location_Types::META_PUBLIC, true ),
			),
			self::coordinate_limits()
		);
		return null === $place ? null : array(
			'lat' => $place[0],
			'lng' => $place[1],
		);
	}

	/**
	 * The group keys of one post (as its feature carries them).
	 *
	 * @param WP_Post $post The post.
	 * @return string[]
	 */
	public function groups_of( WP_Post $post ): array {
		$groups = Post_Batch::groups( $this->db, array( $post->ID, $post->ID, null ), $this->group_terms( self::group_taxonomies( array( $post->post_type ) ) ) );
		return $groups[ $post->ID ] ?? array();
	}

	/**
	 * Latitude and longitude from a meta row `[ id, lat, lng, public, … ]` when they are valid and
	 * public, else null.
	 *
	 * @param array<int, mixed>|null $row    Meta row.
	 * @param float[]                $limits [lat min, lat max, lng min, lng max].
	 * @return array{0: float, 1: float}|null [lat, lng].
	 */
	private static function place( ?array $row, array $limits ): ?array {
		if ( null === $row || ! is_string( $row[3] ?? null ) || ! in_array( strtolower( trim( $row[3] ) ), self::PUBLIC_VALUES, true ) ) {
			return null;
		}
		$lat = $row[1] ?? null;
		$lng = $row[2] ?? null;
		if ( ! is_numeric( $lat ) || ! is_numeric( $lng ) ) {
			return null;
		}
		$lat = (float) $lat;
		$lng = (float) $lng;
		if ( ! is_finite( $lat ) || ! is_finite( $lng ) || $lat < $limits[0] || $lat > $limits[1] || $lng < $limits[2] || $lng > $limits[3] ) {
			return null;
		}
		return array( $lat, $lng );
	}

	/**
	 * The coordinate ranges a place must be within.
	 *
	 * @return float[] [lat min, lat max, lng min, lng max].
	 */
	private static function coordinate_limits(): array {
		return array(
			(float) Limits::get( 'markerLatitude.min' ),
			(float) Limits::get( 'markerLatitude.max' ),
			(float) Limits::get( 'longitude.min' ),
			(float) Limits::get( 'longitude.max' ),
		);
	}

	/**
	 * Ids, titles and types of the next published, unprotected posts after a given id.
	 *
	 * @param string[] $types  Post types.
	 * @param int[]    $tt_ids Term taxonomy ids: posts with any of them (none: no condition).
	 * @param int[]    $ids    Post ids (none: no condition).
	 * @param int      $after  Last id already read.
	 * @return array<int, array<int, string|null>> Rows `[ ID, post_title, post_type ]`.
	 */
	private function post_batch( array $types, array $tt_ids, array $ids, int $after ): array {
		global $wpdb;
		$sql  = "SELECT p.ID, p.post_title, p.post_type FROM {$wpdb->posts} p
			WHERE p.post_type IN (" . implode( ',', array_fill( 0, count( $types ), '%s' ) ) . ") AND p.post_status = 'publish' AND p.post_password = '' AND p.ID > %d";
		$args = array_merge( $types, array( $after ) );
		if ( array() !== $ids ) {
			list( $where, $where_args ) = Marker_Filter_Sql::ids_and_groups( array( 'ids' => $ids ) );
			$sql                       .= $where;
			$args                       = array_merge( $args, $where_args );
		}
		if ( array() !== $tt_ids ) {
			$sql .= " AND p.ID IN (SELECT tr.object_id FROM {$wpdb->term_relationships} tr WHERE tr.term_taxonomy_id IN (" . implode( ',', array_fill( 0, count( $tt_ids ), '%d' ) ) . '))';
			$args = array_merge( $args, $tt_ids );
		}
		$sql   .= ' ORDER BY p.ID ASC LIMIT %d';
		$args[] = self::BATCH;
		return $this->db->rows( $wpdb->prepare( $sql, $args ) ); // phpcs:ignore WordPress.DB.PreparedSQL.NotPrepared -- placeholders only.
	}

	/**
	 * The meta read of a batch: one row per post `[ id, lat, lng, public, thumbnail id ]`.
	 *
	 * @param array{0: int, 1: int, 2: int[]|null} $ids The batch.
	 */
	private function meta_sql( array $ids ): string {
		global $wpdb;
		$sql  = "SELECT post_id, MAX(CASE WHEN meta_key = %s THEN meta_value END), MAX(CASE WHEN meta_key = %s THEN meta_value END),
			MAX(CASE WHEN meta_key = %s THEN meta_value END), MAX(CASE WHEN meta_key = %s THEN meta_value END)
			FROM {$wpdb->postmeta} WHERE " . Post_Batch::condition( 'post_id', $ids ) . ' AND meta_key IN (%s, %s, %s, %s) GROUP BY post_id';
		$keys = array( Location_Types::META_LAT, Location_Types::META_LNG, Location_Types::META_PUBLIC, '_thumbnail_id' );
		return $wpdb->prepare( $sql, array_merge( $keys, $keys ) ); // phpcs:ignore WordPress.DB.PreparedSQL.NotPrepared -- the id condition holds integers only.
	}

	/**
	 * The rows of the meta read sent ahead, or null when it failed.
	 *
	 * @return array<int, array<int, string|null>>|null
	 */
	private function reap_meta(): ?array {
		$rows = $this->db->reap();
		return null === $rows ? null : Post_Batch::by_id( $rows );
	}

	/**
	 * The terms of the group taxonomies: term taxonomy id => [rank, key], ranked by taxonomy then
	 * name.
	 *
	 * @param string[] $taxonomies Group taxonomies.
	 * @return array<int, array{0: int, 1: string}>
	 */
	private function group_terms( array $taxonomies ): array {
		global $wpdb;
		if ( array() === $taxonomies ) {
			return array();
		}
		$rows  = $this->db->rows(
			$wpdb->prepare(
				"SELECT tt.term_taxonomy_id, tt.taxonomy, t.slug FROM {$wpdb->term_taxonomy} tt
				INNER JOIN {$wpdb->terms} t ON t.term_id = tt.term_id
				WHERE tt.taxonomy IN (" . implode( ',', array_fill( 0, count( $taxonomies ), '%s' ) ) . ') ORDER BY tt.taxonomy, t.name, t.slug', // phpcs:ignore WordPress.DB.PreparedSQL.InterpolatedNotPrepared, WordPress.DB.PreparedSQLPlaceholders.UnfinishedPrepare -- placeholders only.
				$taxonomies
			)
		);
		$terms = array();
		foreach ( $rows as $rank => $row ) {
			$terms[ (int) $row[0] ] = array( $rank, $row[1] . ':' . $row[2] );
		}
		return $terms;
	}

	/**
	 * Thumbnail URLs of the featured images of a batch not known yet, added to $known ('' for an
	 * attachment that is no image or is gone).
	 *
	 * @param array<int, array<int, string|null>> $meta  Meta rows of the batch.
	 * @param array<int, string>                  $known URLs by attachment id.
	 * @return array<int, string>
	 */
	private function thumbs_for( array $meta, array $known ): array {
		global $wpdb;
		$wanted = array();
		foreach ( $meta as $row ) {
			$id = (int) ( $row[4] ?? 0 );
			if ( $id > 0 && ! isset( $known[ $id ] ) ) {
				$wanted[ $id ] = $id;
			}
		}
		if ( array() === $wanted ) {
			return $known;
		}
		if ( count( $known ) + count( $wanted ) > self::THUMB_MEMORY ) {
			$known = array();
		}
		$list   = implode( ',', array_map( 'intval', $wanted ) );
		$images = $this->db->rows( "SELECT ID FROM {$wpdb->posts} WHERE ID IN ({$list}) AND post_type = 'attachment' AND post_mime_type LIKE 'image/%'" );
		$files  = array();
		if ( array() !== $images ) {
			$image_list = implode( ',', array_map( 'intval', array_column( $images, 0 ) ) );
			foreach ( $this->db->rows( "SELECT post_id, meta_key, meta_value FROM {$wpdb->postmeta} WHERE post_id IN ({$image_list}) AND meta_key IN ('_wp_attached_file', '_wp_attachment_metadata')" ) as $row ) {
				$files[ (int) $row[0] ][ (string) $row[1] ] = (string) $row[2];
			}
		}
		foreach ( $wanted as $id ) {
			$known[ $id ] = isset( $files[ $id ]['_wp_attached_file'] ) ? self::thumbnail_url( $id, $files[ $id ]['_wp_attached_file'], $files[ $id ]['_wp_attachment_metadata'] ?? '' ) : '';
		}
		return $known;
	}

	/**
	 * The URL of an image attachment at `thumbnail` size (the full image when it has no such size),
	 * as core's wp_get_attachment_url() and image_downsize() make it, without loading the
	 * attachment as a post: the uploads URL and the stored file, through core's
	 * `wp_get_attachment_url` filter (offloading plugins hook it).
	 *
	 * @param int    $id       Attachment id.
	 * @param string $file     `_wp_attached_file`.
	 * @param string $metadata `_wp_attachment_metadata`, serialized.
	 */
	private static function thumbnail_url( int $id, string $file, string $metadata ): string {
		static $uploads = null;
		if ( null === $uploads ) {
			$uploads = wp_get_upload_dir();
		}
		if ( '' === $file ) {
			return '';
		}
		if ( 0 === strpos( $file, (string) $uploads['basedir'] ) ) {
			$file = ltrim( substr( $file, strlen( (string) $uploads['basedir'] ) ), '/' );
		}
		$url  = preg_match( '#^(https?:)?//#', $file ) ? $file : $uploads['baseurl'] . '/' . $file;
		$url  = (string) apply_filters( 'wp_get_attachment_url', $url, $id ); // phpcs:ignore WordPress.NamingConventions.PrefixAllGlobals.NonPrefixedHooknameFound -- core's filter, applied as wp_get_attachment_url() does.
		$meta = '' !== $metadata ? maybe_unserialize( $metadata ) : null;
		$size = is_array( $meta ) && isset( $meta['sizes']['thumbnail']['file'] ) && is_string( $meta['sizes']['thumbnail']['file'] ) ? $meta['sizes']['thumbnail']['file'] : '';
		if ( '' !== $size && '' !== wp_basename( $url ) ) {
			$url = str_replace( wp_basename( $url ), $size, $url );
		}
		return esc_url_raw( $url );
	}
}
