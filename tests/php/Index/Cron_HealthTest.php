<?php
/**
 * Whether WP-Cron runs the place index's rebuild.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Index;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Index\Cron_Health;
use Cairn\Maps\Index\Place_Index;
use Cairn\Maps\Tests\TestCase;

/**
 * The verdict from what WordPress records itself: the event's time in the cron array and the
 * time of WordPress' last spawn of WP-Cron (the `doing_cron` transient), with DISABLE_WP_CRON
 * given to the judge.
 *
 * @since 0.8.0
 */
final class Cron_HealthTest extends TestCase {

	/**
	 * No verdict remembered, no spawn seen.
	 */
	protected function set_up(): void {
		parent::set_up();
		delete_option( Cron_Health::OPTION );
		delete_transient( 'doing_cron' );
	}

	/**
	 * The verdict for an event due some seconds ago and a spawn some seconds ago.
	 *
	 * @dataProvider provide_verdicts
	 *
	 * @param bool     $disabled    DISABLE_WP_CRON.
	 * @param int      $late        Seconds since the event was due (negative: due later).
	 * @param int|null $spawned_ago Seconds since WordPress spawned WP-Cron (null: no spawn seen).
	 * @param string   $expected    The verdict.
	 */
	public function test_verdicts( bool $disabled, int $late, ?int $spawned_ago, string $expected ): void {
		if ( null !== $spawned_ago ) {
			set_transient( 'doing_cron', sprintf( '%.22F', time() - $spawned_ago ) );
		}
		$this->assertSame( $expected, ( new Cron_Health( $disabled ) )->verdict( time() - $late ) );
		$remembered = get_option( Cron_Health::OPTION );
		if ( Cron_Health::RUNS === $expected ) {
			$this->assertFalse( $remembered, 'a working cron is not remembered' );
		} else {
			$this->assertSame( $expected, $remembered['verdict'] ?? '' );
		}
	}

	/**
	 * Events, spawns and verdicts.
	 *
	 * @return array<string, array{0: bool, 1: int, 2: int|null, 3: string}>
	 */
	public static function provide_verdicts(): array {
		return array(
			'due later'                                  => array( false, -60, null, Cron_Health::RUNS ),
			'due now'                                    => array( false, 0, null, Cron_Health::RUNS ),
			'two minutes late, no spawn yet'             => array( false, 120, null, Cron_Health::RUNS ),
			'spawned after it was due, 5 s ago'          => array( false, 30, 5, Cron_Health::RUNS ),
			'spawned after it was due, 20 s ago'         => array( false, 30, 20, Cron_Health::LOOPBACK ),
			'last spawn before it was due'               => array( false, 30, 60, Cron_Health::RUNS ),
			'six minutes late'                           => array( false, 360, null, Cron_Health::LATE ),
			'switched off, half a minute late'           => array( true, 30, null, Cron_Health::RUNS ),
			'switched off, 90 s late'                    => array( true, 90, null, Cron_Health::DISABLED ),
			'switched off, a spawn is not a loopback'    => array( true, 30, 20, Cron_Health::RUNS ),
			'switched off, six minutes late is disabled' => array( true, 360, null, Cron_Health::DISABLED ),
		);
	}

	/**
	 * A verdict is remembered (the next rebuild need not find it again) until WP-Cron runs the
	 * event, or for a day at most.
	 */
	public function test_a_verdict_is_remembered_until_cron_runs_the_event(): void {
		$health = new Cron_Health( false );
		$this->assertSame( Cron_Health::LATE, $health->verdict( time() - 400 ) );
		$this->assertSame( Cron_Health::LATE, $health->verdict( time() + 60 ), 'remembered for the next rebuild' );
		$health->ran();
		$this->assertSame( Cron_Health::RUNS, $health->verdict( time() + 60 ) );

		update_option(
			Cron_Health::OPTION,
			array(
				'verdict' => Cron_Health::LOOPBACK,
				'at'      => time() - DAY_IN_SECONDS - 60,
			)
		);
		$this->assertSame( Cron_Health::RUNS, $health->verdict( time() ), 'a day-old verdict is looked at again' );
	}

	/**
	 * The rebuild's event running (from WP-Cron) forgets the verdict at once.
	 */
	public function test_the_event_running_forgets_the_verdict(): void {
		$health = new Cron_Health( false );
		$this->assertSame( Cron_Health::LATE, $health->verdict( time() - 400 ) );
		do_action( Place_Index::HOOK ); // phpcs:ignore WordPress.NamingConventions.PrefixAllGlobals.DynamicHooknameFound -- the plugin's own event, cairn_maps_index_rebuild.
		$this->assertFalse( get_option( Cron_Health::OPTION ) );
	}
}
