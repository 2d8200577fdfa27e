<?php
/**
 * A bounded cache of computed answers.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Rest;

defined( 'ABSPATH' ) || exit;

/**
 * Keeps computed answers of the places routes in the object cache, in at most SLOTS entries: an
 * answer's key (a hash of the data version and the canonical parameters) picks its slot, and a
 * newer answer takes the slot over. Anyone may ask for any search, so the number of entries is
 * fixed whatever is asked; answers of an older data version are never read (their key differs)
 * and are overwritten in time. Without a persistent object cache the slots last one request.
 *
 * @since 0.6.0
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
	 * The kept answer of a key, or null.
	 *
	 * @param string $key A hex hash (32 digits).
	 * @return array<string, mixed>|null
	 */
	public function get( string $key ): ?array {
		$entry = wp_cache_get( self::slot( $key ), self::GROUP );
		if ( ! is_array( $entry ) || ( $entry['key'] ?? null ) !== $key || ! is_array( $entry['data'] ?? null ) ) {
			return null;
		}
		return $entry['data'];
	}

	/**
	 * Keeps an answer in its key's slot.
	 *
	 * @param string               $key  A hex hash (32 digits).
	 * @param array<string, mixed> $data The answer.
	 */
	public function set( string $key, array $data ): void {
		wp_cache_set(
			self::slot( $key ),
			array(
				'key'  => $key,
				'data' => $data,
			),
			self::GROUP,
			self::TTL
		);
	}

	/**
	 * The slot of a key.
	 *
	 * @param string $key A hex hash.
	 */
	public static function slot( string $key ): string {
		return 'slot-' . ( hexdec( substr( $key, 0, 6 ) ) % self::SLOTS );
	}
}
