<?php
/**
 * The place index's writes outside a transaction: committed, or rolled back, for real.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Index;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Index\Index_Schema;
use Cairn\Maps\Index\Place_Index;
use Cairn\Maps\Tests\Committed_State;
use Cairn\Maps\Tests\TestCase;

/**
 * Place_Store::begin() opens a savepoint inside an open transaction and a transaction of its own
 * otherwise, with COMMIT and ROLLBACK to end it. Every other test runs inside the test's
 * transaction, so only the savepoint branch ran (issue 30: with COMMIT removed every index change
 * of a live site rolled back, and no test saw it). Here the index is written by another PHP
 * process with autocommit on, as on a live site, and what it committed is read through a second
 * connection; the committed rows are put back afterwards (Committed_State).
 *
 * @since 0.7.0
 */
final class Place_Store_CommitTest extends TestCase {

	/**
	 * The second connection and the rows to put back.
	 *
	 * @var Committed_State|null
	 */
	private ?Committed_State $committed = null;

	/**
	 * Keeps the committed rows of every table a worker writes.
	 */
	protected function set_up(): void {
		parent::set_up();
		global $wpdb;
		$this->committed = new Committed_State();
		$tables          = array( $wpdb->posts, $wpdb->postmeta, $wpdb->options, $wpdb->terms, $wpdb->term_taxonomy, $wpdb->term_relationships, $wpdb->termmeta );
		foreach ( Index_Schema::TABLES as $name ) {
			$tables[] = Index_Schema::table( $name );
		}
		$this->committed->capture( $tables );
	}

	/**
	 * Rolls the test back, then puts the committed rows back (nothing leaks into later tests).
	 */
	protected function tear_down(): void {
		parent::tear_down();
		if ( null !== $this->committed ) {
			$this->committed->restore();
		}
	}

	/**
	 * Runs the index worker.
	 *
	 * @param string[] $args Its arguments.
	 * @return array<string, mixed> What it printed.
	 */
	private function worker( array $args ): array {
		$run = Committed_State::run_worker( __DIR__ . '/index-worker.php', $args );
		$this->assertSame( 0, $run['status'], $run['err'] . $run['out'] );
		$answer = json_decode( trim( $run['out'] ), true );
		$this->assertIsArray( $answer, $run['out'] );
		return $answer;
	}

	/**
	 * Committed index rows of a post: [places, words].
	 *
	 * @param int $post_id Post id.
	 * @return array{0: int, 1: int}
	 */
	private function indexed( int $post_id ): array {
		return array(
			(int) $this->committed()->value( 'SELECT COUNT(*) FROM ' . Index_Schema::table( 'cairn_places' ) . ' WHERE post_id = ' . $post_id ),
			(int) $this->committed()->value( 'SELECT COUNT(*) FROM ' . Index_Schema::table( 'cairn_place_words' ) . ' WHERE post_id = ' . $post_id ),
		);
	}

	/**
	 * The second connection.
	 */
	private function committed(): Committed_State {
		$this->assertInstanceOf( Committed_State::class, $this->committed );
		return $this->committed;
	}

	/**
	 * A marker published on a live site (no test transaction) is in the index once the request
	 * ends: its place, its words and its cells, committed.
	 */
	public function test_a_published_marker_is_committed_to_the_index(): void {
		global $wpdb;
		$cells_before = (int) $this->committed()->value( 'SELECT COALESCE(SUM(n), 0) FROM ' . Index_Schema::table( 'cairn_place_cells' ) );
		$id           = (int) $this->worker( array( 'publish', 'Committed spring', '57.25', '-3.5' ) )['id'];
		$this->assertSame( 'publish', $this->committed()->value( "SELECT post_status FROM {$wpdb->posts} WHERE ID = $id" ), 'the post itself was committed' );
		list( $places, $words ) = $this->indexed( $id );
		$this->assertSame( 1, $places, 'its place is in the committed index' );
		$this->assertGreaterThan( 0, $words, 'its words too' );
		$this->assertGreaterThan( $cells_before, (int) $this->committed()->value( 'SELECT COALESCE(SUM(n), 0) FROM ' . Index_Schema::table( 'cairn_place_cells' ) ), 'its cells were counted' );
	}

	/**
	 * A full rebuild outside a transaction (the cron job) commits each of its steps: the index
	 * ends ready, holding the published markers.
	 */
	public function test_a_rebuild_is_committed(): void {
		$id = (int) $this->worker( array( 'publish', 'Rebuilt spring', '48.85', '2.35' ) )['id'];
		$this->assertTrue( $this->worker( array( 'rebuild' ) )['ready'] );
		$this->assertSame( array( 1, 2 ), $this->indexed( $id ), 'the rebuilt index holds the marker and its two words' );
		$this->assertNull( $this->committed()->value( "SELECT option_value FROM {$GLOBALS['wpdb']->options} WHERE option_name = '" . Place_Index::REBUILD_OPTION . "'" ), 'no rebuild left pending' );
	}

	/**
	 * A write the database refuses rolls the whole index change back (no half-written place) and
	 * asks for a rebuild — which is committed, so the site repairs itself.
	 */
	public function test_a_refused_write_is_rolled_back_and_a_rebuild_asked_for(): void {
		global $wpdb;
		$pending = "SELECT option_value FROM {$wpdb->options} WHERE option_name = '" . Place_Index::REBUILD_OPTION . "'";
		$this->assertTrue( $this->worker( array( 'rebuild' ) )['ready'] );
		$this->assertNull( $this->committed()->value( $pending ), 'no rebuild pending to begin with' );
		$id = (int) $this->worker( array( 'fail', 'Refused spring', '35.7', '139.7' ) )['id'];
		$this->assertSame( 'publish', $this->committed()->value( "SELECT post_status FROM {$wpdb->posts} WHERE ID = $id" ), 'the post was saved' );
		$this->assertSame( array( 0, 0 ), $this->indexed( $id ), 'nothing of the failed change was committed' );
		$this->assertNotNull( $this->committed()->value( $pending ), 'a rebuild was asked for, and committed' );
	}

	/**
	 * The rows the workers committed are gone again after each test (the restore works): the
	 * committed markers are those of before.
	 */
	public function test_nothing_committed_survives_the_test(): void {
		global $wpdb;
		$before = $this->committed()->value( "SELECT COUNT(*) FROM {$wpdb->posts}" );
		$this->worker( array( 'publish', 'Passing spring', '1', '2' ) );
		$this->assertNotSame( $before, $this->committed()->value( "SELECT COUNT(*) FROM {$wpdb->posts}" ) );
		$this->committed()->restore();
		$this->assertSame( $before, $this->committed()->value( "SELECT COUNT(*) FROM {$wpdb->posts}" ) );
		$this->assertSame( '0', $this->committed()->value( 'SELECT COUNT(*) FROM ' . Index_Schema::table( 'cairn_places' ) . " WHERE title = 'Passing spring'" ) );
		$this->committed = null;
	}
}
