<?php
/**
 * The imported markers that wait for their address to be geocoded.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Import_Export;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Content\Location_Types;
use Cairn\Maps\Markers\Post_Type;
use WP_Post;

/**
 * The queue is the draft markers themselves: an import writes a marker without coordinates as a
 * draft with its address (`geo_address`) and the meta META_PENDING, whose value is the time from
 * which it may be tried (a zero-padded Unix time, so that text order is time order on MariaDB and
 * SQLite alike). Nothing else holds the queue, so an interrupted job, a crash or a
 * deactivate/reactivate loses nothing and repeats nothing: what is pending is still marked, what
 * was done is not.
 *
 * A found marker gets its coordinates and is published; its queue meta goes. A marker that could
 * not be found keeps its draft status and gets META_FAILED = `<job>|<reason>`, which the row
 * report lists with the CSV line (META_LINE) and the address.
 *
 * One job at a time (option OPTION: id, total, start and end times, state): an import made while
 * a job runs joins it. Progress is counted from the rows (pending and failed), never from a
 * counter that a crash could leave wrong.
 *
 * @since 0.3.0
 */
class Geocode_Queue {

	/**
	 * Meta of a queued marker: when it may be tried next (10-digit Unix time).
	 */
	public const META_PENDING = '_cairn_geocode_pending';

	/**
	 * Meta of a queued marker: how many tries the provider failed (timeouts, 5xx, garbage).
	 */
	public const META_TRIES = '_cairn_geocode_tries';

	/**
	 * Meta of an imported marker without coordinates: its line in the CSV file.
	 */
	public const META_LINE = '_cairn_geocode_line';

	/**
	 * Meta of a marker whose address was not found: `<job id>|<reason>`.
	 */
	public const META_FAILED = '_cairn_geocode_failed';

	/**
	 * The current job: id, total, started, finished, state.
	 */
	public const OPTION = 'cairn_maps_geocode_job';

	public const STATE_RUNNING   = 'running';
	public const STATE_DONE      = 'done';
	public const STATE_CANCELLED = 'cancelled';

	public const REASON_NOT_FOUND   = 'not_found';
	public const REASON_UNAVAILABLE = 'unavailable';
	public const REASON_INVALID     = 'invalid';
	public const REASON_CANCELLED   = 'cancelled';

	/**
	 * Most rows a report lists.
	 */
	public const REPORT_LINES = 500;

	/**
	 * The meta an import writes on a marker without coordinates.
	 *
	 * @param int $line Its line in the CSV file (0 when unknown).
	 * @return array<string, string>
	 */
	public static function queue_meta( int $line ): array {
		return array(
			self::META_PENDING => self::time_value( 0 ),
			self::META_LINE    => (string) max( 0, $line ),
		);
	}

	/**
	 * A time as stored in META_PENDING.
	 *
	 * @param int $time Unix time.
	 */
	private static function time_value( int $time ): string {
		return sprintf( '%010d', max( 0, $time ) );
	}

	/**
	 * The current job, if any.
	 *
	 * @return array{id: string, total: int, started: int, finished: int, state: string}|null
	 */
	public function job(): ?array {
		$job = get_option( self::OPTION );
		if ( ! is_array( $job ) || ! isset( $job['id'] ) || ! is_string( $job['id'] ) || '' === $job['id'] ) {
			return null;
		}
		return array(
			'id'       => $job['id'],
			'total'    => max( 0, (int) ( $job['total'] ?? 0 ) ),
			'started'  => (int) ( $job['started'] ?? 0 ),
			'finished' => (int) ( $job['finished'] ?? 0 ),
			'state'    => in_array( $job['state'] ?? '', array( self::STATE_RUNNING, self::STATE_DONE, self::STATE_CANCELLED ), true ) ? $job['state'] : self::STATE_DONE,
		);
	}

	/**
	 * Whether a job is running.
	 */
	public function is_running(): bool {
		$job = $this->job();
		return null !== $job && self::STATE_RUNNING === $job['state'];
	}

	/**
	 * Adds markers an import just queued to the running job, or starts a new job for them.
	 *
	 * @param int $count How many were queued.
	 * @return string The job's id.
	 */
	public function add( int $count ): string {
		$job = $this->job();
		if ( null === $job || self::STATE_RUNNING !== $job['state'] ) {
			$job = array(
				'id'       => substr( str_replace( '-', '', wp_generate_uuid4() ), 0, 12 ),
				'total'    => 0,
				'started'  => time(),
				'finished' => 0,
				'state'    => self::STATE_RUNNING,
			);
		}
		$job['total'] += max( 0, $count );
		$this->save( $job );
		return $job['id'];
	}

