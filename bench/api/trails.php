<?php
/**
 * Bench-only trails for the shapes benchmark of issue 21: deterministic random-walk tracks that
 * look like recorded hikes (bench/api/README.md, "Routes and areas").
 *
 *   php bench/api/trails.php gpx POINTS FILE [SEED]   writes a GPX file: one track of POINTS
 *                                                     points, elevation and time on every point
 *
 * wp.php seed-shapes requires this file for cairn_bench_trail().
 *
 * A trail: the heading turns smoothly (the turn rate is itself a damped random walk, so the path
 * bends in curves of a few hundred metres, as a path does, never zigzags) and is pulled gently
 * towards a general direction that drifts slowly (a path goes somewhere: it does not circle in
 * place), steps of 0.7–1.3 × the
 * mean step, and ±1.5 m of GPS noise on every recorded position; the elevation follows a grade that
 * drifts between −25 % and +25 %, plus ±0.8 m of noise. Positions have 7 decimals (as GPS
 * receivers write them), elevations 1 decimal. The same seed gives the same trail.
 *
 * @package Cairn\Maps
 */

'cli' === PHP_SAPI || exit; // A command-line script, never a web page.

/**
 * A trail of $count positions [lng, lat, ele] from ($lng, $lat).
 *
 * @param float $lng    Start longitude.
 * @param float $lat    Start latitude.
 * @param int   $count  Number of positions.
 * @param float $step_m Mean distance between positions, metres.
 * @param int   $seed   Seed (the same trail for the same seed).
 * @return list<array{0: float, 1: float, 2: float}>
 */
function cairn_bench_trail( float $lng, float $lat, int $count, float $step_m, int $seed ): array {
	mt_srand( $seed );
	$rand    = static function (): float {
		return mt_rand() / mt_getrandmax();
	};
	$heading = 2 * M_PI * $rand();
	$goal    = $heading;
	$turn    = 0.0;
	$ele     = 150 + 1300 * $rand();
	$grade   = 0.0;
	$points  = array();
	for ( $i = 0; $i < $count; $i++ ) {
		$noise_m  = 1.5;
		$cos_lat  = max( 0.05, cos( deg2rad( $lat ) ) );
		$points[] = array(
			round( $lng + ( $rand() - 0.5 ) * 2 * $noise_m / ( 111320 * $cos_lat ), 7 ),
			round( $lat + ( $rand() - 0.5 ) * 2 * $noise_m / 111320, 7 ),
			round( max( 0, $ele + ( $rand() - 0.5 ) * 1.6 ), 1 ),
		);
		$turn     = 0.92 * $turn + ( $rand() - 0.5 ) * 0.02;
		$goal    += ( $rand() - 0.5 ) * 0.004;
		$heading += $turn + 0.003 * atan2( sin( $goal - $heading ), cos( $goal - $heading ) );
		$step     = $step_m * ( 0.7 + 0.6 * $rand() );
		$lat     += $step * cos( $heading ) / 111320;
		$lng     += $step * sin( $heading ) / ( 111320 * $cos_lat );
		if ( $lat > 84 || $lat < -84 ) {
			$heading = M_PI - $heading; // Turn back before the poles.
			$lat     = max( -84, min( 84, $lat ) );
		}
		if ( $lng > 179.9 || $lng < -179.9 ) {
			$heading = -$heading; // And before the antimeridian.
			$lng     = max( -179.9, min( 179.9, $lng ) );
		}
		$grade = max( -0.25, min( 0.25, 0.97 * $grade + ( $rand() - 0.5 ) * 0.03 ) );
		$ele   = max( 0, $ele + $grade * $step );
	}
	return $points;
}

/**
 * Writes a GPX 1.1 file with one track of $count points (XMLWriter: the file is streamed).
 *
 * @param string $file  Path.
 * @param int    $count Points.
 * @param int    $seed  Seed.
 * @param string $name  The track's name (the marker's title after import).
 */
function cairn_bench_gpx( string $file, int $count, int $seed, string $name ): void {
	$xml = new XMLWriter();
	$xml->openUri( $file );
	$xml->startDocument( '1.0', 'UTF-8' );
	$xml->setIndent( false );
	$xml->startElement( 'gpx' );
	$xml->writeAttribute( 'version', '1.1' );
	$xml->writeAttribute( 'creator', 'Cairn Maps bench' );
	$xml->writeAttribute( 'xmlns', 'http://www.topografix.com/GPX/1/1' );
	$xml->startElement( 'trk' );
	$xml->writeElement( 'name', $name );
	$xml->writeElement( 'desc', sprintf( 'A generated track of %d points with elevation (Cairn Maps bench).', $count ) );
	$xml->startElement( 'trkseg' );
	$time = strtotime( '2026-06-01 06:00:00 UTC' );
	// A multi-day walk in the Highlands, a point every 5 m (a receiver logging every 3–4 s).
	foreach ( cairn_bench_trail( -4.9, 56.8, $count, 5.0, $seed ) as $i => $point ) {
		$xml->startElement( 'trkpt' );
		$xml->writeAttribute( 'lat', number_format( $point[1], 7, '.', '' ) );
		$xml->writeAttribute( 'lon', number_format( $point[0], 7, '.', '' ) );
		$xml->writeElement( 'ele', number_format( $point[2], 1, '.', '' ) );
		$xml->writeElement( 'time', gmdate( 'Y-m-d\TH:i:s\Z', $time + 4 * $i ) );
		$xml->endElement();
		if ( 0 === $i % 5000 ) {
			$xml->flush();
		}
	}
	$xml->endElement();
	$xml->endElement();
	$xml->endElement();
	$xml->endDocument();
	$xml->flush();
}

if ( isset( $argv[0] ) && realpath( $argv[0] ) === __FILE__ ) {
	if ( 'gpx' !== ( $argv[1] ?? '' ) || (int) ( $argv[2] ?? 0 ) < 2 || '' === ( $argv[3] ?? '' ) ) {
		fwrite( STDERR, "usage: php bench/api/trails.php gpx POINTS FILE [SEED]\n" );
		exit( 2 );
	}
	$cairn_bench_seed = (int) ( $argv[4] ?? 21 );
	cairn_bench_gpx( $argv[3], (int) $argv[2], $cairn_bench_seed, sprintf( 'Bench track %d', $cairn_bench_seed ) );
	echo json_encode(
		array(
			'file'   => $argv[3],
			'points' => (int) $argv[2],
			'bytes'  => filesize( $argv[3] ),
		)
	) . "\n";
}
