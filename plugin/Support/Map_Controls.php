<?php
/**
 * The map's controls, by name.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Support;

defined( 'ABSPATH' ) || exit;

/**
 * The switches of the block's `controls` attribute (block.json), in display order. The block's
 * attributes (Blocks\Map_Attributes::CONTROLS) and the site-wide defaults (Settings\Site_Defaults),
 * which sits in a lower layer than the block, both read them here.
 *
 * @since 0.4.0
 */
final class Map_Controls {

	public const NAMES = array( 'zoom', 'compass', 'scale', 'fullscreen', 'geolocate' );
}
