/**
 * The import preview of Tools → Import/export markers: the dry run's report read defensively,
 * drawn as text (titles and messages come from imported files), with a sketch of the places.
 */
import {
	parseReport,
	problemText,
	renderReport,
	sketch,
} from '../../src/import-export/preview';

const dryRun = {
	format: 'kml',
	dry_run: true,
	total: 5,
	imported: 3,
	kinds: { markers: 1, routes: 1, areas: 1, posts: 0 },
	geocoding: 0,
	groups_new: [ 'Trips / Alps' ],
	skipped: [
		{
			row: 4,
			label: 'placemark "<b>Bad</b>"',
			message: 'Ring 1 is not closed.',
		},
		{ line: 7, message: 'A title is required.' },
	],
	skipped_count: 2,
	notices: [ { line: 12, message: 'A one-point segment was dropped.' } ],
	notices_count: 1,
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
			{ type: 'Feature', geometry: { type: 'Circle' } },
			'junk',
		],
	},
};

describe( 'parseReport', () => {
	it( 'reads a dry run: counts by kind, refused rows, notices, preview', () => {
		const report = parseReport( dryRun );
		expect( report.ok ).toBe( true );
		expect( report.dryRun ).toBe( true );
		expect( report.kinds ).toEqual( {
			markers: 1,
			routes: 1,
			areas: 1,
			posts: 0,
		} );
		expect( report.skipped ).toEqual( [
			'Row 4 (placemark "<b>Bad</b>"): Ring 1 is not closed.',
			'Line 7: A title is required.',
		] );
		expect( report.notices ).toEqual( [
			'Line 12: A one-point segment was dropped.',
		] );
		expect( report.groupsNew ).toEqual( [ 'Trips / Alps' ] );
		expect( report.features.map( ( f ) => f.type ) ).toEqual( [
			'Point',
			'LineString',
			'Polygon',
		] );
	} );

	it( 'reads the error of a file with no valid row', () => {
		const report = parseReport( {
			code: 'cairn_maps_import_invalid',
			message: 'No marker in the file is valid, so nothing was imported.',
			data: {
				status: 400,
				errors: [
					{ feature: 0, message: 'This is not a GeoJSON Feature.' },
				],
				skipped_count: 30,
			},
		} );
		expect( report.ok ).toBe( false );
		expect( report.message ).toBe(
			'No marker in the file is valid, so nothing was imported.'
		);
		expect( report.skipped ).toEqual( [
			'Feature 0: This is not a GeoJSON Feature.',
		] );
		expect( report.skippedCount ).toBe( 30 );
	} );

	it( 'survives answers that are not reports', () => {
		for ( const value of [
			null,
			'x',
			3,
			[],
			{ kinds: 'x', skipped: 'y' },
		] ) {
			const report = parseReport( value );
			expect( report.skipped ).toEqual( [] );
			expect( report.kinds.markers ).toBe( 0 );
		}
		expect( problemText( { message: 'Plain.' } ) ).toBe( 'Plain.' );
	} );
} );

describe( 'renderReport', () => {
	it( 'draws the counts, each refused row and the sketch, as text', () => {
		const box = document.createElement( 'div' );
		renderReport( box, parseReport( dryRun ) );
		expect(
			box.querySelector( '.cairn-maps-import-kinds' )?.textContent
		).toBe( 'Will be imported: 1 marker, 1 route, 1 area.' );
		expect(
			[ ...box.querySelectorAll( '.cairn-maps-import-problems li' ) ].map(
				( li ) => li.textContent
			)
		).toEqual( [
			'Row 4 (placemark "<b>Bad</b>"): Ring 1 is not closed.',
			'Line 7: A title is required.',
		] );
		expect( box.textContent ).toContain( '2 rows will not be imported:' );
		expect( box.textContent ).toContain( 'New groups: Trips / Alps.' );
		expect( box.querySelector( 'b, img' ) ).toBeNull();
		const svg = box.querySelector( 'svg.cairn-maps-import-map' );
		expect( svg ).not.toBeNull();
		expect( svg?.querySelectorAll( 'circle' ) ).toHaveLength( 1 );
		expect( svg?.querySelectorAll( 'path' ) ).toHaveLength( 2 );
		expect( svg?.querySelector( 'circle title' )?.textContent ).toBe(
			'<img src=x onerror=alert(1)>Hut'
		);
	} );

	it( 'draws an import (no sketch) and an error', () => {
		const box = document.createElement( 'div' );
		renderReport(
			box,
			parseReport( {
				...dryRun,
				dry_run: false,
				groups_created: [ 'alps' ],
			} )
		);
		expect( box.textContent ).toContain(
			'Imported: 1 marker, 1 route, 1 area.'
		);
		expect( box.textContent ).toContain( 'Groups created: alps.' );
		expect( box.querySelector( 'svg' ) ).toBeNull();

		renderReport(
			box,
			parseReport( {
				code: 'x',
				message: 'The file is not valid GeoJSON.',
			} )
		);
		expect( box.querySelector( '[role="alert"]' )?.textContent ).toBe(
			'The file is not valid GeoJSON.'
		);
	} );
} );

describe( 'sketch', () => {
	it( 'fits the places into the square, north up', () => {
		const report = parseReport( dryRun );
		const svg = sketch( document, report.features, 100 );
		const circle = svg.querySelector( 'circle' );
		const cx = Number( circle?.getAttribute( 'cx' ) );
		const cy = Number( circle?.getAttribute( 'cy' ) );
		// The point is the south-west corner of the extent: left and at the bottom.
		expect( cx ).toBeLessThan( 50 );
		expect( cy ).toBeGreaterThan( 50 );
		for ( const value of [ cx, cy ] ) {
			expect( value ).toBeGreaterThanOrEqual( 0 );
			expect( value ).toBeLessThanOrEqual( 100 );
		}
		expect( sketch( document, [] ).childNodes ).toHaveLength( 0 );
	} );
} );
