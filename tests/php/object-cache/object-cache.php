<?php
/**
 * TEST DROP-IN, NOT FOR PRODUCTION: a persistent object cache over Redis (php-redis) for the
 * plugin's PHP tests (`bash bin/test-php.sh --redis`).
 *
 * The well-known drop-ins (Redis Object Cache, WP Redis…) are not in the registries this project
 * can reach, so this file implements core's object-cache API itself, small and plain: the same
 * functions and the same semantics as wp-includes/cache.php (WP_Object_Cache), except that
 * every group not declared non-persistent is kept in Redis and shared by every PHP process of the
 * site. A site should use a maintained drop-in; this one exists to run our code the way a big
 * site runs it.
 *
 * bin/test-php.sh --redis installs it as <content dir>/object-cache.php and defines
 * CAIRN_TEST_REDIS_HOST / CAIRN_TEST_REDIS_PORT (and CAIRN_TEST_REDIS_PREFIX) in the test
 * configuration.
 *
 * Storage: integers as their decimal digits (so that incr/decr are Redis' atomic INCRBY),
 * everything else PHP-serialized; expirations as Redis TTLs. Keys are
 * `<prefix><blog id or "g">:<group>:<key>`.
 *
 * @package Cairn\Maps
 */

// phpcs:disable WordPress.NamingConventions.PrefixAllGlobals -- core's object-cache API, by its names.
// phpcs:disable WordPress.PHP.DiscouragedPHPFunctions.serialize_serialize, WordPress.PHP.DiscouragedPHPFunctions.serialize_unserialize -- the storage format of a cache.
// phpcs:disable Generic.Files.OneObjectStructurePerFile.MultipleFound, Universal.Files.SeparateFunctionsFromOO.Mixed -- a drop-in is one file.

defined( 'ABSPATH' ) || exit;

/**
 * Sets up the object cache global.
 */
function wp_cache_init() {
	$GLOBALS['wp_object_cache'] = new WP_Object_Cache(); // phpcs:ignore WordPress.WP.GlobalVariablesOverride.Prohibited -- the object cache's own global.
}

/**
 * Adds data to the cache, if the key is not taken.
 *
 * @param int|string $key    Key.
 * @param mixed      $data   Data.
 * @param string     $group  Group.
 * @param int        $expire Seconds, 0 for no expiry.
 * @return bool
 */
function wp_cache_add( $key, $data, $group = '', $expire = 0 ) {
	return $GLOBALS['wp_object_cache']->add( $key, $data, $group, (int) $expire );
}

/**
 * Adds several values, each only if its key is not taken.
 *
 * @param array  $data   Key => data.
 * @param string $group  Group.
 * @param int    $expire Seconds.
 * @return bool[]
 */
function wp_cache_add_multiple( array $data, $group = '', $expire = 0 ) {
	return $GLOBALS['wp_object_cache']->add_multiple( $data, $group, (int) $expire );
}

/**
 * Replaces data in the cache, if the key exists.
 *
 * @param int|string $key    Key.
 * @param mixed      $data   Data.
 * @param string     $group  Group.
 * @param int        $expire Seconds.
 * @return bool
 */
function wp_cache_replace( $key, $data, $group = '', $expire = 0 ) {
	return $GLOBALS['wp_object_cache']->replace( $key, $data, $group, (int) $expire );
}

/**
 * Stores data in the cache.
 *
 * @param int|string $key    Key.
 * @param mixed      $data   Data.
 * @param string     $group  Group.
 * @param int        $expire Seconds.
 * @return bool
 */
function wp_cache_set( $key, $data, $group = '', $expire = 0 ) {
	return $GLOBALS['wp_object_cache']->set( $key, $data, $group, (int) $expire );
}

/**
 * Stores several values.
 *
 * @param array  $data   Key => data.
 * @param string $group  Group.
 * @param int    $expire Seconds.
 * @return bool[]
 */
function wp_cache_set_multiple( array $data, $group = '', $expire = 0 ) {
	return $GLOBALS['wp_object_cache']->set_multiple( $data, $group, (int) $expire );
}

