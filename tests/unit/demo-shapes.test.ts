/**
 * @jest-environment node
 */
/**
 * The demo site's routes and areas (bin/demo-shapes.json, seeded by bin/seed.mjs): the file is
 * what bin/demo-shapes.mjs writes, the trails look like trails (evenly spaced vertices, smooth
 * turns and heights, start and end at the demo's places), the park is a simple closed ring, and
 * the group's line looks are values the site accepts.
 */
import fs from 'node:fs';
import path from 'node:path';

import { buildDemoShapes, demoShapesJson } from '../../bin/demo-shapes.mjs';

const BIN = path.join( __dirname, '..', '..', 'bin' );
const R = 6371008.8;

interface DemoMarker {
	title: string;
	lat: number;
	lng: number;
}

const markers = (
	JSON.parse(
		fs.readFileSync( path.join( BIN, 'demo-markers.json' ), 'utf8' )
	) as { markers: DemoMarker[] }
 ).markers;

function metres( a: number[], b: number[] ): number {
	const rad = Math.PI / 180;
	const dLat = ( b[ 1 ]! - a[ 1 ]! ) * rad;
	const dLng = ( b[ 0 ]! - a[ 0 ]! ) * rad;
	const h =
		Math.sin( dLat / 2 ) ** 2 +
		Math.cos( a[ 1 ]! * rad ) *
			Math.cos( b[ 1 ]! * rad ) *
			Math.sin( dLng / 2 ) ** 2;
	return 2 * R * Math.asin( Math.sqrt( h ) );
}

/** Turn at each inner vertex, in degrees (0 = straight on). */
function turns( line: number[][] ): number[] {
	const heading = ( a: number[], b: number[] ) =>
		Math.atan2(
			b[ 1 ]! - a[ 1 ]!,
			( b[ 0 ]! - a[ 0 ]! ) * Math.cos( ( a[ 1 ]! * Math.PI ) / 180 )
		);
	const out: number[] = [];
	for ( let i = 1; i < line.length - 1; i++ ) {
		let turn =
			( Math.abs(
				heading( line[ i ]!, line[ i + 1 ]! ) -
					heading( line[ i - 1 ]!, line[ i ]! )
			) *
				180 ) /
			Math.PI;
		if ( turn > 180 ) {
			turn = 360 - turn;
		}
		out.push( turn );
	}
	return out;
}

function segmentsCross(
	a: number[],
	b: number[],
	c: number[],
	d: number[]
): boolean {
	const side = ( p: number[], q: number[], r: number[] ) =>
		Math.sign(
			( q[ 0 ]! - p[ 0 ]! ) * ( r[ 1 ]! - p[ 1 ]! ) -
				( q[ 1 ]! - p[ 1 ]! ) * ( r[ 0 ]! - p[ 0 ]! )
		);
	return (
		side( a, b, c ) * side( a, b, d ) < 0 &&
		side( c, d, a ) * side( c, d, b ) < 0
	);
}

/** How many pairs of a line's (or a ring's) segments cross. */
function crossings( line: number[][], ring: boolean ): number {
	let found = 0;
	for ( let i = 0; i < line.length - 1; i++ ) {
		for ( let j = i + 2; j < line.length - 1; j++ ) {
			// A ring's first and last segments meet at its start.
			if (
				! ( ring && i === 0 && j === line.length - 2 ) &&
				segmentsCross(
					line[ i ]!,
					line[ i + 1 ]!,
					line[ j ]!,
					line[ j + 1 ]!
				)
			) {
				found++;
			}
		}
	}
	return found;
}

const demo = buildDemoShapes();
const trails = demo.shapes.filter(
	( shape ) => shape.geometry.type === 'LineString'
);
const areas = demo.shapes.filter(
	( shape ) => shape.geometry.type === 'Polygon'
);

