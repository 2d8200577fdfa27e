<?php
/**
 * A shape's copies for each zoom of the map.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Markers;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Support\Limits;

/**
 * The copies of a shape that the shape tiles serve below their full zoom: at zoom z, the shape as
 * the feed serves it (Shape_Store's simplified copy, Line_Simplifier) simplified again so that no
 * position moves by more than about half a pixel of a 512-pixel tile at z (TOLERANCE_PX), rounded
 * to the decimals that keep about an eighth of a pixel (ROUNDING_SHARE).
 *
 * Visvalingam–Whyatt again, in Web Mercator pixels of zoom 0: each position's effective area is
 * computed once (Line_Simplifier::effective_areas()), and the copy of zoom z keeps the positions
 * whose area exceeds (TOLERANCE_PX / 2^z)², so a coarser zoom keeps a subset of a finer one's.
 *
 * Every copy keeps the rules of shapes (Line_Simplifier::valid()) so nothing is drawn broken and
 * nothing disappears at a low zoom: a line keeps two different positions (its ends, or its most
 * significant middle position when both ends meet, as a round trip's do), a ring keeps three
 * corners; a part that rounding would shrink to a point keeps the copy's decimals (or, smaller
 * still, its positions as the copy has them). Holes narrower and
 * lower than one pixel are left out (invisible, and a hole may always go). A copy that breaks a
 * rule even so (a ring crossing itself or another once simplified) is tried at a quarter and a
 * sixteenth of the threshold, then the next finer zoom's copy is used, which is valid: the
 * finest is the feed's own copy.
 *
 * @since 0.7.0
 */
final class Zoom_Simplifier {

	/**
	 * How far a position may move, in pixels of the zoom (its square is the threshold of area).
	 */
	public const TOLERANCE_PX = 0.5;

	/**
	 * Positions are rounded to the decimals that keep them within 1/ROUNDING_SHARE of a pixel.
	 */
	private const ROUNDING_SHARE = 8;

	/**
	 * Decimals of the feed's copy (Line_Simplifier rounds to them).
	 */
	private const FULL_DECIMALS = 6;

	/**
	 * Web Mercator's latitude limit: positions beyond it are projected as if on it.
	 */
	private const MAX_LATITUDE = 85.0511287798;

	/**
	 * Shares of the threshold tried before the finer zoom's copy is used.
	 */
	private const RETRIES = array( 1.0, 0.25, 0.0625 );

	/**
	 * The copies of a shape for the zooms 0 … $full_zoom − 1 (the full zoom and above serve the
	 * shape as given).
	 *
	 * @param array{type: string, coordinates: array<int, mixed>} $copy      The feed's copy (2D, valid).
	 * @param int                                                 $full_zoom The first zoom that shows $copy itself.
	 * @return array<int, array{type: string, coordinates: array<int, mixed>}> Zoom => its copy.
	 */
	public static function levels( array $copy, int $full_zoom ): array {
		$shape  = self::prepare( $copy );
		$levels = array();
		$finer  = $copy;
		for ( $z = $full_zoom - 1; $z >= 0; $z-- ) {
			$found = null;
			foreach ( self::RETRIES as $share ) {
				$candidate = self::at( $copy, $shape, $z, $share * ( self::TOLERANCE_PX / ( 2 ** $z ) ) ** 2 );
				if ( Line_Simplifier::valid( $candidate ) ) {
					$found = $candidate;
					break;
				}
			}
			$levels[ $z ] = $found ?? $finer;
			$finer        = $levels[ $z ];
		}
		ksort( $levels );
		return $levels;
	}

	/**
	 * How many positions a geometry holds.
	 *
	 * @param array{type: string, coordinates: array<int, mixed>} $geometry A geometry.
	 */
	public static function count( array $geometry ): int {
		$count = 0;
		foreach ( Geometry_Measures::parts( $geometry ) as $positions ) {
			$count += count( $positions );
		}
		return $count;
	}

