<?php
/**
 * Byte ranges of a PMTiles archive in the media library.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Rest;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Support\Rest_Routes;
use WP_Error;
use WP_REST_Request;
use WP_REST_Server;

/**
 * `GET|HEAD /cairn/v1/basemaps/<attachment id>`: the bytes of a `.pmtiles` attachment, with HTTP
 * Range support (206, `Content-Range`, 416), a strong ETag, `If-None-Match` (304) and `If-Range`.
 *
 * A self-hosted basemap is read by the `pmtiles` client in ranges (a 16 KiB first fetch, then
 * directories and tiles). Web servers answer ranges of an uploaded file by themselves, and the
 * file's own URL is the one to use. Some servers do not: WordPress Playground's static-file
 * handler always answers 200 with the whole file (and says `Accept-Ranges: bytes`). This route is
 * for those servers: the style reference is then `pmtiles://<this route's URL>`.
 *
 * Public, as the file's own URL in uploads is. Only attachments whose file ends in `.pmtiles`
 * are served; anything else is a 404.
 *
 * @since 0.7.0
 */
final class Basemap_Archive_Controller {

	/**
	 * The route under the plugin's namespace.
	 */
	public const ROUTE = '/basemaps/(?P<id>\d+)';

	/**
	 * How long browsers and shared caches may keep an answer: the ETag changes with the file.
	 */
	public const MAX_AGE = 86400;

	/**
	 * Bytes read and printed at a time.
	 */
	private const CHUNK = 65536;

	/**
	 * Wires hooks.
	 */
	public function add_hooks(): void {
		add_action( 'rest_api_init', array( $this, 'register_routes' ) );
		add_filter( 'rest_pre_serve_request', array( $this, 'serve' ), 12, 3 );
	}

	/**
	 * Registers the route.
	 */
	public function register_routes(): void {
		register_rest_route(
			Rest_Routes::NAMESPACE,
			self::ROUTE,
			array(
				array(
					'methods'             => WP_REST_Server::READABLE,
					'callback'            => array( $this, 'get_item' ),
					// Public: the same bytes as the attachment's own URL in uploads.
					'permission_callback' => '__return_true',
					'args'                => array(
						'id' => array(
							'description' => __( 'The archive\'s attachment ID.', 'cairn-maps' ),
							'type'        => 'integer',
							'minimum'     => 1,
						),
					),
				),
			)
		);
	}

	/**
	 * The address of an attachment's archive through this route.
	 *
	 * @param int $attachment_id Attachment ID.
	 */
	public static function url( int $attachment_id ): string {
		return rest_url( Rest_Routes::NAMESPACE . '/basemaps/' . $attachment_id );
	}

	/**
	 * The archive's file, or null when the attachment is not a readable `.pmtiles` file.
	 *
	 * @param int $attachment_id Attachment ID.
	 */
	public static function archive_file( int $attachment_id ): ?string {
		$post = get_post( $attachment_id );
		if ( ! $post || 'attachment' !== $post->post_type || 'trash' === $post->post_status ) {
			return null;
		}
		$file = get_attached_file( $attachment_id );
		if ( ! is_string( $file ) || '.pmtiles' !== strtolower( substr( $file, -8 ) ) || ! is_file( $file ) || ! is_readable( $file ) ) {
			return null;
		}
		return $file;
	}

	/**
	 * Answers a request.
	 *
	 * @param WP_REST_Request $request The request.
	 * @phpstan-param WP_REST_Request<array<string, mixed>> $request
	 * @return Byte_Range_Response|WP_Error
	 */
	public function get_item( WP_REST_Request $request ) {
		$file = self::archive_file( (int) $request['id'] );
		if ( null === $file ) {
			return new WP_Error( 'cairn_basemap_not_found', __( 'No PMTiles archive has this ID.', 'cairn-maps' ), array( 'status' => 404 ) );
		}
		$size  = (int) filesize( $file );
		$mtime = (int) filemtime( $file );
		$etag  = '"' . substr( md5( $file . '|' . $size . '|' . $mtime ), 0, 20 ) . '"';

		$headers = array(
			'Accept-Ranges' => 'bytes',
			'Content-Type'  => 'application/vnd.pmtiles',
			'ETag'          => $etag,
			'Last-Modified' => gmdate( 'D, d M Y H:i:s', $mtime ) . ' GMT',
			'Cache-Control' => 'public, max-age=' . self::MAX_AGE,
		);

		$if_none_match = (string) $request->get_header( 'if_none_match' );
		if ( '' !== $if_none_match && self::etag_matches( $if_none_match, $etag ) ) {
			return new Byte_Range_Response( $file, 0, 0, 304, $headers );
		}

		$range    = (string) $request->get_header( 'range' );
		$if_range = (string) $request->get_header( 'if_range' );
		if ( '' !== $if_range && trim( $if_range ) !== $etag ) {
			// The client's copy is another version: send all of this one.
			$range = '';
		}
		$bounds = '' === $range ? null : self::parse_range( $range, $size );
		if ( false === $bounds ) {
			$headers['Content-Range']  = 'bytes */' . $size;
			$headers['Content-Length'] = '0';
			return new Byte_Range_Response( $file, 0, 0, 416, $headers );
		}
		if ( null === $bounds ) {
			$headers['Content-Length'] = (string) $size;
			return new Byte_Range_Response( $file, 0, $size, 200, $headers );
		}
		list( $start, $end )       = $bounds;
		$headers['Content-Range']  = sprintf( 'bytes %d-%d/%d', $start, $end, $size );
		$headers['Content-Length'] = (string) ( $end - $start + 1 );
		return new Byte_Range_Response( $file, $start, $end - $start + 1, 206, $headers );
	}

