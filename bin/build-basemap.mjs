#!/usr/bin/env node
/**
 * Builds the demo site's self-hosted world basemap: `.cache/basemap/world.pmtiles`, a PMTiles v3
 * archive of Mapbox Vector Tiles, z0–6, in the Protomaps basemap schema that
 * `@protomaps/basemaps`' `layers()` draws, cut from Natural Earth 1:50m (public domain, through the
 * world-atlas package) with geojson-vt and vt-pbf, written by bin/lib/pmtiles-writer.mjs.
 *
 * Layers (property names as `@protomaps/basemaps` 5 reads them):
 *   earth       land polygons                    kind: 'earth'
 *   water       the ocean and lakes (polygons)   kind: 'ocean' | 'lake'
 *   boundaries  borders between countries        kind: 'country', kind_detail: 2, min_zoom
 *   places      one label point per country      kind: 'country', name, name:en, min_zoom,
 *                                                population_rank, sort_key
 * Natural Earth's 1:50m countries carry no population, so `population_rank` (0–17, bigger = more
 * prominent, as Protomaps uses it) and `min_zoom` come from the country's area; a country's label
 * is in the tiles from its `min_zoom` on.
 *
 * Metadata: attribution "Natural Earth", vector_layers (the four above, and the schema's other
 * layers — landcover, landuse, roads, buildings, pois, transit — listed with no fields, since
 * MapLibre reports each style layer whose source layer the TileJSON lacks as an error), name,
 * description, version.
 *
 * Idempotent: `.cache/basemap/world.json` records the hash of this script, its helpers and its
 * input packages; when it matches, nothing is built (~50 ms). The archive is written to a
 * temporary file and renamed into place, so concurrent runs are safe.
 *
 * Usage: node bin/build-basemap.mjs [--force] [--quiet] [--fixtures]
 *   --fixtures  also (re)write the committed test archives in tests/fixtures/basemap/:
 *               tiny.pmtiles (the same data at z0 only, one tile), truncated.pmtiles (its first bytes:
 *               the header's sections run past the end of the file) and not-an-archive.pmtiles.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

import { NATURAL_EARTH_FILE, loadWorld } from './lib/natural-earth.mjs';
import { Compression, TileType, writePmtiles } from './lib/pmtiles-writer.mjs';

const require = createRequire( import.meta.url );
const SELF = fileURLToPath( import.meta.url );
const WRITER_FILE = fileURLToPath(
	new URL( './lib/pmtiles-writer.mjs', import.meta.url )
);
export const ROOT = path.resolve( path.dirname( SELF ), '..' );
export const OUT_DIR = path.join( ROOT, '.cache', 'basemap' );
export const ARCHIVE = path.join( OUT_DIR, 'world.pmtiles' );
const MANIFEST = path.join( OUT_DIR, 'world.json' );

export const MIN_ZOOM = 0;
export const MAX_ZOOM = 6;
const EXTENT = 4096;
export const ATTRIBUTION = 'Natural Earth';
const INPUT_PACKAGES = [
	'world-atlas',
	'topojson-client',
	'geojson-vt',
	'vt-pbf',
];

function packageVersion( name ) {
	return JSON.parse(
		fs.readFileSync(
			path.join( ROOT, 'node_modules', name, 'package.json' ),
			'utf8'
		)
	).version;
}

/** The hash stored in world.json: changes when this script, a helper or an input changes. */
export function currentHash() {
	const h = createHash( 'sha256' );
	for ( const file of [ SELF, NATURAL_EARTH_FILE, WRITER_FILE ] ) {
		h.update( fs.readFileSync( file ) );
	}
	for ( const name of INPUT_PACKAGES ) {
		h.update( `${ name }@${ packageVersion( name ) }` );
	}
	return h.digest( 'hex' ).slice( 0, 16 );
}

function readManifest() {
	try {
		return JSON.parse( fs.readFileSync( MANIFEST, 'utf8' ) );
	} catch {
		return null;
	}
}

/** Whether the archive on disk is the one this script would build. */
export function isUpToDate() {
	const manifest = readManifest();
	return (
		!! manifest &&
		manifest.hash === currentHash() &&
		fs.existsSync( ARCHIVE ) &&
		fs.statSync( ARCHIVE ).size === manifest.bytes
	);
}

/**
 * A country's label zoom and prominence from its area rank (1 = largest of 241).
 *
 * @param {number} rank Area rank.
 * @return {{min_zoom: number, population_rank: number}} Protomaps' properties.
 */
export function prominence( rank ) {
	let minZoom = 4;
	if ( rank <= 12 ) {
		minZoom = 0;
	} else if ( rank <= 30 ) {
		minZoom = 1;
	} else if ( rank <= 70 ) {
		minZoom = 2;
	} else if ( rank <= 130 ) {
		minZoom = 3;
	}
	return {
		min_zoom: minZoom,
		population_rank: Math.max( 1, 17 - Math.floor( ( rank - 1 ) / 12 ) ),
	};
}

