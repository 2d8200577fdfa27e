/**
 * The import preview's map (Tools → Import/export markers): what a dry run will import, on the
 * site's basemap through the plugin's runtime, fitted to the places; the sketch in its place when
 * the map cannot draw; and no map left behind when the preview goes. mapbox-gl and maplibre-gl
 * cannot draw in jsdom: the ready map is a stand-in that records what the preview asks of it
 * (the e2e spec import-flow.spec.ts reads the real map), and the failure is the real runtime's.
 */
import { TextDecoder as NodeTextDecoder } from 'node:util';
import type { Map as MapboxMap } from 'mapbox-gl';

import type { CairnMap } from '../../src/blocks/map/runtime';
import {
	featureBounds,
	parseReport,
	previewCamera,
	renderReport,
	type ImportReport,
} from '../../src/import-export/preview';
import {
	createPreviewMap,
	PREVIEW_LAYERS,
	PREVIEW_SOURCE,
	previewMapLabel,
	type LoadRuntime,
} from '../../src/import-export/preview-map';

// jsdom lacks TextDecoder (the runtime's token check); every supported browser has it.
if ( typeof globalThis.TextDecoder === 'undefined' ) {
	Object.assign( globalThis, { TextDecoder: NodeTextDecoder } );
}

const nextTurn = () =>
	new Promise< void >( ( resolve ) => setImmediate( resolve ) );

async function until( condition: () => unknown ): Promise< void > {
	while ( ! condition() ) {
		await nextTurn();
	}
}

const report: ImportReport = parseReport( {
	dry_run: true,
	total: 4,
	imported: 3,
	kinds: { markers: 1, routes: 1, areas: 1, posts: 0 },
	preview: {
		type: 'FeatureCollection',
		features: [
			{
				type: 'Feature',
				geometry: { type: 'Point', coordinates: [ 7, 46 ] },
				properties: { title: '<img src=x onerror=alert(1)>Hut' },
			},
			{
				type: 'Feature',
				geometry: {
					type: 'LineString',
					coordinates: [
						[ 7, 46 ],
						[ 8, 47 ],
					],
				},
				properties: { title: 'Ridge' },
			},
			{
				type: 'Feature',
				geometry: {
					type: 'Polygon',
					coordinates: [
						[
							[ 7, 46 ],
							[ 8, 46 ],
							[ 8, 47 ],
							[ 7, 46 ],
						],
					],
				},
				properties: { title: 'Lake' },
			},
		],
	},
} );

/** A site whose basemap is the keyless default (OpenFreeMap, drawn by maplibre-gl). */
const OPENFREEMAP = {
	accessToken: '',
	siteStyle: 'https://tiles.openfreemap.org/styles/liberty',
	glyphsUrl: '',
	basemaps: {
		'https://tiles.openfreemap.org/styles/liberty': {
			provider: 'openfreemap' as const,
			glyphs: '',
			hosts: [ 'tiles.openfreemap.org' ],
			attribution: '',
		},
	},
};

/** What the preview asked of the ready map. */
interface StandIn {
	sources: Record< string, { data: GeoJSON.FeatureCollection } >;
	layers: Array< {
		id: string;
		type: string;
		layout?: Record< string, unknown >;
	} >;
	fitted: unknown[][];
}

/**
 * A runtime whose map gets ready at once with the stand-in map, recording its config.
 * @param style The basemap style the stand-in has loaded (glyphs, label fonts).
 */
function standInRuntime( style: Record< string, unknown > ) {
	const seen: StandIn = { sources: {}, layers: [], fitted: [] };
	const map = {
		addSource: ( id: string, source: StandIn[ 'sources' ][ string ] ) => {
			seen.sources[ id ] = source;
		},
		addLayer: ( layer: StandIn[ 'layers' ][ number ] ) => {
			seen.layers.push( layer );
		},
		fitBounds: ( ...args: unknown[] ) => {
			seen.fitted.push( args );
		},
		getStyle: () => style,
	} as unknown as MapboxMap; // The few members the preview uses.
	const destroy = jest.fn();
	const createMap = jest.fn<
		CairnMap,
		[ container: unknown, config: unknown, options?: unknown ]
	>( () => ( { map, ready: Promise.resolve( map ), destroy } ) );
	const load: LoadRuntime = () => Promise.resolve( { createMap } );
	return { seen, createMap, destroy, load };
}

