<?php
/**
 * The plugin's one bounded cache.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Support;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Support\Slot_Cache;
use Cairn\Maps\Tests\TestCase;

/**
 * Slot_Cache on the test site (no persistent object cache: transients, or the request's cache).
 *
 * @since 0.7.0
 */
final class Slot_CacheTest extends TestCase {

	/**
	 * Rows of a group's transients.
	 *
	 * @param string $group The group.
	 */
	private static function rows( string $group ): int {
		global $wpdb;
		return (int) $wpdb->get_var( $wpdb->prepare( "SELECT COUNT(*) FROM $wpdb->options WHERE option_name LIKE %s", '_transient_' . $wpdb->esc_like( $group ) . '%' ) ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery
	}

	/**
	 * A flood of distinct keys keeps at most one entry a slot, and the newest keys are found.
	 */
	public function test_storage_is_bounded_whatever_is_asked(): void {
		$cache = new Slot_Cache( 'cairn_test_slots', 16, true );
		for ( $i = 0; $i < 500; $i++ ) {
			$cache->set( "key-$i", array( 'n' => $i ) );
		}
		$this->assertLessThanOrEqual( 16, self::rows( 'cairn_test_slots' ) );
		$this->assertSame( array( 'n' => 499 ), $cache->get( 'key-499' ), 'the last one stored is kept' );
		$this->assertNull( $cache->get( 'never-stored' ) );
	}

	/**
	 * A key whose two slots are taken replaces the older of them, not the newer.
	 */
	public function test_the_older_of_two_slots_is_replaced(): void {
		$cache = new Slot_Cache( 'cairn_test_pair', 1024, true );
		$key   = 'tile-a';
		$pair  = $cache->slots_of( $key );
		$this->assertCount( 2, $pair );
		set_transient( 'cairn_test_pair_' . $pair[0], array( 'old', 'x', time() - 3600 ), HOUR_IN_SECONDS );
		set_transient( 'cairn_test_pair_' . $pair[1], array( 'new', 'y', time() - 60 ), HOUR_IN_SECONDS );
		$cache->set( $key, 'body' );
		$this->assertSame( 'body', $cache->get( $key ) );
		$this->assertSame( array( 'new', 'y' ), array_slice( get_transient( 'cairn_test_pair_' . $pair[1] ), 0, 2 ), 'the newer neighbour stays' );
		$this->assertSame( $key, get_transient( 'cairn_test_pair_' . $pair[0] )[0], 'the older one made room' );
	}

	/**
	 * A key whose two slots are taken moves the older occupant to that occupant's other slot when
	 * it is free: all three stay, none is rebuilt.
	 */
	public function test_an_occupant_with_a_free_other_slot_moves_there(): void {
		$cache = new Slot_Cache( 'cairn_test_move', 1024, true );
		$key   = 'tile-a';
		$pair  = $cache->slots_of( $key );
		// Two keys, one in each of the key's slots, whose other slots are empty.
		$occupants = array();
		for ( $i = 0; $i < 200000; $i++ ) {
			if ( 2 === count( $occupants ) ) {
				break;
			}
			$slots = $cache->slots_of( "other-$i" );
			$free  = array_values( array_diff( $slots, $pair ) );
			foreach ( $pair as $slot ) {
				if ( ! isset( $occupants[ $slot ] ) && in_array( $slot, $slots, true ) && 1 === count( $free ) ) {
					$occupants[ $slot ] = array( "other-$i", $free[0] );
					break;
				}
			}
		}
		$this->assertCount( 2, $occupants );
		foreach ( $occupants as $slot => $occupant ) {
			set_transient( 'cairn_test_move_' . $slot, array( $occupant[0], 'value of ' . $occupant[0], time() - 60 ), HOUR_IN_SECONDS );
		}
		$cache->set( $key, 'body' );
		$this->assertSame( 'body', $cache->get( $key ) );
		foreach ( $occupants as $occupant ) {
			$this->assertSame( 'value of ' . $occupant[0], $cache->get( $occupant[0] ), 'the neighbour moved, not lost' );
		}
		$this->assertSame( 3, self::rows( 'cairn_test_move' ), 'three entries' );
	}

	/**
	 * A visitor's 475 tiles (the warm pass of bench:api:tiles) in the default 1024 slots: every one
	 * is found again. With two slots a key and no moves, 30 were thrown out by two others; a
	 * random walk of moves (0.9.0) still lost 3, where the breadth-first chain finds room.
	 */
	public function test_a_map_session_of_tiles_is_kept_whole(): void {
		$cache = new Slot_Cache( 'cairn_test_session', 1024, false );
		for ( $i = 0; $i < 475; $i++ ) {
			$cache->set( md5( "tile $i" ), $i );
		}
		$lost = 0;
		for ( $i = 0; $i < 475; $i++ ) {
			$lost += $i === $cache->get( md5( "tile $i" ) ) ? 0 : 1;
		}
		$this->assertSame( 0, $lost, "$lost of 475 tiles lost" );
		fwrite( STDERR, "\n[slot cache] 475 keys in 1024 slots: $lost lost\n" ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_system_read_fwrite
	}

	/**
	 * Without transients (answers cheap to recompute) nothing reaches the database.
	 */
	public function test_without_transients_nothing_is_written_to_the_database(): void {
		$cache = new Slot_Cache( 'cairn_test_request', 16, false );
		$cache->set( 'a', array( 1 ) );
		$this->assertSame( array( 1 ), $cache->get( 'a' ), 'kept for the request' );
		$this->assertSame( 0, self::rows( 'cairn_test_request' ) );
	}
}