/**
 * Reads data from the cache.
 *
 * @param int|string $key   Key.
 * @param string     $group Group.
 * @param bool       $force Skip the local copy and ask Redis.
 * @param bool|null  $found Whether the key was found.
 * @return mixed False when not found.
 */
function wp_cache_get( $key, $group = '', $force = false, &$found = null ) {
	return $GLOBALS['wp_object_cache']->get( $key, $group, $force, $found );
}

/**
 * Reads several keys of one group.
 *
 * @param array  $keys  Keys.
 * @param string $group Group.
 * @param bool   $force Skip the local copies.
 * @return array Key => data (false when not found).
 */
function wp_cache_get_multiple( $keys, $group = '', $force = false ) {
	return $GLOBALS['wp_object_cache']->get_multiple( $keys, $group, $force );
}

/**
 * Deletes a key.
 *
 * @param int|string $key   Key.
 * @param string     $group Group.
 * @return bool Whether it existed.
 */
function wp_cache_delete( $key, $group = '' ) {
	return $GLOBALS['wp_object_cache']->delete( $key, $group );
}

/**
 * Deletes several keys.
 *
 * @param array  $keys  Keys.
 * @param string $group Group.
 * @return bool[]
 */
function wp_cache_delete_multiple( array $keys, $group = '' ) {
	return $GLOBALS['wp_object_cache']->delete_multiple( $keys, $group );
}

/**
 * Increments a numeric value.
 *
 * @param int|string $key    Key.
 * @param int        $offset By how much.
 * @param string     $group  Group.
 * @return int|false The new value, false when the key does not exist.
 */
function wp_cache_incr( $key, $offset = 1, $group = '' ) {
	return $GLOBALS['wp_object_cache']->incr( $key, (int) $offset, $group );
}

/**
 * Decrements a numeric value (never below 0).
 *
 * @param int|string $key    Key.
 * @param int        $offset By how much.
 * @param string     $group  Group.
 * @return int|false The new value, false when the key does not exist.
 */
function wp_cache_decr( $key, $offset = 1, $group = '' ) {
	return $GLOBALS['wp_object_cache']->decr( $key, (int) $offset, $group );
}

/**
 * Empties the whole cache (Redis and the local copies).
 *
 * @return bool
 */
function wp_cache_flush() {
	return $GLOBALS['wp_object_cache']->flush();
}

/**
 * Empties this process' local copies only.
 *
 * @return bool
 */
function wp_cache_flush_runtime() {
	return $GLOBALS['wp_object_cache']->flush_runtime();
}

/**
 * Empties one group (every site's).
 *
 * @param string $group Group.
 * @return bool
 */
function wp_cache_flush_group( $group ) {
	return $GLOBALS['wp_object_cache']->flush_group( $group );
}

/**
 * What this cache supports beyond the basics.
 *
 * @param string $feature Feature name.
 * @return bool
 */
function wp_cache_supports( $feature ) {
	return in_array( $feature, array( 'add_multiple', 'set_multiple', 'get_multiple', 'delete_multiple', 'flush_runtime', 'flush_group' ), true );
}

/**
 * Closes the connection.
 *
 * @return bool
 */
function wp_cache_close() {
	return $GLOBALS['wp_object_cache']->close();
}

/**
 * Groups shared by every site of a network.
 *
 * @param string|string[] $groups Groups.
 */
function wp_cache_add_global_groups( $groups ) {
	$GLOBALS['wp_object_cache']->add_global_groups( $groups );
}

/**
 * Groups kept in this process only.
 *
 * @param string|string[] $groups Groups.
 */
function wp_cache_add_non_persistent_groups( $groups ) {
	$GLOBALS['wp_object_cache']->add_non_persistent_groups( $groups );
}

/**
 * Switches the site the keys belong to.
 *
 * @param int $blog_id Site ID.
 */
function wp_cache_switch_to_blog( $blog_id ) {
	$GLOBALS['wp_object_cache']->switch_to_blog( (int) $blog_id );
}

/**
 * Deprecated by core since 3.5: clears the local copies.
 */