/**
 * The GeoJSON of each layer, in the Protomaps schema.
 *
 * @param {Object} world loadWorld()'s answer.
 * @return {Object} A FeatureCollection per layer.
 */
function layerSources( world ) {
	const collection = ( features ) => ( {
		type: 'FeatureCollection',
		features,
	} );
	const feature = ( id, properties, geometry ) => ( {
		type: 'Feature',
		id,
		properties,
		geometry,
	} );
	return {
		earth: collection( [
			feature( 1, { kind: 'earth', min_zoom: 0 }, world.land ),
		] ),
		water: collection( [
			feature( 1, { kind: 'ocean', min_zoom: 0 }, world.ocean ),
			feature( 2, { kind: 'lake', min_zoom: 0 }, world.lakes ),
		] ),
		boundaries: collection( [
			feature(
				1,
				{ kind: 'country', kind_detail: 2, min_zoom: 0 },
				world.borders
			),
		] ),
		places: collection(
			world.countries.map( ( c, i ) =>
				feature(
					i + 1,
					{
						kind: 'country',
						name: c.name,
						'name:en': c.name,
						...prominence( c.rank ),
						sort_key: c.rank,
					},
					{ type: 'Point', coordinates: c.label }
				)
			)
		),
	};
}

/** vector_layers for the metadata (TileJSON's field types). */
const VECTOR_LAYERS = [
	{ id: 'earth', fields: { kind: 'String', min_zoom: 'Number' } },
	{ id: 'water', fields: { kind: 'String', min_zoom: 'Number' } },
	{
		id: 'boundaries',
		fields: { kind: 'String', kind_detail: 'Number', min_zoom: 'Number' },
	},
	{
		id: 'places',
		fields: {
			kind: 'String',
			name: 'String',
			'name:en': 'String',
			min_zoom: 'Number',
			population_rank: 'Number',
			sort_key: 'Number',
		},
	},
	// The basemap schema's other layers, declared empty: this archive has no such data, and
	// MapLibre reports every style layer whose source layer a TileJSON does not list as an error.
	...[ 'landcover', 'landuse', 'roads', 'buildings', 'pois', 'transit' ].map(
		( id ) => ( { id, fields: {} } )
	),
].map( ( layer ) => ( { ...layer, minzoom: MIN_ZOOM, maxzoom: MAX_ZOOM } ) );

/**
 * Cuts the tiles.
 *
 * @param {number} [maxZoom] Highest zoom written (default MAX_ZOOM).
 * @return {Promise<{tiles: Object[], world: Object}>} Gzipped tiles and the source data.
 */
async function cutTiles( maxZoom = MAX_ZOOM ) {
	const vtpbf = require( 'vt-pbf' );
	const { default: GeoJSONVT } = await import( 'geojson-vt' );
	const world = loadWorld();
	const sources = layerSources( world );
	// geojson-vt keeps full detail at its maxZoom: always cut for MAX_ZOOM, even when only the
	// lower zooms are written (the test archive), so that every zoom looks as in the demo's.
	const common = {
		maxZoom: MAX_ZOOM,
		indexMaxZoom: MAX_ZOOM,
		indexMaxPoints: 0,
		extent: EXTENT,
	};
	const indexes = {
		earth: new GeoJSONVT( sources.earth, {
			...common,
			tolerance: 3,
			buffer: 64,
		} ),
		water: new GeoJSONVT( sources.water, {
			...common,
			tolerance: 3,
			buffer: 64,
		} ),
		boundaries: new GeoJSONVT( sources.boundaries, {
			...common,
			tolerance: 3,
			buffer: 16,
		} ),
		places: new GeoJSONVT( sources.places, { ...common, buffer: 128 } ),
	};
	const tiles = [];
	for ( let z = MIN_ZOOM; z <= maxZoom; z++ ) {
		const n = 2 ** z;
		for ( let x = 0; x < n; x++ ) {
			for ( let y = 0; y < n; y++ ) {
				const layers = {};
				for ( const [ name, index ] of Object.entries( indexes ) ) {
					const tile = index.getTile( z, x, y );
					if ( ! tile ) {
						continue;
					}
					const features = tile.features.filter(
						( f ) => ( f.tags.min_zoom ?? 0 ) <= z
					);
					if ( features.length ) {
						layers[ name ] = { ...tile, features };
					}
				}
				if ( ! Object.keys( layers ).length ) {
					continue;
				}
				const pbf = vtpbf.fromGeojsonVt( layers, {
					version: 2,
					extent: EXTENT,
				} );
				tiles.push( {
					z,
					x,
					y,
					// mtime 0: the same input gives the same bytes.
					data: zlib.gzipSync( pbf, { level: 9 } ),
				} );
			}
		}
	}
	return { tiles, world };
}

export const FIXTURES_DIR = path.join( ROOT, 'tests', 'fixtures', 'basemap' );

/**
 * Writes the committed test archives (see --fixtures in the header).
 *
 * @param {Function} log Logger.
 */
