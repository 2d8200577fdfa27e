/**
 * Markers placed and edited on the preview, as an editor does it: "Add marker", a click on the
 * map, a title, "Save marker"; a click on a marker, its form, "Move to trash" asked twice. The
 * map is a small stand-in that records its click handlers; the stores are WordPress's own and
 * only the REST answers are fake (fake-rest.ts), so the requests asserted are the ones the
 * editor's browser would send.
 */
import './jsdom-globals';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Map as MapboxMap, MapMouseEvent } from 'mapbox-gl';

import {
	MarkerEditor,
	type MarkerEditorProps,
} from '../../../src/blocks/map/marker-editor';
import type { MarkerSelection } from '@cairn-maps/map';
import { fakeRest, type RestRequest, type RestAnswer } from './fake-rest';
import { renderWithStores } from './render';

// Under load (two cores shared by several test runs) a test that waits for REST takes seconds.
jest.setTimeout( 20000 );

/** Answers of the current test, asked before the defaults. */
let answer: ( request: RestRequest ) => RestAnswer | undefined;
const requests = fakeRest( ( request ) => answer( request ) );

const MARKER_12 = {
	id: 12,
	title: { raw: 'Old mill', rendered: 'Old mill' },
	content: { raw: 'By the river.', rendered: '<p>By the river.</p>' },
	meta: { cairn_lat: 48.85, cairn_lng: 2.35 },
	'cairn-marker-groups': [ 7 ],
};

/** The REST API of a site with marker 12; a new marker gets id 41. */
function site( request: RestRequest ): RestAnswer | undefined {
	if ( request.route === '/wp/v2/cairn-markers/12' ) {
		return request.method === 'GET'
			? { body: MARKER_12 }
			: { body: { ...MARKER_12, ...request.data } };
	}
	if (
		request.route === '/wp/v2/cairn-markers' &&
		request.method === 'POST'
	) {
		return {
			body: {
				...request.data,
				id: 41,
				title: { raw: request.data?.title, rendered: '' },
				content: { raw: request.data?.content, rendered: '' },
			},
		};
	}
	return undefined;
}

beforeEach( () => {
	answer = site;
} );

/** A map that keeps its click handlers; `features` is what lies under the next click. */
function fakeMap() {
	const handlers = new Set< ( event: MapMouseEvent ) => void >();
	const canvas = document.createElement( 'canvas' );
	const container = document.createElement( 'div' );
	const under: { features: Array< { id: number } > } = { features: [] };
	const map = {
		on: ( _type: string, handler: ( event: MapMouseEvent ) => void ) =>
			handlers.add( handler ),
		off: ( _type: string, handler: ( event: MapMouseEvent ) => void ) =>
			handlers.delete( handler ),
		getCanvas: () => canvas,
		getContainer: () => container,
		getLayer: () => ( {} ),
		queryRenderedFeatures: () => under.features,
	} as unknown as MapboxMap;
	const click = ( lng: number, lat: number, features = [] as number[] ) => {
		under.features = features.map( ( id ) => ( { id } ) );
		const event = {
			lngLat: { lng, lat, wrap: () => ( { lng, lat } ) },
			point: { x: 10, y: 10 },
		} as unknown as MapMouseEvent;
		act( () => handlers.forEach( ( handler ) => handler( event ) ) );
	};
	return { map, click, canvas };
}

function renderEditor(
	markers: MarkerSelection,
	props: Partial< MarkerEditorProps > = {}
) {
	const { map, click, canvas } = fakeMap();
	const spies = {
		setMarkers: jest.fn(),
		onChanged: jest.fn(),
		onCreated: jest.fn(),
		setAdding: jest.fn(),
	};
	renderWithStores(
		<MarkerEditor
			map={ map }
			markers={ markers }
			editUrl="https://site.test/wp-admin/post.php?action=edit&post="
			adding={ false }
			{ ...spies }
			{ ...props }
		/>
	);
	return { click, canvas, user: userEvent.setup(), ...spies };
}

