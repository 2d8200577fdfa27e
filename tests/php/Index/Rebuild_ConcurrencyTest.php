<?php
/**
 * Two requests running rebuild steps at the same time, for real.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Index;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Index\Index_Schema;
use Cairn\Maps\Index\Morton;
use Cairn\Maps\Index\Place_Index;
use Cairn\Maps\Index\Rebuild_Lock;
use Cairn\Maps\Tests\Committed_State;
use Cairn\Maps\Tests\TestCase;

/**
 * Two PHP processes (two admin page loads, or a page load and WP-Cron) step the same pending
 * rebuild at once on MariaDB, each as fast as it can, every write of places slowed down as on a
 * busy database: the lock lets one step run at a time (the other is told `locked` and comes
 * back), no step's progress is ever written over another's (no `restarted`), and the committed
 * index holds each place once, its cells equal to a recount. What the workers commit is put back
 * afterwards (Committed_State).
 *
 * @since 0.8.0
 */
final class Rebuild_ConcurrencyTest extends TestCase {

	/**
	 * The second connection and the rows to put back.
	 *
	 * @var Committed_State|null
	 */
	private ?Committed_State $committed = null;

	/**
	 * Keeps the committed rows of every table the workers write.
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
	 * Rolls the test back, then puts the committed rows back.
	 */
	protected function tear_down(): void {
		parent::tear_down();
		if ( null !== $this->committed ) {
			$this->committed->restore();
		}
	}

	/**
	 * Runs the index worker and reads its answer.
	 *
	 * @param string[] $args Its arguments.
	 * @return array<string, mixed>
	 */
	private function worker( array $args ): array {
		return $this->answer( Committed_State::run_worker( __DIR__ . '/index-worker.php', $args ) );
	}

	/**
	 * A worker's answer, checked.
	 *
	 * @param array{status: int, out: string, err: string} $run What it did.
	 * @return array<string, mixed>
	 */
	private function answer( array $run ): array {
		$this->assertSame( 0, $run['status'], $run['err'] . $run['out'] );
		$answer = json_decode( trim( $run['out'] ), true );
		$this->assertIsArray( $answer, $run['out'] );
		return $answer;
	}

	/**
	 * Starts two step workers at once and waits for both.
	 *
	 * @param float $go    When both begin (microtime), after WordPress has loaded in each.
	 * @param int   $batch Markers per step.
	 * @return array<int, array<string, int>> Each worker's results, counted.
	 */
	private function two_workers( float $go, int $batch ): array {
		$root      = dirname( __DIR__, 3 );
		$processes = array();
		$pipes     = array();
		for ( $i = 0; $i < 2; $i++ ) {
			$processes[ $i ] = proc_open( // phpcs:ignore WordPress.PHP.DiscouragedPHPFunctions.system_calls_proc_open -- the processes under test.
				array( PHP_BINARY, __DIR__ . '/index-worker.php', 'steps', sprintf( '%.6F', $go ), (string) $batch ),
				array(
					0 => array( 'file', '/dev/null', 'r' ),
					1 => array( 'pipe', 'w' ),
					2 => array( 'pipe', 'w' ),
				),
				$pipes[ $i ],
				$root,
				array_merge( getenv(), array( 'CAIRN_TESTS_CONFIG' => $root . '/.cache/wp-tests/wp-tests-config.php' ) )
			);
		}
		$results = array();
		for ( $i = 0; $i < 2; $i++ ) {
			$out           = (string) stream_get_contents( $pipes[ $i ][1] );
			$err           = (string) stream_get_contents( $pipes[ $i ][2] );
			$answer        = $this->answer(
				array(
					'status' => proc_close( $processes[ $i ] ),
					'out'    => $out,
					'err'    => $err,
				)
			);
			$results[ $i ] = (array) $answer['results'];
		}
		return $results;
	}