function wp_cache_reset() {
	_deprecated_function( __FUNCTION__, '3.5.0', 'wp_cache_switch_to_blog()' );
	$GLOBALS['wp_object_cache']->flush_runtime();
}

/**
 * The object cache: a local copy per process in front of Redis.
 */
class WP_Object_Cache {

	/**
	 * Local copies: group => key => data.
	 *
	 * @var array<string, array<string, mixed>>
	 */
	private array $cache = array();

	/**
	 * Global groups (group => true).
	 *
	 * @var array<string, bool>
	 */
	private array $global_groups = array();

	/**
	 * Groups never sent to Redis (group => true).
	 *
	 * @var array<string, bool>
	 */
	private array $non_persistent_groups = array();

	/**
	 * Key prefix of the current site.
	 *
	 * @var string
	 */
	private string $blog_prefix = '1';

	/**
	 * Prefix of every key of this cache.
	 *
	 * @var string
	 */
	private string $prefix;

	/**
	 * The connection.
	 *
	 * @var Redis
	 */
	private Redis $redis;

	/**
	 * Reads answered (core's statistics names).
	 *
	 * @var int
	 */
	public int $cache_hits = 0;

	/**
	 * Reads not answered.
	 *
	 * @var int
	 */
	public int $cache_misses = 0;

	/**
	 * Connects to Redis; a test run without it stops here with a message.
	 *
	 * @throws RuntimeException When Redis cannot be reached.
	 */
	public function __construct() {
		$host         = defined( 'CAIRN_TEST_REDIS_HOST' ) ? (string) CAIRN_TEST_REDIS_HOST : '127.0.0.1';
		$port         = defined( 'CAIRN_TEST_REDIS_PORT' ) ? (int) CAIRN_TEST_REDIS_PORT : 6379;
		$this->prefix = defined( 'CAIRN_TEST_REDIS_PREFIX' ) ? (string) CAIRN_TEST_REDIS_PREFIX : 'wp:';
		$this->redis  = new Redis();
		try {
			$this->redis->connect( $host, $port, 2.0 );
			$this->redis->setOption( Redis::OPT_SERIALIZER, Redis::SERIALIZER_NONE );
			$this->redis->setOption( Redis::OPT_READ_TIMEOUT, 5.0 );
		} catch ( RedisException $e ) {
			throw new RuntimeException( "The test object cache cannot reach Redis at {$host}:{$port}: " . $e->getMessage() );
		}
		$this->blog_prefix = is_multisite() ? (string) get_current_blog_id() : '1';
	}

	/**
	 * Adds, if the key is not taken (here or in Redis).
	 *
	 * @param int|string $key    Key.
	 * @param mixed      $data   Data.
	 * @param string     $group  Group.
	 * @param int        $expire Seconds.
	 * @return bool
	 */
	public function add( $key, $data, $group = '', int $expire = 0 ): bool {
		if ( wp_suspend_cache_addition() || ! $this->is_valid_key( $key ) ) {
			return false;
		}
		$group = $this->group( $group );
		if ( $this->is_local( $group ) ) {
			if ( array_key_exists( (string) $key, $this->cache[ $group ] ?? array() ) ) {
				return false;
			}
			return $this->set( $key, $data, $group, $expire );
		}
		$options = array( 'nx' );
		if ( $expire > 0 ) {
			$options['ex'] = $expire;
		}
		if ( true !== $this->redis->set( $this->key( $key, $group ), self::encode( $data ), $options ) ) {
			return false;
		}
		$this->cache[ $group ][ (string) $key ] = self::copy( $data );
		return true;
	}

	/**
	 * Adds several values.
	 *
	 * @param array  $data   Key => data.
	 * @param string $group  Group.
	 * @param int    $expire Seconds.
	 * @return bool[]
	 */
	public function add_multiple( array $data, $group = '', int $expire = 0 ): array {
		$done = array();
		foreach ( $data as $key => $value ) {
			$done[ $key ] = $this->add( $key, $value, $group, $expire );
		}
		return $done;
	}

