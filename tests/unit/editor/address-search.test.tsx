/**
 * The address search as an editor uses it: a search runs on Enter or the button, never while
 * typing; the results are a listbox driven from the field; the count is spoken through
 * `@wordpress/a11y` (its live regions are read here); refusals show the server's message; the
 * provider's attribution is shown. Only the network is faked (`@wordpress/api-fetch`).
 */
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import apiFetch from '@wordpress/api-fetch';

import { AddressSearch } from '../../../src/shared/address-search';

jest.mock( '@wordpress/api-fetch', () => ( {
	__esModule: true,
	default: jest.fn(),
} ) );

const fetchMock = apiFetch as unknown as jest.Mock;

const EDINBURGH = {
	results: [
		{ label: 'Edinburgh Castle, Edinburgh', lat: 55.9486, lng: -3.1999 },
		{ label: 'Edinburgh, Scotland', lat: 55.9533, lng: -3.1883 },
		{ label: 'Edinburgh, Indiana', lat: 39.354, lng: -85.9666 },
	],
	attribution: 'Data © OpenStreetMap contributors, ODbL 1.0',
	attribution_url: 'https://osm.org/copyright',
};

function field(): HTMLInputElement {
	return screen.getByRole( 'combobox', { name: 'Find an address' } );
}

function options(): HTMLElement[] {
	return screen.queryAllByRole( 'option' );
}

/** What the polite or assertive live region says (speak() may add a no-break space). */
function spoken( politeness: 'polite' | 'assertive' ): string {
	return (
		document.getElementById( `a11y-speak-${ politeness }` )?.textContent ??
		''
	)
		.replace( /\u00a0/g, '' )
		.trim();
}

function setup() {
	const onSelect = jest.fn();
	const user = userEvent.setup();
	render( <AddressSearch onSelect={ onSelect } /> );
	return { user, onSelect };
}

beforeEach( () => {
	fetchMock.mockReset();
} );