	/**
	 * 40 markers rebuilt one at a time by two workers racing: one step at a time, nothing written
	 * over, every place once, every cell right, nothing left pending or locked.
	 */
	public function test_two_workers_build_one_right_index(): void {
		global $wpdb;
		$ids = $this->worker( array( 'seed', '40' ) )['ids'];
		$this->assertCount( 40, $ids );
		$this->worker( array( 'start' ) );
		$this->assertNotNull( $this->committed()->value( "SELECT option_value FROM {$wpdb->options} WHERE option_name = '" . Place_Index::REBUILD_OPTION . "'" ), 'a rebuild is pending' );

		$results = $this->two_workers( microtime( true ) + 4.0, 1 );
		$sum     = static fn( string $kind ): int => ( $results[0][ $kind ] ?? 0 ) + ( $results[1][ $kind ] ?? 0 );
		$this->assertGreaterThan( 0, $sum( 'locked' ), 'the workers met at the lock: ' . wp_json_encode( $results ) );
		$this->assertGreaterThan( 0, ( $results[0]['more'] ?? 0 ) * ( $results[1]['more'] ?? 0 ), 'both ran steps: ' . wp_json_encode( $results ) );
		$this->assertSame( 0, $sum( 'restarted' ), 'no step found its progress written over' );
		$this->assertSame( 0, $sum( 'refused' ) );
		$this->assertSame( 1, $sum( 'done' ), 'one of them finished it' );
		$markers = (int) $this->committed()->value( "SELECT COUNT(*) FROM {$wpdb->posts} WHERE post_type = 'cairn_marker' AND post_status = 'publish' AND post_password = ''" );
		$this->assertSame( 1 + $markers + 1 + count( Place_Index::CELL_LEVELS ) + 1, $sum( 'more' ) + $sum( 'done' ), 'every step ran once: emptying, a batch per marker and the one that finds none, the cell levels, the stamps' );

		$places = Index_Schema::table( 'cairn_places' );
		$this->assertNull( $this->committed()->value( "SELECT option_value FROM {$wpdb->options} WHERE option_name = '" . Place_Index::REBUILD_OPTION . "'" ), 'nothing pending' );
		$this->assertSame( '0', $this->committed()->value( "SELECT option_value FROM {$wpdb->options} WHERE option_name = '" . Rebuild_Lock::OPTION . "'" ), 'the lock was left free' );
		$this->assertSame( '40', $this->committed()->value( "SELECT COUNT(*) FROM $places WHERE post_id IN (" . implode( ',', array_map( 'intval', $ids ) ) . ')' ) );
		$this->assertSame( $this->committed()->value( "SELECT COUNT(*) FROM $places" ), $this->committed()->value( "SELECT COUNT(DISTINCT post_id) FROM $places" ), 'each place once' );
		$this->assertSame( $this->recount(), $this->stored_cells() );
	}

	/**
	 * The committed cells: "level:cell:combo" => count.
	 *
	 * @return array<string, int>
	 */
	private function stored_cells(): array {
		$cells = array();
		foreach ( $this->committed()->rows( 'SELECT level, cell, combo, n FROM ' . Index_Schema::table( 'cairn_place_cells' ) ) as $row ) {
			$cells[ $row['level'] . ':' . $row['cell'] . ':' . $row['combo'] ] = (int) $row['n'];
		}
		ksort( $cells );
		return $cells;
	}

	/**
	 * The cells as a recount of the committed places gives them.
	 *
	 * @return array<string, int>
	 */
	private function recount(): array {
		$cells = array();
		foreach ( $this->committed()->rows( 'SELECT code, combo FROM ' . Index_Schema::table( 'cairn_places' ) ) as $row ) {
			foreach ( Place_Index::CELL_LEVELS as $level ) {
				$key           = $level . ':' . Morton::cell( (int) $row['code'], $level ) . ':' . $row['combo'];
				$cells[ $key ] = ( $cells[ $key ] ?? 0 ) + 1;
			}
		}
		ksort( $cells );
		return $cells;
	}

	/**
	 * The second connection.
	 */
	private function committed(): Committed_State {
		$this->assertInstanceOf( Committed_State::class, $this->committed );
		return $this->committed;
	}
}