	/**
	 * Replaces, if the key exists.
	 *
	 * @param int|string $key    Key.
	 * @param mixed      $data   Data.
	 * @param string     $group  Group.
	 * @param int        $expire Seconds.
	 * @return bool
	 */
	public function replace( $key, $data, $group = '', int $expire = 0 ): bool {
		if ( ! $this->is_valid_key( $key ) ) {
			return false;
		}
		$group = $this->group( $group );
		if ( $this->is_local( $group ) ) {
			if ( ! array_key_exists( (string) $key, $this->cache[ $group ] ?? array() ) ) {
				return false;
			}
			return $this->set( $key, $data, $group, $expire );
		}
		$options = array( 'xx' );
		if ( $expire > 0 ) {
			$options['ex'] = $expire;
		}
		if ( true !== $this->redis->set( $this->key( $key, $group ), self::encode( $data ), $options ) ) {
			return false;
		}
		$this->cache[ $group ][ (string) $key ] = self::copy( $data );
		return true;
	}

	/**
	 * Stores.
	 *
	 * @param int|string $key    Key.
	 * @param mixed      $data   Data.
	 * @param string     $group  Group.
	 * @param int        $expire Seconds.
	 * @return bool
	 */
	public function set( $key, $data, $group = '', int $expire = 0 ): bool {
		if ( ! $this->is_valid_key( $key ) ) {
			return false;
		}
		$group = $this->group( $group );
		if ( ! $this->is_local( $group ) ) {
			$stored = $expire > 0
				? $this->redis->setex( $this->key( $key, $group ), $expire, self::encode( $data ) )
				: $this->redis->set( $this->key( $key, $group ), self::encode( $data ) );
			if ( true !== $stored ) {
				return false;
			}
		}
		$this->cache[ $group ][ (string) $key ] = self::copy( $data );
		return true;
	}

	/**
	 * Stores several values.
	 *
	 * @param array  $data   Key => data.
	 * @param string $group  Group.
	 * @param int    $expire Seconds.
	 * @return bool[]
	 */
	public function set_multiple( array $data, $group = '', int $expire = 0 ): array {
		$done = array();
		foreach ( $data as $key => $value ) {
			$done[ $key ] = $this->set( $key, $value, $group, $expire );
		}
		return $done;
	}

	/**
	 * Reads.
	 *
	 * @param int|string $key   Key.
	 * @param string     $group Group.
	 * @param bool       $force Ask Redis even when there is a local copy.
	 * @param bool|null  $found Whether it was found.
	 * @return mixed
	 */
	public function get( $key, $group = '', $force = false, &$found = null ) {
		$found = false;
		if ( ! $this->is_valid_key( $key ) ) {
			return false;
		}
		$group = $this->group( $group );
		$key   = (string) $key;
		if ( ( ! $force || $this->is_local( $group ) ) && array_key_exists( $key, $this->cache[ $group ] ?? array() ) ) {
			$found = true;
			++$this->cache_hits;
			return self::copy( $this->cache[ $group ][ $key ] );
		}
		if ( $this->is_local( $group ) ) {
			++$this->cache_misses;
			return false;
		}
		$raw = $this->redis->get( $this->key( $key, $group ) );
		if ( ! is_string( $raw ) ) {
			unset( $this->cache[ $group ][ $key ] );
			++$this->cache_misses;
			return false;
		}
		$found = true;
		++$this->cache_hits;
		$data                          = self::decode( $raw );
		$this->cache[ $group ][ $key ] = self::copy( $data );
		return $data;
	}

