<?php
/**
 * A bounded cache of computed answers.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Rest;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Support\Slot_Cache;

/**
 * Keeps computed answers of the places routes in Support\Slot_Cache (the plugin's one bounded
 * cache), in at most SLOTS entries of the object cache: anyone may ask for any search, so the
 * number of entries is fixed whatever is asked; an answer's key is a hash of the data version and
 * the canonical parameters, so answers of an older version are never read. Without a persistent
 * object cache the slots last one request (an answer costs a few index reads; transients would
 * cost more writes than they save).
 *
 * @since 0.6.0
 * @since 0.7.0 The slots are Slot_Cache's (two-way, as the tiles').
 */
class Answer_Slots {

	/**
	 * The object cache group.
	 */
	public const GROUP = 'cairn_maps_places';

	/**
	 * Most entries kept.
	 */
	public const SLOTS = 1024;

	/**
	 * How long an entry is kept, in seconds.
	 */
	public const TTL = DAY_IN_SECONDS;

	/**
	 * The slots.
	 *
	 * @var Slot_Cache
	 */
	private Slot_Cache $cache;

	/**
	 * Creates the slots.
	 */
	public function __construct() {
		$this->cache = new Slot_Cache( self::GROUP, self::SLOTS, false, self::TTL );
	}

	/**
	 * The kept answer of a key, or null.
	 *
	 * @param string $key A hex hash (32 digits).
	 * @return array<string, mixed>|null
	 */
	public function get( string $key ): ?array {
		$data = $this->cache->get( $key );
		return is_array( $data ) ? $data : null;
	}

	/**
	 * Keeps an answer in its key's slot.
	 *
	 * @param string               $key  A hex hash (32 digits).
	 * @param array<string, mixed> $data The answer.
	 */
	public function set( string $key, array $data ): void {
		$this->cache->set( $key, $data );
	}
}
