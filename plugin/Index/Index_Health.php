<?php
/**
 * What Tools → Site Health says about the place index.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Index;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Support\Limits;

/**
 * A status test (is the index complete, being built, or stuck — and what to do then) and three
 * fields in the Info tab's "Cairn Maps" section: the index's state with its progress (places
 * written of the markers, or cell levels counted), what builds it (WP-Cron, admin page loads and
 * why, WP-CLI) and its last step. Reads the index only when Site Health asks.
 *
 * @since 0.8.0
 */
final class Index_Health {

	/**
	 * The status test's key (site_status_tests → direct).
	 */
	public const TEST = 'cairn_maps_place_index';

	/**
	 * The Info section the fields join (Upgrade\Site_Health adds it).
	 */
	public const SECTION = 'cairn-maps';

	/**
	 * Seconds without a step after which a pending rebuild is stuck.
	 */
	public const STUCK_SECONDS = 30 * MINUTE_IN_SECONDS;

	/**
	 * Refusals of the same step in a row after which a pending rebuild is stuck.
	 */
	public const STUCK_REFUSALS = 3;

	/**
	 * The index.
	 *
	 * @var Place_Index
	 */
	private Place_Index $index;

	/**
	 * Whether WP-Cron runs the rebuild.
	 *
	 * @var Cron_Health
	 */
	private Cron_Health $cron;

	/**
	 * Creates the report.
	 *
	 * @param Place_Index $index The index.
	 * @param Cron_Health $cron  Whether WP-Cron runs the rebuild.
	 */
	public function __construct( Place_Index $index, Cron_Health $cron ) {
		$this->index = $index;
		$this->cron  = $cron;
	}

	/**
	 * Wires hooks.
	 */
	public function add_hooks(): void {
		add_filter( 'site_status_tests', array( $this, 'add_test' ) );
		add_filter( 'debug_information', array( $this, 'add_info' ), 20 );
	}

	/**
	 * Adds the status test.
	 *
	 * @param mixed $tests Site Health's tests.
	 * @return mixed
	 */
	public function add_test( $tests ) {
		if ( is_array( $tests ) ) {
			$tests['direct'][ self::TEST ] = array(
				'label' => __( 'Cairn Maps place index', 'cairn-maps' ),
				'test'  => array( $this, 'test' ),
			);
		}
		return $tests;
	}

	/**
	 * What builds the index (pending) or built it (complete): `path` (`cron`, `admin`, `cli`,
	 * `request`, '' when unknown) and, for `admin`, `reason` (a Cron_Health verdict).
	 *
	 * @param array<string, mixed> $progress Place_Index::progress().
	 * @return array{path: string, reason: string}
	 */
	public function builder( array $progress ): array {
		if ( empty( $progress['pending'] ) ) {
			return array(
				'path'   => (string) ( $progress['built']['by'] ?? '' ),
				'reason' => '',
			);
		}
		if ( ! empty( $progress['running'] ) && in_array( $progress['by'], array( 'cli', 'request' ), true ) ) {
			return array(
				'path'   => (string) $progress['by'],
				'reason' => '',
			);
		}
		$verdict = $this->cron->verdict( $progress['due'] );
		return array(
			'path'   => Cron_Health::RUNS === $verdict ? 'cron' : 'admin',
			'reason' => Cron_Health::RUNS === $verdict ? '' : $verdict,
		);
	}