	/**
	 * Reads several keys (one MGET for those not held locally).
	 *
	 * @param array  $keys  Keys.
	 * @param string $group Group.
	 * @param bool   $force Ask Redis for all of them.
	 * @return array
	 */
	public function get_multiple( $keys, $group = '', $force = false ): array {
		$group  = $this->group( $group );
		$values = array();
		$ask    = array();
		foreach ( (array) $keys as $key ) {
			if ( ! $this->is_valid_key( $key ) ) {
				$values[ $key ] = false;
				continue;
			}
			$values[ $key ] = false;
			if ( ( ! $force || $this->is_local( $group ) ) && array_key_exists( (string) $key, $this->cache[ $group ] ?? array() ) ) {
				++$this->cache_hits;
				$values[ $key ] = self::copy( $this->cache[ $group ][ (string) $key ] );
			} elseif ( ! $this->is_local( $group ) ) {
				$ask[] = $key;
			} else {
				++$this->cache_misses;
			}
		}
		if ( array() !== $ask ) {
			$raws = $this->redis->mget( array_map( fn( $key ) => $this->key( $key, $group ), $ask ) );
			foreach ( $ask as $i => $key ) {
				$raw = is_array( $raws ) ? ( $raws[ $i ] ?? false ) : false;
				if ( ! is_string( $raw ) ) {
					++$this->cache_misses;
					unset( $this->cache[ $group ][ (string) $key ] );
					continue;
				}
				++$this->cache_hits;
				$values[ $key ]                         = self::decode( $raw );
				$this->cache[ $group ][ (string) $key ] = self::copy( $values[ $key ] );
			}
		}
		return $values;
	}

	/**
	 * Deletes.
	 *
	 * @param int|string $key   Key.
	 * @param string     $group Group.
	 * @return bool Whether it existed.
	 */
	public function delete( $key, $group = '' ): bool {
		if ( ! $this->is_valid_key( $key ) ) {
			return false;
		}
		$group = $this->group( $group );
		$local = array_key_exists( (string) $key, $this->cache[ $group ] ?? array() );
		unset( $this->cache[ $group ][ (string) $key ] );
		if ( $this->is_local( $group ) ) {
			return $local;
		}
		return $this->redis->del( $this->key( $key, $group ) ) > 0;
	}

	/**
	 * Deletes several keys.
	 *
	 * @param array  $keys  Keys.
	 * @param string $group Group.
	 * @return bool[]
	 */
	public function delete_multiple( array $keys, $group = '' ): array {
		$done = array();
		foreach ( $keys as $key ) {
			$done[ $key ] = $this->delete( $key, $group );
		}
		return $done;
	}

	/**
	 * Increments (atomically in Redis).
	 *
	 * @param int|string $key    Key.
	 * @param int        $offset By how much.
	 * @param string     $group  Group.
	 * @return int|false
	 */
	public function incr( $key, int $offset = 1, $group = '' ) {
		if ( ! $this->is_valid_key( $key ) ) {
			return false;
		}
		$group = $this->group( $group );
		if ( $this->is_local( $group ) ) {
			if ( ! array_key_exists( (string) $key, $this->cache[ $group ] ?? array() ) ) {
				return false;
			}
			$value                                  = max( 0, ( is_numeric( $this->cache[ $group ][ (string) $key ] ) ? (int) $this->cache[ $group ][ (string) $key ] : 0 ) + $offset );
			$this->cache[ $group ][ (string) $key ] = $value;
			return $value;
		}
		$name = $this->key( $key, $group );
		$raw  = $this->redis->get( $name );
		if ( ! is_string( $raw ) ) {
			return false;
		}
		if ( 1 !== preg_match( '/^-?\d+$/', $raw ) ) {
			// Not a stored integer: core counts from 0, keeping the key's time to live.
			$this->redis->set( $name, '0', array( 'keepttl' ) );
		}
		$value = (int) $this->redis->incrBy( $name, $offset );
		if ( $value < 0 ) {
			$value = 0;
			$this->redis->set( $name, '0', array( 'keepttl' ) );
		}
		$this->cache[ $group ][ (string) $key ] = $value;
		return $value;
	}

	/**
	 * Decrements (never below 0).
	 *
	 * @param int|string $key    Key.
	 * @param int        $offset By how much.
	 * @param string     $group  Group.
	 * @return int|false
	 */
	public function decr( $key, int $offset = 1, $group = '' ) {
		return $this->incr( $key, -$offset, $group );
	}

	/**
	 * Empties Redis' database and the local copies.
	 *
	 * @return bool
	 */
	public function flush(): bool {
		$this->cache = array();
		return (bool) $this->redis->flushDB();
	}

	/**
	 * Empties the local copies.
	 *
	 * @return bool
	 */
	public function flush_runtime(): bool {
		$this->cache = array();
		return true;
	}

