#!/usr/bin/env node
/**
 * The demo site's routes and areas (bin/demo-shapes.json, which bin/seed.mjs stores): three
 * mountain trails with elevation beside the demo's summits, and one park.
 *
 *   node bin/demo-shapes.mjs        writes bin/demo-shapes.json again (the same bytes every time)
 *
 * A trail is drawn from a few hand-placed waypoints (latitude, longitude, elevation in metres) that
 * follow the real path: the line through them is a centripetal Catmull-Rom curve (no loops or
 * overshoot at tight switchbacks), with a gentle meander between waypoints so it reads like a
 * path on the ground rather than a ruler line, sampled every few tens of metres. Elevations run
 * through the waypoints' heights with monotone cubic interpolation (no invented dips or bumps
 * between two waypoints) plus a GPS-like jitter of a metre or two. Everything is deterministic: no
 * Math.random(), so the file only changes when this script does.
 */
import fs from 'node:fs';
import path from 'node:path';

const EARTH_RADIUS = 6371008.8;

/** The group the shapes are in, with its line looks (term meta of the group). */
export const DEMO_SHAPES_GROUP = {
	slug: 'trails',
	name: 'Trails and parks',
	description:
		'Mountain trails with their elevation, and a park: routes and areas on the map.',
	meta: {
		cairn_color: '#2e7d32',
		cairn_line_color: '#d84315',
		cairn_line_width: 4,
		cairn_fill_opacity: 0.3,
	},
};

/**
 * The trails: [ lat, lng, elevation ] waypoints along the real path, start to end, and the
 * spacing of the vertices in metres.
 */
const TRAILS = [
	{
		title: 'Zermatt to the Hörnli Hut',
		place: 'Zermatt, Switzerland',
		text: 'From the village past Furi and the Schwarzsee chapel, then up the Hörnli ridge to the hut at the foot of the Matterhorn.',
		spacing: 32,
		waypoints: [
			[ 46.0207, 7.7485, 1608 ],
			[ 46.016, 7.746, 1640 ],
			[ 46.0105, 7.742, 1700 ],
			[ 46.006, 7.736, 1790 ],
			[ 46.0036, 7.731, 1867 ],
			[ 46.001, 7.7265, 1960 ],
			[ 45.9985, 7.7215, 2100 ],
			[ 45.9965, 7.7165, 2260 ],
			[ 45.9945, 7.712, 2420 ],
			[ 45.9918, 7.7078, 2583 ],
			[ 45.989, 7.703, 2700 ],
			[ 45.9868, 7.6985, 2800 ],
			[ 45.986, 7.694, 2900 ],
			[ 45.9845, 7.6955, 2960 ],
			[ 45.984, 7.6905, 3040 ],
			[ 45.9828, 7.6915, 3110 ],
			[ 45.983, 7.687, 3180 ],
			[ 45.9822, 7.6839, 3260 ],
		],
	},
	{
		title: 'Ben Nevis Mountain Track',
		place: 'Glen Nevis, Scotland',
		text: 'The pony track from Glen Nevis: across the slopes of Meall an t-Suidhe to the halfway lochan, over the Red Burn and up the zigzags to the summit plateau.',
		spacing: 30,
		waypoints: [
			[ 56.8112, -5.0887, 20 ],
			[ 56.8107, -5.0866, 22 ],
			[ 56.8093, -5.0822, 110 ],
			[ 56.808, -5.0762, 200 ],
			[ 56.8065, -5.069, 300 ],
			[ 56.8058, -5.062, 390 ],
			[ 56.8063, -5.0555, 470 ],
			[ 56.808, -5.049, 540 ],
			[ 56.8092, -5.044, 570 ],
			[ 56.807, -5.04, 600 ],
			[ 56.804, -5.0365, 650 ],
			[ 56.803, -5.03, 760 ],
			[ 56.801, -5.033, 840 ],
			[ 56.8005, -5.0255, 930 ],
			[ 56.799, -5.029, 1010 ],
			[ 56.7988, -5.021, 1090 ],
			[ 56.7973, -5.0245, 1160 ],
			[ 56.7978, -5.016, 1230 ],
			[ 56.7975, -5.009, 1300 ],
			[ 56.7969, -5.0037, 1345 ],
		],
	},
	{
		title: 'Llanberis Path to Yr Wyddfa',
		place: 'Llanberis, Wales',
		text: 'The longest and gentlest way up Snowdon, beside the mountain railway past Halfway House and Clogwyn.',
		spacing: 28,
		waypoints: [
			[ 53.1177, -4.1165, 105 ],
			[ 53.114, -4.112, 170 ],
			[ 53.1095, -4.1085, 260 ],
			[ 53.104, -4.105, 330 ],
			[ 53.0975, -4.101, 400 ],
			[ 53.0905, -4.095, 480 ],
			[ 53.084, -4.091, 600 ],
			[ 53.079, -4.088, 720 ],
			[ 53.0755, -4.0855, 830 ],
			[ 53.0725, -4.082, 950 ],
			[ 53.07, -4.079, 1040 ],
			[ 53.0685, -4.0763, 1085 ],
		],
	},
];

