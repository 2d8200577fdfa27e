<?php
/**
 * The sweep line's ordered list.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Markers;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Markers\Sweep_List;
use Cairn\Maps\Tests\TestCase;

/**
 * Across many blocks (thousands of ids, blocks of at most 256), the list keeps the order its test
 * gives, and answers neighbours, removals and searches as a plain sorted array does.
 *
 * @since 0.5.0
 */
final class Sweep_ListTest extends TestCase {

	/**
	 * Random inserts and removals against a sorted array.
	 */
	public function test_it_behaves_as_a_sorted_array(): void {
		mt_srand( 11 ); // phpcs:ignore WordPress.WP.AlternativeFunctions.rand_seeding_mt_srand -- the same steps every run.
		$list      = new Sweep_List();
		$reference = array();
		$above     = static function ( int $s, int $t ): bool {
			return $s > $t;
		};
		$ids       = range( 1, 6000 );
		shuffle( $ids );
		foreach ( $ids as $step => $id ) {
			$list->insert( $id, $above );
			$reference[] = $id;
			sort( $reference );
			$at = array_search( $id, $reference, true );
			$this->assertSame( array( $reference[ $at - 1 ] ?? null, $reference[ $at + 1 ] ?? null ), $list->neighbours( $id ) );
			if ( 0 === $step % 3 ) {
				$gone = $reference[ mt_rand( 0, count( $reference ) - 1 ) ]; // phpcs:ignore WordPress.WP.AlternativeFunctions.rand_mt_rand -- seeded.
				$at   = array_search( $gone, $reference, true );
				$this->assertSame( array( $reference[ $at - 1 ] ?? null, $reference[ $at + 1 ] ?? null ), $list->remove( $gone ) );
				array_splice( $reference, $at, 1 );
				$this->assertFalse( $list->has( $gone ) );
			}
		}
		$this->assertGreaterThan( 1000, count( $reference ) );
		foreach ( array( 0, 1, 2500, 5999, 6000, 6001 ) as $from ) {
			$expected = null;
			foreach ( $reference as $id ) {
				if ( $id >= $from ) {
					$expected = $id;
					break;
				}
			}
			$found = $list->first_where(
				static function ( int $t ) use ( $from ): bool {
					return $t >= $from;
				}
			);
			$this->assertSame( $expected, $found, "first at or above {$from}" );
		}
		$walk = array( $reference[0] );
		while ( null !== ( $next = $list->above( end( $walk ) ) ) ) { // phpcs:ignore Generic.CodeAnalysis.AssignmentInCondition.FoundInWhileCondition, WordPress.CodeAnalysis.AssignmentInCondition.FoundInWhileCondition -- walking the list.
			$walk[] = $next;
		}
		$this->assertSame( $reference, $walk, 'walking up gives the whole order' );
	}
}
