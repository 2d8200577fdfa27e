<?php
/**
 * The WP-CLI commands, run by a real wp-cli against the test site.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Cli;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Markers\Post_Type;
use Cairn\Maps\Tests\TestCase;

/**
 * `wp cairn import|export|index` through bin/wp.sh (wp-cli/wp-cli from Packagist, installed into
 * tools/wp-cli on first use) against this run's database: what the commands print, their exit
 * status, and what they leave in the database. The commands run in another process, so the test
 * commits (like the HTTP tests) and deletes what they wrote afterwards.
 *
 * @group cli
 * @since 0.7.0
 */
final class Wp_CliTest extends TestCase {

	/**
	 * Temporary files.
	 *
	 * @var string[]
	 */
	private array $files = array();

	/**
	 * Commits, so the wp process sees the site as this test does and this test sees its writes.
	 */
	protected function set_up(): void {
		global $wpdb;
		parent::set_up();
		$wpdb->query( 'COMMIT' );
	}

	/**
	 * Deletes the markers and groups the commands wrote, and the files.
	 */
	protected function tear_down(): void {
		global $wpdb;
		$wpdb->query( 'COMMIT' );
		foreach ( get_posts(
			array(
				'post_type'   => Post_Type::POST_TYPE,
				'post_status' => 'any',
				'numberposts' => -1,
				'fields'      => 'ids',
			)
		) as $id ) {
			wp_delete_post( (int) $id, true );
		}
		foreach ( get_terms(
			array(
				'taxonomy'   => Post_Type::TAXONOMY,
				'hide_empty' => false,
				'fields'     => 'ids',
			)
		) as $term ) {
			wp_delete_term( (int) $term, Post_Type::TAXONOMY );
		}
		$wpdb->query( 'COMMIT' );
		foreach ( $this->files as $file ) {
			if ( is_file( $file ) ) {
				unlink( $file ); // phpcs:ignore WordPress.WP.AlternativeFunctions.unlink_unlink
			}
		}
		parent::tear_down();
	}

	/**
	 * Runs `wp …` and returns its exit status, standard output and standard error.
	 *
	 * @param string[] $args Arguments.
	 * @return array{status: int, out: string, err: string}
	 */
	private function wp( array $args ): array {
		$command = 'bash ' . escapeshellarg( CAIRN_MAPS_TESTS_ROOT . '/bin/wp.sh' ) . ' ' . implode( ' ', array_map( 'escapeshellarg', $args ) );
		$pipes   = array();
		$process = proc_open( // phpcs:ignore WordPress.PHP.DiscouragedPHPFunctions.system_calls_proc_open -- the test runs wp-cli.
			$command,
			array(
				1 => array( 'pipe', 'w' ),
				2 => array( 'pipe', 'w' ),
			),
			$pipes,
			CAIRN_MAPS_TESTS_ROOT,
			array(
				'CAIRN_WP_CORE_DIR' => (string) getenv( 'CAIRN_WP_CORE_DIR' ),
				'PATH'              => (string) getenv( 'PATH' ),
				'HOME'              => (string) getenv( 'HOME' ),
			)
		);
		$this->assertIsResource( $process );
		$out    = (string) stream_get_contents( $pipes[1] );
		$err    = (string) stream_get_contents( $pipes[2] );
		$status = proc_close( $process );
		// Fresh rows from the other process: a new snapshot, no cached copies.
		$GLOBALS['wpdb']->query( 'COMMIT' );
		wp_cache_flush();
		return array(
			'status' => $status,
			'out'    => $out,
			'err'    => $err,
		);
	}

