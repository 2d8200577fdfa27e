/**
 * The places panel as a visitor meets it, found by role and name the way assistive technology
 * does (Testing Library), over a stand-in controller: the test sets the state and checks which
 * action each control asks for. controller.test.tsx runs the panel over the real controller.
 */
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import type {
	PlacesController,
	PlacesGroup,
	PlacesState,
} from '../../../packages/map/src/places/controller';
import type { ListedPlace } from '../../../packages/map/src/places/engine';
import { PlacesPanel } from '../../../packages/map/src/places/panel';
import { mountPlacesPanel } from '../../../src/blocks/map/panel';

const LINE = { lineColor: '', lineWidth: 3, fillOpacity: 0.25 };
const HOSTILE = '<img src=x onerror="window.pwned=1">';

const GROUPS: PlacesGroup[] = [
	{
		slug: 'huts',
		name: 'Huts',
		color: '#aa3300',
		icon: '',
		count: 2,
		...LINE,
	},
	{ slug: 'lakes', name: HOSTILE, color: '', icon: '', count: 1, ...LINE },
];

function place( id: number, extra: Partial< ListedPlace > = {} ): ListedPlace {
	return {
		id,
		title: `Place ${ id }`,
		lng: 7,
		lat: 46,
		groups: [],
		...extra,
	};
}

const READY: PlacesState = {
	status: 'ready',
	total: 3,
	groups: GROUPS,
	search: '',
	hidden: [],
	matches: 3,
	shapes: false,
	mode: 'view',
	list: {
		total: 3,
		page: 0,
		pages: 1,
		items: [
			place( 1, { title: 'Cabane', groups: [ 'huts' ] } ),
			place( 2, { title: HOSTILE, groups: [ 'lakes' ] } ),
			place( 3, { title: '', groups: [ 'huts', 'lakes' ] } ),
		],
	},
	origin: null,
	near: null,
	nearStatus: 'idle',
	language: '',
};

/** The controller as far as the panel uses it; its actions are recorded, its state is the test's. */
function standInPlaces(
	state: Partial< PlacesState > = {},
	{
		options = { search: true, groupFilter: true, followMap: true },
		languages = [] as string[],
	} = {}
) {
	let current: PlacesState = { ...READY, ...state };
	const listeners = new Set< () => void >();
	const places = {
		getState: () => current,
		subscribe: ( listener: () => void ) => {
			listeners.add( listener );
			return () => listeners.delete( listener );
		},
		options,
		units: 'metric',
		languages,
		pageSize: 50,
		locale: 'en',
		setSearch: jest.fn(),
		toggleGroup: jest.fn(),
		showAllGroups: jest.fn(),
		setPage: jest.fn(),
		fitToResults: jest.fn(),
		choose: jest.fn(),
		setLanguage: jest.fn(),
		// Place 1 is a route (its facts come from the shapes chunk), the others are points.
		shapeSummary: jest.fn( ( id: number ) =>
			id === 1 ? '12.4 km, 650 m ascent' : ''
		),
		highlight: jest.fn(),
	};
	/**
	 * The controller's state changes, as after an answer of the places worker.
	 * @param patch
	 */
	const set = ( patch: Partial< PlacesState > ) =>
		act( () => {
			current = { ...current, ...patch };
			listeners.forEach( ( listener ) => listener() );
		} );
	return { places, controller: places as unknown as PlacesController, set };
}

function show( ...args: Parameters< typeof standInPlaces > ) {
	const stand = standInPlaces( ...args );
	const view = render( <PlacesPanel places={ stand.controller } /> );
	return { ...stand, ...view, user: userEvent.setup() };
}

/** Hostile text never ran as markup. */
const expectNothingRan = () =>
	expect( ( window as { pwned?: unknown } ).pwned ).toBeUndefined();

