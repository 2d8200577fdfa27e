<?php
/**
 * Which origins may read the public cairn/v1 routes.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Settings;

defined( 'ABSPATH' ) || exit;

use WP_Error;

/**
 * The origin rules of the CORS answers: the allowed origins setting (`cairn_maps_allowed_origins`)
 * as stored, whether a request's Origin may read, and how an entry is normalised when saved.
 *
 * Origins are stored the way browsers serialise the Origin header, so that matching a request's
 * Origin is an exact comparison. An empty list means any origin may read. Rest\Cors writes the
 * headers from these answers.
 *
 * Static and reading only options, so the early 304s can use it before `init`.
 *
 * @since 0.2.0
 */
final class Allowed_Origins {

	/**
	 * Most origins the allowed origins setting holds.
	 */
	public const MAX_ORIGINS = 100;

	/**
	 * An IPv4 address in dotted decimal without leading zeros, as browsers serialise it.
	 */
	private const IPV4 = '/^((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/';

	/**
	 * Default ports, dropped from origins as browsers do when they send one.
	 */
	private const DEFAULT_PORTS = array(
		'http'  => 80,
		'https' => 443,
	);

	/**
	 * The origins allowed to read, as stored (normalised when saved); empty means any.
	 *
	 * @return string[]
	 */
	public static function allowed_origins(): array {
		$stored = get_option( Settings::ORIGINS_OPTION, array() );
		if ( null === $stored || false === $stored ) {
			return array();
		}
		return array_values(
			array_filter(
				(array) $stored,
				static function ( $origin ) {
					return is_string( $origin ) && '' !== $origin;
				}
			)
		);
	}

	/**
	 * Whether only the listed origins may read.
	 */
	public static function is_restricted(): bool {
		return array() !== self::allowed_origins();
	}

	/**
	 * The Access-Control-Allow-Origin value for this Origin, or null when it may not read.
	 *
	 * @param string $origin The request's Origin header, '' when absent.
	 */
	public static function allow_origin( string $origin ): ?string {
		$allowed = self::allowed_origins();
		if ( array() === $allowed ) {
			return '*';
		}
		// Exact: browsers send an origin serialised (lowercase, no default port), as it is stored.
		return '' !== $origin && in_array( $origin, $allowed, true ) ? $origin : null;
	}

	/**
	 * Normalises a list of origins for storage: each one normalised (see normalize_origin()),
	 * blank entries dropped, duplicates removed, order kept; at most MAX_ORIGINS.
	 *
	 * @param mixed $value The submitted list.
	 * @return string[]|WP_Error The list, or why the first bad entry is refused (status 400).
	 */
	public static function normalize_origins( $value ) {
		if ( ! is_array( $value ) ) {
			return self::origin_error( 'list', __( 'The allowed origins must be a list of origins, such as https://app.example.com.', 'cairn-maps' ) );
		}
		$origins = array();
		foreach ( $value as $entry ) {
			if ( ! is_string( $entry ) ) {
				return self::origin_error( 'list', __( 'Each allowed origin must be text, such as https://app.example.com.', 'cairn-maps' ) );
			}
			if ( '' === trim( $entry ) ) {
				continue;
			}
			$origin = self::normalize_origin( $entry );
			if ( is_wp_error( $origin ) ) {
				return $origin;
			}
			$origins[ $origin ] = $origin;
		}
		if ( count( $origins ) > self::MAX_ORIGINS ) {
			/* translators: %d: most origins. */
			return self::origin_error( 'count', sprintf( __( 'At most %d origins can be allowed.', 'cairn-maps' ), self::MAX_ORIGINS ) );
		}
		return array_values( $origins );
	}

