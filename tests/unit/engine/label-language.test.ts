/**
 * Label language on MapLibre, which has no `language` option: the label layers of a real
 * OpenMapTiles style (OpenFreeMap Liberty, tests/fixtures/styles) and of a real Protomaps style
 * (@protomaps/basemaps' own `layers()`) are rewritten to `name:<lang>`, falling back to `name`;
 * fields that are not names (road refs, shields, house numbers) are left alone.
 */
import { layers, namedFlavor } from '@protomaps/basemaps';

import liberty from '../../fixtures/styles/openfreemap-liberty.json';
import {
	localizeVectorStyle,
	rewriteVectorTextField,
	vectorNameKeys,
} from '../../../packages/map/src/engine/vector-labels';
import type { EngineMap } from '../../../packages/map/src/engine/types';

interface Layer {
	id: string;
	type: string;
	layout?: Record< string, unknown >;
}

/** A map over a style's layers that keeps what the rewrite sets. */
function styleMap( styleLayers: Layer[] ) {
	const layout = new Map(
		styleLayers.map( ( layer ) => [ layer.id, { ...layer.layout } ] )
	);
	const map = {
		getStyle: () => ( { layers: styleLayers } ),
		getLayoutProperty: ( id: string, name: string ) =>
			layout.get( id )?.[ name ],
		setLayoutProperty: ( id: string, name: string, value: unknown ) => {
			const properties = layout.get( id );
			if ( properties ) {
				properties[ name ] = value;
			}
		},
	} as unknown as EngineMap;
	return {
		map,
		textField: ( id: string ) => layout.get( id )?.[ 'text-field' ],
	};
}

const labelled = ( styleLayers: Layer[] ) =>
	styleLayers.filter(
		( layer ) => layer.type === 'symbol' && layer.layout?.[ 'text-field' ]
	);

const readsAName = ( value: unknown ) =>
	/"(?:pgf:)?name(?:[23]|[:_][A-Za-z-]+)?"/.test( JSON.stringify( value ) );

describe( 'an OpenMapTiles style (OpenFreeMap Liberty)', () => {
	const styleLayers = ( liberty as { layers: Layer[] } ).layers;

	it( 'reads its labels from name:latin/name:nonlatin/name_en before the rewrite', () => {
		const names = labelled( styleLayers ).filter( ( layer ) =>
			readsAName( layer.layout?.[ 'text-field' ] )
		);
		expect( names.length ).toBeGreaterThan( 15 );
	} );

	it( 'shows every name in German, falling back to the local name; refs stay', () => {
		const { map, textField } = styleMap( styleLayers );
		localizeVectorStyle( map, 'de', [] );
		const german = [ 'coalesce', [ 'get', 'name:de' ], [ 'get', 'name' ] ];
		const shown = labelled( styleLayers ).map( ( layer ) =>
			textField( layer.id )
		);
		expect( shown ).toEqual(
			labelled( styleLayers ).map( ( layer ) =>
				readsAName( layer.layout?.[ 'text-field' ] )
					? german
					: layer.layout?.[ 'text-field' ]
			)
		);
		expect( textField( 'highway-shield-non-us' ) ).toEqual( [
			'to-string',
			[ 'get', 'ref' ],
		] );
	} );

	it( '`auto` takes the page’s and the visitor’s language', () => {
		const { map, textField } = styleMap( styleLayers );
		localizeVectorStyle( map, 'auto', [ 'fr-FR', 'en' ] );
		expect( textField( 'label_city' ) ).toEqual( [
			'coalesce',
			[ 'get', 'name:fr' ],
			[ 'get', 'name' ],
		] );
	} );

	it( 'Chinese: the script’s own key, then name:zh', () => {
		expect( vectorNameKeys( 'zh-Hant' ) ).toEqual( [
			'name:zh-Hant',
			'name:zh',
		] );
		const { map, textField } = styleMap( styleLayers );
		localizeVectorStyle( map, 'auto', [ 'zh-TW' ] );
		expect( textField( 'label_country_1' ) ).toEqual( [
			'coalesce',
			[ 'get', 'name:zh-Hant' ],
			[ 'get', 'name:zh' ],
			[ 'get', 'name' ],
		] );
	} );

	it( 'leaves our own layers alone', () => {
		const own: Layer[] = [
			{
				id: 'cairn-cluster-count',
				type: 'symbol',
				layout: { 'text-field': [ 'get', 'name' ] },
			},
		];
		const { map, textField } = styleMap( own );
		localizeVectorStyle( map, 'de', [] );
		expect( textField( 'cairn-cluster-count' ) ).toEqual( [
			'get',
			'name',
		] );
	} );
} );

describe( 'a Protomaps style (@protomaps/basemaps layers())', () => {
	const styleLayers = layers( 'protomaps', namedFlavor( 'light' ), {
		lang: 'en',
	} ) as unknown as Layer[];

	it( 'reads names through its own keys (name:en, pgf:, script) before the rewrite', () => {
		const text = JSON.stringify( labelled( styleLayers ) );
		expect( text ).toContain( '"name:en"' );
		expect( text ).toContain( '"pgf:name"' );
		expect( text ).toContain( '"script"' );
	} );

	it( 'shows every name in Japanese, falling back to the local name; shields stay', () => {
		const { map, textField } = styleMap( styleLayers );
		localizeVectorStyle( map, 'ja', [] );
		const japanese = [
			'coalesce',
			[ 'get', 'name:ja' ],
			[ 'get', 'name' ],
		];
		const names = labelled( styleLayers ).filter( ( layer ) =>
			readsAName( layer.layout?.[ 'text-field' ] )
		);
		const rewritten = names.length;
		expect(
			labelled( styleLayers ).map( ( layer ) => textField( layer.id ) )
		).toEqual(
			labelled( styleLayers ).map( ( layer ) =>
				readsAName( layer.layout?.[ 'text-field' ] )
					? japanese
					: layer.layout?.[ 'text-field' ]
			)
		);
		expect( rewritten ).toBeGreaterThan( 5 );
		expect( JSON.stringify( textField( 'roads_shields' ) ) ).toContain(
			'shield_text'
		);
	} );
} );

describe( 'rewriteVectorTextField', () => {
	it( 'rewrites legacy tokens and leaves other text alone', () => {
		expect(
			rewriteVectorTextField( '{name:latin}\n{name:nonlatin}', 'it' )
		).toEqual( [ 'coalesce', [ 'get', 'name:it' ], [ 'get', 'name' ] ] );
		expect( rewriteVectorTextField( '{ref}', 'it' ) ).toBe( '{ref}' );
		expect(
			rewriteVectorTextField( [ 'get', 'housenumber' ], 'it' )
		).toEqual( [ 'get', 'housenumber' ] );
	} );
} );
