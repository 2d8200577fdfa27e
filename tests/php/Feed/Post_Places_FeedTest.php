<?php
/**
 * The posts feed, GET /cairn/v1/markers?post_type=…: privacy, shape, terms, versions, bad input.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Feed;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Content\Location_Types;
use Cairn\Maps\Content\Places_Version;
use Cairn\Maps\Feed\Feed_Cache;
use Cairn\Maps\Plugin;
use Cairn\Maps\Tests\TestCase;

/**
 * Only published, unprotected posts of enabled types whose place is valid and public reach the
 * feed, whoever asks; each change a visitor could see renews its ETag; the markers feed is left
 * as it was.
 *
 * @since 0.3.0
 */
final class Post_Places_FeedTest extends TestCase {

	use Plugin_Feed;
	use Post_Places_Fixtures;

	private const ROUTE = '/cairn/v1/markers';

	/**
	 * The feed's features for a query, asserting a 200.
	 *
	 * @param array<string, string> $query Query parameters.
	 * @return array<int, array<string, mixed>>
	 */
	private function features( array $query ): array {
		$response = $this->rest( 'GET', self::ROUTE, $query );
		$this->assertSame( 200, $response->get_status(), (string) wp_json_encode( $response->get_data() ) );
		return $response->get_data()['features'];
	}

	/**
	 * The ids of the feed's features for a query.
	 *
	 * @param array<string, string> $query Query parameters.
	 * @return int[]
	 */
	private function ids( array $query ): array {
		return array_map(
			static function ( $feature ) {
				return (int) $feature['id'];
			},
			$this->features( $query )
		);
	}

	/**
	 * The ETag of a query's answer.
	 *
	 * @param array<string, string> $query Query parameters.
	 */
	private function etag( array $query ): string {
		$response = $this->rest( 'GET', self::ROUTE, $query );
		$this->assertSame( 200, $response->get_status() );
		return (string) $response->get_headers()['ETag'];
	}

	/**
	 * The privacy matrix: of 48 posts (publish, draft, pending, private, future, password ×
	 * geo_public true, false, empty, missing × an enabled and a not enabled type) only the
	 * published, public one of the enabled type is in the feed, for visitors and editors alike,
	 * asked for by both types, by id, by a box around it.
	 */
	public function test_privacy_matrix(): void {
		$this->act_as( 'administrator' );
		$ids    = $this->create_privacy_matrix();
		$public = $ids['publish/true/post'];
		foreach ( array( 'anonymous', 'administrator' ) as $role ) {
			$this->act_as( $role );
			$this->assertSame( array( $public ), $this->ids( array( 'post_type' => 'post,page' ) ), "{$role}: both types" );
			$this->assertSame( array( $public ), $this->ids( array( 'post_type' => 'post' ) ), "{$role}: posts" );
			$this->assertSame( array(), $this->ids( array( 'post_type' => 'page' ) ), "{$role}: pages are not enabled" );
			$this->assertSame(
				array( $public ),
				$this->ids(
					array(
						'post_type' => 'post,page',
						'include'   => implode(
							',',
							$ids
						),
					)
				),
				"{$role}: by id"
			);
			$this->assertSame(
				array( $public ),
				$this->ids(
					array(
						'post_type' => 'post,page',
						'bbox'      => '2,48,3,49',
					)
				),
				"{$role}: in a box"
			);
		}
		// Once pages are enabled, the published public page joins; nothing else does.
		update_option( Location_Types::OPTION, array( 'post', 'page' ) );
		$this->assertSame( array( $public, $ids['publish/true/page'] ), $this->ids( array( 'post_type' => 'post,page' ) ) );
		// Without post_type the route serves the markers, none of the posts.
		$this->assertSame( array(), $this->features( array() ) );
	}

	/**
	 * Places that are not valid never reach the feed: coordinates out of range, not numbers,
	 * missing; a trashed post.
	 */
	public function test_invalid_places_are_left_out(): void {
		$good = $this->create_place( array( 'post_title' => 'Good' ) );
		$this->create_place( array( 'lat' => 91 ) );
		$this->create_place( array( 'lng' => -180.5 ) );
		$this->create_place( array( 'lat' => 'north' ) );
		$this->create_place( array( 'lat' => '' ) );
		$this->create_place( array( 'lng' => null ) );
		$this->create_place( array( 'public' => 'no' ) );
		wp_trash_post( $this->create_place() );
		$this->assertSame( array( $good ), $this->ids( array( 'post_type' => 'post' ) ) );
	}

