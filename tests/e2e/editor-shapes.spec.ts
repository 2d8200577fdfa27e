/**
 * Shapes drawn in the marker's "Location" panel: a route of three vertices clicked on the map and
 * finished, an area closed by the drawing library, both published and read back through the REST
 * API (`meta.cairn_geometry`); pasted GeoJSON that is no shape refused at once with nothing saved,
 * and a crossed area the browser accepts refused by the server with its message (nothing
 * published), then published as a plain point once the shape is deleted; and on the map block's
 * live preview, "Draw a route" from the toolbar creates a marker with that route.
 */
import type { Locator, Page } from '@playwright/test';
import type {
	Editor,
	RequestUtils,
} from '@wordpress/e2e-test-utils-playwright';

import { expect, test } from './fixtures/maps-service';
import {
	clickPublish,
	mapSettled,
	pixelOf,
	publish,
	watchLocationPage,
} from './utils/location-panel';
import {
	FAKE_PUBLIC_TOKEN,
	dismissWelcomeGuide,
	mapBlock,
	publishPage,
	setToken,
} from './utils/map-page';
import { recordMapEvents, waitForIdle } from './utils/front-map';

/** How long publishing may take (Playground's single PHP worker). */
const PUBLISH_TIMEOUT = 90_000;

interface MarkerRecord {
	id: number;
	meta: {
		cairn_lat: number | null;
		cairn_lng: number | null;
		cairn_geometry: {
			type: string;
			coordinates: unknown[];
		} | null;
	};
}

async function storedMarker(
	requestUtils: RequestUtils,
	id: number
): Promise< MarkerRecord > {
	return ( await requestUtils.rest( {
		path: `/wp/v2/cairn-markers/${ id }`,
		params: { context: 'edit' },
	} ) ) as MarkerRecord;
}

/**
 * The marker's shape as a visitor's map draws it: a page with a map of that marker, fitted to the
 * shape; the ids drawn on the given layer of the shapes.
 */
async function drawnForVisitors(
	page: Page,
	requestUtils: RequestUtils,
	id: number,
	layer: 'cairn-shapes-line' | 'cairn-shapes-fill'
): Promise< number[] > {
	const url = await publishPage(
		requestUtils,
		`Drawn shape ${ id }`,
		mapBlock( {
			height: '480px',
			markers: { source: 'ids', groups: [], ids: [ id ] },
			cluster: { enabled: false, radius: 80 },
		} )
	);
	await recordMapEvents( page );
	await page.goto( url );
	await waitForIdle( page );
	await page.waitForFunction( () => {
		const map = window.cairnMap( 0 );
		return (
			Boolean( map.getSource( 'cairn-shapes' ) ) &&
			map.isSourceLoaded( 'cairn-shapes' )
		);
	} );
	return page.evaluate(
		async ( [ shapeId, layerId ] ) => {
			const map = window.cairnMap( 0 );
			const [ feature ] = map.querySourceFeatures( 'cairn-shapes', {
				filter: [ '==', [ 'id' ], shapeId ],
			} );
			const bbox = feature?.properties?.bbox;
			const box = (
				typeof bbox === 'string' ? JSON.parse( bbox ) : bbox
			) as [ number, number, number, number ] | undefined;
			if ( box ) {
				map.fitBounds( box, { animate: false, padding: 40 } );
				await new Promise( ( resolve ) => map.once( 'idle', resolve ) );
			}
			return [
				...new Set(
					map
						.queryRenderedFeatures( { layers: [ layerId ] } )
						.map( ( drawn ) => Number( drawn.id ) )
				),
			];
		},
		[ id, layer ] as const
	);
}

/** A new marker's editor with its "Location" panel open and its map ready; returns the panel. */
async function newMarker(
	page: Page,
	editor: Editor,
	admin: { createNewPost: ( options: object ) => Promise< void > },
	title: string
): Promise< Locator > {
	await admin.createNewPost( { postType: 'cairn_marker', title } );
	const settings = page.getByRole( 'region', { name: 'Editor settings' } );
	const host = settings.locator( '.cairn-maps-location-map' );
	// The welcome guide can open late and fold the panel: open it again until its map is ready.
	await expect( async () => {
		await editor.openDocumentSettingsSidebar();
		const toggle = settings.getByRole( 'button', {
			name: 'Location',
			exact: true,
		} );
		if ( ( await toggle.getAttribute( 'aria-expanded' ) ) === 'false' ) {
			await toggle.click();
		}
		await expect( host ).toHaveAttribute( 'data-cairn-state', 'ready', {
			timeout: 15_000,
		} );
	} ).toPass( { timeout: 60_000 } );
	await mapSettled( page );
	return settings;
}