const writes = () =>
	requests.filter(
		( request ) => request.method !== 'GET' && request.route !== ''
	);

describe( 'adding a marker on the map', () => {
	it( 'creates a published marker where the editor clicked, with the typed title', async () => {
		const { click, canvas, user, ...spies } = renderEditor(
			{ source: 'ids', groups: [], ids: [ 5 ] },
			{ adding: true }
		);
		expect(
			screen.getByText( 'Click the map where the new marker belongs.' )
		).toBeTruthy();
		expect( canvas.style.cursor ).toBe( 'crosshair' );

		click( 2.3522219, 48.8566139 );
		expect(
			screen.getByText( 'New marker at 48.85661, 2.35222' )
		).toBeTruthy();
		const save = screen.getByRole< HTMLButtonElement >( 'button', {
			name: 'Save marker',
		} );
		expect( save.disabled ).toBe( true );

		await user.type(
			screen.getByRole( 'textbox', { name: 'Marker title' } ),
			'  Café de Flore '
		);
		await user.type(
			screen.getByRole( 'textbox', { name: 'Text (optional)' } ),
			'Since 1887.'
		);
		await user.click( save );

		await waitFor( () =>
			expect( spies.onCreated ).toHaveBeenCalledWith( 41 )
		);
		expect( writes() ).toEqual( [
			expect.objectContaining( {
				method: 'POST',
				route: '/wp/v2/cairn-markers',
				data: expect.objectContaining( {
					title: 'Café de Flore',
					content: 'Since 1887.',
					status: 'publish',
					meta: { cairn_lat: 48.856614, cairn_lng: 2.352222 },
					'cairn-marker-groups': [],
				} ),
			} ),
		] );
		expect( spies.setMarkers ).toHaveBeenCalledWith( {
			source: 'ids',
			groups: [],
			ids: [ 5, 41 ],
		} );
		expect( spies.setAdding ).toHaveBeenCalledWith( false );
		expect( spies.onChanged ).toHaveBeenCalled();
		await waitFor( () =>
			expect( screen.queryByText( /^New marker at/ ) ).toBeNull()
		);
	} );

	it( 'shows the server’s refusal and leaves nothing created', async () => {
		answer = ( request ) =>
			request.method === 'POST'
				? {
						status: 400,
						body: {
							code: 'rest_invalid_param',
							message: 'Invalid parameter(s): meta',
						},
					}
				: undefined;
		const { click, user, ...spies } = renderEditor(
			{ source: 'ids', groups: [], ids: [] },
			{ adding: true }
		);
		click( 2.35, 48.85 );
		await user.type(
			screen.getByRole( 'textbox', { name: 'Marker title' } ),
			'Café'
		);
		await user.click(
			screen.getByRole( 'button', { name: 'Save marker' } )
		);

		expect(
			// The notice itself: WordPress also speaks it into its live region.
			await screen.findByText( 'Invalid parameter(s): meta', {
				selector: '.components-notice__content',
			} )
		).toBeTruthy();
		expect( spies.onCreated ).not.toHaveBeenCalled();
		expect( spies.setMarkers ).not.toHaveBeenCalled();
		expect( spies.onChanged ).not.toHaveBeenCalled();
		expect( spies.setAdding ).not.toHaveBeenCalled();
		// The form stays, with what was typed, for another try.
		expect(
			screen.getByRole< HTMLInputElement >( 'textbox', {
				name: 'Marker title',
			} ).value
		).toBe( 'Café' );
	} );
} );