	/**
	 * Ids of queued markers that may be tried now, the longest waiting first.
	 *
	 * @param int $limit Most ids.
	 * @param int $now   Unix time.
	 * @return int[]
	 */
	public function due( int $limit, int $now ): array {
		global $wpdb;
		// phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching, WordPress.DB.SlowDBQuery.slow_db_query_meta_key -- the queue: never cached, read by the job only.
		$ids = $wpdb->get_col( $wpdb->prepare( "SELECT post_id FROM {$wpdb->postmeta} WHERE meta_key = %s AND meta_value <= %s ORDER BY meta_value ASC, post_id ASC LIMIT %d", self::META_PENDING, self::time_value( $now ), max( 1, $limit ) ) );
		return array_map( 'intval', $ids );
	}

	/**
	 * When the next queued marker may be tried (Unix time), or null when none is queued.
	 */
	public function next_due(): ?int {
		global $wpdb;
		// phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching, WordPress.DB.SlowDBQuery.slow_db_query_meta_key -- as above.
		$value = $wpdb->get_var( $wpdb->prepare( "SELECT MIN(meta_value) FROM {$wpdb->postmeta} WHERE meta_key = %s", self::META_PENDING ) );
		return null === $value ? null : (int) $value;
	}

	/**
	 * A queued marker's address, or null when it is no longer queued (found, failed, cancelled or
	 * deleted since the job listed it). Read from the database, past any cache: another request may
	 * have cancelled the job.
	 *
	 * @param int $id Marker id.
	 */
	public function queued_address( int $id ): ?string {
		global $wpdb;
		// phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching -- see above.
		$pending = $wpdb->get_var( $wpdb->prepare( "SELECT meta_id FROM {$wpdb->postmeta} WHERE post_id = %d AND meta_key = %s LIMIT 1", $id, self::META_PENDING ) );
		if ( null === $pending ) {
			return null;
		}
		// phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching -- see above.
		$address = $wpdb->get_var( $wpdb->prepare( "SELECT meta_value FROM {$wpdb->postmeta} WHERE post_id = %d AND meta_key = %s LIMIT 1", $id, Location_Types::META_ADDRESS ) );
		return (string) $address;
	}

	/**
	 * A marker was found: it gets its coordinates and the status the import asked for (published).
	 * A marker someone published meanwhile (with coordinates of their own) keeps them.
	 *
	 * @param int   $id  Marker id.
	 * @param float $lat Latitude.
	 * @param float $lng Longitude.
	 */
	public function found( int $id, float $lat, float $lng ): void {
		$this->unqueue( $id );
		$post = get_post( $id );
		if ( ! $post instanceof WP_Post || Post_Type::POST_TYPE !== $post->post_type || 'draft' !== $post->post_status ) {
			return;
		}
		update_post_meta( $id, Post_Type::META_LAT, Post_Type::format_coordinate( $lat ) );
		update_post_meta( $id, Post_Type::META_LNG, Post_Type::format_coordinate( $lng ) );
		// wp_publish_post() changes the status only: the content the import sanitised stays as it
		// is (wp_update_post() would filter it again as the cron's user, who has none).
		wp_publish_post( $id );
	}

	/**
	 * A try failed in a way that may pass (timeout, 5xx, garbage): the marker waits until `$at`.
	 *
	 * @param int $id Marker id.
	 * @param int $at Unix time of the next try.
	 * @return int How many tries failed so far.
	 */
	public function retry_later( int $id, int $at ): int {
		$tries = (int) get_post_meta( $id, self::META_TRIES, true ) + 1;
		update_post_meta( $id, self::META_TRIES, (string) $tries );
		update_post_meta( $id, self::META_PENDING, self::time_value( $at ) );
		return $tries;
	}

	/**
	 * The marker's address could not be geocoded: it stays a draft, listed in the report.
	 *
	 * @param int    $id     Marker id.
	 * @param string $reason One of the REASON_ constants.
	 */
	public function fail( int $id, string $reason ): void {
		$job = $this->job();
		$this->unqueue( $id );
		update_post_meta( $id, self::META_FAILED, ( null === $job ? '' : $job['id'] ) . '|' . $reason );
	}

	/**
	 * Takes a marker out of the queue.
	 *
	 * @param int $id Marker id.
	 */
	private function unqueue( int $id ): void {
		delete_post_meta( $id, self::META_PENDING );
		delete_post_meta( $id, self::META_TRIES );
	}