	/**
	 * The first and last byte a `Range` header asks for (RFC 9110 14.1.2), clamped to the file.
	 * Null: serve the whole file (no `bytes=` unit, a malformed header, or several ranges, which
	 * a server may answer in full). False: nothing of the file is in the range (416).
	 *
	 * @param string $header The header.
	 * @param int    $size   File size.
	 * @return array{0: int, 1: int}|false|null
	 */
	public static function parse_range( string $header, int $size ) {
		if ( 1 !== preg_match( '/^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i', $header, $m ) ) {
			return null;
		}
		if ( '' === $m[1] && '' === $m[2] ) {
			return null;
		}
		if ( '' === $m[1] ) {
			// The last n bytes.
			$suffix = (int) $m[2];
			if ( 0 === $suffix || 0 === $size ) {
				return false;
			}
			return array( max( 0, $size - $suffix ), $size - 1 );
		}
		$start = (int) $m[1];
		$end   = '' === $m[2] ? $size - 1 : (int) $m[2];
		if ( $end < $start ) {
			return null;
		}
		if ( $start >= $size ) {
			return false;
		}
		return array( $start, min( $end, $size - 1 ) );
	}

	/**
	 * Whether an `If-None-Match` list holds the ETag (or `*`).
	 *
	 * @param string $header The header.
	 * @param string $etag   The ETag.
	 */
	private static function etag_matches( string $header, string $etag ): bool {
		foreach ( explode( ',', $header ) as $candidate ) {
			$candidate = trim( $candidate );
			if ( '*' === $candidate || $candidate === $etag || 'W/' . $etag === $candidate ) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Prints the bytes of a Byte_Range_Response instead of a JSON body.
	 *
	 * @param bool                 $served  Whether the request has been served.
	 * @param mixed                $result  The answer.
	 * @param WP_REST_Request|null $request The request.
	 * @phpstan-param WP_REST_Request<array<string, mixed>>|null $request
	 */
	public function serve( $served, $result = null, $request = null ): bool {
		if ( $served || ! $result instanceof Byte_Range_Response ) {
			return (bool) $served;
		}
		if ( ( $request instanceof WP_REST_Request && 'HEAD' === $request->get_method() ) || 0 === $result->length() ) {
			return true;
		}
		$this->send_bytes( $result->file(), $result->start(), $result->length() );
		return true;
	}

	/**
	 * Prints length bytes of a file from start on.
	 *
	 * @param string $file   The file.
	 * @param int    $start  First byte.
	 * @param int    $length Bytes.
	 */
	public function send_bytes( string $file, int $start, int $length ): void {
		// phpcs:disable WordPress.WP.AlternativeFunctions -- byte ranges of a local file: WP_Filesystem has no seek.
		$handle = fopen( $file, 'rb' );
		if ( false === $handle ) {
			return;
		}
		if ( $start > 0 ) {
			fseek( $handle, $start );
		}
		$left = $length;
		while ( $left > 0 && ! feof( $handle ) ) {
			$bytes = fread( $handle, min( self::CHUNK, $left ) );
			if ( false === $bytes || '' === $bytes ) {
				break;
			}
			echo $bytes; // phpcs:ignore WordPress.Security.EscapeOutput.OutputNotEscaped -- the archive's bytes, served as application/vnd.pmtiles.
			$left -= strlen( $bytes );
		}
		fclose( $handle );
		// phpcs:enable WordPress.WP.AlternativeFunctions
	}
}