describe( 'a marker selected on the map', () => {
	async function select( markers: MarkerSelection ) {
		const editor = renderEditor( markers );
		editor.click( 2.35, 48.85, [ 12 ] );
		await screen.findByDisplayValue( 'Old mill', undefined, {
			timeout: 5000,
		} );
		return editor;
	}

	it( 'saves the edited title, text and group', async () => {
		const { user, onChanged } = await select( {
			source: 'all',
			groups: [],
			ids: [],
		} );
		const group = screen.getByRole< HTMLSelectElement >( 'combobox', {
			name: 'Group',
		} );
		expect( group.value ).toBe( '7' );
		const title = screen.getByRole( 'textbox', { name: 'Marker title' } );
		await user.clear( title );
		await user.type( title, 'New mill' );
		await user.selectOptions( group, 'Parks' );
		await user.click(
			screen.getByRole( 'button', { name: 'Save marker' } )
		);

		await waitFor( () => expect( onChanged ).toHaveBeenCalled() );
		expect( writes() ).toEqual( [
			expect.objectContaining( {
				method: 'PUT',
				route: '/wp/v2/cairn-markers/12',
				data: expect.objectContaining( {
					title: 'New mill',
					content: 'By the river.',
					'cairn-marker-groups': [ 8 ],
				} ),
			} ),
		] );
	} );

	it( 'asks before moving it to the trash, and “Keep it” keeps it', async () => {
		const { user } = await select( {
			source: 'ids',
			groups: [],
			ids: [ 12, 5 ],
		} );
		await user.click(
			screen.getByRole( 'button', { name: 'Move to trash' } )
		);
		expect( writes() ).toEqual( [] );
		await user.click( screen.getByRole( 'button', { name: 'Keep it' } ) );
		expect(
			screen.queryByRole( 'button', { name: 'Yes, move to trash' } )
		).toBeNull();

		await user.click(
			screen.getByRole( 'button', { name: 'Move to trash' } )
		);
		await user.click(
			screen.getByRole( 'button', { name: 'Yes, move to trash' } )
		);
		await waitFor( () =>
			expect( writes() ).toEqual( [
				expect.objectContaining( {
					method: 'DELETE',
					route: '/wp/v2/cairn-markers/12',
				} ),
			] )
		);
		// What follows a trashed marker (out of the hand-picked ids, form closed) is not asserted
		// here: the @wordpress/core-data in node_modules (8.1.0, newer than the WordPress the
		// e2e specs run) throws in its REMOVE_ITEMS reducer for a record read with a query
		// ("reading 'filter'"). tests/e2e/editor.spec.ts covers it on WordPress's own.
	} );

	it( 'keeps the marker and says why when the trash is refused', async () => {
		answer = ( request ) =>
			request.method === 'DELETE'
				? {
						status: 403,
						body: {
							code: 'rest_cannot_delete',
							message:
								'Sorry, you are not allowed to delete this post.',
						},
					}
				: site( request );
		const { user, setMarkers, onChanged } = await select( {
			source: 'ids',
			groups: [],
			ids: [ 12 ],
		} );
		await user.click(
			screen.getByRole( 'button', { name: 'Move to trash' } )
		);
		await user.click(
			screen.getByRole( 'button', { name: 'Yes, move to trash' } )
		);
		expect(
			await screen.findByText(
				'Sorry, you are not allowed to delete this post.',
				{ selector: '.components-notice__content' }
			)
		).toBeTruthy();
		expect( setMarkers ).not.toHaveBeenCalled();
		expect( onChanged ).not.toHaveBeenCalled();
		expect( screen.getByDisplayValue( 'Old mill' ) ).toBeTruthy();
	} );

	it( 'a new click on the map takes back the trash question', async () => {
		const { user, click } = await select( {
			source: 'all',
			groups: [],
			ids: [],
		} );
		await user.click(
			screen.getByRole( 'button', { name: 'Move to trash' } )
		);
		click( 2.35, 48.85, [ 12 ] );
		expect(
			screen.queryByRole( 'button', { name: 'Yes, move to trash' } )
		).toBeNull();
		expect(
			screen.getByRole( 'button', { name: 'Move to trash' } )
		).toBeTruthy();
	} );

	it( 'a click beside the markers closes the form', async () => {
		const { click } = await select( {
			source: 'all',
			groups: [],
			ids: [],
		} );
		click( 10, 10 );
		expect( screen.queryByRole( 'group', { name: 'Marker' } ) ).toBeNull();
	} );
} );
