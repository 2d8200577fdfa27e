<?php
/**
 * The place index kept in step with the markers.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Index;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Index\Index_Schema;
use Cairn\Maps\Index\Morton;
use Cairn\Maps\Index\Place_Filter;
use Cairn\Maps\Index\Place_Index;
use Cairn\Maps\Markers\Post_Type;
use Cairn\Maps\Plugin;
use Cairn\Maps\Uninstaller;
use Cairn\Maps\Tests\TestCase;
use WP_REST_Request;

// phpcs:disable WordPress.WP.AlternativeFunctions.rand_mt_rand, WordPress.WP.AlternativeFunctions.rand_seeding_mt_srand -- seeded: the same changes every run.
// phpcs:disable WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.NotPrepared, WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- a test reads the plugin's own tables.

/**
 * Rows, words, cells and stamps after markers are published, edited, unpublished and deleted
 * through WordPress' own APIs, an import, and a rebuild from scratch.
 *
 * @since 0.5.0
 */
final class Place_IndexTest extends TestCase {

	use Index_Tables;

	/**
	 * The index, rebuilt (empty) before each test.
	 *
	 * @var Place_Index
	 */
	private Place_Index $index;

	/**
	 * Rebuilds the index from the (test's) markers.
	 */
	protected function set_up(): void {
		parent::set_up();
		$index = Plugin::instance()->get( 'place_index' );
		$this->assertInstanceOf( Place_Index::class, $index );
		$this->index = $index;
		$this->index->rebuild_now();
	}

	/**
	 * The stamps of the cells holding a position at levels 0..17.
	 *
	 * @param float $lat Latitude.
	 * @param float $lng Longitude.
	 * @return int[]
	 */
	private function stamps_at( float $lat, float $lng ): array {
		$code   = Morton::code( $lat, $lng );
		$stamps = array();
		for ( $level = 0; $level <= Place_Index::STAMP_MAX_LEVEL; $level++ ) {
			$stamps[ $level ] = $this->index->stamp( $level, Morton::cell( $code, $level ) );
		}
		return $stamps;
	}

	/**
	 * A published marker is indexed with its code, plain title, groups and words.
	 */
	public function test_a_published_marker_is_indexed(): void {
		$id     = $this->create_marker(
			array(
				'post_title' => 'Café <b>de</b> la Gare &amp; Hôtel',
				'lat'        => 48.8566,
				'lng'        => 2.3522,
				'groups'     => array( 'huts', 'alps' ),
			)
		);
		$places = $this->rows( 'cairn_places', 'post_id' );
		$this->assertCount( 1, $places );
		$this->assertSame( (string) $id, $places[0]['post_id'] );
		$this->assertSame( (string) Morton::code( 48.8566, 2.3522 ), $places[0]['code'] );
		$this->assertSame( 48.8566, (float) $places[0]['lat'] );
		$this->assertSame( 'Café de la Gare & Hôtel', $places[0]['title'] );
		$this->assertSame( 'cafe de la gare & hotel', $places[0]['sort_key'] );
		$this->assertSame( array( (int) $places[0]['combo'] => array( 'alps', 'huts' ) ), $this->index->combos() );
		$this->assertSame( array( 'cafe', 'de', 'gare', 'hotel', 'la' ), array_column( $this->rows( 'cairn_place_words', 'word' ), 'word' ) );
		$this->assertSame( 1, $this->index->count() );
		$this->assertSame( 1, $this->index->count( new Place_Filter( array( 'huts' ) ) ) );
		$this->assertSame( 1, $this->index->count( new Place_Filter( array( 'lakes', 'alps' ) ) ) );
		$this->assertSame( 0, $this->index->count( new Place_Filter( array( 'lakes' ) ) ) );
		$this->assertTrue( $this->index->is_ready() );
	}

