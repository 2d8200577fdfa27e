/**
 * bench/front/shapes.php, which makes the shapes feed's features of `bench:front:shapes` with the
 * plugin's own PHP: a route a line in, the feed's feature a line out. Skipped without PHP or
 * WordPress core (.cache/wordpress).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import test from 'node:test';
import assert from 'node:assert/strict';

const HERE = path.dirname( new URL( import.meta.url ).pathname );
const ROOT = path.resolve( HERE, '..', '..' );
const PHP = process.env.CAIRN_BENCH_PHP || 'php';
const core =
	process.env.CAIRN_WP_CORE_DIR || path.join( ROOT, '.cache', 'wordpress' );
const skip =
	spawnSync( PHP, [ '-v' ] ).status !== 0 ||
	! fs.existsSync( path.join( core, 'wp-includes', 'functions.php' ) ) ||
	! fs.existsSync( path.join( ROOT, 'vendor', 'autoload.php' ) )
		? 'needs PHP, vendor/ and WordPress core (bash bin/wp-core.sh)'
		: false;

const run = ( lines ) =>
	execFileSync( PHP, [ path.join( HERE, 'shapes.php' ) ], {
		input:
			lines.map( ( line ) => JSON.stringify( line ) ).join( '\n' ) + '\n',
		encoding: 'utf8',
	} )
		.split( '\n' )
		.filter( Boolean );

test(
	'shapes.php: one feed feature per route, simplified and measured by the plugin',
	{ skip },
	() => {
		// 401 positions 10 m apart going due north, climbing 0.5 m a step.
		const line = Array.from( { length: 401 }, ( _, i ) => [
			6.0000004,
			45 + ( i * 10 ) / 111195,
			100 + i / 2,
		] );
		const [ text, other ] = run( [
			{
				id: 20000000,
				title: 'Ridge Walk 1',
				group: 'huts',
				coordinates: line,
			},
			{
				id: 20000001,
				title: 'Loch Trail 2',
				group: 'peaks',
				coordinates: line.slice( 0, 50 ),
			},
		] );
		const feature = JSON.parse( text );
		assert.equal( feature.type, 'Feature' );
		assert.equal( feature.id, 20000000 );
		assert.equal( feature.geometry.type, 'LineString' );
		// A straight line is its ends to Line_Simplifier: 2D, 6 decimals.
		assert.deepEqual( feature.geometry.coordinates, [
			[ 6, 45 ],
			[ 6, Number( ( 45 + 4000 / 111195 ).toFixed( 6 ) ) ],
		] );
		assert.deepEqual( Object.keys( feature.properties ), [
			'title',
			'groups',
			'bbox',
			'length_m',
			'ascent_m',
			'descent_m',
			'profile',
		] );
		assert.equal( feature.properties.title, 'Ridge Walk 1' );
		assert.deepEqual( feature.properties.groups, [ 'huts' ] );
		assert.ok(
			Math.abs( feature.properties.length_m - 4000 ) < 20,
			`${ feature.properties.length_m } m`
		);
		// 200 m climbed, counted in steps of at least 3 m (the last 2 m are not yet a climb).
		assert.equal( feature.properties.ascent_m, 198 );
		assert.equal( feature.properties.descent_m, 0 );
		assert.equal( feature.properties.profile.length, 100 );
		assert.equal( JSON.parse( other ).id, 20000001 );
	}
);

test( 'shapes.php: a route the rule refuses stops it', { skip }, () => {
	assert.throws( () =>
		run( [
			{ id: 1, title: 'x', group: 'huts', coordinates: [ [ 1, 2 ] ] },
		] )
	);
} );
