<?php
/**
 * A small mutation runner for the PHP of plugin/Index, plugin/Markers (the geometry rules) and
 * plugin/Import_Export (the readers): `npm run test:mutation:php`, that is
 * `bash bin/test-php.sh --run bin/mutate-php.php [--only=id,id] [--list] [--min=percent]`.
 *
 * Infection, the usual tool, is not in the Composer registry these machines reach; this does the
 * part we need with hand-written mutants (bin/php-mutants.php: file, search, replace, and the
 * PHPUnit filter of the tests that promise the behaviour the mutant breaks). For each mutant it
 * keeps the file's text, writes the mutated text, runs those tests (PHPUnit, against the database
 * bin/test-php.sh started), and writes the original back, whatever happens (an interrupted run
 * restores from .cache/mutate-php/ on the next start). A mutant is killed when its tests fail.
 * Before any mutant, the tests of every mutant must pass on the unmutated code. It prints each
 * mutant's fate and the score (killed / all), writes reports/mutation-php.json, and exits 1 when a
 * mutant survived (or the score is under --min=, default 0).
 *
 * @package Cairn\Maps
 */

// phpcs:disable WordPress.WP.AlternativeFunctions, WordPress.Security.EscapeOutput.OutputNotEscaped, WordPress.PHP.DiscouragedPHPFunctions, WordPress.NamingConventions.PrefixAllGlobals -- a command-line tool outside WordPress (its names are cairn_mutate_*).

'cli' === PHP_SAPI || exit( 1 );

$cairn_root    = dirname( __DIR__ );
$cairn_backups = $cairn_root . '/.cache/mutate-php';
$cairn_options = getopt( '', array( 'only:', 'list', 'min:' ) );
$cairn_mutants = require __DIR__ . '/php-mutants.php';

/**
 * Prints a line.
 *
 * @param string $line The line.
 */
function cairn_mutate_say( string $line ): void {
	fwrite( STDOUT, $line . "\n" );
}

/**
 * Writes back every file kept in the backup folder (a run that was interrupted), then empties it.
 *
 * @param string $root    Project root.
 * @param string $backups Backup folder.
 */
function cairn_mutate_restore_all( string $root, string $backups ): void {
	foreach ( (array) glob( $backups . '/*.orig' ) as $backup ) {
		$meta = json_decode( (string) file_get_contents( $backup . '.json' ), true );
		if ( is_array( $meta ) && isset( $meta['file'] ) ) {
			file_put_contents( $root . '/' . $meta['file'], (string) file_get_contents( (string) $backup ) );
			cairn_mutate_say( "restored {$meta['file']} (left mutated by an interrupted run)" );
		}
		unlink( (string) $backup );
		if ( is_file( $backup . '.json' ) ) {
			unlink( $backup . '.json' );
		}
	}
}

/**
 * Runs PHPUnit with a filter; true when every test passed.
 *
 * @param string $root   Project root.
 * @param string $filter PHPUnit --filter.
 * @param string $log    Where its output goes.
 */
function cairn_mutate_phpunit( string $root, string $filter, string $log ): bool {
	$command = escapeshellarg( PHP_BINARY ) . ' ' . escapeshellarg( $root . '/vendor/bin/phpunit' ) . ' --stop-on-failure --stop-on-error --filter ' . escapeshellarg( $filter ) . ' > ' . escapeshellarg( $log ) . ' 2>&1';
	$status  = 0;
	$output  = array();
	exec( 'cd ' . escapeshellarg( $root ) . ' && ' . $command, $output, $status );
	return 0 === $status && false === strpos( (string) file_get_contents( $log ), 'No tests executed' );
}

cairn_mutate_mkdir( $cairn_backups . '/logs' );

/**
 * Creates a folder or stops.
 *
 * @param string $dir Folder.
 */
function cairn_mutate_mkdir( string $dir ): void {
	if ( ! is_dir( $dir ) && ! mkdir( $dir, 0777, true ) && ! is_dir( $dir ) ) {
		fwrite( STDERR, "cannot create $dir\n" );
		exit( 2 );
	}
}

cairn_mutate_restore_all( $cairn_root, $cairn_backups );

// Check the list: every file exists and every search text occurs exactly once.
$cairn_problems = array();
$cairn_ids      = array();
foreach ( $cairn_mutants as $cairn_mutant ) {
	$cairn_id = (string) $cairn_mutant['id'];
	if ( isset( $cairn_ids[ $cairn_id ] ) ) {
		$cairn_problems[] = "$cairn_id: the id is used twice";
	}
	$cairn_ids[ $cairn_id ] = true;
	$cairn_text             = is_file( $cairn_root . '/' . $cairn_mutant['file'] ) ? (string) file_get_contents( $cairn_root . '/' . $cairn_mutant['file'] ) : null;
	$cairn_found            = null === $cairn_text ? 0 : substr_count( $cairn_text, $cairn_mutant['search'] );
	if ( 1 !== $cairn_found ) {
		$cairn_problems[] = "$cairn_id: the search text occurs $cairn_found times in {$cairn_mutant['file']} (it must occur once)";
	}
}
if ( array() !== $cairn_problems ) {
	fwrite( STDERR, implode( "\n", $cairn_problems ) . "\n" );
	exit( 2 );
}
if ( isset( $cairn_options['list'] ) ) {
	foreach ( $cairn_mutants as $cairn_mutant ) {
		cairn_mutate_say( sprintf( '%-32s %-44s %s', $cairn_mutant['id'], $cairn_mutant['file'], $cairn_mutant['tests'] ) );
	}
	exit( 0 );
}
if ( isset( $cairn_options['only'] ) ) {
	$cairn_only    = array_flip( explode( ',', (string) $cairn_options['only'] ) );
	$cairn_mutants = array_values( array_filter( $cairn_mutants, static fn( $m ) => isset( $cairn_only[ $m['id'] ] ) ) );
}

