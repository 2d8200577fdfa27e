#!/usr/bin/env node
/**
 * Writes tests/fixtures/cluster-vectors.json: what supercluster (the runtime's clustering, radius
 * 80, extent 512, max zoom 16) draws at every zoom on a deterministic set of 10,000 places, for
 * PHPUnit to compare the server's tiles with (tests/php/Index/Cluster_VectorsTest.php):
 *
 *   places   [lng, lat] in post-id order (5 decimals; the seed is mulberry32(33)),
 *   zooms    per zoom 0..16: `marks` (clusters and points), `spacing` (the least distance
 *            between two marks, in pixels of that zoom) and `sample`: up to 40 clusters as
 *            [lng, lat, point_count, expansion_zoom] (positions at 5 decimals, as tiles give them);
 *   demo     the same (`places`, `zooms`) for the demo's places (bin/demo-markers.json).
 *
 * Usage: node bin/cluster-vectors.mjs [--check]   (--check: exit 1 when the file is not current)
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import Supercluster from 'supercluster';

const ROOT = path.resolve(
	path.dirname( fileURLToPath( import.meta.url ) ),
	'..'
);
export const VECTORS_FILE = path.join(
	ROOT,
	'tests/fixtures/cluster-vectors.json'
);
export const OPTIONS = { radius: 80, extent: 512, maxZoom: 16 };
const COUNT = 10000;
const SAMPLE = 40;

/**
 * A seeded generator of numbers in [0, 1).
 *
 * @param {number} seed Seed.
 * @return {() => number} The generator.
 */
/* eslint-disable no-bitwise -- a 32-bit generator. */
function mulberry32( seed ) {
	let a = seed >>> 0;
	return () => {
		a = ( a + 0x6d2b79f5 ) >>> 0;
		let t = a;
		t = Math.imul( t ^ ( t >>> 15 ), t | 1 );
		t ^= t + Math.imul( t ^ ( t >>> 7 ), t | 61 );
		return ( ( t ^ ( t >>> 14 ) ) >>> 0 ) / 4294967296;
	};
}
/* eslint-enable no-bitwise */

const round5 = ( v ) => Math.round( v * 1e5 ) / 1e5;
const clamp = ( v, lo, hi ) => Math.max( lo, Math.min( hi, v ) );

/**
 * The places: half in 40 towns of every size, three in ten in 300 villages, the rest anywhere.
 *
 * @return {number[][]} [lng, lat] pairs.
 */
export function places() {
	const random = mulberry32( 33 );
	const normal = () =>
		Math.sqrt( -2 * Math.log( 1 - random() ) ) *
		Math.cos( 2 * Math.PI * random() );
	const centre = ( spread ) => [
		-170 + random() * 350,
		-55 + random() * 125,
		spread,
	];
	const towns = Array.from( { length: 40 }, () =>
		centre( 0.05 + random() * 3 )
	);
	const villages = Array.from( { length: 300 }, () =>
		centre( 0.005 + random() * 0.2 )
	);
	const out = [];
	for ( let i = 0; i < COUNT; i++ ) {
		const kind = random();
		if ( kind < 0.7 ) {
			const list = kind < 0.5 ? towns : villages;
			const [ lng, lat, spread ] =
				list[ Math.floor( random() * list.length ) ];
			out.push( [
				round5( clamp( lng + normal() * spread, -180, 180 ) ),
				round5( clamp( lat + normal() * spread * 0.7, -85, 85 ) ),
			] );
		} else {
			out.push( [
				round5( -180 + random() * 360 ),
				round5( -60 + random() * 135 ),
			] );
		}
	}
	return out;
}

/**
 * A position in pixels of the world at a zoom.
 *
 * @param {number} lng  Longitude.
 * @param {number} lat  Latitude.
 * @param {number} zoom Zoom.
 * @return {number[]} [x, y].
 */
export function pixel( lng, lat, zoom ) {
	const size = OPTIONS.extent * 2 ** zoom;
	const sin = Math.sin(
		( clamp( lat, -85.05112878, 85.05112878 ) * Math.PI ) / 180
	);
	return [
		( ( lng + 180 ) / 360 ) * size,
		( 0.5 - Math.log( ( 1 + sin ) / ( 1 - sin ) ) / ( 4 * Math.PI ) ) *
			size,
	];
}

