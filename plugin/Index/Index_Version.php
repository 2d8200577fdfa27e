<?php
/**
 * The version the place index's addresses carry for a selection.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Index;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Content\Places_Version;

/**
 * A selection of markers carries the markers version (`v`), as since 0.6.0; one with posts (since
 * 0.10.0) carries it joined to the posts' version (Content\Places_Version), so that a change to
 * either renews the addresses of its tiles, list and summary, and an answer cached for good for
 * one `v` never outlives the places it shows.
 *
 * @since 0.10.0
 */
final class Index_Version {

	/**
	 * The version of a selection's addresses.
	 *
	 * @param Place_Filter $selection The selection.
	 * @param string       $markers   The current markers version.
	 */
	public static function of( Place_Filter $selection, string $markers ): string {
		return array() === $selection->types() ? $markers : $markers . '.' . ( new Places_Version() )->get();
	}
}