/**
 * Draws with the tool named `button`: clicks the map at each point (fractions of the canvas),
 * then "Finish".
 */
async function drawShape(
	settings: Locator,
	button: 'Draw a route' | 'Draw an area',
	points: Array< [ number, number ] >
) {
	const shape = settings.getByRole( 'group', { name: 'Shape' } );
	await shape.getByRole( 'button', { name: button } ).click();
	// The drawing library is loaded on demand (two chunks from Playground's single PHP worker):
	// drawing has begun once "Finish" is offered.
	const finish = shape.getByRole( 'button', { name: 'Finish' } );
	await expect( finish ).toBeVisible( { timeout: 60_000 } );
	const canvas = settings.locator(
		'.cairn-maps-location-map canvas.mapboxgl-canvas'
	);
	const box = ( await canvas.boundingBox() )!;
	for ( const [ x, y ] of points ) {
		await canvas.click( {
			position: {
				x: Math.round( box.width * x ),
				y: Math.round( box.height * y ),
			},
		} );
	}
	await finish.click();
	return shape;
}

test.describe( 'shapes in the marker editor', () => {
	test.describe.configure( { timeout: 240_000 } );

	test.beforeAll( async ( { requestUtils } ) => {
		await setToken( requestUtils, FAKE_PUBLIC_TOKEN );
	} );

	let pageErrors: string[] = [];

	test.beforeEach( async ( { page } ) => {
		pageErrors = await watchLocationPage( page );
	} );

	test.afterEach( () => {
		expect( pageErrors ).toEqual( [] );
	} );

	test( 'draws a route of three vertices and publishes it', async ( {
		admin,
		editor,
		page,
		requestUtils,
	} ) => {
		const settings = await newMarker( page, editor, admin, 'Ridge route' );
		const shape = await drawShape( settings, 'Draw a route', [
			[ 0.3, 0.5 ],
			[ 0.5, 0.35 ],
			[ 0.7, 0.55 ],
		] );
		await expect(
			shape.getByText( 'A route of 3 vertices.' )
		).toBeVisible();
		// Drawing did not move the marker's point: it has none yet.
		await expect(
			settings.getByRole( 'textbox', { name: 'Latitude' } )
		).toHaveValue( '' );

		const stored = await storedMarker(
			requestUtils,
			await publish( page, PUBLISH_TIMEOUT )
		);
		const geometry = stored.meta.cairn_geometry!;
		expect( geometry.type ).toBe( 'LineString' );
		expect( geometry.coordinates ).toHaveLength( 3 );
		// The marker had no point: it takes the route's start (the server's anchor).
		const [ lng, lat ] = geometry.coordinates[ 0 ] as [ number, number ];
		expect( stored.meta.cairn_lat ).toBeCloseTo( lat, 5 );
		expect( stored.meta.cairn_lng ).toBeCloseTo( lng, 5 );
		// A visitor's map draws it.
		expect(
			await drawnForVisitors(
				page,
				requestUtils,
				stored.id,
				'cairn-shapes-line'
			)
		).toContain( stored.id );
	} );

	test( 'draws an area, closed by the tool, and publishes it', async ( {
		admin,
		editor,
		page,
		requestUtils,
	} ) => {
		const settings = await newMarker( page, editor, admin, 'Quiet zone' );
		const shape = await drawShape( settings, 'Draw an area', [
			[ 0.3, 0.3 ],
			[ 0.7, 0.3 ],
			[ 0.5, 0.7 ],
		] );
		await expect(
			shape.getByText( 'An area of 4 vertices.' )
		).toBeVisible();

		const stored = await storedMarker(
			requestUtils,
			await publish( page, PUBLISH_TIMEOUT )
		);
		const geometry = stored.meta.cairn_geometry!;
		expect( geometry.type ).toBe( 'Polygon' );
		const ring = ( geometry.coordinates as number[][][] )[ 0 ] ?? [];
		expect( ring ).toHaveLength( 4 );
		expect( ring[ 3 ] ).toEqual( ring[ 0 ] );
		expect( stored.meta.cairn_lat ).not.toBeNull();
		// A visitor's map fills it.
		expect(
			await drawnForVisitors(
				page,
				requestUtils,
				stored.id,
				'cairn-shapes-fill'
			)
		).toEqual( [ stored.id ] );
	} );

	test( 'moves a vertex of the route, and Ctrl+Z undoes the move', async ( {
		admin,
		editor,
		page,
	} ) => {
		const settings = await newMarker( page, editor, admin, 'Moved route' );
		const shape = await drawShape( settings, 'Draw a route', [
			[ 0.3, 0.5 ],
			[ 0.5, 0.35 ],
			[ 0.7, 0.55 ],
		] );
		await expect(
			shape.getByText( 'A route of 3 vertices.' )
		).toBeVisible();
		const edited = () =>
			page.evaluate(
				() =>
					(
						window as unknown as {
							wp: {
								data: {
									select: ( store: string ) => {
										getEditedPostAttribute: (
											name: string
										) => Record< string, unknown >;
									};
								};
							};
						}
					 ).wp.data
						.select( 'core/editor' )
						.getEditedPostAttribute( 'meta' ).cairn_geometry as {
						coordinates: Array< [ number, number ] >;
					}
			);
		const drawn = await edited();

		await shape.getByRole( 'button', { name: 'Edit shape' } ).click();
		await expect(
			shape.getByRole( 'button', { name: 'Done' } )
		).toBeVisible();
		const canvas = settings.locator(
			'.cairn-maps-location-map canvas.mapboxgl-canvas'
		);
		const box = ( await canvas.boundingBox() )!;
		const [ lng, lat ] = drawn.coordinates[ 1 ]!;
		const at = await pixelOf( page, { lng, lat } );
		await page.mouse.move( box.x + at.x, box.y + at.y );
		await page.mouse.down();
		await page.mouse.move( box.x + at.x + 15, box.y + at.y + 10, {
			steps: 4,
		} );
		await page.mouse.move( box.x + at.x + 30, box.y + at.y + 20, {
			steps: 4,
		} );
		await page.mouse.up();
		// The middle vertex moved (right and down: east and south); the ends stayed.
		await expect
			.poll( async () => ( await edited() ).coordinates[ 1 ]![ 0 ] )
			.toBeGreaterThan( lng );
		const moved = await edited();
		expect( moved.coordinates ).toHaveLength( 3 );
		expect( moved.coordinates[ 1 ]![ 1 ] ).toBeLessThan( lat );
		expect( moved.coordinates[ 0 ] ).toEqual( drawn.coordinates[ 0 ] );

		await page.keyboard.press( 'ControlOrMeta+z' );
		await expect.poll( edited ).toEqual( drawn );
		// The editor's own undo did not run: the title is still there.
		await expect(
			editor.canvas.getByRole( 'textbox', { name: 'Add title' } )
		).toHaveText( 'Moved route' );
		await shape.getByRole( 'button', { name: 'Done' } ).click();
		await expect(
			shape.getByRole( 'button', { name: 'Edit shape' } )
		).toBeVisible();
	} );

	test( 'pasted GeoJSON that is no shape is refused at once and nothing is saved', async ( {
		admin,
		editor,
		page,
		requestUtils,
	} ) => {
		const settings = await newMarker( page, editor, admin, 'Lone pine' );
		const shape = settings.getByRole( 'group', { name: 'Shape' } );
		await shape.getByRole( 'button', { name: 'Paste GeoJSON' } ).click();
		const field = shape.getByRole( 'textbox', {
			name: 'GeoJSON of the shape',
		} );
		await field.fill( '{"type":"Point","coordinates":[6.1,45.9]}' );
		await shape.getByRole( 'button', { name: 'Apply' } ).click();
		await expect( shape.getByRole( 'alert' ) ).toHaveText(
			'A Point is not a route or an area: paste a LineString, MultiLineString, Polygon or MultiPolygon.'
		);
		await expect(
			shape.getByText( 'No shape: the marker is a point.' )
		).toBeVisible();

		// A crossed area passes the browser's check; the server refuses it with its message.
		await field.fill(
			JSON.stringify( {
				type: 'Polygon',
				coordinates: [
					[
						[ 6, 45 ],
						[ 7, 46 ],
						[ 7, 45 ],
						[ 6, 46 ],
						[ 6, 45 ],
					],
				],
			} )
		);
		await shape.getByRole( 'button', { name: 'Apply' } ).click();
		await expect(
			shape.getByText( 'An area of 5 vertices.' )
		).toBeVisible();
		await clickPublish( page );
		await expect(
			page
				.locator( '.components-notice, .components-snackbar' )
				.filter( { hasText: 'The area is not simple' } )
				.first()
		).toBeVisible( { timeout: PUBLISH_TIMEOUT } );

		// Nothing of the marker was published.
		const published = ( await requestUtils.rest( {
			path: '/wp/v2/cairn-markers',
			params: { search: 'Lone pine', status: 'publish' },
		} ) ) as MarkerRecord[];
		expect( published ).toEqual( [] );

		// Without the shape, and with a point, it publishes: a point, no shape.
		await shape.getByRole( 'button', { name: 'Delete shape' } ).click();
		await expect(
			shape.getByText( 'No shape: the marker is a point.' )
		).toBeVisible();
		await settings
			.getByRole( 'textbox', { name: 'Latitude' } )
			.fill( '45.9' );
		await settings
			.getByRole( 'textbox', { name: 'Longitude' } )
			.fill( '6.1' );
		const stored = await storedMarker(
			requestUtils,
			await publish( page, PUBLISH_TIMEOUT )
		);
		expect( stored.meta ).toMatchObject( {
			cairn_lat: 45.9,
			cairn_lng: 6.1,
			cairn_geometry: null,
		} );
	} );

	test( 'on the block’s live map, "Draw a route" creates a marker with the route', async ( {
		admin,
		editor,
		page,
		requestUtils,
	} ) => {
		await admin.createNewPost( { postType: 'page', title: 'Trail map' } );
		await dismissWelcomeGuide( page );
		await editor.insertBlock( { name: 'cairn/map' } );
		const preview = editor.canvas.locator( '.wp-block-cairn-map__preview' );
		await expect( preview ).toHaveAttribute( 'data-cairn-state', 'ready', {
			timeout: 60_000,
		} );
		await editor.clickBlockToolbarButton( 'Draw a route' );
		const form = editor.canvas.getByRole( 'group', {
			name: 'New marker with a shape',
		} );
		await expect(
			form.getByRole( 'button', { name: 'Finish' } )
		).toBeVisible( { timeout: 60_000 } );
		const canvas = preview.locator( 'canvas.mapboxgl-canvas' );
		const box = ( await canvas.boundingBox() )!;
		// Below the block toolbar, which sits over the top of the map.
		for ( const [ x, y ] of [
			[ 0.3, 0.6 ],
			[ 0.5, 0.7 ],
			[ 0.7, 0.6 ],
		] as const ) {
			await canvas.click( {
				position: {
					x: Math.round( box.width * x ),
					y: Math.round( box.height * y ),
				},
			} );
		}
		await form.getByRole( 'button', { name: 'Finish' } ).click();
		await expect(
			form.getByText( 'A route of 3 vertices.' )
		).toBeVisible();
		await form
			.getByRole( 'textbox', { name: 'Marker title' } )
			.fill( 'Coast path' );
		await form.getByRole( 'button', { name: 'Save marker' } ).click();

		const created = async () =>
			( await requestUtils.rest( {
				path: '/wp/v2/cairn-markers',
				params: { search: 'Coast path', context: 'edit' },
			} ) ) as MarkerRecord[];
		await expect
			.poll( async () => ( await created() ).length, {
				timeout: PUBLISH_TIMEOUT,
			} )
			.toBe( 1 );
		const [ marker ] = await created();
		expect( marker!.meta.cairn_geometry?.type ).toBe( 'LineString' );
		expect( marker!.meta.cairn_geometry?.coordinates ).toHaveLength( 3 );
		// Its point is the route's start.
		const [ lng, lat ] = marker!.meta.cairn_geometry!.coordinates[ 0 ] as [
			number,
			number,
		];
		expect( marker!.meta.cairn_lat ).toBeCloseTo( lat, 5 );
		expect( marker!.meta.cairn_lng ).toBeCloseTo( lng, 5 );
		// The form is gone once the marker exists.
		await expect( form ).toHaveCount( 0 );
	} );
} );