describe( 'places panel: search', () => {
	it( 'searches as the visitor types, in a field labelled "Search places"', async () => {
		const { places, user } = show();
		const field = screen.getByRole( 'searchbox', {
			name: 'Search places',
		} );
		expect( field.getAttribute( 'maxlength' ) ).toBe( '200' );
		await user.type( field, 'Lac' );
		expect( places.setSearch.mock.calls ).toEqual( [
			[ 'L' ],
			[ 'La' ],
			[ 'Lac' ],
		] );
	} );

	it( 'clears the search on Escape, and keeps that Escape from the page; an empty field lets it through', async () => {
		const { places, user, container } = show();
		const pageKeys = jest.fn();
		container.ownerDocument.addEventListener( 'keydown', pageKeys );
		try {
			const field = screen.getByRole( 'searchbox', {
				name: 'Search places',
			} );
			await user.type( field, 'ab' );
			pageKeys.mockClear();
			await user.keyboard( '{Escape}' );
			expect( field ).toHaveProperty( 'value', '' );
			expect( places.setSearch ).toHaveBeenLastCalledWith( '' );
			expect( pageKeys ).not.toHaveBeenCalled();
			await user.keyboard( '{Escape}' );
			expect( pageKeys ).toHaveBeenCalledTimes( 1 );
			expect( places.setSearch ).toHaveBeenCalledTimes( 3 );
		} finally {
			container.ownerDocument.removeEventListener( 'keydown', pageKeys );
		}
	} );

	it.each( [
		[ 'the map turned search off', { search: false }, { total: 3 } ],
		[ 'the map has one place', { search: true }, { total: 1 } ],
	] )( 'offers no search where %s', ( _label, option, state ) => {
		show( state, {
			options: { groupFilter: true, followMap: true, ...option },
		} );
		expect( screen.queryByRole( 'searchbox' ) ).toBeNull();
	} );
} );

describe( 'places panel: groups', () => {
	it( 'offers one pressed toggle per group, named as text, and "Show all" once one is off', async () => {
		const { places, set, user } = show();
		const legend = screen.getByRole( 'group', { name: 'Groups' } );
		const toggles = within( legend )
			.getAllByRole( 'button' )
			.filter( ( button ) => button.hasAttribute( 'data-cairn-group' ) );
		expect(
			toggles.map( ( button ) => [
				button.dataset.cairnGroup,
				button.textContent,
				button.getAttribute( 'aria-pressed' ),
			] )
		).toEqual( [
			[ 'huts', 'Huts (2)', 'true' ],
			[ 'lakes', `${ HOSTILE } (1)`, 'true' ],
		] );
		expect( legend.querySelector( 'img' ) ).toBeNull();
		expectNothingRan();
		const showAll = within( legend ).getByRole( 'button', {
			name: 'Show all',
		} );
		expect( showAll ).toHaveProperty( 'disabled', true );
		await user.click( toggles[ 0 ]! );
		expect( places.toggleGroup ).toHaveBeenCalledWith( 'huts' );
		set( { hidden: [ 'huts' ] } );
		expect( toggles[ 0 ]!.getAttribute( 'aria-pressed' ) ).toBe( 'false' );
		expect( toggles[ 1 ]!.getAttribute( 'aria-pressed' ) ).toBe( 'true' );
		expect( showAll ).toHaveProperty( 'disabled', false );
		await user.click( showAll );
		expect( places.showAllGroups ).toHaveBeenCalledTimes( 1 );
	} );

	it.each( [
		[ 'one group', { groups: GROUPS.slice( 0, 1 ) }, true ],
		[ 'the group filter off', {}, false ],
	] )( 'shows no legend with %s', ( _label, state, groupFilter ) => {
		show( state, {
			options: { search: true, followMap: true, groupFilter },
		} );
		expect( screen.queryByRole( 'group', { name: 'Groups' } ) ).toBeNull();
		expect(
			document.querySelectorAll( 'button[data-cairn-group]' )
		).toHaveLength( 0 );
	} );
} );