	/**
	 * A feature: the post id, its coordinates, its plain title, its type, its categories as
	 * `taxonomy:slug` groups (tags are not groups), and its thumbnail URL only when it has a
	 * featured image that is an image.
	 */
	public function test_feature_shape(): void {
		$image    = $this->create_attachment();
		$document = $this->create_attachment( 'application/pdf' );
		$with     = $this->create_place(
			array(
				'post_title' => 'Lake &amp; <em>hut</em>',
				'lat'        => 46.5,
				'lng'        => 8.25,
				'category'   => array( 'travel', 'alps' ),
				'tags'       => array( 'swimming' ),
				'meta_input' => array( '_thumbnail_id' => $image ),
			)
		);
		$without  = $this->create_place( array( 'category' => array( 'travel' ) ) );
		$pdf      = $this->create_place( array( 'meta_input' => array( '_thumbnail_id' => $document ) ) );
		// meta_input replaced the place's meta: put it back for the two posts with a featured image.
		foreach ( array( $with, $pdf ) as $id ) {
			update_post_meta( $id, Location_Types::META_PUBLIC, '1' );
			update_post_meta( $id, Location_Types::META_LAT, $id === $with ? 46.5 : 48.8566 );
			update_post_meta( $id, Location_Types::META_LNG, $id === $with ? 8.25 : 2.3522 );
		}
		$features = array();
		foreach ( $this->features( array( 'post_type' => 'post' ) ) as $feature ) {
			$features[ $feature['id'] ] = $feature;
		}
		$this->assertSame( array( $with, $without, $pdf ), array_keys( $features ) );
		$this->assertSame( array( 8.25, 46.5 ), $features[ $with ]['geometry']['coordinates'] );
		$this->assertSame( 'Lake & hut', $features[ $with ]['properties']['title'] );
		$this->assertSame( 'post', $features[ $with ]['properties']['type'] );
		$this->assertSame( array( 'category:alps', 'category:travel' ), $features[ $with ]['properties']['groups'] );
		$this->assertStringEndsWith( '/2026/11/lake-150x150.jpg', $features[ $with ]['properties']['thumb'] );
		$this->assertSame( 0, strpos( $features[ $with ]['properties']['thumb'], wp_get_upload_dir()['baseurl'] ) );
		$this->assertSame( array( 'category:travel' ), $features[ $without ]['properties']['groups'] );
		$this->assertArrayNotHasKey( 'thumb', $features[ $without ]['properties'] );
		$this->assertArrayNotHasKey( 'thumb', $features[ $pdf ]['properties'], 'a PDF is no thumbnail' );
		$this->assertSame( array( 'category:uncategorized' ), $features[ $pdf ]['properties']['groups'] );
	}

	/**
	 * `terms`: posts with any of the terms (categories cut from the whole feed, tags read), the
	 * same answer in any order and with unknown terms beside; only unknown terms: nothing.
	 */
	public function test_terms_filter(): void {
		$travel = $this->create_place( array( 'category' => array( 'travel' ) ) );
		$food   = $this->create_place( array( 'category' => array( 'food' ) ) );
		$both   = $this->create_place(
			array(
				'category' => array( 'travel', 'food' ),
				'tags'     => array( 'lakes' ),
			)
		);
		$tagged = $this->create_place( array( 'tags' => array( 'lakes' ) ) );
		$this->create_place( array( 'category' => array( 'other' ) ) );
		$query = array( 'post_type' => 'post' );
		$this->assertSame( array( $travel, $both ), $this->ids( $query + array( 'terms' => 'category:travel' ) ) );
		$this->assertSame( array( $travel, $food, $both ), $this->ids( $query + array( 'terms' => 'category:travel,category:food' ) ) );
		$this->assertSame( array( $travel, $food, $both ), $this->ids( $query + array( 'terms' => 'category:food,category:nope,category:travel,category:food' ) ) );
		$this->assertSame( array( $both, $tagged ), $this->ids( $query + array( 'terms' => 'post_tag:lakes' ) ) );
		$this->assertSame( array( $food, $both, $tagged ), $this->ids( $query + array( 'terms' => 'post_tag:lakes,category:food' ) ) );
		$this->assertSame(
			array( $both ),
			$this->ids(
				$query + array(
					'terms'   => 'post_tag:lakes',
					'include' => "{$both},{$travel}",
				)
			)
		);
		$this->assertSame( array(), $this->ids( $query + array( 'terms' => 'category:nope' ) ) );
		$this->assertSame( array(), $this->ids( $query + array( 'terms' => 'no_such_taxonomy:travel' ) ) );
		$this->assertSame( array(), $this->ids( $query + array( 'terms' => 'cairn_marker_group:travel' ) ), 'marker groups are no taxonomy of posts' );
	}

