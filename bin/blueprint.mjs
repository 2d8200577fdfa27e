#!/usr/bin/env node
/**
 * WordPress.org's Live Preview of the plugin: `.wordpress-org/blueprints/blueprint.json`, the
 * WordPress Playground blueprint the plugin directory boots when a visitor presses "Live Preview"
 * (the directory reads only that one file from the plugin's assets/blueprints/ folder).
 *
 *   node bin/blueprint.mjs            write it
 *   node bin/blueprint.mjs --check    exit 1 when the committed file is not what this script makes
 *
 * The blueprint:
 * 1. installs and activates the plugin from the directory (`wordpress.org/plugins`, slug
 *    cairn-maps): what a visitor previews is the published release;
 * 2. writes the demo plan to /tmp/cairn-maps-demo.json: the REST requests bin/seed.mjs makes on a
 *    development site, built by seed.mjs's own functions from bin/demo-markers.json and
 *    bin/demo-shapes.json (groups; ~200 markers, three routes and a park, as one GeoJSON import;
 *    six posts with places; the three demo pages), plus the upload of the world archive the zip
 *    ships (assets/basemap/world.pmtiles) and the basemap setting that points at it;
 * 3. runs bin/blueprint-seed.php (its text, inlined), which replays the plan inside WordPress;
 * 4. logs the visitor in and opens the demo page (`landingPage`).
 * So the preview draws a real map with no token and no request beyond the Playground itself.
 *
 * bin/live-preview.mjs boots the same file offline, the install step pointed at a local zip.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { WORLD_ARCHIVE } from './plugin-zip.mjs';
import {
	PAGE_CONTENT,
	PAGE_SLUG,
	PAGE_TITLE,
	STORIES,
	STORIES_PAGE_CONTENT,
	STORIES_SLUG,
	STORIES_TITLE,
	TRAILS_SLUG,
	TRAILS_TITLE,
	groupBody,
	markerBody,
	shapeBody,
	slugify,
	storyBody,
	trailsPageContent,
} from './seed.mjs';

const HERE = path.dirname( fileURLToPath( import.meta.url ) );
export const ROOT = path.resolve( HERE, '..' );
export const BLUEPRINT_FILE = path.join(
	ROOT,
	'.wordpress-org',
	'blueprints',
	'blueprint.json'
);
/** Where the blueprint's writeFile step leaves the plan for its runPHP step. */
export const PLAN_PATH = '/tmp/cairn-maps-demo.json';
/** The page the preview opens (works with any permalink structure). */
export const LANDING_PAGE = `/?pagename=${ PAGE_SLUG }`;

const readJson = ( file ) =>
	JSON.parse( fs.readFileSync( path.join( HERE, file ), 'utf8' ) );

const page = ( slug, title, content ) => ( {
	method: 'POST',
	path: '/wp/v2/pages',
	body: { title, slug, status: 'publish', content },
} );

/**
 * The demo's markers, routes and areas as one GeoJSON import (`POST /cairn/v1/markers/import`):
 * the titles and texts bin/seed.mjs gives them (markerBody(), shapeBody()), each in its group by
 * name. One import writes them in bulk; the same 204 markers one REST request at a time took
 * ~45 s in Playground, the import ~4 s.
 *
 * @param {Object} markers bin/demo-markers.json.
 * @param {Object} shapes  bin/demo-shapes.json.
 * @return {Object} A GeoJSON FeatureCollection.
 */
export function demoImport( markers, shapes ) {
	const groupName = new Map(
		markers.groups.map( ( group ) => [ group.slug, group.name ] )
	);
	const feature = ( body, group, geometry ) => ( {
		type: 'Feature',
		properties: {
			title: body.title,
			description: body.content,
			groups: [ group ],
		},
		geometry,
	} );
	return {
		type: 'FeatureCollection',
		features: [
			...markers.markers.map( ( marker ) =>
				feature(
					markerBody( marker, groupName.get( marker.group ), 0 ),
					groupName.get( marker.group ),
					{ type: 'Point', coordinates: [ marker.lng, marker.lat ] }
				)
			),
			...shapes.shapes.map( ( shape ) =>
				feature(
					shapeBody( shape, 0 ),
					shapes.group.name,
					shape.geometry
				)
			),
		],
	};
}

/**
 * The demo as REST requests, in bin/seed.mjs's order; ids of earlier answers are `{ $id: ref }`.
 *
 * @return {{requests: Object[]}} The plan bin/blueprint-seed.php replays.
 */