	/**
	 * A temporary file with this content.
	 *
	 * @param string $content Content.
	 * @param string $suffix  File name end.
	 */
	private function file( string $content, string $suffix ): string {
		$file          = get_temp_dir() . 'cairn-cli-' . wp_generate_password( 8, false ) . $suffix;
		$this->files[] = $file;
		file_put_contents( $file, $content ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_system_read_file_put_contents
		return $file;
	}

	/**
	 * Titles of the stored markers, sorted.
	 *
	 * @return string[]
	 */
	private function titles(): array {
		global $wpdb;
		$titles = $wpdb->get_col( $wpdb->prepare( "SELECT post_title FROM {$wpdb->posts} WHERE post_type = %s", Post_Type::POST_TYPE ) );
		sort( $titles );
		return $titles;
	}

	/**
	 * `wp cairn import --dry-run` reports the refused lines and writes nothing; the import writes
	 * the valid rows into their groups; export prints them; the index counts them after a rebuild.
	 */
	public function test_import_export_and_index_commands(): void {
		$csv = $this->file( "title,lat,lng,group\nHut,56.1,-5.2,Huts\nPole,95,1,\nLodge,56.2,-5.3,\n", '.csv' );

		$dry = $this->wp( array( 'cairn', 'import', $csv, '--dry-run' ) );
		$this->assertSame( 0, $dry['status'], $dry['out'] . $dry['err'] );
		$this->assertStringContainsString( 'Line 3: Latitude (cairn_lat) must be a number between -90 and 90.', $dry['err'] );
		$this->assertStringContainsString( 'Success: Dry run, nothing was written: 2 markers would be imported.', $dry['out'] );
		$this->assertSame( array(), $this->titles(), 'a dry run wrote nothing' );
		$this->assertFalse( term_exists( 'huts', Post_Type::TAXONOMY ) ?? false );

		$run = $this->wp( array( 'cairn', 'import', $csv, '--group=Highlands' ) );
		$this->assertSame( 0, $run['status'], $run['out'] . $run['err'] );
		$this->assertStringContainsString( 'Success: 2 markers were imported.', $run['out'] );
		$this->assertStringContainsString( 'Line 3: ', $run['err'] );
		$this->assertSame( array( 'Hut', 'Lodge' ), $this->titles() );
		$highlands = get_term_by( 'name', 'Highlands', Post_Type::TAXONOMY );
		$this->assertInstanceOf( \WP_Term::class, $highlands );
		$this->assertSame( 2, $highlands->count, 'both in the group every row joins' );
		$huts = get_term_by( 'slug', 'huts', Post_Type::TAXONOMY );
		$this->assertInstanceOf( \WP_Term::class, $huts );
		$this->assertSame( 1, $huts->count );

		$export = $this->wp( array( 'cairn', 'export', '--format=geojson' ) );
		$this->assertSame( 0, $export['status'], $export['err'] );
		$data = json_decode( substr( $export['out'], (int) strpos( $export['out'], '{' ) ), true );
		$this->assertIsArray( $data, $export['out'] );
		$titles = array_column( array_column( $data['features'], 'properties' ), 'title' );
		sort( $titles );
		$this->assertSame( array( 'Hut', 'Lodge' ), $titles );

		$out           = get_temp_dir() . 'cairn-cli-export-' . wp_generate_password( 8, false ) . '.csv';
		$this->files[] = $out;
		$to_file       = $this->wp( array( 'cairn', 'export', '--output=' . $out ) );
		$this->assertSame( 0, $to_file['status'], $to_file['err'] );
		$written = (string) file_get_contents( $out ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_get_contents_file_get_contents
		$this->assertStringStartsWith( "\xEF\xBB\xBFtitle,lat,lng,group,description\r\n", $written, 'the Tools page download: BOM, header' );
		$this->assertStringContainsString( "\nHut,56.1,-5.2,highlands|huts,\r\n", $written );

		$rebuild = $this->wp( array( 'cairn', 'index', 'rebuild' ) );
		$this->assertSame( 0, $rebuild['status'], $rebuild['out'] . $rebuild['err'] );
		$this->assertStringContainsString( 'Success: The place index was rebuilt: 2 places.', $rebuild['out'] );
		$status = $this->wp( array( 'cairn', 'index', 'status', '--format=json' ) );
		$this->assertSame( 0, $status['status'], $status['err'] );
		$this->assertStringContainsString( '[{"places":2,"ready":"yes","phase":"complete","done":0,"total":0,"by":"cli"}]', $status['out'] );
	}

	/**
	 * A file that cannot be read, or none of whose rows is valid, fails with the reason and a
	 * non-zero exit status.
	 */
	public function test_import_fails_with_the_reason(): void {
		$missing = $this->wp( array( 'cairn', 'import', '/nonexistent/file.csv' ) );
		$this->assertNotSame( 0, $missing['status'] );
		$this->assertStringContainsString( 'Cannot read the file "/nonexistent/file.csv".', $missing['err'] );

		$bad = $this->wp( array( 'cairn', 'import', $this->file( "title,lat,lng\n,1,1\n", '.csv' ) ) );
		$this->assertNotSame( 0, $bad['status'] );
		$this->assertStringContainsString( 'Line 2: A title is required.', $bad['err'] );
		$this->assertStringContainsString( 'Error: No marker in the file is valid, so nothing was imported.', $bad['err'] );
		$this->assertSame( array(), $this->titles() );
	}
}
