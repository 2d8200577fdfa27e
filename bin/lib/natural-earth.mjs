/**
 * Natural Earth 1:50m (public domain, through the world-atlas package) made ready for a planar
 * vector tiler: the helpers the maps-service fixtures (bin/build-fixtures.mjs), the OpenFreeMap
 * stand-in and the demo world archive (bin/build-basemap.mjs) share.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire( import.meta.url );

/** This file (its bytes join the builders' cache hashes). */
export const NATURAL_EARTH_FILE = fileURLToPath( import.meta.url );

/** Web Mercator's latitude limit. */
export const MAX_LAT = 85.0511287;

export function ringArea( ring ) {
	let a = 0;
	for ( let i = 0, j = ring.length - 1; i < ring.length; j = i++ ) {
		a +=
			( ring[ j ][ 0 ] - ring[ i ][ 0 ] ) *
			( ring[ j ][ 1 ] + ring[ i ][ 1 ] );
	}
	return Math.abs( a / 2 );
}

/**
 * world-atlas keeps spherical rings (for d3-geo): rings that cross the antimeridian jump from
 * +180 to -180, and Antarctica winds around the pole. A planar tiler draws those jumps as lines
 * across the world, so make longitudes continuous (geojson-vt wraps x beyond ±180), and close
 * rings that wind around a pole along the pole.
 * @param {number[][]} ring   A ring of [lng, lat] positions.
 * @param {number}     [near] Shift the ring by whole turns to start near this longitude.
 * @return {number[][]} The unwrapped ring.
 */
export function unwrapRing( ring, near ) {
	const out = [];
	let prev = null;
	for ( const [ x0, y ] of ring ) {
		let x = x0;
		if ( prev === null ) {
			while ( near !== undefined && x - near > 180 ) {
				x -= 360;
			}
			while ( near !== undefined && x - near < -180 ) {
				x += 360;
			}
		} else {
			while ( x - prev > 180 ) {
				x -= 360;
			}
			while ( x - prev < -180 ) {
				x += 360;
			}
		}
		out.push( [ x, y ] );
		prev = x;
	}
	const first = out[ 0 ];
	const last = out[ out.length - 1 ];
	if ( Math.abs( last[ 0 ] - first[ 0 ] ) > 180 ) {
		const meanY = out.reduce( ( sum, p ) => sum + p[ 1 ], 0 ) / out.length;
		const pole = meanY < 0 ? -90 : 90;
		out.push(
			[ last[ 0 ], pole ],
			[ first[ 0 ], pole ],
			[ first[ 0 ], first[ 1 ] ]
		);
	}
	return out;
}

export function unwrapGeometry( geometry ) {
	const polygons =
		geometry.type === 'Polygon'
			? [ geometry.coordinates ]
			: geometry.coordinates;
	const fixed = [];
	for ( const [ outer, ...holes ] of polygons ) {
		// Antarctica: the "outer" ring is a tiny circle at -89.999 and the coast a "hole" that
		// winds around the pole. Drop the circle; the coast, closed along the pole, is the polygon.
		if ( outer.every( ( [ , y ] ) => Math.abs( y ) > 89.9 ) ) {
			holes.forEach( ( h ) => fixed.push( [ unwrapRing( h ) ] ) );
			continue;
		}
		const o = unwrapRing( outer );
		fixed.push( [
			o,
			...holes.map( ( h ) => unwrapRing( h, o[ 0 ][ 0 ] ) ),
		] );
	}
	return { type: 'MultiPolygon', coordinates: fixed };
}

/**
 * A point inside the largest polygon: the middle of the widest horizontal run through it.
 * @param {Object} geometry A GeoJSON (Multi)Polygon.
 * @return {number[]} [lng, lat]
 */