	/**
	 * Only what the markers feed shows is indexed: published, no password, both coordinates, and
	 * those numbers on the globe. Each change of status takes the place in or out.
	 */
	public function test_only_what_the_feed_shows_is_indexed(): void {
		global $wpdb;
		$draft     = $this->create_marker( array( 'post_status' => 'draft' ) );
		$private   = $this->create_marker( array( 'post_status' => 'private' ) );
		$protected = $this->create_marker( array( 'post_password' => 'secret' ) );
		$no_lng    = $this->create_marker( array( 'lng' => null ) );
		// Values the marker editor refuses, written behind WordPress' back (another plugin's SQL).
		$bad = array();
		foreach ( array( array( '', '1' ), array( 'north', '1' ), array( '95', '1' ), array( '1', '-180.5' ), array( 'NAN', '1' ), array( '1e999', '1' ) ) as $values ) {
			$id = $this->create_marker();
			$wpdb->query( $wpdb->prepare( "UPDATE $wpdb->postmeta SET meta_value = %s WHERE post_id = %d AND meta_key = %s", $values[0], $id, Post_Type::META_LAT ) );
			$wpdb->query( $wpdb->prepare( "UPDATE $wpdb->postmeta SET meta_value = %s WHERE post_id = %d AND meta_key = %s", $values[1], $id, Post_Type::META_LNG ) );
			$this->index->sync( $id );
			$bad[] = $id;
		}
		$shown = $this->create_marker( array( 'post_title' => 'Shown' ) );
		$this->assertSame( array( $shown ), $this->indexed() );
		foreach ( array_merge( array( $draft, $private, $protected, $no_lng ), $bad ) as $id ) {
			$this->assertSame( '', (string) get_post_meta( $id, '_never', true ) ); // The posts exist.
		}

		wp_publish_post( $draft );
		$this->assertSame( array( $draft, $shown ), $this->indexed(), 'a draft published' );
		update_post_meta( $no_lng, Post_Type::META_LNG, 7.5 );
		$this->assertSame( array( $draft, $no_lng, $shown ), $this->indexed(), 'the missing coordinate added' );
		wp_update_post(
			array(
				'ID'            => $draft,
				'post_password' => 'now secret',
			)
		);
		$this->assertSame( array( $no_lng, $shown ), $this->indexed(), 'a password set' );
		wp_update_post(
			array(
				'ID'          => $no_lng,
				'post_status' => 'draft',
			)
		);
		$this->assertSame( array( $shown ), $this->indexed(), 'unpublished' );
		wp_trash_post( $shown );
		$this->assertSame( array(), $this->indexed(), 'trashed' );
		wp_untrash_post( $shown ); // Back as a draft (core's default since 5.6).
		$this->assertSame( array(), $this->indexed(), 'untrashed as a draft' );
		wp_publish_post( $shown );
		$this->assertSame( array( $shown ), $this->indexed(), 'published again' );
		delete_post_meta( $shown, Post_Type::META_LAT );
		$this->assertSame( array(), $this->indexed(), 'a coordinate removed' );
		update_post_meta( $shown, Post_Type::META_LAT, 10 );
		wp_delete_post( $shown, true );
		$this->assertSame( array(), $this->indexed(), 'deleted' );
		$this->assertSame( array(), $this->rows( 'cairn_place_words', 'word' ) );
		$this->assertSame( array(), $this->rows( 'cairn_place_cells', 'level' ) );
	}

	/**
	 * Moving, retitling and regrouping a marker update its row, words and cells.
	 */
	public function test_move_retitle_and_regroup(): void {
		$id = $this->create_marker(
			array(
				'post_title' => 'Old mill',
				'lat'        => 51.5,
				'lng'        => -0.12,
				'groups'     => array( 'mills' ),
			)
		);
		update_post_meta( $id, Post_Type::META_LAT, '-33.86' );
		update_post_meta( $id, Post_Type::META_LNG, '151.21' );
		wp_update_post(
			array(
				'ID'         => $id,
				'post_title' => 'Opera House',
			)
		);
		wp_set_object_terms( $id, array( 'music', 'harbour' ), Post_Type::TAXONOMY );
		$row = $this->rows( 'cairn_places', 'post_id' )[0];
		$this->assertSame( (string) Morton::code( -33.86, 151.21 ), $row['code'] );
		$this->assertSame( 'Opera House', $row['title'] );
		$this->assertSame( array( 'harbour', 'music' ), $this->index->combos()[ (int) $row['combo'] ] );
		$this->assertSame( array( 'house', 'opera' ), array_column( $this->rows( 'cairn_place_words', 'word' ), 'word' ) );
		$this->assertSame( $this->recounted_cells(), $this->state()['cells'] );
		$this->assertCount( count( Place_Index::CELL_LEVELS ), $this->state()['cells'], 'one cell a level: the old ones are gone' );
		$this->assertSame( 0, $this->index->count( new Place_Filter( array( 'mills' ) ) ) );
		$this->assertSame( 1, $this->index->count( new Place_Filter( array( 'music' ) ) ) );
		wp_remove_object_terms( $id, array( 'music', 'harbour' ), Post_Type::TAXONOMY );
		$this->assertSame( '0', $this->rows( 'cairn_places', 'post_id' )[0]['combo'], 'groups removed' );
	}

