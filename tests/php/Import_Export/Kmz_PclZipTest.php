<?php
/**
 * KMZ archives read through WordPress's PclZip, as on servers without PHP's zip extension.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Import_Export;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Import_Export\Import_Reader;
use Cairn\Maps\Import_Export\Kmz_Archive;
use Cairn\Maps\Tests\TestCase;
use WP_Error;
use ZipArchive;

/**
 * Kmz_Archive with the `cairn_maps_kmz_zip_archive` filter false: the same records as with
 * ZipArchive, and the same caps on entries and inflated size.
 *
 * @since 0.7.0
 */
final class Kmz_PclZipTest extends TestCase {

	/**
	 * Reads KMZ through PclZip from here on.
	 */
	public function set_up(): void {
		parent::set_up();
		add_filter( 'cairn_maps_kmz_zip_archive', '__return_false' );
	}

	/**
	 * A KMZ archive holding the given entries (written with ZipArchive, the test's own tool).
	 *
	 * @param array<string, string> $entries Content by entry name.
	 */
	private static function kmz( array $entries ): string {
		$path = (string) tempnam( get_temp_dir(), 'cairn-test-kmz' );
		$zip  = new ZipArchive();
		$zip->open( $path, ZipArchive::OVERWRITE );
		foreach ( $entries as $name => $content ) {
			$zip->addFromString( $name, $content );
		}
		$zip->close();
		$content = (string) file_get_contents( $path ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_get_contents_file_get_contents -- the archive just written.
		unlink( $path ); // phpcs:ignore WordPress.WP.AlternativeFunctions.unlink_unlink -- as above.
		return $content;
	}

	/**
	 * Asserts a WP_Error with a code and a message containing a text.
	 *
	 * @param string $code   Error code.
	 * @param string $text   Part of the message.
	 * @param mixed  $result Result.
	 */
	private function assert_refused( string $code, string $text, $result ): void {
		$this->assertInstanceOf( WP_Error::class, $result, 'got: ' . wp_json_encode( $result ) );
		$this->assertSame( $code, $result->get_error_code(), $result->get_error_message() );
		$this->assertStringContainsString( $text, $result->get_error_message() );
	}

	/**
	 * Asserts the archives were read with PclZip: the filter was asked, and WordPress's PclZip loaded.
	 */
	private function assert_read_with_pclzip(): void {
		$this->assertGreaterThan( 0, did_filter( 'cairn_maps_kmz_zip_archive' ) );
		$this->assertTrue( class_exists( 'PclZip', false ) );
	}

	/**
	 * A real KMZ (openlayers' iceland.kmz) and one with images: the same records as ZipArchive reads.
	 */
	public function test_reads_the_same_records_as_zip_archive(): void {
		$iceland = (string) file_get_contents( dirname( __DIR__, 2 ) . '/fixtures/imports/openlayers/iceland.kmz' ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_get_contents_file_get_contents -- a test fixture.
		$kml     = (string) file_get_contents( dirname( __DIR__, 2 ) . '/fixtures/shapes/town-zones.kml' ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_get_contents_file_get_contents -- a test fixture.
		$zoned   = self::kmz(
			array(
				'images/icon.png' => 'not read',
				'DOC.KML'         => $kml,
			)
		);
		foreach ( array( $iceland, $zoned ) as $archive ) {
			$pclzip = Import_Reader::read( $archive, 'kmz', 1000 );
			remove_filter( 'cairn_maps_kmz_zip_archive', '__return_false' );
			$zip_archive = Import_Reader::read( $archive, 'kmz', 1000 );
			add_filter( 'cairn_maps_kmz_zip_archive', '__return_false' );
			$this->assertIsArray( $pclzip, is_wp_error( $pclzip ) ? $pclzip->get_error_message() : '' );
			$this->assertNotEmpty( $pclzip );
			$this->assertSame( $zip_archive, $pclzip );
		}
		$this->assertSame( $kml, Kmz_Archive::kml( $zoned ) );
		$this->assert_read_with_pclzip();
	}

	/**
	 * No KML, not a zip, damaged data: the messages ZipArchive's path gives.
	 */
	public function test_unreadable_archives(): void {
		$this->assert_refused( 'cairn_maps_import_kmz', 'holds no .kml file', Import_Reader::read( self::kmz( array( 'readme.txt' => 'hello' ) ), 'kmz', 10 ) );
		$this->assert_refused( 'cairn_maps_import_kmz', 'not a readable zip archive', Import_Reader::read( "PK\x03\x04" . str_repeat( 'x', 200 ), 'kmz', 10 ) );
		$damaged = self::kmz( array( 'doc.kml' => '<kml>' . str_repeat( '<Placemark><name>Damaged</name></Placemark>', 500 ) . '</kml>' ) );
		for ( $at = 60; $at < 80; $at += 3 ) {
			$damaged[ $at ] = chr( ord( $damaged[ $at ] ) ^ 0xff );
		}
		$this->assert_refused( 'cairn_maps_import_kmz', 'The KML inside the KMZ archive is damaged', Import_Reader::read( $damaged, 'kmz', 10 ) );
		$this->assert_read_with_pclzip();
	}

	/**
	 * More than Kmz_Archive::MAX_ENTRIES entries are refused before PclZip lists them.
	 */
	public function test_entry_cap(): void {
		$entries = array( 'doc.kml' => '<kml><Placemark><name>A</name><Point><coordinates>1,2</coordinates></Point></Placemark></kml>' );
		for ( $i = 0; $i < Kmz_Archive::MAX_ENTRIES; $i++ ) {
			$entries[ 'images/' . $i . '.png' ] = '';
		}
		$this->assert_refused( 'cairn_maps_import_kmz', 'holds 1,001 files; Cairn reads archives of at most 1,000', Import_Reader::read( self::kmz( $entries ), 'kmz', 10 ) );
		array_pop( $entries );
		$this->assertIsArray( Import_Reader::read( self::kmz( $entries ), 'kmz', 10 ) );
		$this->assert_read_with_pclzip();
	}

	/**
	 * A zip bomb is refused from its declared size, and, when it lies about its size, once
	 * inflating passes the limit.
	 */
	public function test_inflated_size_cap(): void {
		add_filter( 'cairn_maps_import_max_bytes', static fn(): int => 64 * KB_IN_BYTES );
		$kml  = '<kml><Document>' . str_repeat( ' ', 2 * MB_IN_BYTES ) . '</Document></kml>';
		$bomb = self::kmz( array( 'doc.kml' => $kml ) );
		$this->assert_refused( 'cairn_maps_import_too_large', 'larger than 64 KB once unzipped', Import_Reader::read( $bomb, 'kmz', 10 ) );

		$size = pack( 'V', strlen( $kml ) );
		$this->assertSame( 2, substr_count( $bomb, $size ) );
		$liar = str_replace( $size, pack( 'V', 100 ), $bomb );
		$this->assert_refused( 'cairn_maps_import_too_large', 'larger than 64 KB once unzipped', Import_Reader::read( $liar, 'kmz', 10 ) );
		$this->assert_read_with_pclzip();
	}
}
