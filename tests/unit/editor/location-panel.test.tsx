/**
 * The post sidebar's "Location" panel: edits go to the post's meta through `core/editor`'s
 * `editPost`, "Show on maps" switches `geo_public`, "Remove location" clears all four keys.
 *
 * `@wordpress/editor` is not installed here (the plugin's build takes it from WordPress at run
 * time), so its `core/editor` store is a small one on WordPress's own `@wordpress/data`, with the
 * real store's rule that meta edits merge, and its sidebar panel a titled region around its
 * children. The panel itself, the location editor and the components are the real ones.
 */
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createReduxStore, register, select, dispatch } from '@wordpress/data';
import type { ReactNode } from 'react';

import { PostLocationPanel } from '../../../src/locations/location-panel';

jest.mock(
	'@wordpress/editor',
	() => ( {
		PluginDocumentSettingPanel: ( {
			title,
			children,
		}: {
			title: string;
			children: ReactNode;
		} ) => (
			<section aria-label={ title }>
				<h2>{ title }</h2>
				{ children }
			</section>
		),
	} ),
	{ virtual: true }
);

jest.mock( '@wordpress/api-fetch', () => ( {
	__esModule: true,
	default: jest.fn(),
} ) );

type Meta = Record< string, unknown >;

interface EditorState {
	meta: Meta;
	stored: Meta;
}

const editor = createReduxStore( 'core/editor', {
	reducer: (
		state: EditorState = { meta: {}, stored: {} },
		action: { type: string; meta?: Meta }
	) => {
		switch ( action.type ) {
			case 'RESET':
				return { meta: { ...action.meta }, stored: { ...action.meta } };
			case 'EDIT_POST':
				return { ...state, meta: { ...state.meta, ...action.meta } };
		}
		return state;
	},
	selectors: {
		getEditedPostAttribute: ( state: EditorState, name: string ) =>
			name === 'meta' ? state.meta : undefined,
		// The post as saved: edits do not reach it.
		getCurrentPostAttribute: ( state: EditorState, name: string ) =>
			name === 'meta' ? state.stored : undefined,
	},
	actions: {
		editPost: ( edits: { meta: Meta } ) => ( {
			type: 'EDIT_POST',
			meta: edits.meta,
		} ),
		reset: ( stored: Meta ) => ( { type: 'RESET', meta: stored } ),
	},
} );
register( editor );

function meta(): Meta {
	return (
		select( editor ) as unknown as {
			getEditedPostAttribute: ( name: string ) => Meta;
		}
	 ).getEditedPostAttribute( 'meta' );
}

function setup( stored: Meta ) {
	( dispatch( editor ) as unknown as { reset: ( m: Meta ) => void } ).reset(
		stored
	);
	const user = userEvent.setup();
	render( <PostLocationPanel /> );
	const panel = screen.getByRole( 'region', { name: 'Location' } );
	return { user, panel };
}

const NO_LOCATION = {
	geo_latitude: null,
	geo_longitude: null,
	geo_address: '',
	geo_public: false,
};

function toggle( panel: HTMLElement ): HTMLInputElement {
	return within( panel ).getByRole( 'checkbox', { name: 'Show on maps' } );
}