	/**
	 * Normalises one origin the way browsers serialise the Origin header: `scheme://host[:port]`
	 * with http or https, scheme and host in lowercase, the scheme's default port dropped
	 * (`https://a.example:443` is stored as `https://a.example`), a single trailing slash dropped.
	 * Refuses `null`, wildcards, other schemes, user names, paths, queries, fragments, malformed
	 * hosts or ports, and non-ASCII host names (browsers send their `xn--` form).
	 *
	 * @param string $value A candidate origin.
	 * @return string|WP_Error The origin, or why it is refused (status 400).
	 */
	public static function normalize_origin( string $value ) {
		$value = trim( $value );
		if ( 'null' === strtolower( $value ) ) {
			return self::origin_error( 'null', __( '“null” cannot be allowed: it is the origin of local files and sandboxed frames, which any page can create. Enter the exact origin of your front end, such as https://app.example.com.', 'cairn-maps' ) );
		}
		if ( false !== strpos( $value, '*' ) ) {
			/* translators: %s: the refused entry. */
			return self::origin_error( 'wildcard', sprintf( __( '“%s” contains a wildcard. List each origin exactly, such as https://app.example.com; leave the list empty to let any site read the public map data.', 'cairn-maps' ), $value ) );
		}
		if ( 1 !== preg_match( '#^(https?)://(.*)$#is', $value, $parts ) ) {
			/* translators: %s: the refused entry. */
			return self::origin_error( 'scheme', sprintf( __( '“%s” is not an origin: it must start with https:// or http://, as in https://app.example.com.', 'cairn-maps' ), $value ) );
		}
		$scheme    = strtolower( $parts[1] );
		$authority = '/' === substr( $parts[2], -1 ) ? substr( $parts[2], 0, -1 ) : $parts[2];
		$extra     = strcspn( $authority, '/?#' );
		if ( $extra < strlen( $authority ) ) {
			$suggestion = self::normalize_origin( $scheme . '://' . substr( $authority, 0, $extra ) );
			return self::origin_error(
				'path',
				is_string( $suggestion )
					/* translators: 1: the refused entry, 2: the origin it contains. */
					? sprintf( __( '“%1$s” has a path, query or fragment. An origin is only the scheme, host and port: %2$s', 'cairn-maps' ), $value, $suggestion )
					/* translators: %s: the refused entry. */
					: sprintf( __( '“%s” has a path, query or fragment. An origin is only the scheme, host and port, such as https://app.example.com.', 'cairn-maps' ), $value )
			);
		}
		if ( false !== strpos( $authority, '@' ) ) {
			/* translators: %s: the refused entry. */
			return self::origin_error( 'userinfo', sprintf( __( '“%s” contains a user name or password. An origin is only the scheme, host and port, such as https://app.example.com.', 'cairn-maps' ), $value ) );
		}
		if ( 1 === preg_match( '/[^\x00-\x7F]/', $authority ) ) {
			/* translators: %s: the refused entry. */
			return self::origin_error( 'ascii', sprintf( __( 'Write the domain of “%s” in its ASCII form (starting with xn--), as browsers send it.', 'cairn-maps' ), $value ) );
		}
		$host = self::normalize_host_port( $authority, self::DEFAULT_PORTS[ $scheme ] );
		if ( null === $host ) {
			/* translators: %s: the refused entry. */
			return self::origin_error( 'host', sprintf( __( '“%s” does not have a valid host name (letters, digits, hyphens and dots, or an IPv6 address in brackets) and port (1 to 65535).', 'cairn-maps' ), $value ) );
		}
		return $scheme . '://' . $host;
	}

	/**
	 * `host[:port]` in lowercase without the default port, or null when malformed.
	 *
	 * @param string $authority    Host and optional port.
	 * @param int    $default_port The scheme's default port.
	 */
	private static function normalize_host_port( string $authority, int $default_port ): ?string {
		if ( 1 === preg_match( '/^\[([0-9a-f:.]+)\](?::(\d{1,5}))?$/i', $authority, $parts ) ) {
			$host = self::serialize_ipv6( $parts[1] );
		} elseif ( 1 === preg_match( '/^([a-z0-9.-]+)(?::(\d{1,5}))?$/i', $authority, $parts ) ) {
			$host = strtolower( $parts[1] );
			if ( strlen( $host ) > 253 ) {
				return null;
			}
			$labels = explode( '.', $host );
			foreach ( $labels as $label ) {
				if ( 1 !== preg_match( '/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/', $label ) ) {
					return null;
				}
			}
			// A numeric last label makes it an IPv4 address to browsers: only the dotted decimal
			// form they write back can match.
			if ( 1 === preg_match( '/^(\d+|0x[0-9a-f]*)$/', (string) end( $labels ) ) && 1 !== preg_match( self::IPV4, $host ) ) {
				return null;
			}
		} else {
			return null;
		}
		$port = isset( $parts[2] ) ? (int) $parts[2] : $default_port;
		if ( null === $host || $port < 1 || $port > 65535 ) {
			return null;
		}
		return $port === $default_port ? $host : $host . ':' . $port;
	}

	/**
	 * An IPv6 address in brackets as browsers serialise it in an origin (the URL Standard: lowercase
	 * hexadecimal pieces, the first longest run of two or more zero pieces as `::`), or null.
	 *
	 * @param string $address The address, without brackets.
	 */
	private static function serialize_ipv6( string $address ): ?string {
		$packed = filter_var( $address, FILTER_VALIDATE_IP, FILTER_FLAG_IPV6 ) ? inet_pton( $address ) : false;
		if ( false === $packed || 16 !== strlen( $packed ) ) {
			return null;
		}
		$pieces = array_values( (array) unpack( 'n8', $packed ) );
		// The first longest run of zero pieces, if at least two long.
		list( $start, $length ) = array( -1, 1 );
		for ( $i = 0; $i < 8; $i++ ) {
			$run = 0;
			while ( $i + $run < 8 && 0 === $pieces[ $i + $run ] ) {
				++$run;
			}
			if ( $run > $length ) {
				list( $start, $length ) = array( $i, $run );
			}
		}
		$hex = array_map( 'dechex', $pieces );
		if ( $start < 0 ) {
			return '[' . implode( ':', $hex ) . ']';
		}
		return '[' . implode( ':', array_slice( $hex, 0, $start ) ) . '::' . implode( ':', array_slice( $hex, $start + $length ) ) . ']';
	}

	/**
	 * A refusal of the allowed origins setting: code `cairn_maps_origin_<kind>`, status 400.
	 *
	 * @param string $kind    list, count, null, wildcard, scheme, path, userinfo, ascii or host.
	 * @param string $message What is wrong, with an example of what is right.
	 */
	private static function origin_error( string $kind, string $message ): WP_Error {
		return new WP_Error( 'cairn_maps_origin_' . $kind, $message, array( 'status' => 400 ) );
	}
}