	/**
	 * After a random sequence of changes, every cell aggregate equals a full recount of the places,
	 * and a rebuild from scratch gives the same rows, words and cells as the changes did.
	 */
	public function test_cells_equal_a_recount_and_a_rebuild_after_random_changes(): void {
		mt_srand( 2022 );
		$groups = array( 'a', 'b', 'c' );
		$ids    = array();
		for ( $step = 0; $step < 120; $step++ ) {
			$action = 0 === count( $ids ) ? 0 : max( 0, mt_rand( -3, 6 ) );
			$id     = 0 === count( $ids ) ? 0 : $ids[ mt_rand( 0, count( $ids ) - 1 ) ];
			$lat    = mt_rand( -600, 600 ) / 10;
			$lng    = mt_rand( -1700, 1700 ) / 10;
			if ( 0 === $action ) {
				$ids[] = $this->create_marker(
					array(
						'post_title' => 'Place ' . $step,
						'lat'        => $lat,
						'lng'        => $lng,
						'groups'     => array_slice( $groups, mt_rand( 0, 3 ), mt_rand( 0, 2 ) ),
					)
				);
			} elseif ( 1 === $action ) {
				update_post_meta( $id, Post_Type::META_LAT, $lat );
			} elseif ( 2 === $action ) {
				// A small move: usually the same cell at the coarse levels.
				update_post_meta( $id, Post_Type::META_LNG, (float) get_post_meta( $id, Post_Type::META_LNG, true ) + 0.001 );
			} elseif ( 3 === $action ) {
				wp_set_object_terms( $id, array_slice( $groups, mt_rand( 0, 2 ), mt_rand( 0, 3 ) ), Post_Type::TAXONOMY );
			} elseif ( 4 === $action ) {
				wp_update_post(
					array(
						'ID'          => $id,
						'post_status' => 'publish' === get_post_status( $id ) ? 'draft' : 'publish',
					)
				);
			} elseif ( 5 === $action ) {
				wp_update_post(
					array(
						'ID'         => $id,
						'post_title' => 'Renamed ' . $step,
					)
				);
			} else {
				wp_delete_post( $id, true );
				$ids = array_values( array_diff( $ids, array( $id ) ) );
			}
		}
		$incremental = $this->state();
		$this->assertGreaterThan( 10, count( $incremental['places'] ) );
		$this->assertSame( $this->recounted_cells(), $incremental['cells'] );

		$this->index->rebuild_now( 7 );
		$this->assertTrue( $this->index->is_ready() );
		$this->assertSame( $incremental, $this->state() );
	}