	/**
	 * Stops the job: every marker still queued stays a draft and is reported as cancelled.
	 *
	 * @return int How many markers were still queued.
	 */
	public function cancel(): int {
		global $wpdb;
		$job = $this->job();
		if ( null === $job || self::STATE_RUNNING !== $job['state'] ) {
			return 0;
		}
		$cancelled = 0;
		do {
			// phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching, WordPress.DB.SlowDBQuery.slow_db_query_meta_key -- the queue, in bounded batches.
			$ids = array_map( 'intval', $wpdb->get_col( $wpdb->prepare( "SELECT post_id FROM {$wpdb->postmeta} WHERE meta_key = %s ORDER BY post_id LIMIT 500", self::META_PENDING ) ) );
			if ( array() === $ids ) {
				break;
			}
			$in = implode( ',', array_fill( 0, count( $ids ), '%d' ) );
			// One UPDATE per batch turns the queue meta into the report's: 5,000 rows cancel at once.
			// phpcs:disable WordPress.DB.PreparedSQL.InterpolatedNotPrepared, WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching, WordPress.DB.PreparedSQLPlaceholders.UnfinishedPrepare, WordPress.DB.PreparedSQLPlaceholders.ReplacementsWrongNumber -- prepared; the id list holds only placeholders.
			$wpdb->query( $wpdb->prepare( "UPDATE {$wpdb->postmeta} SET meta_key = %s, meta_value = %s WHERE meta_key = %s AND post_id IN ($in)", array_merge( array( self::META_FAILED, $job['id'] . '|' . self::REASON_CANCELLED, self::META_PENDING ), $ids ) ) );
			$wpdb->query( $wpdb->prepare( "DELETE FROM {$wpdb->postmeta} WHERE meta_key = %s AND post_id IN ($in)", array_merge( array( self::META_TRIES ), $ids ) ) );
			// phpcs:enable
			foreach ( $ids as $id ) {
				wp_cache_delete( $id, 'post_meta' );
			}
			$cancelled += count( $ids );
		} while ( true );
		$this->finish( self::STATE_CANCELLED );
		return $cancelled;
	}

	/**
	 * Marks the job done when nothing is queued any more.
	 *
	 * @return bool Whether the job is (now) over.
	 */
	public function finish_if_empty(): bool {
		$job = $this->job();
		if ( null === $job || self::STATE_RUNNING !== $job['state'] ) {
			return true;
		}
		if ( $this->pending() > 0 ) {
			return false;
		}
		$this->finish( self::STATE_DONE );
		return true;
	}

	/**
	 * Stores the job: autoloaded (read on every request to resume a job at no cost), except with a
	 * persistent object cache, where autoloaded options share one entry (`alloptions`) that
	 * another request saving any option may write back from an older copy, which would bring a
	 * cancelled or finished job back for every later request. On its own key it is replaced
	 * atomically.
	 *
	 * @param array<string, mixed> $job The job.
	 */
	private function save( array $job ): void {
		update_option( self::OPTION, $job, ! wp_using_ext_object_cache() );
	}

	/**
	 * Ends the job.
	 *
	 * @param string $state STATE_DONE or STATE_CANCELLED.
	 */
	private function finish( string $state ): void {
		$job = $this->job();
		if ( null === $job ) {
			return;
		}
		$job['state']    = $state;
		$job['finished'] = time();
		$this->save( $job );
	}

	/**
	 * Forgets a finished job (its report goes; its drafts stay, with their addresses).
	 *
	 * @return bool False while the job runs.
	 */
	public function dismiss(): bool {
		if ( $this->is_running() ) {
			return false;
		}
		delete_option( self::OPTION );
		return true;
	}

	/**
	 * How many markers are queued.
	 */
	public function pending(): int {
		global $wpdb;
		// phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching, WordPress.DB.SlowDBQuery.slow_db_query_meta_key -- progress, counted from the rows.
		return (int) $wpdb->get_var( $wpdb->prepare( "SELECT COUNT(*) FROM {$wpdb->postmeta} WHERE meta_key = %s", self::META_PENDING ) );
	}

	/**
	 * How many markers of a job were not found (or cancelled), by reason.
	 *
	 * @param string $job Job id.
	 * @return array<string, int>
	 */
	public function failed( string $job ): array {
		global $wpdb;
		// phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching, WordPress.DB.SlowDBQuery.slow_db_query_meta_key -- as above.
		$rows   = $wpdb->get_results( $wpdb->prepare( "SELECT meta_value, COUNT(*) AS n FROM {$wpdb->postmeta} WHERE meta_key = %s AND meta_value LIKE %s GROUP BY meta_value", self::META_FAILED, $wpdb->esc_like( $job . '|' ) . '%' ), ARRAY_A );
		$counts = array();
		foreach ( is_array( $rows ) ? $rows : array() as $row ) {
			$reason            = substr( (string) $row['meta_value'], strlen( $job ) + 1 );
			$counts[ $reason ] = (int) $row['n'];
		}
		return $counts;
	}