describe( 'places panel: the list', () => {
	it( 'lists each place as an entry whose button shows it on the map', async () => {
		const { places, user } = show();
		expect(
			screen.getByRole( 'heading', { name: '3 places on this map' } )
		).toBeTruthy();
		const list = screen.getByRole( 'list', { name: 'Places in view' } );
		const entries = within( list ).getAllByRole( 'listitem' );
		expect(
			entries.map( ( entry ) => entry.dataset.cairnMarkerId )
		).toEqual( [ '1', '2', '3' ] );
		// The entry holds its button (DESIGN.md: `li[data-cairn-marker-id] > button`).
		expect(
			entries.map(
				( entry ) =>
					entry.querySelector( ':scope > button' )?.textContent
			)
		).toEqual( [ 'Cabane', HOSTILE, '(no title)' ] );
		expect( list.querySelector( 'img[src="x"]' ) ).toBeNull();
		expectNothingRan();
		expect(
			within( entries[ 2 ]! ).getByText( 'Huts and', {
				exact: false,
			} ).textContent
		).toBe( `Huts and ${ HOSTILE }` );
		await user.click(
			screen.getByRole( 'button', { name: 'Show Cabane on the map' } )
		);
		expect( places.choose ).toHaveBeenCalledWith( 1 );
		// From the keyboard too.
		screen
			.getByRole( 'button', { name: `Show ${ HOSTILE } on the map` } )
			.focus();
		await user.keyboard( '{Enter}' );
		expect( places.choose ).toHaveBeenLastCalledWith( 2 );
	} );

	it( 'says "1 place on this map" for one', () => {
		show( {
			total: 1,
			list: { total: 1, page: 0, pages: 1, items: [ place( 1 ) ] },
		} );
		expect(
			screen.getByRole( 'heading', { name: '1 place on this map' } )
		).toBeTruthy();
	} );

	it( 'says nothing is there only once the places are in', () => {
		const empty = { total: 0, page: 0, pages: 1, items: [] };
		const { set } = show( { status: 'loading', list: empty } );
		expect( screen.queryByRole( 'list' ) ).toBeNull();
		expect(
			screen.queryByText( 'No places in view. Zoom out or move the map.' )
		).toBeNull();
		set( { status: 'ready' } );
		expect(
			screen.getByText( 'No places in view. Zoom out or move the map.' )
		).toBeTruthy();
	} );

	it( 'pages by 50 with Previous and Next, the range in between', async () => {
		const items = Array.from( { length: 50 }, ( _, index ) =>
			place( index + 1 )
		);
		const { places, set, user } = show( {
			list: { total: 120, page: 0, pages: 3, items },
		} );
		const pages = screen.getByRole( 'navigation', {
			name: 'Pages of places',
		} );
		const previous = within( pages ).getByRole( 'button', {
			name: 'Previous places',
		} );
		const next = within( pages ).getByRole( 'button', {
			name: 'Next places',
		} );
		expect( pages.textContent ).toContain( 'Places 1–50 of 120' );
		expect( previous ).toHaveProperty( 'disabled', true );
		await user.click( next );
		expect( places.setPage ).toHaveBeenCalledWith( 1 );
		set( {
			list: {
				total: 120,
				page: 2,
				pages: 3,
				items: items.slice( 0, 20 ),
			},
		} );
		expect( pages.textContent ).toContain( 'Places 101–120 of 120' );
		expect( next ).toHaveProperty( 'disabled', true );
		await user.click( previous );
		expect( places.setPage ).toHaveBeenLastCalledWith( 1 );
	} );

	it( 'shows no pages for one page', () => {
		show();
		expect( screen.queryByRole( 'navigation' ) ).toBeNull();
	} );

	it.each< [ string, Partial< PlacesState > ] >( [
		[ 'a search with matches', { mode: 'search', matches: 2 } ],
		[ 'a hidden group', { hidden: [ 'huts' ], matches: 1 } ],
	] )(
		'offers "Show all results on the map" after %s',
		async ( _label, state ) => {
			const { places, user } = show( state );
			await user.click(
				screen.getByRole( 'button', {
					name: 'Show all results on the map',
				} )
			);
			expect( places.fitToResults ).toHaveBeenCalledTimes( 1 );
		}
	);

	it.each< [ string, Partial< PlacesState > ] >( [
		[ 'a search without matches', { mode: 'search', matches: 0 } ],
		[ 'no filter', {} ],
	] )(
		'offers no "Show all results on the map" after %s',
		( _label, state ) => {
			show( state );
			expect(
				screen.queryByRole( 'button', {
					name: 'Show all results on the map',
				} )
			).toBeNull();
		}
	);
} );