	/**
	 * The status test: good when complete, recommended while being built or stuck.
	 *
	 * @return array{label: string, status: string, badge: array{label: string, color: string}, description: string, actions: string, test: string}
	 */
	public function test(): array {
		$progress = $this->index->progress();
		$builder  = $this->builder( $progress );
		if ( ! $progress['pending'] ) {
			return $this->result(
				'good',
				__( 'Cairn Maps’ place index is complete', 'cairn-maps' ),
				array(
					sprintf(
						/* translators: 1: number of places, 2: the number of places from which maps are served as tiles. */
						__( 'It holds %1$s places. Maps of %2$s places or more are served as map tiles from it.', 'cairn-maps' ),
						number_format_i18n( $this->index->count() ),
						number_format_i18n( Limits::tile_threshold() )
					),
					$this->built_text( $progress['built'] ),
				)
			);
		}
		$state = array(
			/* translators: %s: the rebuild's progress, e.g. "reading markers: 4,000 of 12,000 places written". */
			sprintf( __( 'Progress: %s.', 'cairn-maps' ), $this->progress_text( $progress ) ),
			/* translators: %s: what builds the index, e.g. "WP-Cron". */
			sprintf( __( 'Built by: %s.', 'cairn-maps' ), $this->path_text( $builder ) ),
			$this->last_step_text( $progress ),
			__( 'Until it is complete, maps download their whole feed instead of map tiles; nothing is lost.', 'cairn-maps' ),
		);
		if ( $this->is_stuck( $progress ) ) {
			return $this->result( 'recommended', __( 'Cairn Maps’ place index is not being built', 'cairn-maps' ), $state, $this->what_to_do() );
		}
		if ( 'admin' === $builder['path'] ) {
			$state[] = __( 'It goes on by itself as you and your editors load admin pages. To build it at once, run “wp cairn index rebuild” on the server (WP-CLI).', 'cairn-maps' );
		}
		return $this->result( 'recommended', __( 'Cairn Maps is building its place index', 'cairn-maps' ), $state );
	}

	/**
	 * Adds the index's fields to the "Cairn Maps" section of Site Health's Info tab.
	 *
	 * @param mixed $info Site Health's sections.
	 * @return mixed
	 */
	public function add_info( $info ) {
		if ( ! is_array( $info ) || ! isset( $info[ self::SECTION ]['fields'] ) || ! is_array( $info[ self::SECTION ]['fields'] ) ) {
			return $info;
		}
		$progress = $this->index->progress();
		$builder  = $this->builder( $progress );
		$places   = $this->index->info()['places'];
		$fields   = array(
			'place_index'         => array(
				'label' => __( 'Place index', 'cairn-maps' ),
				'value' => $progress['pending']
					/* translators: %s: the rebuild's progress. */
					? sprintf( __( 'Being built (%s); maps send their whole feed meanwhile', 'cairn-maps' ), $this->progress_text( $progress ) )
					/* translators: %s: number of places. */
					: sprintf( _n( 'Complete: %s place', 'Complete: %s places', $places, 'cairn-maps' ), number_format_i18n( $places ) ),
				'debug' => $progress['pending'] ? 'building, ' . $this->progress_debug( $progress ) : 'complete, ' . $places,
			),
			'place_index_builder' => array(
				'label' => $progress['pending'] ? __( 'Place index built by', 'cairn-maps' ) : __( 'Place index last built by', 'cairn-maps' ),
				'value' => $progress['pending'] ? $this->path_text( $builder ) : $this->short_path_text( $builder['path'] ),
				'debug' => '' === $builder['reason'] ? ( '' === $builder['path'] ? 'unknown' : $builder['path'] ) : $builder['path'] . ' (' . $builder['reason'] . ')',
			),
			'place_index_step'    => array(
				'label' => __( 'Place index last step', 'cairn-maps' ),
				'value' => $progress['pending'] ? $this->last_step_text( $progress ) : $this->built_text( $progress['built'] ),
				'debug' => (string) ( $progress['pending'] ? $progress['at'] : ( $progress['built']['at'] ?? 0 ) ),
			),
		);

		$info[ self::SECTION ]['fields'] = array_merge( $info[ self::SECTION ]['fields'], $fields );
		return $info;
	}

