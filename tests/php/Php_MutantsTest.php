<?php
/**
 * The list of PHP mutants (bin/php-mutants.php, run by npm run test:mutation:php).
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests;

defined( 'ABSPATH' ) || exit;

// phpcs:disable WordPress.WP.AlternativeFunctions -- files of the repository, read as text.

/**
 * The mutant runner is not part of `npm test`; this keeps its list runnable as the code moves on:
 * every mutant's search text occurs exactly once in its file (the runner refuses the whole list
 * otherwise: five texts had gone stale after a refactoring), its ids are unique, and the tests it
 * names are classes and methods of tests/php.
 *
 * @since 0.9.0
 */
final class Php_MutantsTest extends TestCase {

	/**
	 * Every mutant can be made and has tests that exist.
	 */
	public function test_every_mutant_applies_once_and_names_real_tests(): void {
		$root    = dirname( __DIR__, 2 );
		$mutants = require $root . '/bin/php-mutants.php';
		$this->assertGreaterThan( 40, count( $mutants ) );
		$ids = array_column( $mutants, 'id' );
		$this->assertSame( array_unique( $ids ), $ids, 'unique ids' );
		$tests = array();
		foreach ( new \RecursiveIteratorIterator( new \RecursiveDirectoryIterator( $root . '/tests/php' ) ) as $file ) {
			if ( '.php' === substr( (string) $file, -4 ) ) {
				$source = (string) file_get_contents( (string) $file );
				if ( 1 === preg_match( '/\bclass (\w+Test)\b/', $source, $class ) ) {
					preg_match_all( '/function (test_\w+)/', $source, $methods );
					$tests[ $class[1] ] = $methods[1];
				}
			}
		}
		foreach ( $mutants as $mutant ) {
			$text = (string) file_get_contents( $root . '/' . $mutant['file'] );
			$this->assertSame( 1, substr_count( $text, $mutant['search'] ), "{$mutant['id']}: its search text once in {$mutant['file']}" );
			$this->assertNotSame( $mutant['search'], $mutant['replace'], "{$mutant['id']}: a change" );
			foreach ( explode( '|', preg_replace( '/\(([^)]*)\)/', '', $mutant['tests'] ) ) as $filter ) {
				$class = explode( '::', $filter )[0];
				$this->assertArrayHasKey( $class, $tests, "{$mutant['id']}: {$class} is a test class" );
			}
			if ( 1 === preg_match( '/^(\w+)::(test_[\w()|]+)$/', $mutant['tests'], $named ) ) {
				$pattern = '/^' . $named[2] . '/';
				$this->assertNotEmpty( preg_grep( $pattern, $tests[ $named[1] ] ), "{$mutant['id']}: {$mutant['tests']} names a test" );
			}
		}
	}
}
