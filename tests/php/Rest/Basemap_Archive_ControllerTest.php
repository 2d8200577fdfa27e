<?php
/**
 * Byte ranges of a PMTiles archive, GET /cairn/v1/basemaps/<id>.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Rest;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Rest\Basemap_Archive_Controller;
use Cairn\Maps\Tests\TestCase;

/**
 * What the `pmtiles` client sees when it reads an archive in the media library through the
 * plugin's route: 206 with exactly the bytes asked for, the whole file without a range, 416
 * past the end, 304 for its cached copy, and 404 for anything that is not a `.pmtiles` attachment.
 *
 * @since 0.7.0
 */
final class Basemap_Archive_ControllerTest extends TestCase {

	/**
	 * The archive's bytes.
	 *
	 * @var string
	 */
	private string $bytes;

	/**
	 * Its attachment.
	 *
	 * @var int
	 */
	private int $attachment;

	/**
	 * Files written by the test.
	 *
	 * @var string[]
	 */
	private array $files = array();

	/**
	 * A 40,008-byte archive in the media library.
	 */
	protected function set_up(): void {
		parent::set_up();
		// A header-like start, then 40,000 bytes that differ from each other's neighbours.
		$this->bytes = "PMTiles\x03";
		for ( $i = 0; $i < 2500; $i++ ) {
			$this->bytes .= md5( (string) $i, true );
		}
		$this->bytes      = substr( $this->bytes, 0, 40008 );
		$this->attachment = $this->attachment_with( 'world.pmtiles', $this->bytes );
	}

	/**
	 * Removes the files.
	 */
	protected function tear_down(): void {
		foreach ( $this->files as $file ) {
			wp_delete_file( $file );
		}
		parent::tear_down();
	}