describe( 'AddressSearch', () => {
	it( 'searches on Enter, never while typing', async () => {
		fetchMock.mockResolvedValue( EDINBURGH );
		const { user } = setup();

		await user.type( field(), 'Edinburgh castle' );
		expect( fetchMock ).not.toHaveBeenCalled();
		expect( options() ).toHaveLength( 0 );

		await user.keyboard( '{Enter}' );
		await waitFor( () => expect( options() ).toHaveLength( 3 ) );
		expect( fetchMock ).toHaveBeenCalledTimes( 1 );
		expect( fetchMock ).toHaveBeenCalledWith( {
			path: '/cairn/v1/geocode?q=Edinburgh%20castle',
		} );
		expect( options().map( ( option ) => option.textContent ) ).toEqual(
			EDINBURGH.results.map( ( result ) => result.label )
		);
	} );

	it( 'searches with the button, which waits for words', async () => {
		fetchMock.mockResolvedValue( EDINBURGH );
		const { user } = setup();
		const button = screen.getByRole( 'button', { name: 'Search' } );
		expect( button.getAttribute( 'aria-disabled' ) ).toBe( 'true' );

		await user.type( field(), '   ' );
		await user.click( button );
		expect( fetchMock ).not.toHaveBeenCalled();

		await user.type( field(), 'Edinburgh' );
		await user.click( button );
		await waitFor( () => expect( options() ).toHaveLength( 3 ) );
		expect( fetchMock ).toHaveBeenCalledTimes( 1 );
	} );

	it( 'moves through the results with the arrow keys and sets one with Enter', async () => {
		fetchMock.mockResolvedValue( EDINBURGH );
		const { user, onSelect } = setup();
		await user.type( field(), 'Edinburgh{Enter}' );
		await waitFor( () => expect( options() ).toHaveLength( 3 ) );

		const active = () =>
			document.getElementById(
				field().getAttribute( 'aria-activedescendant' ) ?? ''
			)?.textContent;
		const selected = () =>
			options()
				.filter(
					( option ) =>
						option.getAttribute( 'aria-selected' ) === 'true'
				)
				.map( ( option ) => option.textContent );

		expect( field().getAttribute( 'aria-expanded' ) ).toBe( 'true' );
		expect( active() ).toBe( 'Edinburgh Castle, Edinburgh' );
		await user.keyboard( '{ArrowDown}{ArrowDown}' );
		expect( active() ).toBe( 'Edinburgh, Indiana' );
		await user.keyboard( '{ArrowDown}' );
		expect( active() ).toBe( 'Edinburgh Castle, Edinburgh' );
		await user.keyboard( '{ArrowUp}' );
		expect( active() ).toBe( 'Edinburgh, Indiana' );
		await user.keyboard( '{ArrowUp}' );
		expect( selected() ).toEqual( [ 'Edinburgh, Scotland' ] );
		expect( field().ownerDocument.activeElement ).toBe( field() );

		await user.keyboard( '{Enter}' );
		expect( onSelect ).toHaveBeenCalledTimes( 1 );
		expect( onSelect ).toHaveBeenCalledWith( EDINBURGH.results[ 1 ] );
		expect( options() ).toHaveLength( 0 );
		expect( field().getAttribute( 'aria-expanded' ) ).toBe( 'false' );
		expect( fetchMock ).toHaveBeenCalledTimes( 1 );
	} );

	it( 'closes the results on Escape and sets one chosen with the mouse', async () => {
		fetchMock.mockResolvedValue( EDINBURGH );
		const { user, onSelect } = setup();
		await user.type( field(), 'Edinburgh{Enter}' );
		await waitFor( () => expect( options() ).toHaveLength( 3 ) );

		await user.keyboard( '{Escape}' );
		expect( options() ).toHaveLength( 0 );
		await user.keyboard( '{ArrowDown}' );
		expect( options() ).toHaveLength( 3 );

		await user.click(
			screen.getByRole( 'option', { name: 'Edinburgh, Indiana' } )
		);
		expect( onSelect ).toHaveBeenCalledWith( EDINBURGH.results[ 2 ] );
	} );

	it( 'announces how many addresses were found', async () => {
		fetchMock.mockResolvedValue( EDINBURGH );
		const { user } = setup();
		await user.type( field(), 'Edinburgh{Enter}' );
		await waitFor( () =>
			expect( spoken( 'polite' ) ).toBe(
				'3 addresses found. Use the up and down arrow keys to choose, Enter to set one.'
			)
		);
	} );

	it( 'says when nothing was found', async () => {
		fetchMock.mockResolvedValue( { results: [], attribution: '' } );
		const { user } = setup();
		await user.type( field(), 'Nowhere at all{Enter}' );
		expect(
			await screen.findByText(
				'No address found. Try fewer words, or place the point on the map.'
			)
		).toBeTruthy();
		expect( options() ).toHaveLength( 0 );
		await waitFor( () =>
			expect( spoken( 'polite' ) ).toBe( 'No address found.' )
		);
	} );

	it( 'shows the provider’s attribution with its link', async () => {
		fetchMock.mockResolvedValue( EDINBURGH );
		const { user } = setup();
		await user.type( field(), 'Edinburgh{Enter}' );
		const link = await screen.findByRole( 'link', {
			name: 'Data © OpenStreetMap contributors, ODbL 1.0',
		} );
		expect( link.getAttribute( 'href' ) ).toBe(
			'https://osm.org/copyright'
		);
	} );

	it.each( [
		[
			'429: too many searches',
			{
				code: 'cairn_geocode_rate_limited',
				message:
					'Too many address searches at once on this site. Try again in 2 seconds.',
				data: { status: 429, retry_after: 2 },
			},
			'Too many address searches at once on this site. Try again in 2 seconds.',
		],
		[
			'500: the server failed',
			{
				code: 'internal_server_error',
				message: 'There has been a critical error on this website.',
				data: { status: 500 },
			},
			'There has been a critical error on this website.',
		],
		[
			'502: the provider could not answer',
			{
				code: 'cairn_geocode_unavailable',
				message:
					'The address search service could not answer. Try again later.',
				data: { status: 502 },
			},
			'The address search service could not answer. Try again later.',
		],
		[
			'the network failed',
			{ code: 'fetch_error', message: 'You are probably offline.' },
			'The address search is not available right now. Try again later, or place the point on the map.',
		],
	] )( 'shows a notice when %s', async ( _name, error, message ) => {
		fetchMock.mockRejectedValue( error );
		const { user } = setup();
		await user.type( field(), 'Edinburgh{Enter}' );
		expect(
			await screen.findByText( message, {
				selector: '.components-notice__content',
			} )
		).toBeTruthy();
		expect( options() ).toHaveLength( 0 );
		await waitFor( () => expect( spoken( 'assertive' ) ).toBe( message ) );
	} );
} );