	/**
	 * Whether a pending rebuild is stuck: the database refused its step again and again, or
	 * nothing ran a step for a long while.
	 *
	 * @param array<string, mixed> $progress Place_Index::progress().
	 */
	public function is_stuck( array $progress ): bool {
		if ( empty( $progress['pending'] ) ) {
			return false;
		}
		if ( (int) $progress['refused'] >= self::STUCK_REFUSALS ) {
			return true;
		}
		$last = max( (int) $progress['at'], (int) $progress['started'] );
		return empty( $progress['running'] ) && $last > 0 && $last < time() - self::STUCK_SECONDS;
	}

	/**
	 * The rebuild's progress in words.
	 *
	 * @param array<string, mixed> $progress Place_Index::progress().
	 */
	private function progress_text( array $progress ): string {
		if ( 'places' === $progress['phase'] ) {
			return sprintf(
				/* translators: 1: places written so far, 2: published markers. */
				__( 'reading markers, %1$s of %2$s places written', 'cairn-maps' ),
				number_format_i18n( (int) $progress['done'] ),
				number_format_i18n( (int) $progress['total'] )
			);
		}
		if ( 'cells' === $progress['phase'] ) {
			return sprintf(
				/* translators: 1: levels counted, 2: levels in all. */
				__( 'counting the clusters, level %1$s of %2$s', 'cairn-maps' ),
				number_format_i18n( (int) $progress['level'] ),
				number_format_i18n( (int) $progress['levels'] )
			);
		}
		return __( 'waiting for its first step', 'cairn-maps' );
	}

	/**
	 * The rebuild's progress for the Info tab's copy: `places 4000/12000`, `cells 5/12`, `start`.
	 *
	 * @param array<string, mixed> $progress Place_Index::progress().
	 */
	private function progress_debug( array $progress ): string {
		if ( 'places' === $progress['phase'] ) {
			return 'places ' . (int) $progress['done'] . '/' . (int) $progress['total'];
		}
		if ( 'cells' === $progress['phase'] ) {
			return 'cells ' . (int) $progress['level'] . '/' . (int) $progress['levels'];
		}
		return 'start';
	}

	/**
	 * What builds the index, in words.
	 *
	 * @param array{path: string, reason: string} $builder builder().
	 */
	private function path_text( array $builder ): string {
		switch ( $builder['path'] ) {
			case 'cron':
				return __( 'WP-Cron (the scheduled event cairn_maps_index_rebuild)', 'cairn-maps' );
			case 'admin':
				return sprintf(
					/* translators: 1: seconds, 2: number of markers, 3: why WP-Cron does not run, e.g. "WordPress could not reach its own wp-cron.php". */
					__( 'admin page loads — up to %1$s seconds of steps of %2$s markers at the end of each admin page load by someone who can edit posts — because %3$s', 'cairn-maps' ),
					number_format_i18n( Admin_Steps::SECONDS ),
					number_format_i18n( Admin_Steps::BATCH ),
					$this->reason_text( $builder['reason'] )
				);
			default:
				return $this->short_path_text( $builder['path'] );
		}
	}

	/**
	 * What built the index, in a few words.
	 *
	 * @param string $path `cron`, `admin`, `cli`, `request` or '' (unknown).
	 */
	private function short_path_text( string $path ): string {
		switch ( $path ) {
			case 'cron':
				return __( 'WP-Cron', 'cairn-maps' );
			case 'admin':
				return __( 'admin page loads (WP-Cron did not run it)', 'cairn-maps' );
			case 'cli':
				return __( 'WP-CLI (wp cairn index rebuild)', 'cairn-maps' );
			case 'request':
				return __( 'one request (Place_Index::rebuild_now())', 'cairn-maps' );
			default:
				return __( 'unknown (built before Cairn Maps 0.8.0)', 'cairn-maps' );
		}
	}

	/**
	 * Why WP-Cron does not run the rebuild, in words.
	 *
	 * @param string $reason A Cron_Health verdict.
	 */
	private function reason_text( string $reason ): string {
		switch ( $reason ) {
			case Cron_Health::DISABLED:
				return __( 'WP-Cron is switched off (DISABLE_WP_CRON) and nothing else ran the rebuild within a minute', 'cairn-maps' );
			case Cron_Health::LOOPBACK:
				return __( 'WordPress could not reach its own wp-cron.php (the loopback request failed)', 'cairn-maps' );
			default:
				return __( 'its scheduled event is more than five minutes late', 'cairn-maps' );
		}
	}