	/**
	 * A change gives new stamps to the cells of the place's old and new positions at every level
	 * 0..17, and to no other cell; a save that changes nothing a visitor sees stamps nothing.
	 */
	public function test_stamps_change_for_the_touched_cells_only(): void {
		$id        = $this->create_marker(
			array(
				'lat' => 48.85,
				'lng' => 2.35,
			)
		);
		$elsewhere = $this->create_marker(
			array(
				'lat' => -33.86,
				'lng' => 151.21,
			)
		);
		$paris     = $this->stamps_at( 48.85, 2.35 );
		$berlin    = $this->stamps_at( 52.52, 13.4 );
		$sydney    = $this->stamps_at( -33.86, 151.21 );

		wp_update_post(
			array(
				'ID'           => $id,
				'post_content' => 'Only the description changed.',
			)
		);
		$this->assertSame( $paris, $this->stamps_at( 48.85, 2.35 ), 'nothing a map shows changed' );

		update_post_meta( $id, Post_Type::META_LAT, 52.52 );
		update_post_meta( $id, Post_Type::META_LNG, 13.4 );
		$after_paris  = $this->stamps_at( 48.85, 2.35 );
		$after_berlin = $this->stamps_at( 52.52, 13.4 );
		for ( $level = 0; $level <= Place_Index::STAMP_MAX_LEVEL; $level++ ) {
			$this->assertGreaterThan( $paris[ $level ], $after_paris[ $level ], "the old cell at level $level" );
			$this->assertGreaterThan( $berlin[ $level ], $after_berlin[ $level ], "the new cell at level $level" );
		}
		// Level 0 is the whole world; from level 1 on Sydney's cells are not Paris' nor Berlin's.
		$this->assertSame( array_slice( $sydney, 1 ), array_slice( $this->stamps_at( -33.86, 151.21 ), 1 ), 'a cell nothing moved in or out of' );

		foreach (
			array(
				'retitled'    => static fn() => wp_update_post(
					array(
						'ID'         => $elsewhere,
						'post_title' => 'Opera',
					)
				),
				'regrouped'   => static fn() => wp_set_object_terms( $elsewhere, array( 'music' ), Post_Type::TAXONOMY ),
				'unpublished' => static fn() => wp_update_post(
					array(
						'ID'          => $elsewhere,
						'post_status' => 'draft',
					)
				),
				'published'   => static fn() => wp_publish_post( $elsewhere ),
				'deleted'     => static fn() => wp_delete_post( $elsewhere, true ),
			) as $change => $run
		) {
			$before = $this->stamps_at( -33.86, 151.21 );
			$run();
			$this->assertGreaterThan( $before[17], $this->stamps_at( -33.86, 151.21 )[17], $change );
			$this->assertGreaterThan( $before[0], $this->stamps_at( -33.86, 151.21 )[0], $change );
		}
	}

	/**
	 * A rebuild runs in resumable steps; the index is not ready until it ends, and changes made
	 * meanwhile are in its result.
	 */
	public function test_rebuild_in_steps_with_changes_meanwhile(): void {
		$ids = array();
		for ( $i = 0; $i < 7; $i++ ) {
			$ids[] = $this->create_marker(
				array(
					'post_title' => "Hut $i",
					'lat'        => 45 + $i,
					'lng'        => 7 + $i,
					'groups'     => array( 0 === $i % 2 ? 'even' : 'odd' ),
				)
			);
		}
		$expected = $this->state();
		$this->index->start_rebuild();
		$this->assertFalse( $this->index->is_ready() );
		$this->assertNotFalse( wp_next_scheduled( Place_Index::HOOK ), 'the background rebuild is scheduled' );
		$this->assertFalse( $this->index->rebuild( 3 ) ); // Emptied.
		$this->assertFalse( $this->index->rebuild( 3 ) ); // Three markers.
		// Changes meanwhile: one marker already read, one not yet.
		update_post_meta( $ids[0], Post_Type::META_LAT, 60 );
		wp_update_post(
			array(
				'ID'         => $ids[5],
				'post_title' => 'Renamed hut',
			)
		);
		$steps = 0;
		$late  = 0;
		while ( ! $this->index->rebuild( 3 ) ) {
			$this->assertFalse( $this->index->is_ready() );
			$state = get_option( Place_Index::REBUILD_OPTION );
			if ( 0 === $late && 'cells' === ( $state['phase'] ?? '' ) && 4 === ( $state['level'] ?? 0 ) ) {
				// Changes while the cells are recounted: some levels done, some not.
				$late = $this->create_marker( array( 'groups' => array( 'odd' ) ) );
				wp_set_object_terms( $ids[1], array( 'even' ), Post_Type::TAXONOMY );
			}
			++$steps;
			$this->assertLessThan( 30, $steps );
		}
		$this->assertTrue( $this->index->is_ready() );
		$rebuilt = $this->state();
		$this->assertSame( $this->recounted_cells(), $rebuilt['cells'] );
		$this->assertSame( 'Renamed hut', $rebuilt['places'][ $ids[5] ]['title'] );
		$this->assertSame( '60', $rebuilt['places'][ $ids[0] ]['lat'] );
		$this->assertArrayHasKey( $late, $rebuilt['places'] );
		$this->assertSame( 'even', $rebuilt['places'][ $ids[1] ]['combo'] );
		$this->index->rebuild_now();
		$this->assertSame( $rebuilt, $this->state() );
		$this->assertNotSame( $expected, $rebuilt );
	}

