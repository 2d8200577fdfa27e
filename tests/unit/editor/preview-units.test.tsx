/**
 * One rule for the units the places list uses (issue 34): the server decides them from the site's
 * language (Map_Block::units()) and every map's configuration carries them — the page's
 * `data-cairn-config`, `posts/<id>/maps` for `<CairnMap>`, and now the editor's preview, which
 * reads them from the editor's data. An en_US site's Ben Nevis track then reads "4.5 mi, 4,347 ft
 * ascent" in the editor as on the page, never "7.2 km, 1,325 m ascent" in one of them. The
 * preview's "Directions" app is resolved as the server resolves the page's.
 */
import './jsdom-globals';

import type { MapBlockAttributes } from '../../../src/blocks/map/types';
import {
	getEditorData,
	previewBasemap,
	previewDirections,
} from '../../../src/blocks/map/editor-data';
import { MapPreview } from '../../../src/blocks/map/preview';
import { parseMapConfig } from '../../../packages/map/src/config';
import { listSummary } from '../../../packages/map/src/shapes/profile';
import { blockAttributes } from './fake-rest';
import { renderWithStores } from './render';

/** The configurations the preview asked the runtime for, as createMap() reads them. */
const built: unknown[] = [];

jest.mock( '../../../src/shared/use-cairn-map', () => ( {
	useCairnMap: ( options: { config: () => unknown } ) => {
		built.push( options.config() );
		return {
			hostRef: { current: null },
			containerRef: { current: null },
			map: null,
			cairn: { current: null },
		};
	},
} ) );

/** The Ben Nevis track of the demo: 7.2 km long, 1,325 m of ascent. */
const BEN_NEVIS = { length: 7200, ascent: 1325 };

function previewConfig( attributes: MapBlockAttributes ) {
	const data = getEditorData();
	built.length = 0;
	renderWithStores(
		<MapPreview
			attributes={ attributes }
			basemap={ previewBasemap( attributes.mapStyle, data ) }
			accessToken=""
			markersUrl="https://site.test/wp-json/cairn/v1/markers"
			markerUrl="https://site.test/wp-json/cairn/v1/markers/"
			units={ data.units }
			directions={ previewDirections(
				attributes.directions,
				data.directions
			) }
			onMap={ jest.fn() }
		/>
	);
	return parseMapConfig( built[ built.length - 1 ] );
}

function printEditorData( data: Record< string, unknown > ) {
	( window as { cairnMapsEditor?: unknown } ).cairnMapsEditor = data;
}

afterEach( () => {
	delete ( window as { cairnMapsEditor?: unknown } ).cairnMapsEditor;
} );

describe( 'the preview’s units are the page’s', () => {
	it( 'an en_US site (imperial): the track reads in miles and feet, as on the page', () => {
		printEditorData( { units: 'imperial' } );
		const config = previewConfig( blockAttributes() );
		expect( config.units ).toBe( 'imperial' );
		expect( listSummary( BEN_NEVIS, config.units, 'en-US' ) ).toBe(
			'4.5 mi, 4,347 ft ascent'
		);
		// The page's configuration for the same site says the same (Map_Block::units()).
		expect(
			listSummary(
				BEN_NEVIS,
				parseMapConfig( { units: 'imperial' } ).units,
				'en-US'
			)
		).toBe( '4.5 mi, 4,347 ft ascent' );
	} );

	it( 'a metric site: kilometres and metres', () => {
		printEditorData( { units: 'metric' } );
		const config = previewConfig( blockAttributes() );
		expect( config.units ).toBe( 'metric' );
		expect( listSummary( BEN_NEVIS, config.units, 'en-GB' ) ).toBe(
			'7.2 km, 1,325 m ascent'
		);
	} );

	it( 'editor data without units (or with nonsense) is metric, as a configuration without them', () => {
		for ( const units of [ undefined, 'miles', 1 ] ) {
			printEditorData( { units } );
			expect( getEditorData().units ).toBe( 'metric' );
		}
		expect( parseMapConfig( {} ).units ).toBe( 'metric' );
	} );
} );

describe( 'the preview’s directions are the page’s', () => {
	it( 'a block that follows the site previews the site’s app', () => {
		printEditorData( { directions: 'apple' } );
		expect(
			previewConfig( blockAttributes( { directions: 'site' } ) )
				.directions
		).toBe( 'apple' );
	} );

	it( 'a block’s own app wins, `none` included', () => {
		printEditorData( { directions: 'apple' } );
		expect(
			previewConfig( blockAttributes( { directions: 'google' } ) )
				.directions
		).toBe( 'google' );
		expect(
			previewConfig( blockAttributes( { directions: 'none' } ) )
				.directions
		).toBe( 'none' );
	} );

	it( 'editor data without an app has none (the server prints the site’s)', () => {
		printEditorData( {} );
		expect( getEditorData().directions ).toBe( 'none' );
		expect( previewDirections( undefined, 'osm' ) ).toBe( 'osm' );
	} );
} );
