/**
 * A marker's shape in its Location panel, as an editor without a map (no token) handles it:
 * pasted GeoJSON is checked at once with a message, Undo goes back one geometry, "Delete shape"
 * clears it; and what the panel edits is what the marker's save sends (`meta.cairn_geometry`).
 *
 * The stores are WordPress's own (core-data's entity of marker 5); only the REST answers are fake
 * (fake-rest.ts). `@wordpress/editor` is not installed here (WordPress provides it at run time):
 * its sidebar panel is a titled region around its children.
 */
import './jsdom-globals';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { EntityProvider, store as coreStore } from '@wordpress/core-data';
import { useDispatch } from '@wordpress/data';
import type { ReactNode } from 'react';

import { LocationPanel } from '../../../src/markers/location-panel';
import { parseShapeText } from '../../../src/shared/shape-editor';
import { fakeRest, type RestRequest } from './fake-rest';
import { renderWithStores } from './render';

jest.setTimeout( 20000 );

jest.mock(
	'@wordpress/editor',
	() => ( {
		PluginDocumentSettingPanel: ( {
			title,
			children,
		}: {
			title: string;
			children: ReactNode;
		} ) => <section aria-label={ title }>{ children }</section>,
	} ),
	{ virtual: true }
);

const ROUTE = {
	type: 'LineString',
	coordinates: [
		[ 6.1, 45.9 ],
		[ 6.2, 45.95 ],
		[ 6.3, 46 ],
	],
};
const AREA = {
	type: 'Polygon',
	coordinates: [
		[
			[ 6, 45 ],
			[ 6.5, 45 ],
			[ 6.5, 45.5 ],
			[ 6, 45 ],
		],
	],
};

let stored: Record< string, unknown >;
const requests = fakeRest( ( request: RestRequest ) => {
	if ( request.route !== '/wp/v2/cairn-markers/5' ) {
		return undefined;
	}
	const record = {
		id: 5,
		type: 'cairn_marker',
		title: { raw: 'Ridge walk', rendered: 'Ridge walk' },
		meta: stored,
	};
	return request.method === 'GET'
		? { body: record }
		: { body: { ...record, ...request.data } };
} );

/** "Update": saves the marker's edits as the editor's button does. */
function SaveButton() {
	const { saveEditedEntityRecord } = useDispatch( coreStore );
	return (
		<button
			onClick={ () =>
				saveEditedEntityRecord( 'postType', 'cairn_marker', 5 )
			}
		>
			Update
		</button>
	);
}

async function setup( meta: Record< string, unknown > ) {
	stored = meta;
	const user = userEvent.setup();
	renderWithStores(
		<EntityProvider kind="postType" type="cairn_marker" id={ 5 }>
			<LocationPanel />
			<SaveButton />
		</EntityProvider>
	);
	// The record is in once its title shows in the summary's place: the stored shape's summary.
	await screen.findByText(
		meta.cairn_geometry
			? /^(A route|An area) of/
			: 'No shape: the marker is a point.'
	);
	await waitFor( () =>
		expect(
			requests.map( ( request ) => request.route + '?' + request.query )
		).toContain( '/wp/v2/cairn-markers/5?context=edit' )
	);
	return user;
}

/** The meta the last save sent. */
async function savedMeta(): Promise< Record< string, unknown > > {
	const save = await waitFor( () => {
		const found = requests.find(
			( request ) =>
				request.method !== 'GET' &&
				request.route === '/wp/v2/cairn-markers/5'
		);
		expect( found ).toBeDefined();
		return found as RestRequest;
	} );
	// As api-fetch sends it: JSON (keys whose value is undefined are not sent).
	return JSON.parse( JSON.stringify( save.data?.meta ) );
}

async function paste(
	user: ReturnType< typeof userEvent.setup >,
	text: string
) {
	await user.click( screen.getByRole( 'button', { name: 'Paste GeoJSON' } ) );
	const field = screen.getByRole( 'textbox', {
		name: 'GeoJSON of the shape',
	} );
	await user.click( field );
	await user.paste( text );
	await user.click( screen.getByRole( 'button', { name: 'Apply' } ) );
}

describe( 'parseShapeText', () => {
	const ring = ( closed: boolean ) => [
		[ 0, 0 ],
		[ 1, 0 ],
		[ 1, 1 ],
		closed ? [ 0, 0 ] : [ 0, 1 ],
	];
	const long = {
		type: 'LineString',
		coordinates: Array.from( { length: 100001 }, ( _, i ) => [
			( i % 360 ) - 180,
			0,
		] ),
	};
	it.each( [
		[ 'not JSON', '{"type":', 'could not be read as JSON' ],
		[ 'a list', '[1, 2]', 'expected an object' ],
		[
			'a Point',
			'{"type":"Point","coordinates":[1,2]}',
			'A Point is not a route or an area',
		],
		[
			'two features',
			JSON.stringify( {
				type: 'FeatureCollection',
				features: [
					{ type: 'Feature', geometry: ROUTE },
					{ type: 'Feature', geometry: AREA },
				],
			} ),
			'The collection holds 2 features',
		],
		[
			'an open ring',
			JSON.stringify( {
				type: 'Polygon',
				coordinates: [ ring( false ) ],
			} ),
			'Polygon ring 1 is not closed',
		],
		[
			'a latitude beyond the pole',
			JSON.stringify( {
				type: 'LineString',
				coordinates: [
					[ 0, 0 ],
					[ 1, 95 ],
				],
			} ),
			'The position 1, 95 is out of range',
		],
		[
			'a line of one position',
			JSON.stringify( { type: 'LineString', coordinates: [ [ 0, 0 ] ] } ),
			'A line needs at least 2 positions',
		],
		[
			'text for a number',
			JSON.stringify( {
				type: 'LineString',
				coordinates: [
					[ 0, 0 ],
					[ '1', 2 ],
				],
			} ),
			'Each position must be [longitude, latitude]',
		],
		[
			'100,001 vertices',
			JSON.stringify( long ),
			'has 100,001 vertices; the most a shape may have is 100,000',
		],
	] )( 'refuses %s with a message', ( _, text, message ) => {
		expect( parseShapeText( text ).error ).toContain( message );
	} );

	it( 'takes a geometry, a Feature and a one-feature collection', () => {
		const feature = { type: 'Feature', properties: {}, geometry: AREA };
		expect( parseShapeText( JSON.stringify( ROUTE ) ).geometry ).toEqual(
			ROUTE
		);
		expect( parseShapeText( JSON.stringify( feature ) ).geometry ).toEqual(
			AREA
		);
		expect(
			parseShapeText(
				JSON.stringify( {
					type: 'FeatureCollection',
					features: [ feature ],
				} )
			).geometry
		).toEqual( AREA );
	} );
} );

