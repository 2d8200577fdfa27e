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
 * The feed's features are not computed here: the plugin's own PHP makes them (shapes.php, run
 * once per list of routes by routeFeatures()), so the geometry the map gets is the one
 * `Shape_Store::derive()` stores in `_cairn_shape` (simplified by `Markers\Line_Simplifier`), with
 * its `bbox`, `length_m`, `ascent_m`/`descent_m` and `profile`, in `Shape_Writer`'s feature JSON.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';

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

/** The PHP filter that makes the features (bench/front/shapes.php). */
const SHAPES_PHP = path.join( __dirname, 'shapes.php' );

const features = new WeakMap< Route[], string[] >();

/**
 * The shapes feed's features for these routes, as the plugin serves them, in order: made by the
 * plugin's own PHP (`Geometry_Rule::check()`, `Shape_Store::derive()` — `Line_Simplifier` and
 * `Geometry_Measures` —, then `Shape_Writer::feature_json()`) in one run of bench/front/shapes.php,
 * a route a line in and a feature a line out. `CAIRN_BENCH_PHP` names the PHP binary (`php`).
 *
 * @param list Routes.
 */
export function routeFeatures( list: Route[] ): string[] {
	const known = features.get( list );
	if ( known ) {
		return known;
	}
	const input = list
		.map( ( route ) =>
			JSON.stringify( {
				id: route.id,
				title: route.title,
				group: route.group,
				coordinates: route.coordinates,
			} )
		)
		.join( '\n' );
	const output = execFileSync(
		process.env.CAIRN_BENCH_PHP || 'php',
		[ SHAPES_PHP ],
		{
			input: input + '\n',
			encoding: 'utf8',
			maxBuffer: 2 ** 30,
			stdio: [ 'pipe', 'pipe', 'inherit' ],
		}
	);
	const lines = output.split( '\n' ).filter( ( line ) => line !== '' );
	if ( lines.length !== list.length ) {
		throw new Error(
			`bench/front/shapes.php gave ${ lines.length } features for ${ list.length } routes`
		);
	}
	features.set( list, lines );
	return lines;
}

/** The shapes feed document for these routes (`Geojson_Writer::compress()`'s text, uncompressed). */
export function shapesFeed( list: Route[] ): string {
	return `{"type":"FeatureCollection","features":[${ routeFeatures(
		list
	).join( ',' ) }]}`;
}