describe( 'previewMapLabel', () => {
	it.each( [
		[ 1, 1, 'Map of the 1 place that will be imported' ],
		[ 3, 3, 'Map of the 3 places that will be imported' ],
		[ 3, 0, 'Map of the 3 places that will be imported' ],
		[
			2000,
			5000,
			'Map of 2,000 of the 5,000 places that will be imported',
		],
	] )( '%d drawn of %d imported: %s', ( drawn, imported, label ) => {
		expect( previewMapLabel( drawn, imported ) ).toBe( label );
	} );
} );

describe( 'featureBounds and previewCamera', () => {
	it( 'frames the places: the centre in the middle, the whole extent in the box', () => {
		const bounds = featureBounds( report.features );
		expect( bounds ).toEqual( [ 7, 46, 8, 47 ] );
		const { center, zoom } = previewCamera( bounds!, 480, 320, 24 );
		expect( center.lng ).toBeCloseTo( 7.5 );
		// Web Mercator: the middle of the map is a little north of the middle latitude.
		expect( center.lat ).toBeGreaterThan( 46.5 );
		expect( center.lat ).toBeLessThan( 46.6 );
		// The degree of latitude is the taller side: 272 px (320 less the padding) at zoom 7.03.
		expect( zoom ).toBeGreaterThan( 7 );
		expect( zoom ).toBeLessThan( 8 );
	} );

	it( 'keeps one place at street level, and the world at zoom 0', () => {
		expect(
			previewCamera( [ 7, 46, 7, 46 ], 480, 320 ).zoom
		).toBeLessThanOrEqual( 14 );
		expect( previewCamera( [ -180, -85, 180, 85 ], 480, 320 ).zoom ).toBe(
			0
		);
		expect( featureBounds( [] ) ).toBeNull();
	} );
} );