	/**
	 * The decimals a copy of zoom z is rounded to.
	 *
	 * @param int $z Zoom.
	 */
	public static function decimals( int $z ): int {
		$degrees_per_pixel = 360 / ( (int) Limits::get( 'tileSize' ) * 2 ** $z );
		return min( self::FULL_DECIMALS, max( 0, (int) ceil( -log10( $degrees_per_pixel / self::ROUNDING_SHARE ) ) ) );
	}

	/**
	 * The parts of a shape projected to pixels of zoom 0, with their effective areas, extents and
	 * whether each is a hole.
	 *
	 * @param array{type: string, coordinates: array<int, mixed>} $copy The feed's copy.
	 * @return array{area: bool, parts: array<int, array{positions: array<int, array<int, float>>, areas: array<int, float>, width: float, height: float, hole: bool, loop: bool}>}
	 */
	private static function prepare( array $copy ): array {
		$area  = ! Geometry_Measures::is_line( $copy );
		$holes = self::hole_flags( $copy );
		$size  = (float) Limits::get( 'tileSize' );
		$parts = array();
		foreach ( Geometry_Measures::parts( $copy ) as $i => $positions ) {
			$xs  = array();
			$ys  = array();
			$box = array( INF, INF, -INF, -INF );
			foreach ( $positions as $p ) {
				$lat  = deg2rad( max( -self::MAX_LATITUDE, min( self::MAX_LATITUDE, (float) $p[1] ) ) );
				$x    = ( (float) $p[0] + 180 ) / 360 * $size;
				$y    = ( 1 - log( tan( M_PI / 4 + $lat / 2 ) ) / M_PI ) / 2 * $size;
				$xs[] = $x;
				$ys[] = $y;
				$box  = array( min( $box[0], $x ), min( $box[1], $y ), max( $box[2], $x ), max( $box[3], $y ) );
			}
			$parts[ $i ] = array(
				'positions' => $positions,
				'areas'     => Line_Simplifier::effective_areas( $xs, $ys, $area ),
				'width'     => $box[2] - $box[0],
				'height'    => $box[3] - $box[1],
				'hole'      => $holes[ $i ] ?? false,
				// A line whose ends meet (a round trip).
				'loop'      => ! $area && self::same( $positions[0], $positions[ count( $positions ) - 1 ] ),
			);
		}
		return array(
			'area'  => $area,
			'parts' => $parts,
		);
	}

	/**
	 * Whether two positions are one (1 and 1.0 alike: JSON gives either).
	 *
	 * @param array<int, float|int> $a A position.
	 * @param array<int, float|int> $b A position.
	 */
	private static function same( array $a, array $b ): bool {
		return (float) $a[0] === (float) $b[0] && (float) $a[1] === (float) $b[1];
	}

	/**
	 * Per part (in Geometry_Measures::parts() order), whether it is a hole.
	 *
	 * @param array{type: string, coordinates: array<int, mixed>} $copy A geometry.
	 * @return array<int, bool>
	 */
	private static function hole_flags( array $copy ): array {
		if ( Geometry_Measures::is_line( $copy ) ) {
			return array();
		}
		$polygons = 'Polygon' === $copy['type'] ? array( $copy['coordinates'] ) : $copy['coordinates'];
		$flags    = array();
		foreach ( $polygons as $rings ) {
			foreach ( array_keys( $rings ) as $r ) {
				$flags[] = $r > 0;
			}
		}
		return $flags;
	}

	/**
	 * The copy at a threshold of zoom z.
	 *
	 * @param array{type: string, coordinates: array<int, mixed>} $copy      The feed's copy.
	 * @param array<string, mixed>                                $shape     What prepare() gave.
	 * @param int                                                 $z         Zoom.
	 * @param float                                               $threshold Least area kept, in pixels² of zoom 0.
	 * @return array{type: string, coordinates: array<int, mixed>}
	 */
	private static function at( array $copy, array $shape, int $z, float $threshold ): array {
		$pixel    = 1 / ( 2 ** $z );
		$decimals = self::decimals( $z );
		$parts    = array();
		foreach ( $shape['parts'] as $i => $part ) {
			if ( $part['hole'] && $part['width'] < $pixel && $part['height'] < $pixel ) {
				$parts[ $i ] = null;
				continue;
			}
			$keep = self::kept( $part['areas'], $threshold, $part['loop'] );
			// A part too small for the zoom's decimals keeps the copy's, or (smaller than those: the
			// copy keeps such parts as given) its own positions.
			$parts[ $i ] = self::rounded( $part['positions'], $keep, $decimals, $shape['area'] )
				?? self::rounded( $part['positions'], $keep, self::FULL_DECIMALS, $shape['area'] )
				?? array_map( static fn( array $p ): array => array( (float) $p[0], (float) $p[1] ), $part['positions'] );
		}
		return array(
			'type'        => $copy['type'],
			'coordinates' => self::nest( $copy, $parts ),
		);
	}