export function labelPoint( geometry ) {
	const polygons =
		geometry.type === 'Polygon'
			? [ geometry.coordinates ]
			: geometry.coordinates;
	let best = polygons[ 0 ];
	for ( const p of polygons ) {
		if ( ringArea( p[ 0 ] ) > ringArea( best[ 0 ] ) ) {
			best = p;
		}
	}
	const outer = best[ 0 ];
	let minY = Infinity;
	let maxY = -Infinity;
	for ( const [ , y ] of outer ) {
		minY = Math.min( minY, y );
		maxY = Math.max( maxY, y );
	}
	let bestPoint = outer[ 0 ];
	let bestWidth = -1;
	for ( let k = 1; k < 10; k++ ) {
		const y = minY + ( ( maxY - minY ) * k ) / 10;
		const xs = [];
		for ( const ring of best ) {
			for ( let i = 0, j = ring.length - 1; i < ring.length; j = i++ ) {
				const [ x1, y1 ] = ring[ j ];
				const [ x2, y2 ] = ring[ i ];
				if ( y1 > y !== y2 > y ) {
					xs.push( x1 + ( ( y - y1 ) * ( x2 - x1 ) ) / ( y2 - y1 ) );
				}
			}
		}
		xs.sort( ( a, b ) => a - b );
		// Prefer runs near the vertical middle of the shape.
		const weight = 1 - Math.abs( k - 5 ) / 10;
		for ( let i = 0; i + 1 < xs.length; i += 2 ) {
			const width = ( xs[ i + 1 ] - xs[ i ] ) * weight;
			if ( width > bestWidth ) {
				bestWidth = width;
				bestPoint = [ ( xs[ i ] + xs[ i + 1 ] ) / 2, y ];
			}
		}
	}
	const lng = ( ( ( ( bestPoint[ 0 ] + 180 ) % 360 ) + 360 ) % 360 ) - 180;
	return [ lng, bestPoint[ 1 ] ].map( ( v ) => Math.round( v * 1e4 ) / 1e4 );
}

/**
 * Signed area of a ring in degrees² (positive = counter-clockwise with y up).
 *
 * @param {number[][]} ring Ring.
 * @return {number} Signed area.
 */
export function signedArea( ring ) {
	let a = 0;
	for ( let i = 0, j = ring.length - 1; i < ring.length; j = i++ ) {
		a +=
			( ring[ j ][ 0 ] - ring[ i ][ 0 ] ) *
			( ring[ j ][ 1 ] + ring[ i ][ 1 ] );
	}
	return a / 2;
}

/**
 * A ring wound as RFC 7946 asks (outer rings counter-clockwise, holes clockwise): once projected
 * with y down, outer rings are clockwise as the vector tile spec wants, so a renderer tells holes
 * from outer rings by their winding.
 *
 * @param {number[][]} ring  Ring.
 * @param {boolean}    outer Whether it is an outer ring.
 * @return {number[][]} The ring, reversed when needed.
 */
export function wind( ring, outer ) {
	const ccw = signedArea( ring ) < 0;
	return ccw === outer ? ring : [ ...ring ].reverse();
}

/**
 * Clips a ring to minX <= x <= maxX (Sutherland–Hodgman on two vertical lines).
 *
 * @param {number[][]} ring Ring.
 * @param {number}     minX West edge.
 * @param {number}     maxX East edge.
 * @return {number[][]} The clipped ring ([] when nothing is left).
 */
export function clipRingX( ring, minX, maxX ) {
	const edge = ( points, inside, cross ) => {
		const out = [];
		for ( let i = 0; i < points.length; i++ ) {
			const a = points[ i ];
			const b = points[ ( i + 1 ) % points.length ];
			if ( inside( a ) ) {
				out.push( a );
				if ( ! inside( b ) ) {
					out.push( cross( a, b ) );
				}
			} else if ( inside( b ) ) {
				out.push( cross( a, b ) );
			}
		}
		return out;
	};
	const at = ( x ) => ( a, b ) => [
		x,
		a[ 1 ] + ( ( b[ 1 ] - a[ 1 ] ) * ( x - a[ 0 ] ) ) / ( b[ 0 ] - a[ 0 ] ),
	];
	let points = ring.slice( 0, -1 );
	points = edge( points, ( p ) => p[ 0 ] >= minX, at( minX ) );
	points = edge( points, ( p ) => p[ 0 ] <= maxX, at( maxX ) );
	if ( points.length < 3 ) {
		return [];
	}
	return [ ...points, points[ 0 ] ];
}