	/**
	 * Empties one group, in Redis (every site) and locally.
	 *
	 * @param string $group Group.
	 * @return bool
	 */
	public function flush_group( $group ): bool {
		$group = $this->group( $group );
		unset( $this->cache[ $group ] );
		$pattern  = preg_replace( '/([*?\[\]\\\\])/', '\\\\$1', $this->prefix ) . '*:' . preg_replace( '/([*?\[\]\\\\])/', '\\\\$1', $group ) . ':*';
		$iterator = null;
		do {
			$keys = $this->redis->scan( $iterator, $pattern, 500 );
			if ( is_array( $keys ) && array() !== $keys ) {
				$this->redis->del( $keys );
			}
		} while ( $iterator > 0 );
		return true;
	}

	/**
	 * Closes the connection.
	 *
	 * @return bool
	 */
	public function close(): bool {
		return (bool) $this->redis->close();
	}

	/**
	 * Declares global groups.
	 *
	 * @param string|string[] $groups Groups.
	 */
	public function add_global_groups( $groups ): void {
		foreach ( (array) $groups as $group ) {
			$this->global_groups[ (string) $group ] = true;
		}
	}

	/**
	 * Declares groups kept in this process only.
	 *
	 * @param string|string[] $groups Groups.
	 */
	public function add_non_persistent_groups( $groups ): void {
		foreach ( (array) $groups as $group ) {
			$this->non_persistent_groups[ (string) $group ] = true;
		}
	}

	/**
	 * Switches the site of the keys.
	 *
	 * @param int $blog_id Site ID.
	 */
	public function switch_to_blog( int $blog_id ): void {
		$this->blog_prefix = is_multisite() ? (string) $blog_id : '1';
	}

	/**
	 * Core's statistics output (debug bars call it).
	 */
	public function stats(): void {
		echo '<p>Redis (test drop-in): ' . (int) $this->cache_hits . ' hits, ' . (int) $this->cache_misses . ' misses</p>';
	}

	/**
	 * The group name ('' is 'default').
	 *
	 * @param mixed $group Group.
	 * @return string
	 */
	private function group( $group ): string {
		return ( is_string( $group ) && '' !== $group ) ? $group : 'default';
	}

	/**
	 * Whether a group lives in this process only.
	 *
	 * @param string $group Group.
	 * @return bool
	 */
	private function is_local( string $group ): bool {
		return isset( $this->non_persistent_groups[ $group ] );
	}

	/**
	 * The Redis key.
	 *
	 * @param int|string $key   Key.
	 * @param string     $group Group.
	 * @return string
	 */
	private function key( $key, string $group ): string {
		$site = isset( $this->global_groups[ $group ] ) ? 'g' : $this->blog_prefix;
		return $this->prefix . $site . ':' . $group . ':' . $key;
	}

	/**
	 * Core's key rule: an int, or a non-empty string (a notice otherwise, as core gives).
	 *
	 * @param mixed $key Key.
	 * @return bool
	 */
	private function is_valid_key( $key ): bool {
		if ( is_int( $key ) || ( is_string( $key ) && '' !== trim( $key ) ) ) {
			return true;
		}
		_doing_it_wrong( __METHOD__, 'Cache keys must be integers or non-empty strings.', '6.1.0' );
		return false;
	}

	/**
	 * What is sent to Redis.
	 *
	 * @param mixed $data Data.
	 * @return string
	 */
	private static function encode( $data ): string {
		return is_int( $data ) ? (string) $data : serialize( $data );
	}

	/**
	 * What Redis held, decoded.
	 *
	 * @param string $raw Stored bytes.
	 * @return mixed
	 */
	private static function decode( string $raw ) {
		if ( 1 === preg_match( '/^-?\d+$/', $raw ) ) {
			return (int) $raw;
		}
		return unserialize( $raw ); // phpcs:ignore WordPress.PHP.DiscouragedPHPFunctions.serialize_unserialize -- our own writes.
	}

	/**
	 * A copy that later changes to the caller's object do not reach.
	 *
	 * @param mixed $data Data.
	 * @return mixed
	 */
	private static function copy( $data ) {
		return is_object( $data ) ? clone $data : $data;
	}
}
