/**
 * The geocoding progress box of Tools → Import/export markers: answers read defensively, and
 * imported text (addresses, messages) drawn as text, never as markup.
 */
import {
	parseGeocodingState,
	renderGeocodingState,
} from '../../src/import-export/progress';

const running = {
	state: 'running',
	total: 120,
	done: 37,
	not_found: 2,
	summary: 'Geocoding addresses: 37 of 120 done, 2 not found.',
	report: [
		{
			line: 4,
			address: '<img src=x onerror="window.hacked=1">Nowhere',
			message: 'The address was not found.',
			edit_link:
				'https://example.org/wp-admin/post.php?post=9&action=edit',
		},
		{ line: 'seven', address: 12, message: null },
		'not a row',
	],
	more: 3,
};

describe( 'parseGeocodingState', () => {
	it.each( [
		[ 'null', null ],
		[ 'a string', 'running' ],
		[ 'an unknown state', { ...running, state: 'paused' } ],
	] )( 'refuses %s', ( _name, data ) => {
		expect( parseGeocodingState( data ) ).toBeNull();
	} );

	it( 'keeps rows that are objects, with their fields typed', () => {
		const state = parseGeocodingState( running );
		expect( state ).toMatchObject( {
			state: 'running',
			total: 120,
			done: 37,
			more: 3,
		} );
		expect( state?.report ).toEqual( [
			{
				line: 4,
				address: '<img src=x onerror="window.hacked=1">Nowhere',
				message: 'The address was not found.',
				editLink:
					'https://example.org/wp-admin/post.php?post=9&action=edit',
			},
			{ line: 0, address: '', message: '', editLink: '' },
		] );
	} );

	it( 'reads negative or missing counts as 0', () => {
		expect(
			parseGeocodingState( { state: 'done', total: -5, done: 'x' } )
		).toMatchObject( { total: 0, done: 0, more: 0, report: [] } );
	} );
} );

describe( 'renderGeocodingState', () => {
	it( 'draws the summary, the bar, the report as text and the cancel button', () => {
		const box = document.createElement( 'div' );
		document.body.append( box );
		const state = parseGeocodingState( running );
		if ( ! state ) {
			throw new Error( 'no state' );
		}
		renderGeocodingState( box, state, true );

		expect( box.querySelector( '[role="status"]' )?.textContent ).toBe(
			'Geocoding addresses: 37 of 120 done, 2 not found.'
		);
		const bar = box.querySelector( 'progress' );
		expect( [ bar?.max, bar?.value ] ).toEqual( [ 120, 37 ] );
		const items = box.querySelectorAll( '.cairn-maps-geocoding-report li' );
		expect( items ).toHaveLength( 2 );
		expect( items[ 0 ]?.textContent ).toBe(
			'Line 4: "<img src=x onerror="window.hacked=1">Nowhere": The address was not found. Edit the marker'
		);
		expect( box.querySelector( 'img' ) ).toBeNull();
		expect( items[ 0 ]?.querySelector( 'a' )?.getAttribute( 'href' ) ).toBe(
			'https://example.org/wp-admin/post.php?post=9&action=edit'
		);
		expect(
			box.querySelector( '.cairn-maps-geocoding-more' )?.textContent
		).toBe( 'and 3 more.' );
		expect( box.querySelector( 'button' )?.textContent ).toBe(
			'Cancel geocoding'
		);

		// The status node stays the same element (screen readers announce its changes).
		const status = box.querySelector( '[role="status"]' );
		renderGeocodingState(
			box,
			{
				...state,
				state: 'done',
				summary: 'Geocoding finished: 120 of 120 done, 2 not found.',
			},
			true
		);
		expect( box.querySelector( '[role="status"]' ) ).toBe( status );
		expect( box.querySelector( 'button' )?.textContent ).toBe(
			'Dismiss this report'
		);
	} );

	it( 'hides the box when there is no job, and offers no button to those who may not import', () => {
		const box = document.createElement( 'div' );
		const state = parseGeocodingState( { ...running, state: 'done' } );
		if ( ! state ) {
			throw new Error( 'no state' );
		}
		renderGeocodingState( box, state, false );
		expect( box.querySelector( 'button' ) ).toBeNull();
		renderGeocodingState( box, { ...state, state: 'none' }, false );
		expect( box.hidden ).toBe( true );
		expect( box.childElementCount ).toBe( 0 );
	} );
} );