describe( 'createPreviewMap', () => {
	it( 'draws the places on the site’s basemap, labelled, and fits the view to them', async () => {
		const { seen, createMap, load } = standInRuntime( {
			glyphs: 'https://tiles.openfreemap.org/fonts/{fontstack}/{range}.pbf',
			layers: [
				{
					id: 'place',
					type: 'symbol',
					layout: { 'text-font': [ 'Noto Sans Regular' ] },
				},
			],
		} );
		const preview = createPreviewMap(
			document,
			report.features,
			report.imported,
			OPENFREEMAP,
			load
		);
		document.body.append( preview.element );
		expect(
			preview.element
				.querySelector( '[role="region"]' )
				?.getAttribute( 'aria-label' )
		).toBe( 'Map of the 3 places that will be imported' );
		await until( () => seen.fitted.length > 0 );

		const [ container, config, options ] = createMap.mock.calls[ 0 ] as [
			HTMLElement,
			Record< string, unknown >,
			{ host: HTMLElement },
		];
		expect( container.getAttribute( 'role' ) ).toBe( 'region' );
		expect( options.host ).toBe( preview.element );
		expect( config ).toMatchObject( {
			style: OPENFREEMAP.siteStyle,
			engine: 'maplibre',
			accessToken: '',
			markersUrl: '',
			hash: false,
		} );
		const data = seen.sources[ PREVIEW_SOURCE ]!.data;
		expect(
			data.features.map( ( feature ) => [
				feature.id,
				feature.properties?.kind,
				feature.properties?.title,
			] )
		).toEqual( [
			[ 0, 'marker', '<img src=x onerror=alert(1)>Hut' ],
			[ 1, 'route', 'Ridge' ],
			[ 2, 'area', 'Lake' ],
		] );
		expect( seen.layers.map( ( layer ) => layer.id ) ).toEqual( [
			PREVIEW_LAYERS.fill,
			PREVIEW_LAYERS.line,
			PREVIEW_LAYERS.points,
			PREVIEW_LAYERS.labels,
		] );
		// Titles in the style's own font (its glyphs are served already).
		expect( seen.layers[ 3 ]?.layout ).toMatchObject( {
			'text-field': [ 'get', 'title' ],
			'text-font': [ 'Noto Sans Regular' ],
		} );
		expect( seen.fitted[ 0 ]?.[ 0 ] ).toEqual( [
			[ 7, 46 ],
			[ 8, 47 ],
		] );
		// The file's title never became markup.
		expect( preview.element.querySelector( 'img' ) ).toBeNull();
		preview.element.remove();
	} );

	it( 'leaves the titles out on a style that cannot draw text', async () => {
		const { seen, load } = standInRuntime( { layers: [] } );
		createPreviewMap(
			document,
			report.features,
			report.imported,
			OPENFREEMAP,
			load
		);
		await until( () => seen.fitted.length > 0 );
		expect( seen.layers.map( ( layer ) => layer.id ) ).not.toContain(
			PREVIEW_LAYERS.labels
		);
	} );

	it( 'shows the runtime’s alert and the sketch when the basemap is Mapbox and there is no token', async () => {
		const standard = 'mapbox://styles/mapbox/standard';
		const preview = createPreviewMap(
			document,
			report.features,
			report.imported,
			{ ...OPENFREEMAP, siteStyle: standard, basemaps: {} }
			// The plugin's own runtime: it refuses the config before loading any library.
		);
		document.body.append( preview.element );
		await until( () => preview.element.querySelector( 'svg' ) );

		const host = preview.element;
		expect( host.dataset.cairnState ).toBe( 'error' );
		expect(
			host
				.querySelector( '[role="alert"]' )
				?.getAttribute( 'data-cairn-error' )
		).toBe( 'missing-token' );
		expect( host.querySelector( '[role="region"]' ) ).toBeNull();
		const svg = host.querySelector( 'svg.cairn-maps-import-map' );
		expect( svg?.querySelectorAll( 'circle' ) ).toHaveLength( 1 );
		expect( svg?.querySelectorAll( 'path' ) ).toHaveLength( 2 );
		// The alert first, then what will be imported.
		expect( host.firstElementChild?.getAttribute( 'role' ) ).toBe(
			'alert'
		);
		host.remove();
	} );

	it( 'shows the sketch when the runtime cannot be downloaded', async () => {
		const preview = createPreviewMap(
			document,
			report.features,
			report.imported,
			OPENFREEMAP,
			() => Promise.reject( new Error( 'ChunkLoadError' ) )
		);
		await until( () => preview.element.querySelector( 'svg' ) );
		expect( preview.element.querySelector( '[role="region"]' ) ).toBeNull();
	} );

	it( 'destroys its map when the preview goes, or never starts one', async () => {
		const started = standInRuntime( { layers: [] } );
		const preview = createPreviewMap(
			document,
			report.features,
			report.imported,
			OPENFREEMAP,
			started.load
		);
		await until( () => started.seen.fitted.length > 0 );
		preview.destroy();
		preview.destroy();
		expect( started.destroy ).toHaveBeenCalledTimes( 1 );

		const early = standInRuntime( { layers: [] } );
		createPreviewMap(
			document,
			report.features,
			report.imported,
			OPENFREEMAP,
			early.load
		).destroy();
		await nextTurn();
		expect( early.createMap ).not.toHaveBeenCalled();
	} );
} );

describe( 'renderReport with a map', () => {
	it( 'hands the dry run’s features to the drawing, in place of the sketch', () => {
		const box = document.createElement( 'div' );
		const drawn = document.createElement( 'div' );
		const draw = jest.fn( () => drawn );
		renderReport( box, report, draw );
		expect( draw ).toHaveBeenCalledWith(
			document,
			report.features,
			report
		);
		expect( box.lastElementChild ).toBe( drawn );
		expect( box.querySelector( 'svg' ) ).toBeNull();
	} );
} );