	/**
	 * The pending rebuild's last step, in words.
	 *
	 * @param array<string, mixed> $progress Place_Index::progress().
	 */
	private function last_step_text( array $progress ): string {
		if ( ! empty( $progress['running'] ) ) {
			return __( 'A step is running now.', 'cairn-maps' );
		}
		if ( (int) $progress['refused'] > 0 ) {
			return sprintf(
				/* translators: %s: how many times. */
				_n( 'The database refused the last step %s time in a row.', 'The database refused the last step %s times in a row.', (int) $progress['refused'], 'cairn-maps' ),
				number_format_i18n( (int) $progress['refused'] )
			);
		}
		if ( (int) $progress['at'] > 0 ) {
			return sprintf(
				/* translators: %s: a time span, e.g. "2 mins". */
				__( 'Last step %s ago.', 'cairn-maps' ),
				human_time_diff( (int) $progress['at'] )
			);
		}
		return __( 'No step has run yet.', 'cairn-maps' );
	}

	/**
	 * The last finished rebuild, in words.
	 *
	 * @param array{by?: string, started?: int, at?: int, places?: int} $built Rebuild_State::built().
	 */
	private function built_text( array $built ): string {
		if ( ! isset( $built['at'] ) ) {
			return __( 'No rebuild has finished since Cairn Maps 0.8.0.', 'cairn-maps' );
		}
		return sprintf(
			/* translators: 1: a time span, e.g. "2 mins", 2: how long it took, e.g. "40 secs", 3: what built it, e.g. "WP-Cron". */
			__( 'Last built %1$s ago, in %2$s, by %3$s.', 'cairn-maps' ),
			human_time_diff( $built['at'] ),
			human_time_diff( $built['started'] ?? $built['at'], $built['at'] ),
			$this->short_path_text( $built['by'] ?? '' )
		);
	}

	/**
	 * What to do about a stuck rebuild (HTML, escaped).
	 */
	private function what_to_do(): string {
		$items = array(
			__( 'Run “wp cairn index rebuild” on the server (WP-CLI): it builds the index in one go and stops with a message if the database refuses a step; the database’s own error is in the server’s PHP error log.', 'cairn-maps' ),
			__( 'Let WP-Cron run: remove DISABLE_WP_CRON from wp-config.php, or have the server’s cron call wp-cron.php every few minutes; the tests “Scheduled events” and “Your site can perform loopback requests” above say what fails.', 'cairn-maps' ),
			__( 'Meanwhile every admin page load by someone who can edit posts carries the rebuild on for a few seconds.', 'cairn-maps' ),
		);
		return '<ul><li>' . implode( '</li><li>', array_map( 'esc_html', $items ) ) . '</li></ul>';
	}

	/**
	 * One status test result.
	 *
	 * @param string   $status     good or recommended.
	 * @param string   $label      The headline.
	 * @param string[] $paragraphs The explanation (plain text).
	 * @param string   $actions    HTML of the actions, already escaped.
	 * @return array{label: string, status: string, badge: array{label: string, color: string}, description: string, actions: string, test: string}
	 */
	private function result( string $status, string $label, array $paragraphs, string $actions = '' ): array {
		$paragraphs = array_filter( $paragraphs, static fn( string $text ): bool => '' !== $text );
		return array(
			'label'       => $label,
			'status'      => $status,
			'badge'       => array(
				'label' => __( 'Cairn Maps', 'cairn-maps' ),
				'color' => 'good' === $status ? 'blue' : 'orange',
			),
			'description' => '<p>' . implode( '</p><p>', array_map( 'esc_html', $paragraphs ) ) . '</p>',
			'actions'     => $actions,
			'test'        => self::TEST,
		);
	}
}