/** The park: its boundary, [ lat, lng ], clockwise from Marble Arch (closed when built). */
const AREAS = [
	{
		title: 'Hyde Park and Kensington Gardens',
		place: 'London, England',
		text: 'Two of the Royal Parks side by side: the Serpentine, Speakers’ Corner and Kensington Palace.',
		boundary: [
			[ 51.5129, -0.159 ],
			[ 51.51, -0.1575 ],
			[ 51.507, -0.156 ],
			[ 51.5045, -0.154 ],
			[ 51.5027, -0.1518 ],
			[ 51.5022, -0.156 ],
			[ 51.502, -0.16 ],
			[ 51.5025, -0.164 ],
			[ 51.5021, -0.168 ],
			[ 51.5019, -0.172 ],
			[ 51.5015, -0.177 ],
			[ 51.5012, -0.182 ],
			[ 51.5016, -0.186 ],
			[ 51.5035, -0.1885 ],
			[ 51.5065, -0.1892 ],
			[ 51.5102, -0.188 ],
			[ 51.5107, -0.187 ],
			[ 51.5112, -0.18 ],
			[ 51.5116, -0.176 ],
			[ 51.5118, -0.172 ],
			[ 51.5122, -0.168 ],
			[ 51.5126, -0.164 ],
			[ 51.5129, -0.161 ],
		],
	},
];

/**
 * Positions in metres east/north of an origin (an equirectangular projection: exact enough over
 * the ten kilometres of a trail).
 *
 * @param {number[][]} points [ lat, lng, … ] positions.
 * @return {{ xy: number[][], back: (x: number, y: number) => number[] }} Metres, and the way back.
 */
function localMetres( points ) {
	const [ lat0, lng0 ] = points[ 0 ];
	const k = Math.cos( ( lat0 * Math.PI ) / 180 );
	const perDegree = ( Math.PI * EARTH_RADIUS ) / 180;
	return {
		xy: points.map( ( [ lat, lng ] ) => [
			( lng - lng0 ) * perDegree * k,
			( lat - lat0 ) * perDegree,
		] ),
		back: ( x, y ) => [
			lng0 + x / ( perDegree * k ),
			lat0 + y / perDegree,
		],
	};
}

/**
 * A point of the centripetal Catmull-Rom segment from p1 to p2 (p0 and p3 its neighbours).
 *
 * @param {number[][]} p Four points.
 * @param {number}     t 0 to 1.
 * @return {number[]} The point.
 */
function catmullRom( [ p0, p1, p2, p3 ], t ) {
	const knot = ( a, b ) =>
		Math.max( Math.hypot( b[ 0 ] - a[ 0 ], b[ 1 ] - a[ 1 ] ) ** 0.5, 1e-6 );
	const t1 = knot( p0, p1 );
	const t2 = t1 + knot( p1, p2 );
	const t3 = t2 + knot( p2, p3 );
	const u = t1 + ( t2 - t1 ) * t;
	const lerp = ( a, b, ta, tb ) =>
		a.map(
			( v, i ) => ( ( tb - u ) * v + ( u - ta ) * b[ i ] ) / ( tb - ta )
		);
	const a1 = lerp( p0, p1, 0, t1 );
	const a2 = lerp( p1, p2, t1, t2 );
	const a3 = lerp( p2, p3, t2, t3 );
	const b1 = lerp( a1, a2, 0, t2 );
	const b2 = lerp( a2, a3, t1, t3 );
	return lerp( b1, b2, t1, t2 );
}

/**
 * Monotone cubic interpolation (Fritsch–Carlson) of y over increasing x.
 *
 * @param {number[]} xs Increasing x.
 * @param {number[]} ys Values.
 * @return {(x: number) => number} The interpolant.
 */
