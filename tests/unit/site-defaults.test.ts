/**
 * Site-wide defaults for new map blocks: parsing what the server prints, and the default inserter
 * variation that gives new blocks those values as explicit attributes.
 */
import { getBlockType, registerBlockVariation } from '@wordpress/blocks';

import metadata from '../../src/blocks/map/block.json';
import {
	SITE_DEFAULTS_VARIATION,
	getSiteDefaults,
	registerSiteDefaultsVariation,
} from '../../src/blocks/map/site-defaults';
import { BUILTIN_DEFAULTS, parseSiteDefaults } from '../../src/shared/defaults';

// The real @wordpress/blocks pulls ES-only packages this Jest setup does not transform; the
// editor's own inserter behaviour (a default variation replaces the block's item) is WordPress's.
jest.mock( '@wordpress/blocks', () => ( {
	getBlockType: jest.fn(),
	registerBlockVariation: jest.fn(),
} ) );

const SITE = {
	mapStyle: 'mapbox://styles/mapbox/outdoors-v12',
	language: 'fr',
	controls: {
		zoom: true,
		compass: false,
		scale: true,
		fullscreen: false,
		geolocate: true,
	},
};

describe( 'parseSiteDefaults', () => {
	it( 'gives block.json defaults when nothing is stored', () => {
		expect( parseSiteDefaults( undefined ) ).toEqual( {
			mapStyle: metadata.attributes.mapStyle.default,
			language: metadata.attributes.language.default,
			controls: metadata.attributes.controls.default,
		} );
	} );

	it( 'keeps valid values', () => {
		expect( parseSiteDefaults( SITE ) ).toEqual( SITE );
		expect(
			parseSiteDefaults( {
				...SITE,
				mapStyle: 'https://tiles.example.org/style.json',
				language: 'zh-Hans',
			} )
		).toMatchObject( {
			mapStyle: 'https://tiles.example.org/style.json',
			language: 'zh-Hans',
		} );
	} );

	it.each( [
		[
			'an http style',
			{ mapStyle: 'http://tiles.example.org/style.json' },
		],
		[ 'a style without owner', { mapStyle: 'mapbox://styles/standard' } ],
		[ 'a language that is not a tag', { language: 'French' } ],
		[ 'a control that is not a boolean', { controls: { zoom: 'yes' } } ],
	] )( 'replaces %s with the built-in value', ( _name, input ) => {
		expect( parseSiteDefaults( input ) ).toEqual( BUILTIN_DEFAULTS );
	} );

	it( 'reads the global the server prints', () => {
		(
			window as { cairnMapsSiteDefaults?: unknown }
		 ).cairnMapsSiteDefaults = SITE;
		expect( getSiteDefaults() ).toEqual( SITE );
		delete ( window as { cairnMapsSiteDefaults?: unknown } )
			.cairnMapsSiteDefaults;
		expect( getSiteDefaults() ).toEqual( BUILTIN_DEFAULTS );
	} );
} );

describe( 'registerSiteDefaultsVariation', () => {
	beforeEach( () => {
		jest.mocked( getBlockType ).mockReturnValue( {
			name: 'cairn/map',
			title: metadata.title,
			description: metadata.description,
			icon: { src: metadata.icon },
			keywords: metadata.keywords,
		} as unknown as ReturnType< typeof getBlockType > );
		jest.mocked( registerBlockVariation ).mockClear();
	} );

	afterEach( () => {
		delete ( window as { cairnMapsSiteDefaults?: unknown } )
			.cairnMapsSiteDefaults;
	} );

	it( 'makes the inserter give new blocks the site defaults', () => {
		(
			window as { cairnMapsSiteDefaults?: unknown }
		 ).cairnMapsSiteDefaults = SITE;
		registerSiteDefaultsVariation();
		expect( registerBlockVariation ).toHaveBeenCalledTimes( 1 );
		expect( registerBlockVariation ).toHaveBeenCalledWith(
			'cairn/map',
			expect.objectContaining( {
				name: SITE_DEFAULTS_VARIATION,
				isDefault: true,
				scope: [ 'inserter' ],
				title: metadata.title,
				icon: metadata.icon,
				attributes: SITE,
			} )
		);
	} );

	it( 'adds nothing while the site defaults are block.json’s', () => {
		(
			window as { cairnMapsSiteDefaults?: unknown }
		 ).cairnMapsSiteDefaults = BUILTIN_DEFAULTS;
		registerSiteDefaultsVariation();
		expect( registerBlockVariation ).not.toHaveBeenCalled();
	} );

	it( 'adds nothing when the block is not registered', () => {
		(
			window as { cairnMapsSiteDefaults?: unknown }
		 ).cairnMapsSiteDefaults = SITE;
		jest.mocked( getBlockType ).mockReturnValue( undefined );
		registerSiteDefaultsVariation();
		expect( registerBlockVariation ).not.toHaveBeenCalled();
	} );
} );