export function demoPlan() {
	const markers = readJson( 'demo-markers.json' );
	const shapes = readJson( 'demo-shapes.json' );
	const categories = [ ...new Set( STORIES.map( ( story ) => story[ 1 ] ) ) ];
	const requests = [
		...[ ...markers.groups, shapes.group ].map( ( group ) => ( {
			method: 'POST',
			path: '/wp/v2/cairn-marker-groups',
			body: groupBody( group ),
		} ) ),
		{
			method: 'POST',
			path: '/cairn/v1/markers/import',
			query: { format: 'geojson' },
			body: demoImport( markers, shapes ),
		},
		{
			ref: 'basemap',
			method: 'POST',
			path: '/wp/v2/media',
			file: WORLD_ARCHIVE,
			headers: {
				'Content-Type': 'application/vnd.pmtiles',
				'Content-Disposition':
					'attachment; filename="cairn-demo-world.pmtiles"',
			},
		},
		{
			method: 'POST',
			path: '/wp/v2/settings',
			body: { cairn_maps_basemap: { $archive: 'basemap' } },
		},
		page(
			TRAILS_SLUG,
			TRAILS_TITLE,
			trailsPageContent( shapes.group.slug )
		),
		page( PAGE_SLUG, PAGE_TITLE, PAGE_CONTENT ),
		...categories.map( ( name ) => ( {
			ref: `category:${ name }`,
			method: 'POST',
			path: '/wp/v2/categories',
			body: { name, slug: slugify( name ) },
		} ) ),
		...STORIES.map( ( story ) => ( {
			method: 'POST',
			path: '/wp/v2/posts',
			body: storyBody( story, { $id: `category:${ story[ 1 ] }` } ),
		} ) ),
		page( STORIES_SLUG, STORIES_TITLE, STORIES_PAGE_CONTENT ),
	];
	return { requests };
}

/**
 * The blueprint WordPress.org publishes.
 *
 * @return {Object} The blueprint.
 */
export function makeBlueprint() {
	return {
		$schema: 'https://playground.wordpress.net/blueprint-schema.json',
		meta: {
			title: 'Cairn Maps demo',
			description:
				'Cairn Maps with its demo: two hundred clustered places, trails with elevation, posts on a map, on a world basemap the plugin ships (no token).',
			author: 'cairnmaps',
			categories: [ 'Maps' ],
		},
		landingPage: LANDING_PAGE,
		preferredVersions: { php: '8.3', wp: 'latest' },
		login: true,
		steps: [
			{
				step: 'installPlugin',
				pluginData: {
					resource: 'wordpress.org/plugins',
					slug: 'cairn-maps',
				},
				options: { activate: true },
			},
			{
				step: 'writeFile',
				path: PLAN_PATH,
				data: JSON.stringify( demoPlan() ),
			},
			{
				step: 'runPHP',
				code: fs.readFileSync(
					path.join( HERE, 'blueprint-seed.php' ),
					'utf8'
				),
			},
		],
	};
}

/** The blueprint's text as this script writes it. */
export function blueprintText() {
	return JSON.stringify( makeBlueprint(), null, '\t' ) + '\n';
}

/**
 * A copy of a blueprint whose plugin install reads a zip beside it (Playground's `bundled`
 * resource) instead of the plugin directory: the same blueprint, booted offline.
 *
 * @param {Object} blueprint The published blueprint.
 * @param {string} zipName   The zip's file name, in the blueprint's folder.
 * @return {Object} The local blueprint.
 */
export function localBlueprint( blueprint, zipName ) {
	const copy = structuredClone( blueprint );
	const install = copy.steps.filter(
		( step ) =>
			step.step === 'installPlugin' &&
			step.pluginData?.resource === 'wordpress.org/plugins' &&
			step.pluginData?.slug === 'cairn-maps'
	);
	if ( install.length !== 1 ) {
		throw new Error(
			'the blueprint must install cairn-maps from wordpress.org/plugins exactly once'
		);
	}
	install[ 0 ].pluginData = { resource: 'bundled', path: zipName };
	return copy;
}

if ( import.meta.url === pathToFileURL( process.argv[ 1 ] ).href ) {
	const text = blueprintText();
	const relative = path.relative( ROOT, BLUEPRINT_FILE );
	if ( process.argv.includes( '--check' ) ) {
		const current = fs.existsSync( BLUEPRINT_FILE )
			? fs.readFileSync( BLUEPRINT_FILE, 'utf8' )
			: '';
		if ( current !== text ) {
			process.stderr.write(
				`[blueprint] ${ relative } is not current: run node bin/blueprint.mjs\n`
			);
			process.exit( 1 );
		}
		process.stdout.write( `[blueprint] ${ relative } is current\n` );
	} else {
		fs.mkdirSync( path.dirname( BLUEPRINT_FILE ), { recursive: true } );
		fs.writeFileSync( BLUEPRINT_FILE, text );
		process.stdout.write(
			`[blueprint] wrote ${ relative } (${ ( text.length / 1024 ).toFixed( 1 ) } kB)\n`
		);
	}
}
