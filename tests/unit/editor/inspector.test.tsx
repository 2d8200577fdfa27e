/**
 * The block's sidebar as an editor uses it, panel by panel: each panel shows its controls by their
 * labels, a change reaches the block through setAttributes with the validated value, and a value
 * that is not valid shows its message and is not saved. The stores are WordPress's own; only the
 * REST answers are fake (fake-rest.ts).
 */
import './jsdom-globals';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Map as MapboxMap } from 'mapbox-gl';
import { useState } from '@wordpress/element';

import {
	InspectorPanels,
	type InspectorProps,
} from '../../../src/blocks/map/inspector/panels';
import type { MapBlockAttributes } from '../../../src/blocks/map/types';
import { blockAttributes, fakeRest } from './fake-rest';
import { renderBlock } from './render';

// Under load (two cores shared by several test runs) a test that waits for REST takes seconds.
jest.setTimeout( 20000 );

const requests = fakeRest();

/** The panels as the Inspector gives them, with the height field's text kept above them. */
function Panels( props: InspectorProps ) {
	const heightText = useState( props.attributes.height );
	return <InspectorPanels { ...props } heightText={ heightText } />;
}

function renderPanels(
	overrides: Partial< MapBlockAttributes > = {},
	map: MapboxMap | null = null
) {
	return renderBlock( blockAttributes( overrides ), ( attributes, set ) => (
		<Panels
			attributes={ attributes }
			setAttributes={ set }
			map={ map }
			accessToken="pk.test"
		/>
	) );
}

async function open( title: string ) {
	const user = userEvent.setup();
	await user.click( screen.getByRole( 'button', { name: title } ) );
	return user;
}