	/**
	 * A group's new slug is written into the combinations (no rebuild); a deleted group leaves
	 * its places.
	 */
	public function test_group_slug_changed_and_group_deleted(): void {
		$one = $this->create_marker( array( 'groups' => array( 'huts', 'alps' ) ) );
		$this->create_marker( array( 'groups' => array( 'huts' ) ) );
		$term = get_term_by( 'slug', 'huts', Post_Type::TAXONOMY );
		$this->assertInstanceOf( \WP_Term::class, $term );

		wp_update_term( $term->term_id, Post_Type::TAXONOMY, array( 'name' => 'Mountain huts' ) );
		$this->assertTrue( $this->index->is_ready(), 'a new name changes nothing here' );
		wp_update_term( $term->term_id, Post_Type::TAXONOMY, array( 'slug' => 'cabins' ) );
		$this->assertTrue( $this->index->is_ready(), 'the combinations were updated in place' );
		$this->assertSame( array( array( 'alps', 'cabins' ), array( 'cabins' ) ), $this->sorted_combos() );
		$this->assertSame( 2, $this->index->count( new Place_Filter( array( 'cabins' ) ) ) );
		$this->assertSame( 0, $this->index->count( new Place_Filter( array( 'huts' ) ) ) );

		wp_delete_term( $term->term_id, Post_Type::TAXONOMY );
		$this->assertSame( 0, $this->index->count( new Place_Filter( array( 'cabins' ) ) ) );
		$this->assertSame( 2, $this->index->count() );
		$this->assertSame( 1, $this->index->count( new Place_Filter( array( 'alps' ) ) ) );
		$this->assertSame( 'alps', $this->state()['places'][ $one ]['combo'] );
	}

	/**
	 * Combinations sorted by their slugs.
	 *
	 * @return array<int, string[]>
	 */
	private function sorted_combos(): array {
		$combos = array_values( $this->index->combos() );
		usort( $combos, static fn( array $a, array $b ): int => strcmp( implode( ',', $a ), implode( ',', $b ) ) );
		return $combos;
	}

	/**
	 * An import (bulk SQL, no per-post hooks) puts its markers in the index.
	 */
	public function test_an_import_is_indexed(): void {
		$this->act_as( 'administrator' );
		$request = new WP_REST_Request( 'POST', '/cairn/v1/markers/import' );
		$request->set_header( 'Content-Type', 'text/csv' );
		$request->set_body( "title,lat,lng,group\nFirst hut,46.5,8.1,huts\nSecond hut,46.6,8.2,\n" );
		$response = rest_get_server()->dispatch( $request );
		$this->assertSame( 200, $response->get_status() );
		$places = $this->state()['places'];
		$this->assertSame( array( 'First hut', 'Second hut' ), array_values( array_column( $places, 'title' ) ) );
		$this->assertSame( array( 'huts', '' ), array_values( array_column( $places, 'combo' ) ) );
		$this->assertSame( $this->recounted_cells(), $this->state()['cells'] );
		// Each word carries its place's group combination, position and title key.
		$this->assertSame(
			array( 'first@ huts 46.500000 8.100000 first hut', 'hut@ huts 46.500000 8.100000 first hut', 'hut@  46.600000 8.200000 second hut', 'second@  46.600000 8.200000 second hut' ),
			array_map( static fn( string $word ): string => (string) preg_replace( '/@\d+/', '@', $word ), $this->state()['words'] )
		);
	}

