<?php
/**
 * HTTP caching rules of the public routes.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Rest;

defined( 'ABSPATH' ) || exit;

/**
 * What the public `cairn/v1` GET routes (the marker feed, the maps of a post) share about HTTP
 * caching: the Cache-Control of an answer by visitor, whether an `If-None-Match` matches an ETag,
 * and the gzip representation, which has an ETag of its own.
 *
 * Static and reading only options and the request's headers, so the early 304s can use it before
 * `init`.
 *
 * @since 0.2.0
 */
final class Cache_Headers {

	/**
	 * Cache-Control of anonymous feed answers: fresh for a minute, then revalidated with the ETag
	 * (a 304 costs next to nothing), served stale for up to another minute while revalidating: an
	 * unpublished place may stay in a cache for 2 minutes at most (it was an hour before 0.7.0, issue
	 * 30); Cdn_Purge names the addresses to purge at once.
	 */
	public const PUBLIC_CACHE_CONTROL = 'public, max-age=60, stale-while-revalidate=60';

	/**
	 * Cache-Control of an anonymous answer that serves the previous build while another request
	 * rebuilds: caches may keep it, but must ask again before reusing it.
	 */
	public const STALE_CACHE_CONTROL = 'public, max-age=0, must-revalidate';

	/**
	 * Cache-Control of an anonymous answer of the place index whose address names the current
	 * version, once the index is complete: the address changes with the next version.
	 */
	public const IMMUTABLE_CACHE_CONTROL = 'public, max-age=31536000, immutable';

	/**
	 * Cache-Control of an answer of the place index (tiles, the places list and summary): never
	 * stored when logged in; for good only when the address names the current version *and* the
	 * index is complete (a rebuild's answers change under the same version); else the feed's.
	 *
	 * @since 0.7.0
	 *
	 * @param bool   $logged_in Whether the request is authenticated.
	 * @param string $asked     The request's `v` ('' when none).
	 * @param string $current   The current markers version.
	 * @param bool   $complete  Whether the place index is complete.
	 */
	public static function versioned( bool $logged_in, string $asked, string $current, bool $complete ): string {
		if ( ! $logged_in && $complete && '' !== $asked && hash_equals( $current, $asked ) ) {
			return self::IMMUTABLE_CACHE_CONTROL;
		}
		return self::cache_control( $logged_in );
	}

	/**
	 * Cache-Control of an answer: public for anonymous visitors, never stored when logged in.
	 *
	 * The other public routes (the maps of a post) follow the same policy and filter.
	 *
	 * @since 0.1.0 As Markers_Controller::cache_control().
	 * @since 0.2.0 Public and static, $stale optional.
	 *
	 * @param bool $logged_in Whether the request is authenticated.
	 * @param bool $stale     Whether the answer is the previous build, served during a rebuild.
	 */
	public static function cache_control( bool $logged_in, bool $stale = false ): string {
		if ( $logged_in ) {
			return 'private, no-store';
		}
		if ( $stale ) {
			return self::STALE_CACHE_CONTROL;
		}
		/**
		 * Filters the Cache-Control header of anonymous marker feed answers.
		 *
		 * @since 0.1.0
		 * @param string $cache_control Header value.
		 */
		return (string) apply_filters( 'cairn_maps_feed_cache_control', self::PUBLIC_CACHE_CONTROL );
	}

	/**
	 * Whether an If-None-Match header matches the ETag (weak comparison, as RFC 9110 asks; the gzip
	 * variant's tag matches too).
	 *
	 * @param string|null $header Header value.
	 * @param string      $etag   Current ETag, quoted.
	 */
	public static function etag_matches( ?string $header, string $etag ): bool {
		if ( null === $header || '' === trim( $header ) ) {
			return false;
		}
		if ( '*' === trim( $header ) ) {
			return true;
		}
		$opaque = trim( $etag, '"' );
		foreach ( explode( ',', $header ) as $tag ) {
			$tag = trim( $tag );
			if ( 0 === strpos( $tag, 'W/' ) ) {
				$tag = substr( $tag, 2 );
			}
			$tag = trim( $tag, '"' );
			if ( $tag === $opaque || $tag === $opaque . '-gzip' ) {
				return true;
			}
		}
		return false;
	}

	/**
	 * The ETag of what is sent for this Accept-Encoding: the gzip variant has its own.
	 *
	 * @param string $etag            ETag of the JSON, quoted.
	 * @param string $accept_encoding Accept-Encoding header.
	 */
	public static function representation_etag( string $etag, string $accept_encoding ): string {
		return self::sends_gzip( $accept_encoding ) ? substr( $etag, 0, -1 ) . '-gzip"' : $etag;
	}

	/**
	 * Whether an answer for this Accept-Encoding is compressed by us: the client accepts gzip and
	 * PHP does not compress output already.
	 *
	 * @param string $accept_encoding Accept-Encoding header.
	 */
	public static function sends_gzip( string $accept_encoding ): bool {
		return self::accepts_gzip( $accept_encoding ) && ! self::output_is_compressed();
	}

	/**
	 * Whether an Accept-Encoding header accepts gzip.
	 *
	 * @param string $header Header value.
	 */
	public static function accepts_gzip( string $header ): bool {
		foreach ( explode( ',', strtolower( $header ) ) as $coding ) {
			$parts = array_map( 'trim', explode( ';', $coding ) );
			if ( 'gzip' !== $parts[0] && 'x-gzip' !== $parts[0] ) {
				continue;
			}
			foreach ( array_slice( $parts, 1 ) as $param ) {
				if ( 1 === preg_match( '/^q\s*=\s*0(\.0{0,3})?$/', $param ) ) {
					return false;
				}
			}
			return true;
		}
		return false;
	}

	/**
	 * Whether PHP already compresses output (then the payload is sent uncompressed to it).
	 */
	private static function output_is_compressed(): bool {
		if ( filter_var( ini_get( 'zlib.output_compression' ), FILTER_VALIDATE_BOOLEAN ) ) {
			return true;
		}
		return array() !== array_intersect( ob_list_handlers(), array( 'ob_gzhandler', 'zlib output compression' ) );
	}
}
