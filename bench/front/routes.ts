/**
 * Routes for the shapes benchmark of issue 21 (`npm run bench:front:shapes`): deterministic
 * random-walk trails with elevation, spread over the bench places' area, and the shapes feed
 * (`GET /cairn/v1/shapes`) the plugin serves for them.
 *
 * A trail is the same walk as bench/api/trails.php (the API bench's): the heading turns smoothly
 * (a damped random turn rate: curves of a few hundred metres), pulled gently towards a slowly
 * drifting general direction, steps of 0.7–1.3 × 15 m, ±1.5 m of GPS noise on each position, an
 * elevation following a drifting grade (±25 %) with ±0.8 m of noise. Each route starts near one of
 * the 60 "cities" of the bench's places (within 1.5°, where two thirds of the places are), one
 * route in five anywhere in the places' latitudes.
 *
 * What the feed carries is what `Shape_Store::derive()` stores in `_cairn_shape` and the feed
 * splices in (COMMON.md / DESIGN.md "Routes and areas"): the geometry simplified for the map
 * (Douglas–Peucker, 2D, 6 decimals, tolerance = the shape's bbox diagonal / 20,000 with a 1 m
 * floor, the rule of the geo helper's simplifier), `bbox`, `length_m`, `ascent_m`/`descent_m`
 * (3 m hysteresis) and a 100-point `profile`. The simplification runs here, in Node, with the
 * same rule: the front bench needs no PHP. `npm run bench:api:shapes` measures the real PHP
 * derivation and prints its vertex counts, to compare.
 */

/** mulberry32 (the same as site.ts's). */
function random( seed: number ): () => number {
	let a = seed;
	return () => {
		/* eslint-disable no-bitwise */
		a = ( a + 0x6d2b79f5 ) | 0;
		let t = Math.imul( a ^ ( a >>> 15 ), 1 | a );
		t = ( t + Math.imul( t ^ ( t >>> 7 ), 61 | t ) ) ^ t;
		return ( ( t ^ ( t >>> 14 ) ) >>> 0 ) / 4294967296;
		/* eslint-enable no-bitwise */
	};
}

export type Position = [ number, number, number ];

export interface Route {
	id: number;
	title: string;
	group: string;
	/** The full track: [lng, lat, ele]. */
	coordinates: Position[];
}

const M_PER_DEGREE = 111320;

/**
 * A trail of `count` positions from (lng, lat); the walk of bench/api/trails.php.
 *
 * @param lng   Start longitude.
 * @param lat   Start latitude.
 * @param count Positions.
 * @param stepM Mean distance between positions, m.
 * @param next  Random numbers.
 */
export function trail(
	lng: number,
	lat: number,
	count: number,
	stepM: number,
	next: () => number
): Position[] {
	let heading = 2 * Math.PI * next();
	let goal = heading;
	let turn = 0;
	let ele = 150 + 1300 * next();
	let grade = 0;
	const points: Position[] = [];
	const round = ( value: number, digits: number ) =>
		Math.round( value * 10 ** digits ) / 10 ** digits;
	for ( let i = 0; i < count; i++ ) {
		const cosLat = Math.max( 0.05, Math.cos( ( lat * Math.PI ) / 180 ) );
		points.push( [
			round(
				lng +
					( ( next() - 0.5 ) * 2 * 1.5 ) / ( M_PER_DEGREE * cosLat ),
				7
			),
			round( lat + ( ( next() - 0.5 ) * 2 * 1.5 ) / M_PER_DEGREE, 7 ),
			round( Math.max( 0, ele + ( next() - 0.5 ) * 1.6 ), 1 ),
		] );
		turn = 0.92 * turn + ( next() - 0.5 ) * 0.02;
		goal += ( next() - 0.5 ) * 0.004;
		heading +=
			turn +
			0.003 *
				Math.atan2(
					Math.sin( goal - heading ),
					Math.cos( goal - heading )
				);
		const step = stepM * ( 0.7 + 0.6 * next() );
		lat += ( step * Math.cos( heading ) ) / M_PER_DEGREE;
		lng += ( step * Math.sin( heading ) ) / ( M_PER_DEGREE * cosLat );
		if ( lat > 84 || lat < -84 ) {
			heading = Math.PI - heading;
			lat = Math.max( -84, Math.min( 84, lat ) );
		}
		if ( lng > 179.9 || lng < -179.9 ) {
			heading = -heading;
			lng = Math.max( -179.9, Math.min( 179.9, lng ) );
		}
		grade = Math.max(
			-0.25,
			Math.min( 0.25, 0.97 * grade + ( next() - 0.5 ) * 0.03 )
		);
		ele = Math.max( 0, ele + grade * step );
	}
	return points;
}

/** Post ids of the routes: above the places' and the posts' (site.ts POST_ID_OFFSET). */
export const ROUTE_ID_OFFSET = 20_000_000;

const NAMES_A = [ 'Ridge', 'Loch', 'Glen', 'Coast', 'Forest', 'Moor' ];
const NAMES_B = [ 'Walk', 'Trail', 'Round', 'Way', 'Traverse', 'Loop' ];

/**
 * `count` routes of `vertices` positions near the bench places' cities.
 *
 * @param cities   The places' 60 city centres, [lng, lat].
 * @param groups   Group slugs (one per route, in turn).
 * @param count    Routes.
 * @param vertices Positions per route.
 */