	/**
	 * Markers written behind WordPress' back and then synced as a list (an importer) give the
	 * same index as a rebuild; a second sync of the same list changes nothing, stamps included.
	 */
	public function test_sync_many_equals_a_rebuild(): void {
		global $wpdb;
		$kept = $this->create_marker( array( 'groups' => array( 'huts' ) ) );
		$this->create_group( 'lakes' );
		$before = (int) $wpdb->get_var( "SELECT COALESCE(MAX(ID), 0) FROM $wpdb->posts" );
		\Cairn\Maps\Tests\Feed\Geojson_FeedTest::bulk_markers( 1200 );
		$ids   = array_map( 'intval', $wpdb->get_col( $wpdb->prepare( "SELECT ID FROM $wpdb->posts WHERE ID > %d", $before ) ) );
		$lakes = (int) get_term_by( 'slug', 'lakes', Post_Type::TAXONOMY )->term_taxonomy_id;
		foreach ( array_slice( $ids, 0, 400 ) as $id ) {
			$wpdb->insert(
				$wpdb->term_relationships,
				array(
					'object_id'        => $id,
					'term_taxonomy_id' => $lakes,
				)
			);
		}
		$this->assertSame( 1, $this->index->count() );
		$this->index->sync_many( array_merge( $ids, array( $kept ) ) );
		$synced = $this->state();
		$this->assertCount( 1201, $synced['places'] );
		$this->assertSame( 400, $this->index->count( new Place_Filter( array( 'lakes' ) ) ) );
		$this->assertSame( $this->recounted_cells(), $synced['cells'] );
		$stamps = $this->rows( 'cairn_tile_stamps', 'level, cell' );
		$this->index->sync_many( $ids );
		$this->assertSame( $stamps, $this->rows( 'cairn_tile_stamps', 'level, cell' ), 'nothing changed: nothing stamped' );
		delete_option( Place_Index::REBUILD_OPTION ); // The bulk insert asked for one; done below.
		$this->index->rebuild_now( 500 );
		$this->assertSame( $synced, $this->state() );
	}

	/**
	 * The tables' version decides: a new one runs dbDelta (which finds nothing to alter in tables
	 * already as declared) and starts a rebuild in the background; the WP-Cron event runs it.
	 */
	public function test_a_new_schema_version_rebuilds_in_the_background(): void {
		$this->create_marker( array( 'post_title' => 'Kept' ) );
		$this->index->ensure_schema();
		$this->assertTrue( $this->index->is_ready(), 'the same version: nothing to do' );

		update_option( Index_Schema::OPTION, '0' );
		$this->assertFalse( $this->index->is_ready() );
		$altered = array();
		$capture = static function ( $sql ) use ( &$altered ) {
			if ( preg_match( '/^\s*(ALTER|CREATE|DROP)\b/i', (string) $sql ) ) {
				$altered[] = (string) $sql;
			}
			return $sql;
		};
		add_filter( 'query', $capture, 5 );
		$this->index->ensure_schema();
		remove_filter( 'query', $capture, 5 );
		$this->assertSame( array(), $altered, 'dbDelta: the tables are as declared' );
		$this->assertSame( Index_Schema::VERSION, get_option( Index_Schema::OPTION ) );
		$this->assertFalse( $this->index->is_ready(), 'a rebuild is pending' );
		$this->assertNotFalse( wp_next_scheduled( Place_Index::HOOK ) );

		do_action( Place_Index::HOOK ); // phpcs:ignore WordPress.NamingConventions.PrefixAllGlobals.DynamicHooknameFound -- the plugin's own event, cairn_maps_index_rebuild.
		$this->assertTrue( $this->index->is_ready() );
		$this->assertSame( 1, $this->index->count() );
	}

	/**
	 * Site Health → Info → Cairn Maps names the index's size and state.
	 */
	public function test_site_health_shows_the_index(): void {
		$this->create_marker();
		$this->create_marker();
		$info = apply_filters( 'debug_information', array() ); // phpcs:ignore WordPress.NamingConventions.PrefixAllGlobals.NonPrefixedHooknameFound -- core's filter.
		$this->assertSame( 'Complete: 2 places', $info['cairn-maps']['fields']['place_index']['value'] );
		$this->assertSame( 'complete, 2', $info['cairn-maps']['fields']['place_index']['debug'] );
		$this->index->start_rebuild();
		$info = apply_filters( 'debug_information', array() ); // phpcs:ignore WordPress.NamingConventions.PrefixAllGlobals.NonPrefixedHooknameFound -- core's filter.
		$this->assertSame( 'building, start', $info['cairn-maps']['fields']['place_index']['debug'] );
	}