	/**
	 * An attachment whose file holds the given bytes.
	 *
	 * @param string $name  File name.
	 * @param string $bytes Contents.
	 */
	private function attachment_with( string $name, string $bytes ): int {
		// Written directly: whether .pmtiles may be uploaded is the settings' business, not this route's.
		$dir  = wp_upload_dir()['path'];
		$file = $dir . '/' . wp_unique_id( 'cairn-' ) . '-' . $name;
		wp_mkdir_p( $dir );
		$this->assertNotFalse( file_put_contents( $file, $bytes ) ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_system_operations_file_put_contents, WordPress.WP.AlternativeFunctions.file_system_read_file_put_contents -- a test fixture.
		$this->files[] = $file;
		$id            = wp_insert_attachment(
			array(
				'post_title'     => $name,
				'post_mime_type' => 'application/vnd.pmtiles',
				'post_status'    => 'inherit',
			),
			$file
		);
		$this->assertGreaterThan( 0, $id );
		return $id;
	}

	/**
	 * Serves the archive route.
	 *
	 * @param array<string, string> $headers Request headers.
	 * @param string                $method  Method.
	 * @param int|null              $id      Attachment (default the archive).
	 * @return array{status: int, headers: array<string, string>, body: string}
	 */
	private function fetch( array $headers = array(), string $method = 'GET', ?int $id = null ): array {
		// Each request carries only its own headers.
		unset( $_SERVER['HTTP_RANGE'], $_SERVER['HTTP_IF_RANGE'], $_SERVER['HTTP_IF_NONE_MATCH'] );
		return $this->serve( '/cairn/v1/basemaps/' . ( $id ?? $this->attachment ), array(), $headers, $method );
	}

	/**
	 * The reader's first fetch and a later one: 206, those bytes, one strong ETag.
	 */
	public function test_a_range_is_answered_with_206_and_exactly_those_bytes(): void {
		$answer = $this->fetch( array( 'Range' => 'bytes=0-126' ) );
		$this->assertSame( 206, $answer['status'] );
		$this->assertSame( substr( $this->bytes, 0, 127 ), $answer['body'] );
		$this->assertSame( 'bytes 0-126/40008', $answer['headers']['Content-Range'] );
		$this->assertSame( '127', $answer['headers']['Content-Length'] );
		$this->assertSame( 'bytes', $answer['headers']['Accept-Ranges'] );
		$this->assertSame( 'application/vnd.pmtiles', $answer['headers']['Content-Type'] );
		$this->assertMatchesRegularExpression( '/^"[0-9a-f]{20}"$/', $answer['headers']['ETag'], 'a strong ETag (the pmtiles client ignores weak ones)' );

		$middle = $this->fetch( array( 'Range' => 'bytes=16384-20000' ) );
		$this->assertSame( 206, $middle['status'] );
		$this->assertSame( substr( $this->bytes, 16384, 3617 ), $middle['body'] );
		$this->assertSame( $answer['headers']['ETag'], $middle['headers']['ETag'], 'one ETag for every range of one file' );
	}

	/**
	 * `a-`, `-n` and a range running past the end.
	 */
	public function test_open_and_suffix_ranges_and_a_range_past_the_end_are_clamped(): void {
		$open = $this->fetch( array( 'Range' => 'bytes=40000-' ) );
		$this->assertSame( 206, $open['status'] );
		$this->assertSame( substr( $this->bytes, 40000 ), $open['body'] );
		$this->assertSame( 'bytes 40000-40007/40008', $open['headers']['Content-Range'] );

		$suffix = $this->fetch( array( 'Range' => 'bytes=-10' ) );
		$this->assertSame( 206, $suffix['status'] );
		$this->assertSame( substr( $this->bytes, -10 ), $suffix['body'] );

		// The client's first fetch is 16 KiB even when the archive is smaller.
		$long = $this->fetch( array( 'Range' => 'bytes=39000-99999' ) );
		$this->assertSame( 206, $long['status'] );
		$this->assertSame( 'bytes 39000-40007/40008', $long['headers']['Content-Range'] );
		$this->assertSame( 1008, strlen( $long['body'] ) );
	}

	/**
	 * No range, or several: 200 and the whole file.
	 */
	public function test_without_a_range_the_whole_file_is_sent(): void {
		$answer = $this->fetch();
		$this->assertSame( 200, $answer['status'] );
		$this->assertSame( $this->bytes, $answer['body'] );
		$this->assertSame( '40008', $answer['headers']['Content-Length'] );
		$this->assertSame( 'bytes', $answer['headers']['Accept-Ranges'] );

		// Several ranges at once: the whole file, which a server may answer instead.
		$several = $this->fetch( array( 'Range' => 'bytes=0-9,20-29' ) );
		$this->assertSame( 200, $several['status'] );
		$this->assertSame( $this->bytes, $several['body'] );
	}

	/**
	 * Nothing of the file in the range: 416 with the size.
	 */
	public function test_a_range_beyond_the_file_is_a_416_with_the_size(): void {
		$answer = $this->fetch( array( 'Range' => 'bytes=50000-50100' ) );
		$this->assertSame( 416, $answer['status'] );
		$this->assertSame( 'bytes */40008', $answer['headers']['Content-Range'] );
		$this->assertSame( '', $answer['body'] );
	}

	/**
	 * If-None-Match and If-Range.
	 */
	public function test_the_cached_copy_is_confirmed_with_304_and_another_version_gets_the_whole_file(): void {
		$etag = $this->fetch( array( 'Range' => 'bytes=0-126' ) )['headers']['ETag'];

		$cached = $this->fetch( array( 'If-None-Match' => $etag ) );
		$this->assertSame( 304, $cached['status'] );
		$this->assertSame( '', $cached['body'] );

		$same = $this->fetch(
			array(
				'Range'    => 'bytes=0-9',
				'If-Range' => $etag,
			)
		);
		$this->assertSame( 206, $same['status'] );
		$this->assertSame( substr( $this->bytes, 0, 10 ), $same['body'] );

		$other = $this->fetch(
			array(
				'Range'    => 'bytes=0-9',
				'If-Range' => '"another-version"',
			)
		);
		$this->assertSame( 200, $other['status'] );
		$this->assertSame( $this->bytes, $other['body'] );
	}

	/**
	 * HEAD: the headers of the range, no body.
	 */
	public function test_head_sends_the_headers_without_a_body(): void {
		$answer = $this->fetch( array( 'Range' => 'bytes=0-126' ), 'HEAD' );
		$this->assertSame( 206, $answer['status'] );
		$this->assertSame( '127', $answer['headers']['Content-Length'] );
		$this->assertSame( '', $answer['body'] );
	}

	/**
	 * Another file type, a post, a missing or trashed attachment: 404, and no bytes.
	 */
	public function test_anything_but_a_pmtiles_attachment_is_a_404(): void {
		$text = $this->attachment_with( 'notes.txt', 'not an archive' );
		$post = wp_insert_post(
			array(
				'post_title'  => 'A page',
				'post_status' => 'publish',
			)
		);
		foreach ( array( $text, $post, 999999 ) as $id ) {
			$answer = $this->fetch( array( 'Range' => 'bytes=0-126' ), 'GET', $id );
			$this->assertSame( 404, $answer['status'], "id $id" );
			$this->assertStringNotContainsString( 'not an archive', $answer['body'] );
		}
		wp_trash_post( $this->attachment );
		$this->assertSame( 404, $this->fetch( array( 'Range' => 'bytes=0-126' ) )['status'], 'a trashed archive' );
	}

	/**
	 * Visitors may read it; url() gives the route's address.
	 */
	public function test_visitors_read_it_and_the_url_names_the_route(): void {
		wp_set_current_user( 0 );
		$this->assertSame( 206, $this->fetch( array( 'Range' => 'bytes=0-126' ) )['status'] );
		$this->assertStringContainsString( 'cairn/v1/basemaps/' . $this->attachment, Basemap_Archive_Controller::url( $this->attachment ) );
	}
}