describe( 'places panel: label language', () => {
	it( 'offers the languages by name where there are two or more', async () => {
		const { places, user } = show( {}, { languages: [ 'fr', 'de' ] } );
		const choice = screen.getByRole( 'combobox', { name: 'Map labels' } );
		expect(
			within( choice )
				.getAllByRole( 'option' )
				.map( ( option ) => option.textContent )
		).toEqual( [ 'Default', 'French', 'German' ] );
		await user.selectOptions( choice, 'de' );
		expect( places.setLanguage ).toHaveBeenCalledWith( 'de' );
	} );

	it( 'offers no choice of one language', () => {
		show( {}, { languages: [ 'fr' ] } );
		expect( screen.queryByLabelText( 'Map labels' ) ).toBeNull();
	} );
} );

describe( "the plugin's places region", () => {
	it( 'puts the panel in the server\'s "Places" region, and its list back when the map goes', async () => {
		const { controller } = standInPlaces();
		const host = document.createElement( 'div' );
		host.innerHTML =
			'<div class="wp-block-cairn-map__places" role="region" aria-label="Places" id="cairn-places-1">' +
			'<ul class="wp-block-cairn-map__list"><li>Server list</li></ul></div>';
		document.body.append( host );
		let cleanup: ( () => void ) | undefined;
		act( () => {
			cleanup = mountPlacesPanel( host, controller );
		} );
		const region = screen.getByRole( 'region', { name: 'Places' } );
		expect(
			within( region ).getByRole( 'searchbox', {
				name: 'Search places',
			} )
		).toBeTruthy();
		expect( within( region ).queryByText( 'Server list' ) ).toBeNull();
		expect(
			region.querySelectorAll( 'li[data-cairn-marker-id] > button' )
		).toHaveLength( 3 );
		act( () => cleanup!() );
		await screen.findByText( 'Server list' );
		expect( region.querySelector( '[data-cairn-marker-id]' ) ).toBeNull();
		host.remove();
	} );

	it( 'mounts nothing where the server rendered no region', () => {
		const { controller } = standInPlaces();
		const host = document.createElement( 'div' );
		expect( mountPlacesPanel( host, controller ) ).toBeUndefined();
		expect( host.childNodes ).toHaveLength( 0 );
	} );
} );

describe( 'places panel: routes and areas', () => {
	it( "tells a route's length and ascent in its entry once the shapes are drawn, and nothing before", async () => {
		const { set } = show();
		expect(
			document.querySelector( '.wp-block-cairn-map__card-route' )
		).toBeNull();
		await set( { shapes: true } );
		const routes = document.querySelectorAll(
			'.wp-block-cairn-map__card-route'
		);
		expect( routes ).toHaveLength( 1 );
		expect(
			routes[ 0 ]!.closest( 'li' )!.getAttribute( 'data-cairn-marker-id' )
		).toBe( '1' );
		expect( routes[ 0 ]!.textContent ).toBe( '12.4 km, 650 m ascent — ' );
		// The dash is for readers without styles; assistive technology skips it.
		expect(
			routes[ 0 ]!.querySelector( '[aria-hidden="true"]' )?.textContent
		).toBe( ' — ' );
	} );

	it( 'highlights the shape of the entry the keyboard is on, and none when it leaves', async () => {
		const { places, set, user, container } = show();
		await set( { shapes: true } );
		const onRoute = () =>
			container.ownerDocument.activeElement?.closest(
				'li[data-cairn-marker-id="1"]'
			);
		for ( let presses = 0; presses < 20 && ! onRoute(); presses++ ) {
			await user.tab();
		}
		expect( onRoute() ).toBeTruthy();
		expect( places.highlight ).toHaveBeenLastCalledWith( 1 );
		await user.tab();
		expect( places.highlight ).toHaveBeenCalledWith( null );
	} );
} );