/**
 * The least distance between two of the points (a grid of cells one `cap` wide), or `cap` when
 * no two are closer.
 *
 * @param {number[][]} points Pixels.
 * @param {number}     cap    Largest distance looked for.
 * @return {number} Pixels.
 */
export function spacing( points, cap ) {
	const grid = new Map();
	let best = cap;
	for ( const [ x, y ] of points ) {
		const gx = Math.floor( x / cap );
		const gy = Math.floor( y / cap );
		for ( let dx = -1; dx <= 1; dx++ ) {
			for ( let dy = -1; dy <= 1; dy++ ) {
				for ( const [ ox, oy ] of grid.get(
					`${ gx + dx }/${ gy + dy }`
				) ?? [] ) {
					best = Math.min( best, Math.hypot( ox - x, oy - y ) );
				}
			}
		}
		const key = `${ gx }/${ gy }`;
		grid.set( key, [ ...( grid.get( key ) ?? [] ), [ x, y ] ] );
	}
	return best;
}

/**
 * The demo's places (bin/demo-markers.json: what `npm start` and the Live Preview show), as
 * [lng, lat] in file order at 5 decimals: real, clustered data.
 *
 * @return {number[][]} [lng, lat] pairs.
 */
export function demoPlaces() {
	const demo = JSON.parse(
		fs.readFileSync( path.join( ROOT, 'bin/demo-markers.json' ), 'utf8' )
	);
	return demo.markers.map( ( marker ) => [
		round5( marker.lng ),
		round5( marker.lat ),
	] );
}

/**
 * What supercluster draws on some places at every zoom.
 *
 * @param {number[][]} list [lng, lat] in post-id order.
 * @return {Object[]} Per zoom: marks, spacing, sample.
 */
function drawn( list ) {
	const index = new Supercluster( OPTIONS ).load(
		list.map( ( coordinates, i ) => ( {
			type: 'Feature',
			id: i + 1,
			properties: {},
			geometry: { type: 'Point', coordinates },
		} ) )
	);
	const zooms = [];
	for ( let zoom = 0; zoom <= OPTIONS.maxZoom; zoom++ ) {
		const marks = index.getClusters( [ -180, -90, 180, 90 ], zoom );
		const clusters = marks.filter( ( mark ) => mark.properties.cluster );
		const step = Math.max( 1, Math.floor( clusters.length / SAMPLE ) );
		zooms.push( {
			zoom,
			marks: marks.length,
			spacing:
				Math.round(
					spacing(
						marks.map( ( mark ) =>
							pixel( ...mark.geometry.coordinates, zoom )
						),
						4 * OPTIONS.radius
					) * 100
				) / 100,
			sample: clusters
				.filter( ( _, i ) => i % step === 0 )
				.slice( 0, SAMPLE )
				.map( ( mark ) => [
					round5( mark.geometry.coordinates[ 0 ] ),
					round5( mark.geometry.coordinates[ 1 ] ),
					mark.properties.point_count,
					index.getClusterExpansionZoom( mark.properties.cluster_id ),
				] ),
		} );
	}
	return zooms;
}

/**
 * The vectors: the seeded 10,000 places, and the demo's.
 *
 * @return {Object} What the file holds.
 */
export function vectors() {
	const list = places();
	const demo = demoPlaces();
	return {
		$comment:
			'Generated by bin/cluster-vectors.mjs from supercluster: do not edit. PHPUnit compares the tiles with it.',
		options: OPTIONS,
		places: list,
		zooms: drawn( list ),
		demo: { places: demo, zooms: drawn( demo ) },
	};
}

if ( process.argv[ 1 ] === fileURLToPath( import.meta.url ) ) {
	const text = JSON.stringify( vectors() ) + '\n';
	if ( process.argv.includes( '--check' ) ) {
		const current =
			fs.existsSync( VECTORS_FILE ) &&
			fs.readFileSync( VECTORS_FILE, 'utf8' ) === text;
		if ( ! current ) {
			process.stderr.write(
				'tests/fixtures/cluster-vectors.json is not current: run node bin/cluster-vectors.mjs\n'
			);
			process.exit( 1 );
		}
	} else {
		fs.writeFileSync( VECTORS_FILE, text );
	}
}