	/**
	 * Each change a visitor could see renews the posts feed's ETag, and the old one no longer
	 * answers 304; editing a draft does not. The markers feed's ETag stays through all of them.
	 */
	public function test_changes_renew_the_etag(): void {
		$id      = $this->create_place( array( 'category' => array( 'travel' ) ) );
		$draft   = $this->create_place( array( 'post_status' => 'draft' ) );
		$image   = $this->create_attachment();
		$query   = array( 'post_type' => 'post' );
		$markers = $this->etag( array() );
		$changes = array(
			'latitude moved'     => static function () use ( $id ) {
				update_post_meta( $id, Location_Types::META_LAT, 10.5 );
			},
			'made not public'    => static function () use ( $id ) {
				update_post_meta( $id, Location_Types::META_PUBLIC, '0' );
			},
			'made public again'  => static function () use ( $id ) {
				update_post_meta( $id, Location_Types::META_PUBLIC, '1' );
			},
			'title changed'      => static function () use ( $id ) {
				wp_update_post(
					array(
						'ID'         => $id,
						'post_title' => 'Renamed',
					)
				);
			},
			'featured image set' => static function () use ( $id, $image ) {
				set_post_thumbnail( $id, $image );
			},
			'category changed'   => static function () use ( $id ) {
				wp_set_object_terms( $id, array( 'food' ), 'category' );
			},
			'tag added'          => static function () use ( $id ) {
				wp_set_object_terms( $id, array( 'lakes' ), 'post_tag' );
			},
			'category renamed'   => static function () {
				$term = get_term_by( 'slug', 'food', 'category' );
				wp_update_term( $term->term_id, 'category', array( 'slug' => 'eating' ) );
			},
			'unpublished'        => static function () use ( $id ) {
				wp_update_post(
					array(
						'ID'          => $id,
						'post_status' => 'draft',
					)
				);
			},
			'published again'    => static function () use ( $id ) {
				wp_publish_post( $id );
			},
			'pages enabled'      => static function () {
				update_option( Location_Types::OPTION, array( 'post', 'page' ) );
			},
			'longitude deleted'  => static function () use ( $id ) {
				delete_post_meta( $id, Location_Types::META_LNG );
			},
			'trashed'            => static function () use ( $id ) {
				wp_trash_post( $id );
			},
		);
		foreach ( $changes as $change => $run ) {
			$before = $this->etag( $query );
			$this->assertSame( 304, $this->rest( 'GET', self::ROUTE, $query, array( 'If-None-Match' => $before ) )->get_status(), "{$change}: 304 before" );
			$run();
			wp_cache_delete( 'alloptions', 'options' );
			$after = $this->etag( $query );
			$this->assertNotSame( $before, $after, $change );
			$this->assertSame( 200, $this->rest( 'GET', self::ROUTE, $query, array( 'If-None-Match' => $before ) )->get_status(), "{$change}: the old ETag no longer 304s" );
		}
		$this->assertSame( $markers, $this->etag( array() ), 'the markers feed kept its ETag' );

		$before = $this->etag( $query );
		update_post_meta( $draft, Location_Types::META_LAT, 12.5 );
		wp_update_post(
			array(
				'ID'         => $draft,
				'post_title' => 'Still a draft',
			)
		);
		$this->assertSame( $before, $this->etag( $query ), 'a draft edited' );
		$plain = wp_insert_post(
			array(
				'post_title'  => 'A post without a place',
				'post_status' => 'publish',
			)
		);
		wp_update_post(
			array(
				'ID'         => $plain,
				'post_title' => 'Still no place',
			)
		);
		wp_set_object_terms( $plain, array( 'lakes' ), 'post_tag' );
		wp_cache_delete( 'alloptions', 'options' );
		$this->assertSame( $before, $this->etag( $query ), 'a post without a place published and edited' );
		wp_update_post(
			array(
				'ID'          => $plain,
				'post_status' => 'draft',
			)
		);
		wp_cache_delete( 'alloptions', 'options' );
		$this->assertNotSame( $before, $this->etag( $query ), 'leaving publish always renews it' );
		$before = $this->etag( $query );
		$this->create_marker();
		wp_cache_delete( 'alloptions', 'options' );
		$this->assertSame( $before, $this->etag( $query ), 'a marker published' );
		$this->assertNotSame( $markers, $this->etag( array() ), 'the markers feed renewed for it' );
	}