describe( 'demo routes and areas', () => {
	it( 'bin/demo-shapes.json is what bin/demo-shapes.mjs writes (run it after changing a waypoint)', () => {
		expect(
			fs.readFileSync( path.join( BIN, 'demo-shapes.json' ), 'utf8' )
		).toBe( demoShapesJson() );
		expect( demoShapesJson() ).toBe( demoShapesJson() );
	} );

	it( 'holds three trails and one area, with titles no demo marker has', () => {
		expect( trails ).toHaveLength( 3 );
		expect( areas ).toHaveLength( 1 );
		const titles = new Set( markers.map( ( marker ) => marker.title ) );
		for ( const shape of demo.shapes ) {
			expect( titles.has( shape.title ) ).toBe( false );
		}
	} );

	it.each( [
		[ 'Zermatt to the Hörnli Hut', 'Hörnli Hut', 1500, 1800 ],
		[ 'Ben Nevis Mountain Track', 'Ben Nevis', 1250, 1450 ],
		[ 'Llanberis Path to Yr Wyddfa', 'Yr Wyddfa (Snowdon)', 900, 1100 ],
	] )(
		'%s looks like a walked trail that ends at %s',
		( title, end, minAscent, maxAscent ) => {
			const line = trails.find( ( shape ) => shape.title === title )!
				.geometry.coordinates as number[][];
			expect( line.length ).toBeGreaterThanOrEqual( 100 );
			expect( line.length ).toBeLessThanOrEqual( 400 );
			const summit = markers.find( ( marker ) => marker.title === end )!;
			expect(
				metres( line[ line.length - 1 ]!, [ summit.lng, summit.lat ] )
			).toBeLessThan( 300 );

			let length = 0;
			let ascent = 0;
			for ( let i = 1; i < line.length; i++ ) {
				const step = metres( line[ i - 1 ]!, line[ i ]! );
				length += step;
				// Evenly spaced vertices, as a GPS logging every few seconds records them.
				expect( step ).toBeGreaterThan( 15 );
				expect( step ).toBeLessThan( 50 );
				const climb = line[ i ]![ 2 ]! - line[ i - 1 ]![ 2 ]!;
				ascent += Math.max( climb, 0 );
				// No cliff between two vertices: at most a 60 % grade.
				expect( Math.abs( climb ) / step ).toBeLessThan( 0.6 );
			}
			expect( length ).toBeGreaterThan( 5000 );
			expect( length ).toBeLessThan( 12000 );
			for ( const position of line ) {
				expect( position ).toHaveLength( 3 );
				expect( position[ 2 ] ).toBeGreaterThanOrEqual( 0 );
				expect( position[ 2 ] ).toBeLessThan( 4500 );
			}
			// Heights that climb, not saw up and down: the summed ascent is close to the net gain.
			const gain = line[ line.length - 1 ]![ 2 ]! - line[ 0 ]![ 2 ]!;
			expect( ascent ).toBeGreaterThan( minAscent );
			expect( ascent ).toBeLessThan( maxAscent );
			expect( ascent ).toBeLessThan( gain * 1.1 );
			// Smooth: no spikes, and sharp turns only at a few hairpin bends.
			const angles = turns( line );
			expect( Math.max( ...angles ) ).toBeLessThan( 135 );
			expect(
				angles.filter( ( angle ) => angle > 45 ).length
			).toBeLessThanOrEqual( 8 );
			// Not a tangle either: the line does not cross itself.
			expect( crossings( line, false ) ).toBe( 0 );
		}
	);

	it( 'the park is one closed ring that does not cross itself, in London', () => {
		const rings = areas[ 0 ]!.geometry.coordinates as number[][][];
		expect( rings ).toHaveLength( 1 );
		const ring = rings[ 0 ]!;
		expect( ring.length ).toBeGreaterThanOrEqual( 4 );
		expect( ring[ 0 ] ).toEqual( ring[ ring.length - 1 ] );
		expect( crossings( ring, true ) ).toBe( 0 );
		for ( const [ lng, lat ] of ring ) {
			expect( lng ).toBeGreaterThan( -0.2 );
			expect( lng ).toBeLessThan( -0.14 );
			expect( lat ).toBeGreaterThan( 51.49 );
			expect( lat ).toBeLessThan( 51.52 );
		}
	} );

	it( 'their group sets line looks the site accepts', () => {
		const { meta } = demo.group;
		expect( meta.cairn_color ).toMatch( /^#[0-9a-f]{6}$/ );
		expect( meta.cairn_line_color ).toMatch( /^#[0-9a-f]{6}$/ );
		expect( Number.isInteger( meta.cairn_line_width ) ).toBe( true );
		expect( meta.cairn_line_width ).toBeGreaterThanOrEqual( 1 );
		expect( meta.cairn_line_width ).toBeLessThanOrEqual( 12 );
		expect( meta.cairn_fill_opacity ).toBeGreaterThanOrEqual( 0 );
		expect( meta.cairn_fill_opacity ).toBeLessThanOrEqual( 1 );
		expect(
			markers.some( ( marker ) => marker.title === demo.group.name )
		).toBe( false );
	} );
} );