	/**
	 * A write the database refuses leaves no half change: the place's change is rolled back and a
	 * rebuild is started; a refused rebuild step is tried again, and rebuild_now() gives up after
	 * three refusals of the same step instead of looping.
	 */
	public function test_a_refused_write_rolls_back_and_rebuilds(): void {
		global $wpdb;
		$kept   = $this->create_marker( array( 'post_title' => 'Kept' ) );
		$before = $this->state();
		$refuse = static function ( $sql ) {
			// A write into the words table goes to a table that does not exist (a failing disk,
			// a lost connection: any refusal).
			return preg_match( '/^INSERT IGNORE INTO \S*cairn_place_words/', (string) $sql ) ? 'INSERT INTO cairn_no_such_table VALUES (1)' : $sql;
		};
		$errors = $wpdb->suppress_errors( true );
		add_filter( 'query', $refuse );
		$id = $this->create_marker( array( 'post_title' => 'Refused' ) );
		$this->assertSame( $before, $this->state(), 'nothing of the refused change stayed' );
		$this->assertFalse( $this->index->is_ready(), 'a rebuild was started' );
		$this->assertFalse( $this->index->rebuild_now(), 'the same step refused three times' );
		$this->assertFalse( $this->index->is_ready() );
		remove_filter( 'query', $refuse );
		$wpdb->suppress_errors( $errors );

		$this->assertTrue( $this->index->rebuild_now() );
		$this->assertSame( array( $kept, $id ), $this->indexed() );
		$this->assertSame( $this->recounted_cells(), $this->state()['cells'] );
	}

	/**
	 * Counting a ready index reads the coarsest cells, never every place, and agrees with a count
	 * of the places; while a rebuild is pending it counts the places.
	 */
	public function test_count_reads_the_cells_when_ready(): void {
		global $wpdb;
		$this->create_marker( array( 'groups' => array( 'huts', 'alps' ) ) );
		$this->create_marker(
			array(
				'groups' => array( 'huts' ),
				'lat'    => -40,
				'lng'    => 170,
			)
		);
		$this->create_marker(
			array(
				'lat' => 10,
				'lng' => 10,
			)
		);
		$places  = Index_Schema::table( 'cairn_places' );
		$queries = array();
		$capture = static function ( $sql ) use ( &$queries ) {
			$queries[] = (string) $sql;
			return $sql;
		};
		add_filter( 'query', $capture );
		$counts = array( $this->index->count(), $this->index->count( new Place_Filter( array( 'huts' ) ) ), $this->index->count( new Place_Filter( array( 'alps', 'lakes' ) ) ), $this->index->count( new Place_Filter( array( 'lakes' ) ) ) );
		remove_filter( 'query', $capture );
		$this->assertSame( array( 3, 2, 1, 0 ), $counts );
		$this->assertSame( array(), preg_grep( '/\b' . preg_quote( $places, '/' ) . '\b/', $queries ), 'no read of every place' );
		$this->assertSame( 3, (int) $wpdb->get_var( "SELECT COUNT(*) FROM $places" ) );

		$this->index->start_rebuild();
		$this->index->rebuild( 10 ); // Emptied: the cells are not counted yet.
		$this->index->rebuild( 10 ); // The places are back.
		$this->assertSame( array( 3, 2 ), array( $this->index->count(), $this->index->count( new Place_Filter( array( 'huts' ) ) ) ) );
	}

	/**
	 * Deleting the plugin drops the five tables and the rebuild's event, whatever the owner chose
	 * for the markers (the index is derived from them). DROP TABLE runs as DROP TEMPORARY TABLE
	 * inside a test's transaction, so the statements are what is checked.
	 */
	public function test_uninstall_drops_the_tables(): void {
		$this->index->start_rebuild();
		$this->assertNotFalse( wp_next_scheduled( Place_Index::HOOK ) );
		$dropped = array();
		$capture = static function ( $sql ) use ( &$dropped ) {
			if ( preg_match( '/^DROP (?:TEMPORARY )?TABLE IF EXISTS (\S+)$/', trim( (string) $sql ), $match ) ) {
				$dropped[] = $match[1];
			}
			return $sql;
		};
		add_filter( 'query', $capture, 20 );
		( new Uninstaller() )->run();
		remove_filter( 'query', $capture, 20 );
		// The shape tiles' two tables (Feed\Shape_Tile_Schema) go after the index's five.
		$this->assertSame( array_map( array( Index_Schema::class, 'table' ), Index_Schema::TABLES ), array_slice( $dropped, 0, count( Index_Schema::TABLES ) ) );
		$this->assertFalse( wp_next_scheduled( Place_Index::HOOK ) );
		$this->assertFalse( get_option( Index_Schema::OPTION ) );
		$this->assertFalse( get_option( Place_Index::REBUILD_OPTION ) );
	}
}
