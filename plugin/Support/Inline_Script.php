<?php
/**
 * Something that prints data for a script, as a line of JavaScript.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Support;

defined( 'ABSPATH' ) || exit;

/**
 * What an editor panel prints before its script (`wp_add_inline_script( …, 'before' )`): the
 * editor data (Blocks\Editor_Data: `window.cairnMapsEditor`) and where mapbox-gl comes from
 * (Blocks\Mapbox_Gl: `window.cairnMapsMapboxGl`). The panels of markers and of posts' places
 * receive them from Plugin (the composition root), so they need not know the block's folder.
 *
 * The script is made when asked for, at enqueue time: what it holds depends on the user and the
 * settings of that request.
 *
 * @since 0.4.0
 */
interface Inline_Script {

	/**
	 * JavaScript that sets the data (ends with `;`).
	 */
	public function inline_script(): string;
}