	/**
	 * The whole feed of each canonical type set is built once and then served from the cache; an
	 * unknown type beside a known one uses the same cache entry; a type that is not enabled
	 * stores nothing.
	 */
	public function test_cached_per_canonical_type_set(): void {
		global $wpdb;
		$this->create_place();
		$count_entries = static function () use ( $wpdb ): int {
			return (int) $wpdb->get_var( $wpdb->prepare( "SELECT COUNT(*) FROM {$wpdb->options} WHERE option_name LIKE %s", $wpdb->esc_like( '_transient_' . Feed_Cache::PREFIX ) . '%' ) );
		};
		$reads         = 0;
		$count         = static function ( $sql ) use ( &$reads ) {
			if ( false !== strpos( (string) $sql, Location_Types::META_PUBLIC ) ) {
				++$reads;
			}
			return $sql;
		};
		add_filter( 'query', $count );
		$this->assertCount( 1, $this->features( array( 'post_type' => 'post' ) ) );
		$this->assertSame( 1, $reads, 'built once' );
		$entries = $count_entries();
		$this->assertGreaterThan( 0, $entries );
		$this->assertCount( 1, $this->features( array( 'post_type' => 'post' ) ) );
		$this->assertCount( 1, $this->features( array( 'post_type' => 'post,no-such-type' ) ) );
		$this->assertCount( 0, $this->features( array( 'post_type' => 'page,no-such-type' ) ) );
		$this->assertSame( 1, $reads, 'served from the cache' );
		$this->assertSame( $entries, $count_entries(), 'nothing more stored' );
		remove_filter( 'query', $count );
	}

	/**
	 * Invented terms and boxes, asked for twice each, store nothing and read no place: unknown
	 * terms leave nothing to match, a box and a category are cut from the cached whole feed.
	 */
	public function test_invented_terms_and_boxes_read_and_store_nothing(): void {
		global $wpdb;
		$travel = $this->create_place( array( 'category' => array( 'travel' ) ) );
		$this->create_place(
			array(
				'lat'      => -33.9,
				'lng'      => 151.2,
				'category' => array( 'food' ),
			)
		);
		$count_entries = static function () use ( $wpdb ): int {
			return (int) $wpdb->get_var( $wpdb->prepare( "SELECT COUNT(*) FROM {$wpdb->options} WHERE option_name LIKE %s", $wpdb->esc_like( '_transient_' . Feed_Cache::PREFIX ) . '%' ) );
		};
		$this->assertCount( 2, $this->features( array( 'post_type' => 'post' ) ) );
		$entries = $count_entries();
		$reads   = 0;
		$count   = static function ( $sql ) use ( &$reads ) {
			if ( false !== strpos( (string) $sql, Location_Types::META_PUBLIC ) ) {
				++$reads;
			}
			return $sql;
		};
		add_filter( 'query', $count );
		for ( $i = 0; $i < 20; $i++ ) {
			for ( $twice = 0; $twice < 2; $twice++ ) {
				$this->assertSame(
					array(),
					$this->ids(
						array(
							'post_type' => 'post',
							'terms'     => "category:invented-{$i},post_tag:made-up-{$i}",
						)
					)
				);
				$this->assertSame(
					array( $travel ),
					$this->ids(
						array(
							'post_type' => 'post',
							'bbox'      => sprintf(
								'%d,40,%d,60',
								-10 - $i,
								10 + $i
							),
						)
					)
				);
			}
		}
		remove_filter( 'query', $count );
		$this->assertSame( 0, $reads, 'no place read' );
		$this->assertSame( $entries, $count_entries(), 'nothing stored' );
	}

	/**
	 * A map of one post's place (`include` of a few ids, as "this post's place" asks) is read for
	 * each request and never stored, however often it is asked for; a large selection of ids is
	 * stored on its second request, within the bound.
	 */
	public function test_few_ids_are_read_not_stored(): void {
		global $wpdb;
		$ids = array();
		for ( $i = 0; $i < 25; $i++ ) {
			$ids[] = $this->create_place( array( 'lat' => $i ) );
		}
		$count_entries = static function () use ( $wpdb ): int {
			return (int) $wpdb->get_var( $wpdb->prepare( "SELECT COUNT(*) FROM {$wpdb->options} WHERE option_name LIKE %s", $wpdb->esc_like( '_transient_' . Feed_Cache::PREFIX ) . '%' ) );
		};
		$before        = $count_entries();
		for ( $i = 0; $i < 3; $i++ ) {
			$this->assertSame(
				array( $ids[3] ),
				$this->ids(
					array(
						'post_type' => 'post',
						'include'   => (string) $ids[3],
					)
				)
			);
		}
		$this->assertSame( $before, $count_entries(), 'one post: nothing stored' );
		for ( $i = 0; $i < 3; $i++ ) {
			$this->assertSame(
				$ids,
				$this->ids(
					array(
						'post_type' => 'post',
						'include'   => implode(
							',',
							$ids
						),
					)
				)
			);
		}
		$this->assertGreaterThan( $before, $count_entries(), '25 posts: stored on the second request' );
	}