/**
 * A ring whose longitudes run past ±180 (unwrapRing's output), as rings within −180…180.
 *
 * @param {number[][]} ring Ring.
 * @return {number[][][]} One or two rings.
 */
export function splitAtAntimeridian( ring ) {
	const xs = ring.map( ( p ) => p[ 0 ] );
	const min = Math.min( ...xs );
	const max = Math.max( ...xs );
	if ( min >= -180 && max <= 180 ) {
		return [ ring ];
	}
	const shift = max > 180 ? -360 : 360;
	return [
		clipRingX( ring, -180, 180 ),
		clipRingX(
			ring.map( ( [ x, y ] ) => [ x + shift, y ] ),
			-180,
			180
		),
	].filter( ( r ) => r.length );
}

/**
 * The world's data: countries (polygons, unwrapped), the land as polygons, the ocean as one
 * polygon (the world with the land as holes), lakes (holes of the land) and the borders between
 * countries (lines), with a label point and an area rank per country (1 = largest).
 *
 * @return {Object} { countries, land, ocean, lakes, borders, source }
 */
export function loadWorld() {
	const topojson = require( 'topojson-client' );
	const file = require.resolve( 'world-atlas/countries-50m.json' );
	const topo = JSON.parse( fs.readFileSync( file, 'utf8' ) );
	const version = JSON.parse(
		fs.readFileSync( require.resolve( 'world-atlas/package.json' ), 'utf8' )
	).version;

	const countries = topojson
		.feature( topo, topo.objects.countries )
		.features.map( ( f ) => ( {
			id: f.id === undefined ? '' : String( f.id ),
			name: f.properties.name,
			geometry: unwrapGeometry( f.geometry ),
		} ) );
	const area = countries.map( ( c ) =>
		c.geometry.coordinates.reduce(
			( sum, p ) => sum + ringArea( p[ 0 ] ),
			0
		)
	);
	const order = countries
		.map( ( _, i ) => i )
		.sort( ( a, b ) => area[ b ] - area[ a ] || a - b );
	order.forEach( ( i, r ) => {
		countries[ i ].rank = r + 1;
		countries[ i ].area = area[ i ];
		countries[ i ].label = labelPoint( countries[ i ].geometry );
	} );

	const landGeometry = unwrapGeometry(
		topojson.feature( topo, topo.objects.land ).features?.[ 0 ]?.geometry ??
			topojson.merge( topo, topo.objects.land.geometries )
	);
	const land = [];
	const lakes = [];
	const holes = [];
	for ( const [ outer, ...inner ] of landGeometry.coordinates ) {
		for ( const piece of splitAtAntimeridian( outer ) ) {
			land.push( [ wind( piece, true ) ] );
			holes.push( wind( piece, false ) );
		}
		for ( const lake of inner ) {
			for ( const piece of splitAtAntimeridian( lake ) ) {
				lakes.push( [ wind( piece, true ) ] );
			}
		}
	}
	// Past Mercator's limits on purpose: the tiler clamps both to the tile edge.
	const world = wind(
		[
			[ -180, -89.9 ],
			[ 180, -89.9 ],
			[ 180, 89.9 ],
			[ -180, 89.9 ],
			[ -180, -89.9 ],
		],
		true
	);
	const ocean = [ world, ...holes ];

	const borders = topojson.mesh(
		topo,
		topo.objects.countries,
		( a, b ) => a !== b
	);
	return {
		countries,
		land: { type: 'MultiPolygon', coordinates: land },
		ocean: { type: 'Polygon', coordinates: ocean },
		lakes: { type: 'MultiPolygon', coordinates: lakes },
		borders,
		source: `Natural Earth 1:50m via world-atlas@${ version }`,
	};
}
