/**
 * The vector tiles of the OpenFreeMap stand-in (tests/e2e/fixtures/maps-service.ts serves them as
 * `https://tiles.openfreemap.org/planet/<version>/{z}/{x}/{y}.pbf`): the OpenMapTiles schema's
 * `water`, `boundary` and `place` layers cut from Natural Earth 1:50m, like the real planet
 * tiles at low zooms (OpenMapTiles has no land layer: land is the style's background).
 *
 *   water     the ocean and lakes               class: 'ocean' | 'lake'
 *   boundary  borders between countries         admin_level: 2, maritime: 0, disputed: 0
 *   place     one point per country             class: 'country', name, name_en, name:en,
 *                                               name:latin, rank (1 = most prominent)
 * A country's label is in the tiles from the zoom its area earns (as OpenMapTiles' rank does).
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

import { fileURLToPath } from 'node:url';

import { loadWorld } from './natural-earth.mjs';

const require = createRequire( import.meta.url );

/** This file (its bytes join the fixtures' cache hash). */
export const OPENFREEMAP_FIXTURE_FILE = fileURLToPath( import.meta.url );
const EXTENT = 4096;

/**
 * The zoom a country's label appears from and its OpenMapTiles rank, from its area rank.
 *
 * @param {number} areaRank 1 = the largest country.
 * @return {{minZoom: number, rank: number}} Zoom and rank (1–6).
 */
export function countryRank( areaRank ) {
	if ( areaRank <= 12 ) {
		return { minZoom: 0, rank: 1 };
	}
	if ( areaRank <= 30 ) {
		return { minZoom: 1, rank: 2 };
	}
	if ( areaRank <= 70 ) {
		return { minZoom: 2, rank: 3 };
	}
	if ( areaRank <= 130 ) {
		return { minZoom: 3, rank: 4 };
	}
	return { minZoom: 4, rank: areaRank <= 190 ? 5 : 6 };
}

/**
 * Writes `{z}/{x}/{y}.pbf` under outDir for z0–maxZoom (tiles with no feature are not written).
 *
 * @param {string} outDir  Folder.
 * @param {number} maxZoom Highest zoom.
 * @return {Promise<{count: number, bytes: number, layers: string[]}>} What was written.
 */
export async function buildOpenFreeMapTiles( outDir, maxZoom ) {
	const vtpbf = require( 'vt-pbf' );
	const { default: GeoJSONVT } = await import( 'geojson-vt' );
	const world = loadWorld();
	const feature = ( id, properties, geometry ) => ( {
		type: 'Feature',
		id,
		properties,
		geometry,
	} );
	const sources = {
		water: [
			feature( 1, { class: 'ocean' }, world.ocean ),
			feature( 2, { class: 'lake' }, world.lakes ),
		],
		boundary: [
			feature(
				1,
				{ admin_level: 2, maritime: 0, disputed: 0 },
				world.borders
			),
		],
		place: world.countries.map( ( c, i ) => {
			const { minZoom, rank } = countryRank( c.rank );
			return feature(
				i + 1,
				{
					class: 'country',
					name: c.name,
					name_en: c.name,
					'name:en': c.name,
					'name:latin': c.name,
					rank,
					min_zoom: minZoom,
				},
				{ type: 'Point', coordinates: c.label }
			);
		} ),
	};
	const common = {
		maxZoom,
		indexMaxZoom: maxZoom,
		indexMaxPoints: 0,
		extent: EXTENT,
	};
	const indexes = Object.fromEntries(
		Object.entries( sources ).map( ( [ name, features ] ) => [
			name,
			new GeoJSONVT(
				{ type: 'FeatureCollection', features },
				name === 'place'
					? { ...common, buffer: 128 }
					: { ...common, tolerance: 3, buffer: 64 }
			),
		] )
	);
	let count = 0;
	let bytes = 0;
	for ( let z = 0; z <= maxZoom; z++ ) {
		for ( let x = 0; x < 2 ** z; x++ ) {
			for ( let y = 0; y < 2 ** z; y++ ) {
				const layers = {};
				for ( const [ name, index ] of Object.entries( indexes ) ) {
					const tile = index.getTile( z, x, y );
					const features = ( tile?.features ?? [] )
						.filter( ( f ) => ( f.tags.min_zoom ?? 0 ) <= z )
						.map( ( f ) => {
							const { min_zoom: _, ...tags } = f.tags;
							return { ...f, tags };
						} );
					if ( features.length ) {
						layers[ name ] = { ...tile, features };
					}
				}
				if ( ! Object.keys( layers ).length ) {
					continue;
				}
				const buf = vtpbf.fromGeojsonVt( layers, {
					version: 2,
					extent: EXTENT,
				} );
				const dir = path.join( outDir, String( z ), String( x ) );
				fs.mkdirSync( dir, { recursive: true } );
				fs.writeFileSync( path.join( dir, `${ y }.pbf` ), buf );
				count++;
				bytes += buf.length;
			}
		}
	}
	return { count, bytes, layers: Object.keys( sources ) };
}