export function routes(
	cities: Array< [ number, number ] >,
	groups: string[],
	count: number,
	vertices: number
): Route[] {
	const next = random( 20261121 );
	return Array.from( { length: count }, ( _, i ) => {
		let lng: number;
		let lat: number;
		if ( i % 5 === 4 ) {
			lng = -170 + 340 * next();
			lat = -50 + 115 * next();
		} else {
			const [ cx, cy ] = cities[ i % cities.length ]!;
			const r = 1.5 * Math.sqrt( next() );
			const a = 2 * Math.PI * next();
			lng = cx + r * Math.cos( a );
			lat = cy + r * Math.sin( a );
		}
		return {
			id: ROUTE_ID_OFFSET + i,
			title: `${ NAMES_A[ i % NAMES_A.length ] } ${
				NAMES_B[ Math.floor( i / NAMES_A.length ) % NAMES_B.length ]
			} ${ i + 1 }`,
			group: groups[ i % groups.length ]!,
			coordinates: trail( lng, lat, vertices, 15, next ),
		};
	} );
}

/** Metres between two positions (haversine). */
function distance( a: Position, b: Position ): number {
	const rad = Math.PI / 180;
	const dLat = ( b[ 1 ] - a[ 1 ] ) * rad;
	const dLng = ( b[ 0 ] - a[ 0 ] ) * rad;
	const h =
		Math.sin( dLat / 2 ) ** 2 +
		Math.cos( a[ 1 ] * rad ) *
			Math.cos( b[ 1 ] * rad ) *
			Math.sin( dLng / 2 ) ** 2;
	return 2 * 6371008.8 * Math.asin( Math.min( 1, Math.sqrt( h ) ) );
}

/**
 * Douglas–Peucker without recursion, on a local equirectangular projection in metres.
 *
 * @param line       Positions.
 * @param toleranceM Tolerance, m.
 */
function simplify( line: Position[], toleranceM: number ): Position[] {
	const lat0 =
		( line.reduce( ( sum, p ) => sum + p[ 1 ], 0 ) / line.length ) *
		( Math.PI / 180 );
	const xs = line.map( ( p ) => p[ 0 ] * M_PER_DEGREE * Math.cos( lat0 ) );
	const ys = line.map( ( p ) => p[ 1 ] * M_PER_DEGREE );
	const keep = new Uint8Array( line.length );
	keep[ 0 ] = 1;
	keep[ line.length - 1 ] = 1;
	const stack: Array< [ number, number ] > = [ [ 0, line.length - 1 ] ];
	const squared = toleranceM * toleranceM;
	while ( stack.length ) {
		const [ first, last ] = stack.pop()!;
		const dx = xs[ last ]! - xs[ first ]!;
		const dy = ys[ last ]! - ys[ first ]!;
		const length = dx * dx + dy * dy;
		let worst = 0;
		let index = -1;
		for ( let i = first + 1; i < last; i++ ) {
			let px = xs[ i ]! - xs[ first ]!;
			let py = ys[ i ]! - ys[ first ]!;
			if ( length > 0 ) {
				const t = Math.max(
					0,
					Math.min( 1, ( px * dx + py * dy ) / length )
				);
				px -= t * dx;
				py -= t * dy;
			}
			const d = px * px + py * py;
			if ( d > worst ) {
				worst = d;
				index = i;
			}
		}
		if ( index > 0 && worst > squared ) {
			keep[ index ] = 1;
			stack.push( [ first, index ], [ index, last ] );
		}
	}
	return line.filter( ( _, i ) => keep[ i ] === 1 );
}

/** What `_cairn_shape` holds for a line (COMMON.md), as the feed's feature JSON text. */
export function routeFeature( route: Route ): string {
	const line = route.coordinates;
	const lngs = line.map( ( p ) => p[ 0 ] );
	const lats = line.map( ( p ) => p[ 1 ] );
	const bbox: [ number, number, number, number ] = [
		Math.min( ...lngs ),
		Math.min( ...lats ),
		Math.max( ...lngs ),
		Math.max( ...lats ),
	];
	const diagonal = distance(
		[ bbox[ 0 ], bbox[ 1 ], 0 ],
		[ bbox[ 2 ], bbox[ 3 ], 0 ]
	);
	const simplified = simplify( line, Math.max( 5, diagonal / 20000 ) );
	let length = 0;
	const along = [ 0 ];
	for ( let i = 1; i < line.length; i++ ) {
		length += distance( line[ i - 1 ]!, line[ i ]! );
		along.push( length );
	}
	// Ascent and descent with a 3 m hysteresis (GPS noise does not climb).
	let ascent = 0;
	let descent = 0;
	let reference = line[ 0 ]![ 2 ];
	for ( const [ , , ele ] of line ) {
		if ( ele - reference >= 3 ) {
			ascent += ele - reference;
			reference = ele;
		} else if ( reference - ele >= 3 ) {
			descent += reference - ele;
			reference = ele;
		}
	}
	const profile: Array< [ number, number ] > = [];
	for ( let k = 0, i = 0; k < 100; k++ ) {
		const at = ( length * k ) / 99;
		while ( i < line.length - 1 && along[ i + 1 ]! < at ) {
			i++;
		}
		profile.push( [ Math.round( at ), Math.round( line[ i ]![ 2 ] ) ] );
	}
	const six = ( value: number ) => Math.round( value * 1e6 ) / 1e6;
	const geometry = {
		type: 'LineString',
		coordinates: simplified.map( ( p ) => [
			six( p[ 0 ] ),
			six( p[ 1 ] ),
		] ),
	};
	return JSON.stringify( {
		type: 'Feature',
		id: route.id,
		geometry,
		properties: {
			title: route.title,
			groups: [ route.group ],
			bbox: bbox.map( six ),
			length_m: Math.round( length ),
			ascent_m: Math.round( ascent ),
			descent_m: Math.round( descent ),
			profile,
		},
	} );
}

/** The shapes feed document for these routes. */
export function shapesFeed( list: Route[] ): string {
	return `{"type":"FeatureCollection","features":[${ list
		.map( routeFeature )
		.join( ',' ) }]}`;
}
