<?php
/**
 * PMTiles archives in the media library.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Settings;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Settings\Basemap_Uploads;
use Cairn\Maps\Tests\Rest\Basemap_Test_ControllerTest;
use Cairn\Maps\Tests\TestCase;

/**
 * Uploading a `.pmtiles` file through `POST /wp/v2/media`, as the media library and the demo's
 * seed do: administrators may, people who may only upload files may not, and a file that is no
 * archive is refused whatever its name.
 *
 * @since 0.7.0
 */
final class Basemap_UploadsTest extends TestCase {

	/**
	 * Attachments made, deleted with their files afterwards.
	 *
	 * @var int[]
	 */
	private array $attachments = array();

	/**
	 * Deletes the uploaded files.
	 */
	public function tear_down(): void {
		foreach ( $this->attachments as $id ) {
			wp_delete_attachment( $id, true );
		}
		parent::tear_down();
	}

	/**
	 * Uploads bytes under a file name.
	 *
	 * @param string $bytes The file.
	 * @param string $name  Its name.
	 */
	private function upload( string $bytes, string $name ): \WP_REST_Response {
		$request = new \WP_REST_Request( 'POST', '/wp/v2/media' );
		$request->set_header( 'Content-Type', 'application/octet-stream' );
		$request->set_header( 'Content-Disposition', 'attachment; filename="' . $name . '"' );
		$request->set_body( $bytes );
		$response = rest_get_server()->dispatch( $request );
		if ( 201 === $response->get_status() ) {
			$this->attachments[] = (int) $response->get_data()['id'];
		}
		return $response;
	}

	/**
	 * An administrator uploads an archive: it is an attachment of type application/vnd.pmtiles
	 * with a URL on the site, which the basemap setting accepts.
	 */
	public function test_an_administrator_uploads_an_archive(): void {
		$this->act_as( 'administrator' );
		$response = $this->upload( Basemap_Test_ControllerTest::archive(), 'alps.pmtiles' );
		$this->assertSame( 201, $response->get_status(), (string) wp_json_encode( $response->get_data() ) );
		$data = $response->get_data();
		$this->assertSame( Basemap_Uploads::MIME_TYPE, $data['mime_type'] );
		$this->assertStringEndsWith( '.pmtiles', $data['source_url'] );
		$this->assertSame( 'PMTiles', substr( (string) file_get_contents( get_attached_file( $data['id'] ) ), 0, 7 ) ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_get_contents_file_get_contents -- the uploaded file.

		$saved = $this->rest( 'POST', '/wp/v2/settings', array( 'cairn_maps_basemap' => 'pmtiles://' . $data['source_url'] ) );
		$this->assertSame( 200, $saved->get_status(), 'the uploaded archive is on the site' );
	}

	/**
	 * Someone who may upload files but not manage the site gets WordPress' own refusal.
	 */
	public function test_an_author_cannot_upload_an_archive(): void {
		$this->act_as( 'author' );
		$response = $this->upload( Basemap_Test_ControllerTest::archive(), 'alps.pmtiles' );
		$this->assertNotSame( 201, $response->get_status() );
		$this->assertStringContainsString( 'not allowed to upload this file type', $response->get_data()['message'] );
		$this->assertArrayNotHasKey( 'pmtiles', get_allowed_mime_types() );
	}

	/**
	 * A file that is no PMTiles archive is refused under that name, even for an administrator.
	 */
	public function test_a_file_that_is_no_archive_is_refused(): void {
		$this->act_as( 'administrator' );
		$response = $this->upload( str_repeat( "\x00\x01garbage", 100 ), 'fake.pmtiles' );
		$this->assertNotSame( 201, $response->get_status() );
		$this->assertStringContainsString( 'not allowed to upload this file type', $response->get_data()['message'] );
	}
}