	/**
	 * Invalid parameters answer 400 with a message, before reading anything.
	 *
	 * @return array<string, array{0: array<string, string>}>
	 */
	public function invalid(): array {
		return array(
			'post type with capitals'     => array( array( 'post_type' => 'Post' ) ),
			'post type list with a space' => array( array( 'post_type' => 'post, page' ) ),
			'empty post type in a list'   => array( array( 'post_type' => 'post,' ) ),
			'post type too long'          => array( array( 'post_type' => str_repeat( 'a', 21 ) ) ),
			'markers mixed with posts'    => array( array( 'post_type' => 'cairn_marker,post' ) ),
			'terms without a colon'       => array(
				array(
					'post_type' => 'post',
					'terms'     => 'travel',
				),
			),
			'terms with markup'           => array(
				array(
					'post_type' => 'post',
					'terms'     => 'category:<b>',
				),
			),
			'too many terms'              => array(
				array(
					'post_type' => 'post',
					'terms'     => implode( ',', array_map( static fn( $i ) => "category:t{$i}", range( 1, 51 ) ) ),
				),
			),
			'terms without post type'     => array( array( 'terms' => 'category:travel' ) ),
			'groups with post type'       => array(
				array(
					'post_type' => 'post',
					'group'     => 'huts',
				),
			),
		);
	}

	/**
	 * Each invalid query answers 400 with a message.
	 *
	 * @dataProvider invalid
	 *
	 * @param array<string, string> $query Query parameters.
	 */
	public function test_invalid_parameters_answer_400( array $query ): void {
		$response = $this->rest( 'GET', self::ROUTE, $query );
		$this->assertSame( 400, $response->get_status() );
		$this->assertNotEmpty( $response->as_error()->get_error_message() );
	}

	/**
	 * `post_type=cairn_marker` is the markers feed itself (same ETag, same features).
	 */
	public function test_cairn_marker_is_the_markers_feed(): void {
		$marker = $this->create_marker();
		$this->create_place();
		$this->assertSame( $this->etag( array() ), $this->etag( array( 'post_type' => 'cairn_marker' ) ) );
		$this->assertSame( array( $marker ), $this->ids( array( 'post_type' => 'cairn_marker' ) ) );
	}

	/**
	 * The places version is a part of the plugin, hooked by name.
	 */
	public function test_places_version_hooks(): void {
		$version = Plugin::instance()->get( 'places_version' );
		$this->assertInstanceOf( Places_Version::class, $version );
		$this->assertSame( 10, has_action( 'updated_post_meta', array( $version, 'on_meta_change' ) ) );
		$this->assertSame( 10, has_action( 'update_option_' . Location_Types::OPTION, array( $version, 'bump' ) ) );
	}

	/**
	 * A selection of posts by id keeps only published posts without a password of the types
	 * asked for: a protected, draft, private or future post named by id is dropped before the
	 * feed is cut (issue 30's mutant dropped the password condition).
	 */
	public function test_published_ids_leave_out_protected_and_unpublished_posts(): void {
		$ids    = $this->create_privacy_matrix();
		$posts  = new \Cairn\Maps\Content\Post_Places_Repository();
		$asked  = array_values( $ids );
		$kept   = $posts->published_ids( $asked, array( 'post' ) );
		$expect = array_values( array_intersect_key( $ids, array_flip( array( 'publish/true/post', 'publish/false/post', 'publish/empty/post', 'publish/missing/post' ) ) ) );
		$this->assertSame( $expect, $kept, 'published posts (their places are checked when read), no password' );
		$this->assertNotContains( $ids['password/true/post'], $kept, 'a protected post named by id is dropped' );
		$this->assertSame( array(), $posts->published_ids( array( $ids['password/true/post'], $ids['draft/true/post'] ), array( 'post' ) ) );
	}
}
