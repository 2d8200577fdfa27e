/**
 * What the editor accepts in its fields before anything reaches the block attributes.
 */
import { isValidStyleUrl, LIMITS } from '@cairn-maps/map/plugin';

import {
	RANGES,
	heightError,
	languagesFromTokens,
	parseNumberIn,
	roundTo,
	zoomRangeError,
} from '../../src/blocks/map/validation';
import { styleError } from '../../src/shared/style-url';
import { languageOptions } from '../../src/shared/languages';
import { markersFeedUrl } from '../../src/blocks/map/editor-data';

describe( 'editor field rules', () => {
	it.each( [
		[ '480px', true ],
		[ '30rem', true ],
		[ '60vh', true ],
		[ '12.5em', true ],
		[ '0px', false ],
		[ '480', false ],
		[ 'tall', false ],
		[ '100%', false ],
		[ '480px; background:url(x)', false ],
		[ '99999px', false ],
	] )( 'height %s valid: %p', ( value, valid ) => {
		expect( heightError( value ) === '' ).toBe( valid );
	} );

	it.each( [
		[ '55.95', RANGES.lat, 55.95 ],
		[ '-85.0511', RANGES.lat, -85.0511 ],
		[ '95', RANGES.lat, null ],
		[ '', RANGES.lat, null ],
		[ 'abc', RANGES.lng, null ],
		[ 'Infinity', RANGES.zoom, null ],
		[ '61', RANGES.pitch, null ],
		[ '60', RANGES.pitch, 60 ],
	] )( 'parses %p in %p as %p', ( text, range, expected ) => {
		expect( parseNumberIn( text, range ) ).toBe( expected );
	} );

	it( 'explains a minimum zoom above the maximum', () => {
		expect( zoomRangeError( 10, 4 ) ).toMatch( /minimum zoom/ );
		expect( zoomRangeError( 4, 4 ) ).toBe( '' );
	} );

	it( 'refuses style URLs that are not Mapbox styles or https', () => {
		expect( styleError( 'mapbox://styles/mapbox/dark-v11' ) ).toBe( '' );
		expect( styleError( 'ftp://example.com/style.json' ) ).not.toBe( '' );
	} );

	it.each( [
		[
			'pmtiles://https://site.example/wp-content/uploads/world.pmtiles',
			true,
		],
		[ 'pmtiles://http://SITE.example:8080/world.pmtiles', true ],
		[ 'pmtiles://https://tiles.example.com/world.pmtiles', false ],
		[ 'pmtiles://https://site.example.evil.example/world.pmtiles', false ],
		[ 'pmtiles://https://user@site.example/world.pmtiles', false ],
		[ 'pmtiles://ftp://site.example/world.pmtiles', false ],
		[ 'pmtiles://', false ],
	] )(
		'a self-hosted archive %s is a block style: %p (this site only, any contributor)',
		( value, allowed ) => {
			const hosts = LIMITS.mapStyle.hosts;
			expect(
				styleError( value, hosts, [ 'site.example' ] ) === ''
			).toBe( allowed );
			expect(
				styleError( value, undefined, [ 'site.example' ] ) === ''
			).toBe( allowed );
			expect(
				/on this site/.test(
					styleError( value, hosts, [ 'site.example' ] )
				)
			).toBe( ! allowed );
		}
	);

	describe( 'a block style on another host than Mapbox (issue 12, point 8)', () => {
		const hosts = LIMITS.mapStyle.hosts;
		it.each( [
			[ 'mapbox://styles/mapbox/outdoors-v12', true ],
			[ 'https://api.mapbox.com/styles/v1/team/abc?fresh=true', true ],
			[ 'https://API.Mapbox.com/styles/v1/team/abc', true ],
			[ 'https://tiles.example.com/style.json', false ],
			[ 'https://api.mapbox.com.evil.example/style.json', false ],
			[ 'https://api.mapbox.com@evil.example/style.json', false ],
			[ 'https://user:pw@api.mapbox.com/styles/v1/a/b', false ],
			[ 'https://api.mapbox.com:8443/styles/v1/a/b', false ],
			[ 'http://api.mapbox.com/styles/v1/a/b', false ],
			[ 'https://api.mapbox.com/"onload="x', false ],
		] )( '%s allowed: %p', ( url, allowed ) => {
			expect( isValidStyleUrl( url, hosts ) ).toBe( allowed );
			expect( styleError( url, hosts ) === '' ).toBe( allowed );
		} );

		it( 'says why, naming the allowed hosts; hosts the owner adds are allowed', () => {
			expect(
				styleError( 'https://tiles.example.com/style.json', hosts )
			).toMatch( /api\.mapbox\.com/ );
			expect(
				isValidStyleUrl( 'https://tiles.example.com/style.json', [
					...hosts,
					'tiles.example.com',
				] )
			).toBe( true );
		} );

		it( 'a site owner’s default style may be on any https host', () => {
			expect( styleError( 'https://tiles.example.com/style.json' ) ).toBe(
				''
			);
		} );
	} );

	it( 'keeps the label languages visitors may choose: known tags, each once, bounded', () => {
		const options = languageOptions().filter(
			( option ) => option.value !== 'auto'
		);
		expect(
			languagesFromTokens(
				[
					'French',
					{ value: 'de' },
					'fr',
					'auto',
					'Klingon',
					'<img src=x>',
				],
				options
			)
		).toEqual( [ 'fr', 'de' ] );
		expect(
			languagesFromTokens(
				options.map( ( option ) => option.label ),
				options
			).length
		).toBeLessThanOrEqual( LIMITS.languages.maxItems );
	} );

	it( 'rounds camera values for storage', () => {
		expect( roundTo( 55.9533333333, 6 ) ).toBe( 55.953333 );
		expect( roundTo( 9.87654, 2 ) ).toBe( 9.88 );
	} );
} );

describe( 'markersFeedUrl', () => {
	const base = 'https://example.com/?rest_route=/cairn/v1/markers';

	it( 'adds the block filters to the feed URL', () => {
		expect(
			markersFeedUrl( base, {
				source: 'groups',
				groups: [ 'a', 'b' ],
				ids: [],
			} )
		).toBe(
			`${ base.replace( '/cairn/v1/markers', '%2Fcairn%2Fv1%2Fmarkers' ) }&group=a%2Cb`
		);
		expect(
			markersFeedUrl( base, { source: 'ids', groups: [], ids: [ 4, 9 ] } )
		).toContain( 'include=4%2C9' );
	} );

	it( 'gives no URL for an empty selection', () => {
		expect(
			markersFeedUrl( base, { source: 'groups', groups: [], ids: [] } )
		).toBe( '' );
		expect(
			markersFeedUrl( base, { source: 'ids', groups: [], ids: [] } )
		).toBe( '' );
	} );
} );
