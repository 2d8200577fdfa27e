<?php
/**
 * A direct look into the test Redis, beside WordPress' own connection.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Engines;

defined( 'ABSPATH' ) || exit;

/**
 * Keys and values as Redis holds them (bin/test-php.sh --redis defines where it is).
 */
trait Redis_Keys {

	/**
	 * Our own connection.
	 *
	 * @var \Redis|null
	 */
	private static $redis_client = null;

	/**
	 * The connection to the test Redis.
	 *
	 * @return \Redis
	 */
	private static function redis(): \Redis {
		if ( ! defined( 'CAIRN_TEST_REDIS_HOST' ) || ! class_exists( \Redis::class ) ) {
			self::fail( 'These tests need the Redis object cache: run them with bash bin/test-php.sh --redis.' );
		}
		if ( null === self::$redis_client ) {
			self::$redis_client = new \Redis();
			self::$redis_client->connect( (string) CAIRN_TEST_REDIS_HOST, (int) CAIRN_TEST_REDIS_PORT, 2.0 );
		}
		return self::$redis_client;
	}

	/**
	 * The drop-in's key prefix.
	 *
	 * @return string
	 */
	private static function redis_prefix(): string {
		return (string) CAIRN_TEST_REDIS_PREFIX;
	}

	/**
	 * Every key (sorted) whose name contains $part.
	 *
	 * @param string $part A piece of the key ('' for all).
	 * @return string[]
	 */
	private static function redis_keys( string $part ): array {
		$keys     = array();
		$iterator = null;
		$pattern  = self::redis_prefix() . '*' . ( '' !== $part ? $part . '*' : '' );
		do {
			$batch = self::redis()->scan( $iterator, $pattern, 1000 );
			if ( is_array( $batch ) ) {
				array_push( $keys, ...$batch );
			}
		} while ( $iterator > 0 );
		sort( $keys );
		return array_values( array_unique( $keys ) );
	}
}