function monotoneCubic( xs, ys ) {
	const n = xs.length;
	const d = [];
	for ( let i = 0; i < n - 1; i++ ) {
		d.push( ( ys[ i + 1 ] - ys[ i ] ) / ( xs[ i + 1 ] - xs[ i ] ) );
	}
	const m = [ d[ 0 ] ];
	for ( let i = 1; i < n - 1; i++ ) {
		m.push( d[ i - 1 ] * d[ i ] <= 0 ? 0 : ( d[ i - 1 ] + d[ i ] ) / 2 );
	}
	m.push( d[ n - 2 ] );
	for ( let i = 0; i < n - 1; i++ ) {
		if ( d[ i ] === 0 ) {
			m[ i ] = 0;
			m[ i + 1 ] = 0;
			continue;
		}
		const a = m[ i ] / d[ i ];
		const b = m[ i + 1 ] / d[ i ];
		const s = a * a + b * b;
		if ( s > 9 ) {
			m[ i ] = ( 3 * a * d[ i ] ) / Math.sqrt( s );
			m[ i + 1 ] = ( 3 * b * d[ i ] ) / Math.sqrt( s );
		}
	}
	return ( x ) => {
		let i = 0;
		while ( i < n - 2 && x > xs[ i + 1 ] ) {
			i++;
		}
		const h = xs[ i + 1 ] - xs[ i ];
		const t = Math.min( Math.max( ( x - xs[ i ] ) / h, 0 ), 1 );
		const h00 = 2 * t ** 3 - 3 * t ** 2 + 1;
		const h10 = t ** 3 - 2 * t ** 2 + t;
		const h01 = -2 * t ** 3 + 3 * t ** 2;
		const h11 = t ** 3 - t ** 2;
		return (
			h00 * ys[ i ] +
			h10 * h * m[ i ] +
			h01 * ys[ i + 1 ] +
			h11 * h * m[ i + 1 ]
		);
	};
}

/**
 * A trail's LineString: [ lng, lat, elevation ] every `spacing` metres or so.
 *
 * @param {Object} trail A TRAILS entry.
 * @param {number} seed  Phase of its meander and jitter.
 * @return {{ type: string, coordinates: number[][] }} The geometry.
 */
export function trailGeometry( trail, seed ) {
	const { xy, back } = localMetres( trail.waypoints );
	const ends = [
		[ 2 * xy[ 0 ][ 0 ] - xy[ 1 ][ 0 ], 2 * xy[ 0 ][ 1 ] - xy[ 1 ][ 1 ] ],
		[
			2 * xy[ xy.length - 1 ][ 0 ] - xy[ xy.length - 2 ][ 0 ],
			2 * xy[ xy.length - 1 ][ 1 ] - xy[ xy.length - 2 ][ 1 ],
		],
	];
	const controls = [ ends[ 0 ], ...xy, ends[ 1 ] ];
	// A dense curve (1 m steps), with the arc length at each waypoint for the elevations.
	const dense = [];
	const waypointDistance = [ 0 ];
	let length = 0;
	for ( let s = 0; s < xy.length - 1; s++ ) {
		const span = Math.hypot(
			xy[ s + 1 ][ 0 ] - xy[ s ][ 0 ],
			xy[ s + 1 ][ 1 ] - xy[ s ][ 1 ]
		);
		const steps = Math.max( 8, Math.ceil( span ) );
		// The meander: a sideways offset of up to ~6 % of the leg (at most 18 m), nil at the
		// waypoints, so the path still passes through every one of them.
		const amplitude =
			Math.min( 18, span * 0.06 ) * Math.sin( seed * 7.3 + s * 2.1 );
		for ( let j = s === 0 ? 0 : 1; j <= steps; j++ ) {
			const t = j / steps;
			const p = catmullRom( controls.slice( s, s + 4 ), t );
			const q = catmullRom(
				controls.slice( s, s + 4 ),
				Math.min( t + 1e-3, 1 )
			);
			const r = catmullRom(
				controls.slice( s, s + 4 ),
				Math.max( t - 1e-3, 0 )
			);
			const dx = q[ 0 ] - r[ 0 ];
			const dy = q[ 1 ] - r[ 1 ];
			const norm = Math.hypot( dx, dy ) || 1;
			const offset =
				amplitude *
				Math.sin( Math.PI * t ) *
				( 0.8 + 0.2 * Math.sin( 5 * Math.PI * t + seed ) );
			const point = [
				p[ 0 ] - ( dy / norm ) * offset,
				p[ 1 ] + ( dx / norm ) * offset,
			];
			if ( dense.length ) {
				const last = dense[ dense.length - 1 ];
				length += Math.hypot(
					point[ 0 ] - last[ 0 ],
					point[ 1 ] - last[ 1 ]
				);
			}
			dense.push( point );
		}
		waypointDistance.push( length );
	}
	const elevation = monotoneCubic(
		waypointDistance,
		trail.waypoints.map( ( waypoint ) => waypoint[ 2 ] )
	);
	// Resample at the spacing along the dense curve.
	const count = Math.round( length / trail.spacing );
	const coordinates = [];
	let walked = 0;
	let index = 0;
	for ( let k = 0; k <= count; k++ ) {
		const target = ( k / count ) * length;
		while ( index < dense.length - 2 ) {
			const step = Math.hypot(
				dense[ index + 1 ][ 0 ] - dense[ index ][ 0 ],
				dense[ index + 1 ][ 1 ] - dense[ index ][ 1 ]
			);
			if ( walked + step >= target ) {
				break;
			}
			walked += step;
			index++;
		}
		const a = dense[ index ];
		const b = dense[ index + 1 ];
		const step = Math.hypot( b[ 0 ] - a[ 0 ], b[ 1 ] - a[ 1 ] ) || 1;
		const f = Math.min( Math.max( ( target - walked ) / step, 0 ), 1 );
		const [ lng, lat ] = back(
			a[ 0 ] + ( b[ 0 ] - a[ 0 ] ) * f,
			a[ 1 ] + ( b[ 1 ] - a[ 1 ] ) * f
		);
		// GPS-like jitter of the heights: a metre or two, smooth along the path, nil at both ends.
		const jitter =
			k === 0 || k === count
				? 0
				: 1.2 * Math.sin( k * 0.9 + seed ) +
					0.6 * Math.sin( k * 2.3 + 2 * seed );
		coordinates.push( [
			round( lng, 6 ),
			round( lat, 6 ),
			round( elevation( target ) + jitter, 1 ),
		] );
	}
	return { type: 'LineString', coordinates };
}