describe( 'the block inspector', () => {
	it( 'shows its panels in the sidebar’s order', () => {
		renderPanels();
		const titles = screen
			.getAllByRole( 'button' )
			.filter( ( button ) => button.hasAttribute( 'aria-expanded' ) )
			.map( ( button ) => button.textContent );
		expect( titles ).toEqual( [
			'Style',
			'View',
			'Zoom limits',
			'Controls',
			'Label language',
			'Markers',
			'Posts on the map',
			'Places',
			'Clustering',
			'Behaviour',
		] );
	} );

	it( 'saves a custom style URL only once it is valid', async () => {
		const { setAttributes } = renderPanels();
		const user = userEvent.setup();
		await user.selectOptions(
			screen.getByRole( 'combobox', { name: 'Map style' } ),
			'Custom style URL'
		);
		const field = screen.getByRole( 'textbox', { name: 'Style URL' } );
		await user.type( field, 'http://styles.example/style.json' );
		expect( field.getAttribute( 'aria-invalid' ) ).toBe( 'true' );
		expect( setAttributes ).not.toHaveBeenCalled();

		await user.clear( field );
		await user.type( field, 'mapbox://styles/owner/style' );
		expect( setAttributes ).toHaveBeenLastCalledWith( {
			mapStyle: 'mapbox://styles/owner/style',
		} );
	} );

	it( '“Use current view” saves the preview’s camera, rounded and within the zoom range', async () => {
		const map = {
			getCenter: () => ( { lng: 2.352222194, lat: 48.856613888 } ),
			getZoom: () => 23.4,
			getBearing: () => -12.345,
			getPitch: () => 30.06,
		} as unknown as MapboxMap;
		const { setAttributes } = renderPanels( { maxZoom: 18 }, map );
		await userEvent
			.setup()
			.click(
				screen.getByRole( 'button', { name: 'Use current view' } )
			);
		expect( setAttributes ).toHaveBeenCalledWith( {
			center: { lng: 2.352222, lat: 48.856614 },
			zoom: 18,
			bearing: -12.3,
			pitch: 30.1,
		} );
	} );

	it( '“Use current view” is disabled until the preview has a map', () => {
		renderPanels();
		expect(
			screen.getByRole< HTMLButtonElement >( 'button', {
				name: 'Use current view',
			} ).disabled
		).toBe( true );
	} );

	it( 'refuses a latitude out of range with its message, and saves a valid one', async () => {
		const { setAttributes } = renderPanels();
		const user = userEvent.setup();
		const latitude = screen.getByRole( 'spinbutton', { name: 'Latitude' } );
		await user.clear( latitude );
		await user.paste( '95' );
		expect(
			screen.getByText( 'Enter a number from -85.0511 to 85.0511.' )
		).toBeTruthy();
		expect( setAttributes ).not.toHaveBeenCalled();

		await user.clear( latitude );
		await user.paste( '45.5' );
		expect( setAttributes ).toHaveBeenLastCalledWith( {
			center: { lng: 0, lat: 45.5 },
		} );
	} );

	it( 'refuses a minimum zoom above the maximum, and moves the zoom into a new range', async () => {
		const { setAttributes } = renderPanels( { zoom: 5, maxZoom: 10 } );
		const user = await open( 'Zoom limits' );
		const minimum = screen.getByRole( 'spinbutton', {
			name: 'Minimum zoom',
		} );
		await user.clear( minimum );
		await user.paste( '12' );
		expect(
			screen.getByText(
				'The minimum zoom cannot be above the maximum zoom.'
			)
		).toBeTruthy();
		expect( setAttributes ).not.toHaveBeenCalled();

		await user.clear( minimum );
		await user.paste( '8' );
		expect( setAttributes ).toHaveBeenLastCalledWith( {
			minZoom: 8,
			zoom: 8,
		} );
	} );

	it( 'turns a map control on', async () => {
		const { setAttributes } = renderPanels();
		const user = await open( 'Controls' );
		await user.click(
			screen.getByRole( 'checkbox', { name: 'Scale bar' } )
		);
		expect( setAttributes ).toHaveBeenLastCalledWith( {
			controls: {
				zoom: true,
				compass: true,
				scale: true,
				fullscreen: true,
				geolocate: false,
			},
		} );
	} );

	it( 'sets the label language', async () => {
		const { setAttributes } = renderPanels();
		const user = await open( 'Label language' );
		await user.selectOptions(
			screen.getByRole( 'combobox', { name: 'Language of map labels' } ),
			'German'
		);
		expect( setAttributes ).toHaveBeenLastCalledWith( { language: 'de' } );
	} );

	it( 'shows the markers of chosen groups, named as the site names them', async () => {
		const { setAttributes } = renderPanels();
		const user = await open( 'Markers' );
		await user.click(
			screen.getByRole( 'radio', { name: 'Markers of chosen groups' } )
		);
		expect( setAttributes ).toHaveBeenLastCalledWith( {
			markers: { source: 'groups', groups: [], ids: [] },
		} );

		const groups = screen.getByRole( 'combobox', { name: 'Groups' } );
		await user.click( groups );
		// The site's groups, from REST (a loaded machine can take a while).
		await screen.findByRole(
			'option',
			{ name: 'Parks' },
			{ timeout: 5000 }
		);
		await user.type( groups, 'Parks{Enter}' );
		expect( setAttributes ).toHaveBeenLastCalledWith( {
			markers: { source: 'groups', groups: [ 'parks' ], ids: [] },
		} );
		expect(
			requests.some(
				( request ) => request.route === '/wp/v2/cairn-marker-groups'
			)
		).toBe( true );

		// A name that is no group of the site is not kept.
		await user.type( groups, 'Nowhere{Enter}' );
		expect( setAttributes ).toHaveBeenLastCalledWith( {
			markers: { source: 'groups', groups: [ 'parks' ], ids: [] },
		} );
	} );

	it.each( [
		[
			'Search field',
			{ search: false, groupFilter: true, followMap: true },
		],
		[
			'Group filter',
			{ search: true, groupFilter: false, followMap: true },
		],
		[
			'List follows the map',
			{ search: true, groupFilter: true, followMap: false },
		],
	] )( 'Places: “%s” turns off', async ( label, places ) => {
		const { setAttributes } = renderPanels();
		const user = await open( 'Places' );
		await user.click( screen.getByRole( 'checkbox', { name: label } ) );
		expect( setAttributes ).toHaveBeenLastCalledWith( { places } );
	} );

	it( 'offers visitors only label languages Mapbox knows', async () => {
		const { setAttributes } = renderPanels();
		const user = await open( 'Places' );
		const field = screen.getByRole( 'combobox', {
			name: 'Label languages visitors can choose',
		} );
		await user.type( field, 'Klingon{Enter}' );
		expect( setAttributes ).not.toHaveBeenCalled();
		await user.clear( field );
		await user.type( field, 'German{Enter}' );
		expect( setAttributes ).toHaveBeenLastCalledWith( {
			languages: [ 'de' ],
		} );
	} );

	it( 'hides the cluster radius when clustering is off', async () => {
		const { setAttributes } = renderPanels();
		const user = await open( 'Clustering' );
		expect(
			screen.getByRole( 'slider', { name: 'Cluster radius (pixels)' } )
		).toBeTruthy();
		await user.click(
			screen.getByRole( 'checkbox', { name: 'Group close markers' } )
		);
		expect( setAttributes ).toHaveBeenLastCalledWith( {
			cluster: { enabled: false, radius: 80 },
		} );
		expect(
			screen.queryByRole( 'slider', { name: 'Cluster radius (pixels)' } )
		).toBeNull();
	} );

	it.each( [
		[ 'Keep the view in the page address', { hash: true } ],
		[ 'Cooperative gestures', { cooperativeGestures: false } ],
	] )( 'Behaviour: “%s” toggles', async ( label, change ) => {
		const { setAttributes } = renderPanels();
		const user = await open( 'Behaviour' );
		await user.click( screen.getByRole( 'checkbox', { name: label } ) );
		expect( setAttributes ).toHaveBeenLastCalledWith( change );
	} );

	it( 'refuses a height that is no CSS length, and saves a valid one', async () => {
		const { setAttributes } = renderPanels();
		const user = await open( 'Behaviour' );
		const height = screen.getByRole( 'textbox', { name: 'Height' } );
		await user.clear( height );
		await user.type( height, 'tall' );
		expect(
			screen.getByText( 'Use a CSS length such as 480px, 30rem or 60vh.' )
		).toBeTruthy();
		expect( setAttributes ).not.toHaveBeenCalled();

		await user.clear( height );
		await user.type( height, '30rem' );
		await waitFor( () =>
			expect( setAttributes ).toHaveBeenLastCalledWith( {
				height: '30rem',
			} )
		);
	} );
} );