describe( 'PostLocationPanel', () => {
	it( 'shows a post placed in this panel on maps, unless switched off', async () => {
		const { user, panel } = setup( NO_LOCATION );
		expect( toggle( panel ).checked ).toBe( false );
		expect(
			within( panel ).queryByRole( 'button', { name: 'Remove location' } )
		).toBeNull();

		await user.type(
			within( panel ).getByRole( 'textbox', { name: 'Latitude' } ),
			'55.95'
		);
		expect( meta().geo_public ).toBe( false );
		await user.type(
			within( panel ).getByRole( 'textbox', { name: 'Longitude' } ),
			'-3.19'
		);

		expect( meta() ).toEqual( {
			geo_latitude: 55.95,
			geo_longitude: -3.19,
			geo_address: '',
			geo_public: true,
		} );
		expect( toggle( panel ).checked ).toBe( true );

		await user.click( toggle( panel ) );
		expect( meta().geo_public ).toBe( false );
		expect( toggle( panel ).checked ).toBe( false );

		// The editor's choice stands while the point moves.
		await user.type(
			within( panel ).getByRole( 'textbox', { name: 'Longitude' } ),
			'5'
		);
		expect( meta().geo_longitude ).toBe( -3.195 );
		expect( meta().geo_public ).toBe( false );
	} );

	it( 'keeps "Show on maps" off when it was switched off before the post got a place', async () => {
		const { user, panel } = setup( NO_LOCATION );
		await user.click( toggle( panel ) );
		await user.click( toggle( panel ) );
		expect( meta().geo_public ).toBe( false );

		await user.type(
			within( panel ).getByRole( 'textbox', { name: 'Latitude' } ),
			'55.95'
		);
		await user.type(
			within( panel ).getByRole( 'textbox', { name: 'Longitude' } ),
			'-3.19'
		);
		expect( meta().geo_latitude ).toBe( 55.95 );
		expect( meta().geo_longitude ).toBe( -3.19 );
		expect( meta().geo_public ).toBe( false );
		expect( toggle( panel ).checked ).toBe( false );
	} );

	it( 'keeps a stored private location private when it is moved', async () => {
		const { user, panel } = setup( {
			geo_latitude: 55.95,
			geo_longitude: -3.19,
			geo_address: 'Edinburgh',
			geo_public: false,
		} );
		const latitude = within( panel ).getByRole( 'textbox', {
			name: 'Latitude',
		} );
		// Typed over (not emptied first: an emptied field leaves the post without a position).
		await user.tripleClick( latitude );
		await user.keyboard( '56' );
		expect( meta().geo_latitude ).toBe( 56 );
		expect( meta().geo_public ).toBe( false );
		expect( toggle( panel ).checked ).toBe( false );
	} );

	it( 'keeps a stored private location private when a coordinate is emptied and typed again', async () => {
		const { user, panel } = setup( {
			geo_latitude: 55.95,
			geo_longitude: -3.19,
			geo_address: 'Edinburgh',
			geo_public: false,
		} );
		const latitude = within( panel ).getByRole( 'textbox', {
			name: 'Latitude',
		} );
		await user.clear( latitude );
		expect( meta().geo_latitude ).toBeNull();
		await user.type( latitude, '56' );
		expect( meta().geo_latitude ).toBe( 56 );
		expect( meta().geo_public ).toBe( false );
		expect( toggle( panel ).checked ).toBe( false );
	} );

	it( 'shows the next place on maps after "Remove location", as a new one', async () => {
		const { user, panel } = setup( {
			geo_latitude: 55.95,
			geo_longitude: -3.19,
			geo_address: 'Edinburgh',
			geo_public: false,
		} );
		await user.click(
			within( panel ).getByRole( 'button', { name: 'Remove location' } )
		);
		await user.type(
			within( panel ).getByRole( 'textbox', { name: 'Latitude' } ),
			'48.85'
		);
		await user.type(
			within( panel ).getByRole( 'textbox', { name: 'Longitude' } ),
			'2.35'
		);
		expect( meta().geo_latitude ).toBe( 48.85 );
		expect( meta().geo_longitude ).toBe( 2.35 );
		expect( meta().geo_public ).toBe( true );
	} );

	it( 'switches "Show on maps" on and off', async () => {
		const { user, panel } = setup( {
			geo_latitude: 55.95,
			geo_longitude: -3.19,
			geo_address: '',
			geo_public: false,
		} );
		await user.click( toggle( panel ) );
		expect( meta().geo_public ).toBe( true );
		expect( toggle( panel ).checked ).toBe( true );
		await user.click( toggle( panel ) );
		expect( meta().geo_public ).toBe( false );
	} );

	it( '"Remove location" clears the position, the address and "Show on maps"', async () => {
		const { user, panel } = setup( {
			geo_latitude: 55.95,
			geo_longitude: -3.19,
			geo_address: 'Edinburgh',
			geo_public: true,
		} );
		expect(
			within( panel ).getByRole< HTMLInputElement >( 'textbox', {
				name: 'Address',
			} ).value
		).toBe( 'Edinburgh' );

		await user.click(
			within( panel ).getByRole( 'button', { name: 'Remove location' } )
		);

		expect( meta() ).toEqual( {
			geo_latitude: null,
			geo_longitude: null,
			geo_address: null,
			geo_public: null,
		} );
		for ( const name of [ 'Latitude', 'Longitude', 'Address' ] ) {
			expect(
				within( panel ).getByRole< HTMLInputElement >( 'textbox', {
					name,
				} ).value
			).toBe( '' );
		}
		expect( toggle( panel ).checked ).toBe( false );
		expect(
			within( panel ).queryByRole( 'button', { name: 'Remove location' } )
		).toBeNull();
		expect(
			within( panel ).getByText(
				'Give this post a place: search an address, click the map, or type the coordinates.'
			)
		).toBeTruthy();
	} );

	it( 'offers "Remove location" for an address without a position', () => {
		const { panel } = setup( { ...NO_LOCATION, geo_address: 'Edinburgh' } );
		expect(
			within( panel ).getByRole( 'button', { name: 'Remove location' } )
		).toBeTruthy();
	} );
} );