/**
 * An area's Polygon: its boundary closed, [ lng, lat ].
 *
 * @param {Object} area An AREAS entry.
 * @return {{ type: string, coordinates: number[][][] }} The geometry.
 */
export function areaGeometry( area ) {
	const ring = area.boundary.map( ( [ lat, lng ] ) => [ lng, lat ] );
	return { type: 'Polygon', coordinates: [ [ ...ring, ring[ 0 ] ] ] };
}

function round( value, decimals ) {
	const factor = 10 ** decimals;
	return Math.round( value * factor ) / factor;
}

/**
 * The demo's shapes: the group and its places (title, place, text, geometry).
 *
 * @return {Object} What bin/demo-shapes.json holds.
 */
export function buildDemoShapes() {
	return {
		description:
			'Demo routes and areas for Cairn Maps, written by bin/demo-shapes.mjs: trails with elevation (metres) drawn from waypoints along the real paths, and a park.',
		group: DEMO_SHAPES_GROUP,
		shapes: [
			...TRAILS.map( ( trail, i ) => ( {
				title: trail.title,
				place: trail.place,
				text: trail.text,
				geometry: trailGeometry( trail, i + 1 ),
			} ) ),
			...AREAS.map( ( area ) => ( {
				title: area.title,
				place: area.place,
				text: area.text,
				geometry: areaGeometry( area ),
			} ) ),
		],
	};
}

/**
 * The JSON text of the file: one position per line, readable in a diff.
 *
 * @return {string} The file's contents.
 */
export function demoShapesJson() {
	const text = JSON.stringify( buildDemoShapes(), null, '\t' ).replace(
		/\[\s+(-?[\d.]+),\s+(-?[\d.]+)(,\s+(-?[\d.]+))?\s+\]/g,
		( match, lng, lat, withElevation, elevation ) =>
			withElevation
				? `[${ lng }, ${ lat }, ${ elevation }]`
				: `[${ lng }, ${ lat }]`
	);
	return `${ text }\n`;
}

if (
	process.argv[ 1 ] &&
	path.basename( process.argv[ 1 ] ) === 'demo-shapes.mjs'
) {
	const file = path.join(
		path.dirname( path.resolve( process.argv[ 1 ] ) ),
		'demo-shapes.json'
	);
	fs.writeFileSync( file, demoShapesJson() );
	process.stdout.write( `${ file }\n` );
}
