/**
 * A marker with a shape made from the block's toolbar ("Draw a route"): without a map (no token
 * yet, or keyboard users) the shape is pasted as GeoJSON, then titled, and "Save marker" creates
 * a published marker whose meta holds the geometry and no point (the server takes the shape's
 * anchor). The stores are WordPress's own; only the REST answers are fake (fake-rest.ts).
 */
import './jsdom-globals';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';

import { MarkerEditor } from '../../../src/blocks/map/marker-editor';
import { fakeRest, type RestRequest } from './fake-rest';
import { renderWithStores } from './render';

jest.setTimeout( 20000 );

const ROUTE = {
	type: 'LineString',
	coordinates: [
		[ 6.1, 45.9 ],
		[ 6.2, 45.95 ],
	],
};

const requests = fakeRest( ( request: RestRequest ) =>
	request.route === '/wp/v2/cairn-markers' && request.method === 'POST'
		? {
				body: {
					...request.data,
					id: 41,
					title: { raw: request.data?.title, rendered: '' },
					content: { raw: '', rendered: '' },
				},
			}
		: undefined
);

it( 'creates a marker with a pasted route, titled, with no point of its own', async () => {
	const spies = {
		setMarkers: jest.fn(),
		onChanged: jest.fn(),
		onCreated: jest.fn(),
		setAdding: jest.fn(),
		setNewShape: jest.fn(),
	};
	const user = userEvent.setup();
	renderWithStores(
		<MarkerEditor
			map={ null }
			markers={ { source: 'ids', groups: [], ids: [ 5 ] } }
			editUrl="https://site.test/wp-admin/post.php?action=edit&post="
			adding={ false }
			newShape="line"
			{ ...spies }
		/>
	);
	const save = screen.getByRole( 'button', { name: 'Save marker' } );
	expect( save.getAttribute( 'aria-disabled' ) ).toBe( 'true' );

	await user.click( screen.getByRole( 'button', { name: 'Paste GeoJSON' } ) );
	await user.click(
		screen.getByRole( 'textbox', { name: 'GeoJSON of the shape' } )
	);
	await user.paste( JSON.stringify( ROUTE ) );
	await user.click( screen.getByRole( 'button', { name: 'Apply' } ) );
	expect( screen.getByText( 'A route of 2 vertices.' ) ).toBeTruthy();
	// Still no title: nothing to save yet.
	expect( save.getAttribute( 'aria-disabled' ) ).toBe( 'true' );

	await user.type(
		screen.getByRole( 'textbox', { name: 'Marker title' } ),
		'Col path'
	);
	await user.click( save );
	await waitFor( () => expect( spies.onCreated ).toHaveBeenCalledWith( 41 ) );

	const posts = requests.filter( ( request ) => request.method === 'POST' );
	expect( posts ).toHaveLength( 1 );
	expect( posts[ 0 ]?.data ).toMatchObject( {
		title: 'Col path',
		status: 'publish',
		meta: { cairn_geometry: ROUTE },
	} );
	expect( posts[ 0 ]?.data?.meta ).not.toHaveProperty( 'cairn_lat' );
	expect( spies.setMarkers ).toHaveBeenCalledWith( {
		source: 'ids',
		groups: [],
		ids: [ 5, 41 ],
	} );
	expect( spies.setNewShape ).toHaveBeenCalledWith( null );
} );