	/**
	 * The indexes of the positions kept at a threshold, in order: those above it; a line whose
	 * ends meet also keeps its most significant middle position.
	 *
	 * @param array<int, float> $areas     Effective areas.
	 * @param float             $threshold Least area kept.
	 * @param bool              $loop      Whether the part is a line whose ends meet.
	 * @return int[]
	 */
	private static function kept( array $areas, float $threshold, bool $loop ): array {
		$keep = array();
		$best = null;
		foreach ( $areas as $i => $value ) {
			if ( $value > $threshold ) {
				$keep[] = $i;
			} elseif ( null === $best || $value > $areas[ $best ] ) {
				$best = $i;
			}
		}
		if ( $loop && null !== $best && count( $keep ) <= 2 ) {
			// Only the ends: a round trip would be one point. Its farthest bend keeps it a line.
			$keep[] = $best;
			sort( $keep );
		}
		return $keep;
	}

	/**
	 * Positions kept, rounded, without consecutive repeats; null when the part shrank to a point
	 * (a line of one position, a ring of fewer than three corners).
	 *
	 * @param array<int, array<int, float>> $positions Positions.
	 * @param int[]                         $keep      Indexes kept, in order.
	 * @param int                           $decimals  Decimals.
	 * @param bool                          $ring      Whether the part is a ring.
	 * @return array<int, array{0: float, 1: float}>|null
	 */
	private static function rounded( array $positions, array $keep, int $decimals, bool $ring ): ?array {
		$out      = array();
		$distinct = array();
		foreach ( $keep as $i ) {
			$p    = array( round( (float) $positions[ $i ][0], $decimals ), round( (float) $positions[ $i ][1], $decimals ) );
			$last = end( $out );
			if ( false === $last || $last !== $p ) {
				$out[]                           = $p;
				$distinct[ $p[0] . ' ' . $p[1] ] = true;
			}
		}
		if ( count( $distinct ) < ( $ring ? 3 : 2 ) ) {
			return null;
		}
		if ( $ring && $out[0] !== $out[ count( $out ) - 1 ] ) {
			$out[] = $out[0];
		}
		return $out;
	}

	/**
	 * Puts the parts back into the geometry's nesting (holes left out), rings wound as RFC 7946 asks.
	 *
	 * @param array{type: string, coordinates: array<int, mixed>}    $copy  The feed's copy.
	 * @param array<int, array<int, array{0: float, 1: float}>|null> $parts Parts, null for a hole left out.
	 * @return array<int, mixed>
	 */
	private static function nest( array $copy, array $parts ): array {
		if ( 'LineString' === $copy['type'] ) {
			return (array) $parts[0];
		}
		if ( 'MultiLineString' === $copy['type'] ) {
			return array_values( array_map( 'array_values', array_filter( $parts, 'is_array' ) ) );
		}
		$polygons = 'Polygon' === $copy['type'] ? array( $copy['coordinates'] ) : $copy['coordinates'];
		$out      = array();
		$next     = 0;
		foreach ( $polygons as $rings ) {
			$polygon = array();
			foreach ( array_keys( $rings ) as $r ) {
				$ring = $parts[ $next++ ];
				if ( null !== $ring ) {
					$polygon[] = Line_Simplifier::wind( $ring, 0 === $r );
				}
			}
			$out[] = $polygon;
		}
		return 'Polygon' === $copy['type'] ? $out[0] : $out;
	}
}