// The tests must pass before anything is mutated (a failing test "kills" every mutant).
$cairn_all = implode( '|', array_unique( array_map( static fn( $m ) => '(?:' . $m['tests'] . ')', $cairn_mutants ) ) );
cairn_mutate_say( sprintf( 'baseline: the tests of %d mutants on the unmutated code…', count( $cairn_mutants ) ) );
if ( ! cairn_mutate_phpunit( $cairn_root, $cairn_all, $cairn_backups . '/logs/baseline.log' ) ) {
	fwrite( STDERR, "the tests fail without any mutant: see {$cairn_backups}/logs/baseline.log\n" );
	exit( 2 );
}

$cairn_results = array();
$cairn_current = null;
// Ctrl-C or a kill of the run: the file under mutation is written back first.
if ( function_exists( 'pcntl_async_signals' ) ) {
	pcntl_async_signals( true );
	foreach ( array( SIGINT, SIGTERM ) as $cairn_signal ) {
		pcntl_signal(
			$cairn_signal,
			static function () use ( $cairn_root, $cairn_backups ) {
				cairn_mutate_restore_all( $cairn_root, $cairn_backups );
				exit( 130 );
			}
		);
	}
}
foreach ( $cairn_mutants as $cairn_n => $cairn_mutant ) {
	$cairn_path     = $cairn_root . '/' . $cairn_mutant['file'];
	$cairn_original = (string) file_get_contents( $cairn_path );
	$cairn_backup   = $cairn_backups . '/' . $cairn_mutant['id'] . '.orig';
	file_put_contents( $cairn_backup, $cairn_original );
	file_put_contents( $cairn_backup . '.json', (string) json_encode( array( 'file' => $cairn_mutant['file'] ) ) );
	$cairn_started = hrtime( true );
	try {
		file_put_contents( $cairn_path, str_replace( $cairn_mutant['search'], $cairn_mutant['replace'], $cairn_original ) );
		$cairn_passed = cairn_mutate_phpunit( $cairn_root, $cairn_mutant['tests'], $cairn_backups . '/logs/' . $cairn_mutant['id'] . '.log' );
	} finally {
		file_put_contents( $cairn_path, $cairn_original );
		unlink( $cairn_backup );
		unlink( $cairn_backup . '.json' );
	}
	$cairn_seconds   = ( hrtime( true ) - $cairn_started ) / 1e9;
	$cairn_fate      = $cairn_passed ? 'SURVIVED' : 'killed';
	$cairn_results[] = array(
		'id'      => $cairn_mutant['id'],
		'file'    => $cairn_mutant['file'],
		'what'    => $cairn_mutant['what'],
		'tests'   => $cairn_mutant['tests'],
		'killed'  => ! $cairn_passed,
		'seconds' => round( $cairn_seconds, 1 ),
	);
	cairn_mutate_say( sprintf( '%2d/%d %-8s %-32s %5.1f s  %s', $cairn_n + 1, count( $cairn_mutants ), $cairn_fate, $cairn_mutant['id'], $cairn_seconds, $cairn_mutant['what'] ) );
}

$cairn_killed = count( array_filter( $cairn_results, static fn( $r ) => $r['killed'] ) );
$cairn_total  = count( $cairn_results );
$cairn_score  = $cairn_total > 0 ? 100 * $cairn_killed / $cairn_total : 0.0;
cairn_mutate_say( sprintf( "\nPHP mutation score: %d of %d mutants killed (%.1f %%)", $cairn_killed, $cairn_total, $cairn_score ) );
foreach ( $cairn_results as $cairn_result ) {
	if ( ! $cairn_result['killed'] ) {
		cairn_mutate_say( "  survived: {$cairn_result['id']} ({$cairn_result['file']}): {$cairn_result['what']}" );
	}
}
cairn_mutate_mkdir( $cairn_root . '/reports' );
file_put_contents(
	$cairn_root . '/reports/mutation-php.json',
	(string) json_encode(
		array(
			'killed'  => $cairn_killed,
			'total'   => $cairn_total,
			'score'   => round( $cairn_score, 1 ),
			'mutants' => $cairn_results,
		),
		JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE
	) . "\n"
);
$cairn_min = (float) ( $cairn_options['min'] ?? 0 );
exit( $cairn_killed === $cairn_total || ( $cairn_min > 0 && $cairn_score >= $cairn_min ) ? 0 : 1 );