async function writeFixtures( log ) {
	const { tiles } = await cutTiles( 0 );
	const { bytes } = writePmtiles( {
		tiles,
		bounds: [ -180, -85.0511287, 180, 85.0511287 ],
		center: [ 0, 0, 0 ],
		minZoom: 0,
		maxZoom: 0,
		metadata: {
			name: 'Cairn Maps test world (z0)',
			attribution: ATTRIBUTION,
			vector_layers: VECTOR_LAYERS.map( ( layer ) => ( {
				...layer,
				maxzoom: 0,
			} ) ),
		},
	} );
	fs.mkdirSync( FIXTURES_DIR, { recursive: true } );
	fs.writeFileSync( path.join( FIXTURES_DIR, 'tiny.pmtiles' ), bytes );
	// Header and root directory intact; metadata and tiles cut off.
	const header = bytes.readBigUInt64LE( 8 ) + bytes.readBigUInt64LE( 16 );
	fs.writeFileSync(
		path.join( FIXTURES_DIR, 'truncated.pmtiles' ),
		bytes.subarray( 0, Number( header ) + 16 )
	);
	fs.writeFileSync(
		path.join( FIXTURES_DIR, 'not-an-archive.pmtiles' ),
		'This is not a PMTiles archive: a text file with the .pmtiles extension.\n'
	);
	log(
		`test archives -> ${ path.relative( ROOT, FIXTURES_DIR ) } (tiny.pmtiles ${ bytes.length } bytes)`
	);
}

/**
 * Builds the archive unless it is up to date.
 *
 * @param {{force?: boolean, log?: (msg: string) => void}} [options]
 * @return {Promise<Object>} The manifest (hash, bytes, tiles, build time).
 */
export async function buildBasemap( { force = false, log = () => {} } = {} ) {
	const hash = currentHash();
	if ( ! force && isUpToDate() ) {
		const manifest = readManifest();
		log(
			`world basemap up to date (${ hash }): ${ path.relative( ROOT, ARCHIVE ) }, ${ (
				manifest.bytes /
				1024 /
				1024
			).toFixed( 2 ) } MiB`
		);
		return manifest;
	}
	const started = Date.now();
	const { tiles, world } = await cutTiles();
	const { bytes, stats } = writePmtiles( {
		tiles,
		tileType: TileType.Mvt,
		tileCompression: Compression.Gzip,
		bounds: [ -180, -85.0511287, 180, 85.0511287 ],
		center: [ 8, 47, 2 ],
		minZoom: MIN_ZOOM,
		maxZoom: MAX_ZOOM,
		metadata: {
			name: 'Cairn Maps demo world',
			description:
				'Countries, coastlines, borders and country labels at z0–6, from Natural Earth 1:50m (public domain), in the Protomaps basemap schema.',
			attribution: ATTRIBUTION,
			version: hash,
			type: 'baselayer',
			format: 'pbf',
			vector_layers: VECTOR_LAYERS,
		},
	} );
	fs.mkdirSync( OUT_DIR, { recursive: true } );
	const tmp = `${ ARCHIVE }.tmp-${ process.pid }`;
	fs.writeFileSync( tmp, bytes );
	fs.renameSync( tmp, ARCHIVE );
	const manifest = {
		hash,
		file: path.relative( ROOT, ARCHIVE ),
		bytes: bytes.length,
		buildMs: Date.now() - started,
		minzoom: MIN_ZOOM,
		maxzoom: MAX_ZOOM,
		countries: world.countries.length,
		source: world.source,
		...stats,
	};
	const tmpManifest = `${ MANIFEST }.tmp-${ process.pid }`;
	fs.writeFileSync(
		tmpManifest,
		JSON.stringify( manifest, null, '\t' ) + '\n'
	);
	fs.renameSync( tmpManifest, MANIFEST );
	log(
		`world basemap built in ${ manifest.buildMs } ms: ${ stats.addressedTiles } tiles z${ MIN_ZOOM }-${ MAX_ZOOM } ` +
			`(${ stats.tileContents } distinct, ${ stats.tileEntries } entries, ${ stats.leafDirectories } leaf directories), ` +
			`${ ( bytes.length / 1024 / 1024 ).toFixed( 2 ) } MiB -> ${ path.relative( ROOT, ARCHIVE ) }`
	);
	return manifest;
}

if ( process.argv[ 1 ] && path.resolve( process.argv[ 1 ] ) === SELF ) {
	const args = new Set( process.argv.slice( 2 ) );
	const log = args.has( '--quiet' )
		? () => {}
		: ( msg ) => console.log( msg );
	buildBasemap( { force: args.has( '--force' ), log } )
		.then( () =>
			args.has( '--fixtures' ) ? writeFixtures( log ) : null
		)
		.catch( ( e ) => {
			console.error(
				`build-basemap failed: ${ e && e.stack ? e.stack : e }`
			);
			process.exit( 1 );
		} );
}
