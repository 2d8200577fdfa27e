<?php
/**
 * Whether a map's marker selection holds any shape.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Feed;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Markers\Marker_Filters;
use Cairn\Maps\Markers\Markers_Version;

/**
 * Answers "does this selection hold a shape?" for a map's configuration (`shapesUrl` is '' when
 * not: the map then asks for no shapes and loads no shapes code), cheaply enough for every page
 * render.
 *
 * The answers live in one autoloaded option under the markers version (every shape change bumps
 * it): reading them costs no query. When the version changes, the first render asks once whether
 * the site has any published shape; a site without any answers every selection from that, so a
 * point-only site pays one indexed read per markers change. Otherwise each selection is asked
 * once (Shape_Rows::exists()) and remembered, at most MAX_ANSWERS selections, the oldest
 * forgotten first.
 *
 * @since 0.5.0
 */
class Shape_Presence {

	/**
	 * The option holding the answers: `{version, any, answers: {key: bool}}`.
	 */
	public const OPTION = 'cairn_maps_shape_presence';

	/**
	 * Most selections remembered.
	 */
	public const MAX_ANSWERS = 64;

	/**
	 * The markers version.
	 *
	 * @var Markers_Version
	 */
	private Markers_Version $version;

	/**
	 * Shape reads.
	 *
	 * @var Shape_Rows
	 */
	private Shape_Rows $shapes;

	/**
	 * Creates the check.
	 *
	 * @param Markers_Version|null $version The markers version.
	 * @param Shape_Rows|null      $shapes  Shape reads.
	 */
	public function __construct( ?Markers_Version $version = null, ?Shape_Rows $shapes = null ) {
		$this->version = $version ?? new Markers_Version();
		$this->shapes  = $shapes ?? new Shape_Rows();
	}

	/**
	 * Whether any published marker of a selection carries a shape.
	 *
	 * @param array{groups?: string[], ids?: int[]} $filters A map's marker filters (none: all markers).
	 */
	public function has_shapes( array $filters ): bool {
		$version = $this->version->get(); // Read before the shapes: a change meanwhile bumps it again.
		$stored  = get_option( self::OPTION );
		if ( ! is_array( $stored ) || ( $stored['version'] ?? null ) !== $version || ! is_array( $stored['answers'] ?? null ) ) {
			$stored = array(
				'version' => $version,
				'any'     => $this->shapes->exists( array() ),
				'answers' => array(),
			);
			if ( ! $stored['any'] ) {
				update_option( self::OPTION, $stored, true );
				return false;
			}
		}
		if ( ! $stored['any'] ) {
			return false;
		}
		$normal = Marker_Filters::normalize( array_intersect_key( $filters, array_flip( array( 'groups', 'ids' ) ) ) );
		$key    = substr( md5( (string) wp_json_encode( $normal ) ), 0, 12 );
		if ( isset( $stored['answers'][ $key ] ) ) {
			return (bool) $stored['answers'][ $key ];
		}
		$answer                    = $this->shapes->exists( $normal );
		$stored['answers'][ $key ] = $answer;
		if ( count( $stored['answers'] ) > self::MAX_ANSWERS ) {
			$stored['answers'] = array_slice( $stored['answers'], -self::MAX_ANSWERS, null, true );
		}
		update_option( self::OPTION, $stored, true );
		return $answer;
	}
}
