<?php
/**
 * Development and test sites only (copied into the site's root by bin/start.mjs; never part of
 * the plugin).
 *
 * WordPress Playground answers every static file with 200 and the whole body, whatever the Range
 * header says, so the `pmtiles` client cannot read an archive from its uploads URL. The plugin's
 * route /cairn/v1/basemaps/<id> answers ranges, but each request boots WordPress, which takes
 * 1–2 s in Playground's WebAssembly PHP; a map view needs a dozen ranges. This script answers them
 * in ~15 ms without loading WordPress:
 *
 *   GET|HEAD /cairn-byte-range.php?file=<path under wp-content/uploads, ending in .pmtiles>
 *
 * 206 + Content-Range for `Range: bytes=a-b | a- | -n`, 200 without a range, 416 past the end,
 * 304 for a matching If-None-Match; strong ETag. Anything but a readable .pmtiles file under this
 * site's uploads folder is a 404.
 *
 * @package Cairn\Maps
 */

// phpcs:disable WordPress.Security.NonceVerification.Recommended, WordPress.Security.ValidatedSanitizedInput, WordPress.WP.AlternativeFunctions, WordPress.Security.EscapeOutput.OutputNotEscaped -- a static-file server outside WordPress.

// Inert where it is kept (bin/site-root/ of the plugin): it serves only from a site's root.
is_dir( __DIR__ . '/wp-content/uploads' ) || exit;

/**
 * Ends the request with a status and no body.
 *
 * @param int $status HTTP status.
 */
function cairn_maps_byte_range_end( int $status ): void {
	http_response_code( $status );
	exit;
}

/**
 * Serves the request.
 */
function cairn_maps_byte_range(): void {
	$method = isset( $_SERVER['REQUEST_METHOD'] ) ? strtoupper( (string) $_SERVER['REQUEST_METHOD'] ) : 'GET';
	if ( 'GET' !== $method && 'HEAD' !== $method ) {
		header( 'Allow: GET, HEAD' );
		cairn_maps_byte_range_end( 405 );
	}
	$uploads = realpath( __DIR__ . '/wp-content/uploads' );
	$name    = isset( $_GET['file'] ) && is_string( $_GET['file'] ) ? $_GET['file'] : '';
	$file    = '' === $name ? false : realpath( __DIR__ . '/wp-content/uploads/' . $name );
	if (
		false === $uploads || false === $file ||
		0 !== strpos( $file, $uploads . DIRECTORY_SEPARATOR ) ||
		'.pmtiles' !== strtolower( substr( $file, -8 ) ) ||
		! is_file( $file ) || ! is_readable( $file )
	) {
		cairn_maps_byte_range_end( 404 );
	}

	$size  = (int) filesize( $file );
	$mtime = (int) filemtime( $file );
	$etag  = '"' . substr( md5( $file . '|' . $size . '|' . $mtime ), 0, 20 ) . '"';
	header( 'Accept-Ranges: bytes' );
	header( 'Content-Type: application/vnd.pmtiles' );
	header( 'ETag: ' . $etag );
	header( 'Last-Modified: ' . gmdate( 'D, d M Y H:i:s', $mtime ) . ' GMT' );
	header( 'Cache-Control: public, max-age=86400' );

	$if_none_match = isset( $_SERVER['HTTP_IF_NONE_MATCH'] ) ? (string) $_SERVER['HTTP_IF_NONE_MATCH'] : '';
	if ( '' !== $if_none_match && in_array( $etag, array_map( 'trim', explode( ',', $if_none_match ) ), true ) ) {
		cairn_maps_byte_range_end( 304 );
	}

	$start = 0;
	$end   = $size - 1;
	$range = isset( $_SERVER['HTTP_RANGE'] ) ? (string) $_SERVER['HTTP_RANGE'] : '';
	$ifr   = isset( $_SERVER['HTTP_IF_RANGE'] ) ? trim( (string) $_SERVER['HTTP_IF_RANGE'] ) : '';
	if ( '' !== $ifr && $ifr !== $etag ) {
		$range = '';
	}
	$partial = false;
	if ( 1 === preg_match( '/^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i', $range, $m ) && ( '' !== $m[1] || '' !== $m[2] ) ) {
		if ( '' === $m[1] ) {
			$start = max( 0, $size - (int) $m[2] );
		} else {
			$start = (int) $m[1];
			$end   = '' === $m[2] ? $size - 1 : min( (int) $m[2], $size - 1 );
		}
		if ( $start >= $size || ( '' === $m[1] && 0 === (int) $m[2] ) ) {
			header( 'Content-Range: bytes */' . $size );
			cairn_maps_byte_range_end( 416 );
		}
		$partial = $end >= $start;
		if ( ! $partial ) {
			$start = 0;
			$end   = $size - 1;
		}
	}
	$length = $end - $start + 1;
	if ( $partial ) {
		http_response_code( 206 );
		header( sprintf( 'Content-Range: bytes %d-%d/%d', $start, $end, $size ) );
	}
	header( 'Content-Length: ' . $length );
	if ( 'HEAD' === $method ) {
		exit;
	}
	$handle = fopen( $file, 'rb' );
	if ( false === $handle ) {
		cairn_maps_byte_range_end( 500 );
	}
	fseek( $handle, $start );
	while ( $length > 0 && ! feof( $handle ) ) {
		$bytes = fread( $handle, min( 65536, $length ) );
		if ( false === $bytes || '' === $bytes ) {
			break;
		}
		echo $bytes;
		$length -= strlen( $bytes );
	}
	fclose( $handle );
}

cairn_maps_byte_range();