	/**
	 * The job's progress.
	 *
	 * @return array{state: string, total: int, done: int, not_found: int, cancelled: int, pending: int, started: int, finished: int}
	 */
	public function progress(): array {
		$job = $this->job();
		if ( null === $job ) {
			return array(
				'state'     => 'none',
				'total'     => 0,
				'done'      => 0,
				'not_found' => 0,
				'cancelled' => 0,
				'pending'   => 0,
				'started'   => 0,
				'finished'  => 0,
			);
		}
		$pending   = self::STATE_RUNNING === $job['state'] ? $this->pending() : 0;
		$failed    = $this->failed( $job['id'] );
		$cancelled = $failed[ self::REASON_CANCELLED ] ?? 0;
		unset( $failed[ self::REASON_CANCELLED ] );
		$total = max( $job['total'], $pending );
		return array(
			'state'     => $job['state'],
			'total'     => $total,
			'done'      => max( 0, $total - $pending - $cancelled ),
			'not_found' => array_sum( $failed ),
			'cancelled' => $cancelled,
			'pending'   => $pending,
			'started'   => $job['started'],
			'finished'  => $job['finished'],
		);
	}

	/**
	 * The rows of the job that were not geocoded, in file order.
	 *
	 * @param int $limit Most rows.
	 * @return array<int, array{id: int, line: int, title: string, address: string, reason: string, message: string}>
	 */
	public function report( int $limit = self::REPORT_LINES ): array {
		global $wpdb;
		$job = $this->job();
		if ( null === $job ) {
			return array();
		}
		// phpcs:ignore WordPress.DB.DirectDatabaseQuery.DirectQuery, WordPress.DB.DirectDatabaseQuery.NoCaching -- the report: a bounded list for one admin screen.
		$rows   = $wpdb->get_results(
			$wpdb->prepare(
				"SELECT f.post_id, f.meta_value AS failed, l.meta_value AS line, a.meta_value AS address, p.post_title
				FROM {$wpdb->postmeta} f
				INNER JOIN {$wpdb->posts} p ON p.ID = f.post_id
				LEFT JOIN {$wpdb->postmeta} l ON l.post_id = f.post_id AND l.meta_key = %s
				LEFT JOIN {$wpdb->postmeta} a ON a.post_id = f.post_id AND a.meta_key = %s
				WHERE f.meta_key = %s AND f.meta_value LIKE %s
				ORDER BY f.post_id ASC LIMIT %d",
				self::META_LINE,
				Location_Types::META_ADDRESS,
				self::META_FAILED,
				$wpdb->esc_like( $job['id'] . '|' ) . '%',
				max( 1, $limit )
			),
			ARRAY_A
		);
		$report = array();
		foreach ( is_array( $rows ) ? $rows : array() as $row ) {
			$reason   = substr( (string) $row['failed'], strlen( $job['id'] ) + 1 );
			$report[] = array(
				'id'      => (int) $row['post_id'],
				'line'    => (int) $row['line'],
				'title'   => (string) $row['post_title'],
				'address' => (string) $row['address'],
				'reason'  => $reason,
				'message' => self::reason_text( $reason ),
			);
		}
		usort( $report, static fn( array $a, array $b ): int => array( $a['line'], $a['id'] ) <=> array( $b['line'], $b['id'] ) );
		return $report;
	}

	/**
	 * What a reason means, for people.
	 *
	 * @param string $reason One of the REASON_ constants.
	 */
	public static function reason_text( string $reason ): string {
		switch ( $reason ) {
			case self::REASON_NOT_FOUND:
				return __( 'The address was not found. The marker was kept as a draft: correct the address or place it on the map, then publish it.', 'cairn-maps' );
			case self::REASON_UNAVAILABLE:
				return __( 'The geocoding service did not answer after several tries. The marker was kept as a draft: place it on the map, or import the row again later.', 'cairn-maps' );
			case self::REASON_INVALID:
				return __( 'The geocoding service refused this address. The marker was kept as a draft: correct the address or place it on the map, then publish it.', 'cairn-maps' );
			case self::REASON_CANCELLED:
				return __( 'Geocoding was cancelled before this address. The marker was kept as a draft.', 'cairn-maps' );
			default:
				return __( 'The address could not be geocoded. The marker was kept as a draft.', 'cairn-maps' );
		}
	}
}