describe( 'The marker’s shape tools', () => {
	it( 'offers drawing only with a map, and every tool by its label', async () => {
		await setup( {
			cairn_lat: 45.9,
			cairn_lng: 6.1,
			cairn_geometry: null,
		} );
		expect(
			screen.getByText( 'No shape: the marker is a point.' )
		).toBeTruthy();
		for ( const name of [
			'Draw a route',
			'Draw an area',
			'Edit shape',
			'Undo',
			'Delete shape',
		] ) {
			expect(
				screen
					.getByRole( 'button', { name } )
					.getAttribute( 'aria-disabled' )
			).toBe( 'true' );
		}
		expect(
			screen.getByRole( 'button', { name: 'Paste GeoJSON' } )
		).toBeTruthy();
	} );

	it( 'refuses pasted text that is no shape, and changes nothing', async () => {
		const user = await setup( {
			cairn_lat: 45.9,
			cairn_lng: 6.1,
			cairn_geometry: null,
		} );
		await paste( user, '{"type":"Point","coordinates":[6.1,45.9]}' );
		expect( ( await screen.findByRole( 'alert' ) ).textContent ).toBe(
			'A Point is not a route or an area: paste a LineString, MultiLineString, Polygon or MultiPolygon.'
		);
		expect(
			screen.getByText( 'No shape: the marker is a point.' )
		).toBeTruthy();
		// Nothing was edited: "Update" has nothing to send.
		await user.click( screen.getByRole( 'button', { name: 'Update' } ) );
		expect(
			requests.filter( ( request ) => request.method !== 'GET' )
		).toEqual( [] );
	} );

	it( 'saves a pasted shape, without the unset coordinates, for the server’s anchor', async () => {
		const user = await setup( {
			cairn_lat: null,
			cairn_lng: null,
			cairn_geometry: null,
		} );
		await paste(
			user,
			JSON.stringify( {
				type: 'Feature',
				properties: {},
				geometry: ROUTE,
			} )
		);
		expect(
			await screen.findByText( 'A route of 3 vertices.' )
		).toBeTruthy();
		await user.click( screen.getByRole( 'button', { name: 'Update' } ) );
		const meta = await savedMeta();
		expect( meta.cairn_geometry ).toEqual( ROUTE );
		expect( 'cairn_lat' in meta || 'cairn_lng' in meta ).toBe( false );
	} );

	it( 'undoes to the geometry before, step by step', async () => {
		const user = await setup( {
			cairn_lat: 45.9,
			cairn_lng: 6.1,
			cairn_geometry: ROUTE,
		} );
		await paste( user, JSON.stringify( AREA ) );
		expect(
			await screen.findByText( 'An area of 4 vertices.' )
		).toBeTruthy();
		await user.click(
			screen.getByRole( 'button', { name: 'Delete shape' } )
		);
		expect(
			await screen.findByText( 'No shape: the marker is a point.' )
		).toBeTruthy();

		await user.click( screen.getByRole( 'button', { name: 'Undo' } ) );
		expect(
			await screen.findByText( 'An area of 4 vertices.' )
		).toBeTruthy();
		await user.click( screen.getByRole( 'button', { name: 'Update' } ) );
		const meta = await savedMeta();
		expect( meta.cairn_geometry ).toEqual( AREA );
		// The marker had a position: it keeps it.
		expect( [ meta.cairn_lat, meta.cairn_lng ] ).toEqual( [ 45.9, 6.1 ] );

		await user.click( screen.getByRole( 'button', { name: 'Undo' } ) );
		expect(
			await screen.findByText( 'A route of 3 vertices.' )
		).toBeTruthy();
		expect(
			screen
				.getByRole( 'button', { name: 'Undo' } )
				.getAttribute( 'aria-disabled' )
		).toBe( 'true' );
	} );

	it( 'clears the stored shape with "Delete shape"', async () => {
		const user = await setup( {
			cairn_lat: 45,
			cairn_lng: 6,
			cairn_geometry: AREA,
		} );
		await user.click(
			screen.getByRole( 'button', { name: 'Delete shape' } )
		);
		expect(
			await screen.findByText( 'No shape: the marker is a point.' )
		).toBeTruthy();
		await user.click( screen.getByRole( 'button', { name: 'Update' } ) );
		const meta = await savedMeta();
		expect( meta.cairn_geometry ).toBeNull();
		expect( [ meta.cairn_lat, meta.cairn_lng ] ).toEqual( [ 45, 6 ] );
	} );
} );
