<?php
/**
 * What other processes commit, seen and undone through a second database connection.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests;

defined( 'ABSPATH' ) || exit;

/**
 * Every test runs inside a transaction that is rolled back (TestCase), so code that branches on
 * "inside a transaction" (Index\Place_Store::begin(): a savepoint there, START TRANSACTION and
 * COMMIT outside) never takes its outside branch in the test's own process. A test of that
 * branch runs the code in another PHP process (run_worker()), which commits for real, and reads
 * what it committed through this second connection, which sees only committed rows.
 *
 * Those rows outlive the test's rollback, so capture() keeps every row of the tables such a
 * worker writes, and restore() (called after the test's rollback) puts them back exactly: no
 * row leaks into later tests.
 *
 * @since 0.7.0
 */
final class Committed_State {

	/**
	 * The second connection (autocommit, its own session).
	 *
	 * @var \mysqli
	 */
	private \mysqli $db;

	/**
	 * The rows kept, by table.
	 *
	 * @var array<string, list<array<string, string|null>>>
	 */
	private array $kept = array();

	/**
	 * Opens the second connection with the test site's credentials.
	 */
	public function __construct() {
		$host = (string) DB_HOST;
		$port = 3306;
		if ( 1 === preg_match( '/^(.+):(\d+)$/', $host, $parts ) ) {
			$host = $parts[1];
			$port = (int) $parts[2];
		}
		// phpcs:ignore WordPress.DB.RestrictedClasses.mysql__mysqli -- a second, independent connection is the point: it sees only what was committed.
		$this->db = new \mysqli( $host, (string) DB_USER, (string) DB_PASSWORD, (string) DB_NAME, $port );
		$this->db->set_charset( 'utf8mb4' );
		$this->db->query( 'SET autocommit = 1' );
	}

	/**
	 * The committed rows of a query, read through the second connection.
	 *
	 * @param string $sql SQL (no user input: tests only).
	 * @return list<array<string, string|null>>
	 * @throws \RuntimeException When the query fails.
	 */
	public function rows( string $sql ): array {
		$result = $this->db->query( $sql );
		if ( ! $result instanceof \mysqli_result ) {
			throw new \RuntimeException( 'Committed_State: ' . $this->db->error . ' in ' . $sql ); // phpcs:ignore WordPress.Security.EscapeOutput.ExceptionNotEscaped -- a test's message.
		}
		$rows = $result->fetch_all( MYSQLI_ASSOC );
		return array_values( $rows );
	}

	/**
	 * Runs a write through the second connection (committed at once).
	 *
	 * @param string $sql SQL (no user input: tests only).
	 * @throws \RuntimeException When the query fails.
	 */
	public function exec( string $sql ): void {
		if ( true !== $this->db->query( $sql ) ) {
			throw new \RuntimeException( 'Committed_State: ' . $this->db->error . ' in ' . $sql ); // phpcs:ignore WordPress.Security.EscapeOutput.ExceptionNotEscaped -- a test's message.
		}
	}

	/**
	 * One committed value.
	 *
	 * @param string $sql SQL.
	 * @return string|null
	 */
	public function value( string $sql ): ?string {
		$rows = $this->rows( $sql );
		return array() === $rows ? null : array_values( $rows[0] )[0];
	}

	/**
	 * Keeps every committed row of some tables.
	 *
	 * @param string[] $tables Full table names.
	 */
	public function capture( array $tables ): void {
		foreach ( $tables as $table ) {
			$this->kept[ $table ] = $this->rows( "SELECT * FROM `$table`" );
		}
	}

	/**
	 * Puts the kept tables back as they were, in one transaction of the second connection.
	 */
	public function restore(): void {
		$this->db->begin_transaction();
		foreach ( $this->kept as $table => $rows ) {
			$this->db->query( "DELETE FROM `$table`" );
			foreach ( $rows as $row ) {
				$values = array_map( fn( $value ) => null === $value ? 'NULL' : "'" . $this->db->real_escape_string( $value ) . "'", $row );
				$this->db->query( "INSERT INTO `$table` (`" . implode( '`, `', array_keys( $row ) ) . '`) VALUES (' . implode( ', ', $values ) . ')' );
			}
		}
		$this->db->commit();
		$this->kept = array();
	}

	/**
	 * Runs a PHP script of the tests as its own process against the test site (it loads
	 * WordPress with the tests' configuration) and returns what it printed on stdout.
	 *
	 * @param string   $script Path of the script.
	 * @param string[] $args   Its arguments.
	 * @return array{status: int, out: string, err: string}
	 */
	public static function run_worker( string $script, array $args = array() ): array {
		$root    = dirname( __DIR__, 2 );
		$process = proc_open( // phpcs:ignore WordPress.PHP.DiscouragedPHPFunctions.system_calls_proc_open -- the process under test.
			array_merge( array( PHP_BINARY, $script ), $args ),
			array(
				0 => array( 'file', '/dev/null', 'r' ),
				1 => array( 'pipe', 'w' ),
				2 => array( 'pipe', 'w' ),
			),
			$pipes,
			$root,
			array_merge( getenv(), array( 'CAIRN_TESTS_CONFIG' => $root . '/.cache/wp-tests/wp-tests-config.php' ) )
		);
		$out     = (string) stream_get_contents( $pipes[1] );
		$err     = (string) stream_get_contents( $pipes[2] );
		return array(
			'status' => proc_close( $process ),
			'out'    => $out,
			'err'    => $err,
		);
	}
}
