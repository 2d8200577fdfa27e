<?php
/**
 * The ordered list of open edges of a sweep line.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Markers;

defined( 'ABSPATH' ) || exit;

/**
 * An ordered list of ids, bottom to top, in blocks of at most 2 × BLOCK ids, so that inserting or
 * removing one costs a binary search and a move within one block (plus a look-up in the short
 * list of blocks), never a move of the whole list: tens of thousands of open edges at once (a comb
 * of long teeth) stay fast.
 *
 * The order is the caller's: insert() takes a test "is s above t", which must agree with the list.
 *
 * @since 0.5.0
 */
final class Sweep_List {

	/**
	 * Half the most ids of a block.
	 */
	private const BLOCK = 128;

	/**
	 * The blocks, by block id.
	 *
	 * @var array<int, array<int, int>>
	 */
	private array $blocks = array();

	/**
	 * Block ids, bottom to top.
	 *
	 * @var array<int, int>
	 */
	private array $order = array();

	/**
	 * Each listed id's block id.
	 *
	 * @var array<int, int>
	 */
	private array $block_of = array();

	/**
	 * The next block id.
	 *
	 * @var int
	 */
	private int $next_block = 0;

	/**
	 * Inserts an id where the test puts it.
	 *
	 * @param int      $s     Id to insert.
	 * @param \Closure $above function ( int $s, int $t ): bool — whether s lies above t.
	 */
	public function insert( int $s, \Closure $above ): void {
		if ( array() === $this->order ) {
			$id                   = $this->next_block++;
			$this->blocks[ $id ]  = array( $s );
			$this->order          = array( $id );
			$this->block_of[ $s ] = $id;
			return;
		}
		// The last block whose first id lies below s (or the first block).
		$at = 0;
		$lo = 1;
		$hi = count( $this->order ) - 1;
		while ( $lo <= $hi ) {
			$mid = ( $lo + $hi ) >> 1;
			if ( $above( $s, $this->blocks[ $this->order[ $mid ] ][0] ) ) {
				$at = $mid;
				$lo = $mid + 1;
			} else {
				$hi = $mid - 1;
			}
		}
		$id    = $this->order[ $at ];
		$block = $this->blocks[ $id ];
		$lo    = 0;
		$hi    = count( $block );
		while ( $lo < $hi ) {
			$mid = ( $lo + $hi ) >> 1;
			if ( $above( $s, $block[ $mid ] ) ) {
				$lo = $mid + 1;
			} else {
				$hi = $mid;
			}
		}
		array_splice( $block, $lo, 0, array( $s ) );
		$this->block_of[ $s ] = $id;
		if ( count( $block ) > 2 * self::BLOCK ) {
			$upper                = array_splice( $block, self::BLOCK );
			$new                  = $this->next_block++;
			$this->blocks[ $new ] = $upper;
			foreach ( $upper as $moved ) {
				$this->block_of[ $moved ] = $new;
			}
			array_splice( $this->order, $at + 1, 0, array( $new ) );
		}
		$this->blocks[ $id ] = $block;
	}

	/**
	 * Whether an id is listed.
	 *
	 * @param int $s Id.
	 */
	public function has( int $s ): bool {
		return isset( $this->block_of[ $s ] );
	}

	/**
	 * The ids just below and just above a listed id.
	 *
	 * @param int $s A listed id.
	 * @return array{0: int|null, 1: int|null} [below, above].
	 */
	public function neighbours( int $s ): array {
		$id    = $this->block_of[ $s ];
		$block = $this->blocks[ $id ];
		$pos   = (int) array_search( $s, $block, true );
		$below = $block[ $pos - 1 ] ?? null;
		$above = $block[ $pos + 1 ] ?? null;
		if ( null === $below || null === $above ) {
			$at = (int) array_search( $id, $this->order, true );
			if ( null === $below && $at > 0 ) {
				$lower = $this->blocks[ $this->order[ $at - 1 ] ];
				$below = $lower[ count( $lower ) - 1 ];
			}
			if ( null === $above && isset( $this->order[ $at + 1 ] ) ) {
				$above = $this->blocks[ $this->order[ $at + 1 ] ][0];
			}
		}
		return array( $below, $above );
	}

	/**
	 * Removes a listed id.
	 *
	 * @param int $s A listed id.
	 * @return array{0: int|null, 1: int|null} The ids that were just below and above it, now
	 *         neighbours.
	 */
	public function remove( int $s ): array {
		$around = $this->neighbours( $s );
		$id     = $this->block_of[ $s ];
		$block  = $this->blocks[ $id ];
		array_splice( $block, (int) array_search( $s, $block, true ), 1 );
		unset( $this->block_of[ $s ] );
		if ( array() === $block ) {
			unset( $this->blocks[ $id ] );
			array_splice( $this->order, (int) array_search( $id, $this->order, true ), 1 );
		} else {
			$this->blocks[ $id ] = $block;
		}
		return $around;
	}

	/**
	 * The lowest listed id for which a test holds, when the test is false below some point of the
	 * list and true from it up.
	 *
	 * @param \Closure $holds function ( int $t ): bool.
	 */
	public function first_where( \Closure $holds ): ?int {
		$count = count( $this->order );
		$lo    = 0;
		$hi    = $count;
		while ( $lo < $hi ) {
			$mid   = ( $lo + $hi ) >> 1;
			$block = $this->blocks[ $this->order[ $mid ] ];
			if ( $holds( $block[ count( $block ) - 1 ] ) ) {
				$hi = $mid;
			} else {
				$lo = $mid + 1;
			}
		}
		if ( $lo === $count ) {
			return null;
		}
		$block = $this->blocks[ $this->order[ $lo ] ];
		$left  = 0;
		$right = count( $block ) - 1;
		while ( $left < $right ) {
			$mid = ( $left + $right ) >> 1;
			if ( $holds( $block[ $mid ] ) ) {
				$right = $mid;
			} else {
				$left = $mid + 1;
			}
		}
		return $block[ $left ];
	}

	/**
	 * The id just above a listed id, or null.
	 *
	 * @param int $s A listed id.
	 */
	public function above( int $s ): ?int {
		return $this->neighbours( $s )[1];
	}
}
