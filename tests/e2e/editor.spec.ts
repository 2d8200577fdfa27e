/**
 * The map block in the editor: live preview, every inspector option, "Use current view", markers
 * added, edited, dragged and trashed on the preview, and a saved page that reloads without
 * validation warnings and shows the same map to visitors.
 */
import type { Browser, Page } from '@playwright/test';
import type {
	Editor,
	RequestUtils,
} from '@wordpress/e2e-test-utils-playwright';

import { VISITOR_STATE } from './global-setup';
import { MapsService, expect, test } from './fixtures/maps-service';
import {
	FAKE_PUBLIC_TOKEN,
	dismissWelcomeGuide,
	publishPost,
	setToken,
	waitForMapState,
} from './utils/map-page';
import { watchPreviewMaps } from './utils/preview-maps';

interface MarkerRecord {
	id: number;
	status: string;
	'cairn-marker-groups': number[];
	title: { raw?: string; rendered: string };
	meta: { cairn_lat: number | null; cairn_lng: number | null };
}

async function markersTitled(
	requestUtils: RequestUtils,
	title: string,
	status = 'publish,draft,trash'
): Promise< MarkerRecord[] > {
	return ( await requestUtils.rest( {
		path: '/wp/v2/cairn-markers',
		params: { search: title, status, context: 'edit', per_page: 20 },
	} ) ) as MarkerRecord[];
}

async function mapAttributes( editor: Editor ) {
	const [ block ] = await editor.getBlocks( { full: true } );
	return block?.attributes as Record< string, any >;
}

async function openPanel( page: Page, title: string ) {
	const button = page
		.getByRole( 'region', { name: 'Editor settings' } )
		.getByRole( 'button', { name: title, exact: true } );
	if ( ( await button.getAttribute( 'aria-expanded' ) ) === 'false' ) {
		await button.click();
	}
}

function sidebar( page: Page ) {
	return page.getByRole( 'region', { name: 'Editor settings' } );
}

/** Edinburgh as the fixture geocoder answers it here: not where the typed centre is. */
const SEARCHED = { lng: -3.1883, lat: 55.9533 };

interface PreviewView {
	state: string;
	style: string;
	zoom: number;
	lng: number;
	lat: number;
	bearing: number;
	pitch: number;
}

/** What the preview's current map shows (its view and style), read from mapbox-gl itself. */
function previewView( editor: Editor ): Promise< PreviewView | null > {
	return editor.canvas.locator( 'body' ).evaluate( ( body ) => {
		const map = (
			body.ownerDocument.defaultView as unknown as {
				cairnPreview?: import( 'mapbox-gl' ).Map;
			}
		 ).cairnPreview;
		const host = body.ownerDocument.querySelector< HTMLElement >(
			'.wp-block-cairn-map__preview'
		);
		if ( ! map || ! host || ! host.contains( map.getContainer() ) ) {
			return null;
		}
		const center = map.getCenter();
		return {
			state: host.dataset.cairnState ?? '',
			style: map.getStyle()?.name ?? '',
			zoom: map.getZoom(),
			lng: center.lng,
			lat: center.lat,
			bearing: map.getBearing(),
			pitch: map.getPitch(),
		};
	} );
}

/** The place under a point of the preview's canvas (CSS pixels from its top left corner). */
function previewPlaceAt(
	editor: Editor,
	point: { x: number; y: number }
): Promise< { lng: number; lat: number } > {
	return editor.canvas.locator( 'body' ).evaluate( ( body, { x, y } ) => {
		const map = (
			body.ownerDocument.defaultView as unknown as {
				cairnPreview: import( 'mapbox-gl' ).Map;
			}
		 ).cairnPreview;
		const { lng, lat } = map.unproject( [ x, y ] );
		return { lng, lat };
	}, point );
}

/** Resolves at the preview map's next `idle`: nothing moving, every tile and source drawn. */
function previewIdle( editor: Editor ): Promise< void > {
	return editor.canvas.locator( 'body' ).evaluate(
		( body ) =>
			new Promise< void >( ( resolve ) => {
				const map = (
					body.ownerDocument.defaultView as unknown as {
						cairnPreview: import( 'mapbox-gl' ).Map;
					}
				 ).cairnPreview;
				map.once( 'idle', () => resolve() );
				map.triggerRepaint();
			} )
	);
}

/** Ids of the markers the preview draws within a few pixels of a point of its canvas. */
function previewMarkersAt(
	editor: Editor,
	point: { x: number; y: number }
): Promise< number[] > {
	return editor.canvas.locator( 'body' ).evaluate( ( body, { x, y } ) => {
		const map = (
			body.ownerDocument.defaultView as unknown as {
				cairnPreview: import( 'mapbox-gl' ).Map;
			}
		 ).cairnPreview;
		const layers = [ 'cairn-points', 'cairn-point-icons' ].filter(
			( layer ) => map.getLayer( layer )
		);
		return layers.length
			? map
					.queryRenderedFeatures(
						[
							[ x - 6, y - 6 ],
							[ x + 6, y + 6 ],
						],
						{ layers }
					)
					.map( ( feature ) => Number( feature.id ) )
			: [];
	}, point );
}

/**
 * What a visitor gets from the saved page, in a browser of their own (no log-in, the offline maps
 * service): the same view, controls and language as the editor saved.
 *
 * @param browser The browser.
 * @param link    The saved page's address.
 */
async function expectVisitorsSeeSavedMap(
	browser: Browser,
	link: string
): Promise< void > {
	const context = await browser.newContext( {
		storageState: VISITOR_STATE,
	} );
	try {
		await new MapsService( [ new URL( link ).host ] ).install( context );
		const page = await context.newPage();
		const map: { value?: Record< string, unknown > } = {};
		await page.exposeFunction(
			'cairnReport',
			( value: Record< string, unknown > ) => {
				map.value = value;
			}
		);
		await page.addInitScript( () => {
			document.addEventListener( 'cairn:map-ready', ( event ) => {
				const instance = ( event as CustomEvent ).detail.map;
				(
					window as unknown as { cairnReport: ( v: unknown ) => void }
				 ).cairnReport( {
					zoom: instance.getZoom(),
					bearing: instance.getBearing(),
					pitch: instance.getPitch(),
					language: instance.getLanguage(),
					minZoom: instance.getMinZoom(),
					maxZoom: instance.getMaxZoom(),
				} );
			} );
		} );
		// The map keeps its view in the address: start from a clean one.
		await page.goto( link );
		const wrapper = page.locator( '.wp-block-cairn-map' );
		expect( await waitForMapState( wrapper ) ).toBe( 'ready' );
		const config = JSON.parse(
			( await wrapper.getAttribute( 'data-cairn-config' ) ) ?? '{}'
		);
		expect( config ).toMatchObject( {
			style: 'mapbox://styles/mapbox/outdoors-v12',
			language: 'de',
			hash: true,
			height: '420px',
			cluster: { enabled: true, radius: 60 },
		} );
		await expect
			.poll( () => map.value )
			.toMatchObject( {
				bearing: 20,
				pitch: 30,
				language: 'de',
				minZoom: 3,
				maxZoom: 16,
			} );
		await expect( wrapper.locator( '.mapboxgl-ctrl-scale' ) ).toBeVisible();
		await expect(
			wrapper.locator( '.mapboxgl-ctrl-zoom-in' )
		).toBeVisible();
		await expect(
			wrapper.locator( '.mapboxgl-ctrl-fullscreen' )
		).toHaveCount( 0 );
	} finally {
		await context.close();
	}
}

/** The attributes of the first map block in a saved post's content. */
function savedBlockAttributes( content: string ): Record< string, unknown > {
	const match = /<!-- wp:cairn\/map (\{.*?\}) \/-->/s.exec( content );
	if ( ! match?.[ 1 ] ) {
		throw new Error(
			'No cairn/map block with attributes in the saved content.'
		);
	}
	return JSON.parse( match[ 1 ] );
}

test.describe( 'map block in the editor', () => {
	let harbours = 0;
	test.beforeAll( async ( { requestUtils } ) => {
		await setToken( requestUtils, FAKE_PUBLIC_TOKEN );
		const [ existing ] = ( await requestUtils.rest( {
			path: '/wp/v2/cairn-marker-groups',
			params: { slug: 'harbours' },
		} ) ) as Array< { id: number } >;
		harbours =
			existing?.id ??
			(
				( await requestUtils.rest( {
					method: 'POST',
					path: '/wp/v2/cairn-marker-groups',
					data: { name: 'Harbours', slug: 'harbours' },
				} ) ) as { id: number }
			 ).id;
	} );

	test( 'configures the map, places markers on it and keeps everything; visitors see the same map', async ( {
		admin,
		browser,
		editor,
		page,
		requestUtils,
		mapsService,
	} ) => {
		// A long journey through one PHP worker: give it room.
		test.setTimeout( 420_000 );
		const errors: string[] = [];
		page.on( 'pageerror', ( error ) => errors.push( error.message ) );
		page.on( 'console', ( message ) => {
			if ( message.type() === 'error' ) {
				// Shown in the test output, to tell why a step failed.
				console.log( 'browser error:', message.text().slice( 0, 500 ) );
			}
			if (
				message.type() === 'error' &&
				/cairn|mapbox|React/i.test( message.text() )
			) {
				errors.push( message.text() );
			}
		} );

		await admin.createNewPost( { postType: 'page', title: 'Harbour map' } );
		await dismissWelcomeGuide( page );
		await editor.insertBlock( { name: 'cairn/map' } );
		const preview = editor.canvas.locator( '.wp-block-cairn-map__preview' );
		// The preview is ready once the markers feed is in. A new editor sends a dozen REST and
		// admin-ajax requests first, and Playground answers one at a time: in CI's first minutes
		// (both shards starting, each request taking 10–30 s) the feed came after more than 60 s.
		await expect( preview ).toHaveAttribute( 'data-cairn-state', 'ready', {
			timeout: 180_000,
		} );
		// The preview is a real map drawn from the (offline) maps service with the site's token.
		expect( mapsService.tileRequests().length ).toBeGreaterThan( 0 );
		expect( mapsService.tokensSeen() ).toContain( FAKE_PUBLIC_TOKEN );
		await watchPreviewMaps( editor );
		mapsService.setGeocodingPlaces( [
			{
				name: 'Edinburgh',
				place_formatted: 'Scotland, United Kingdom',
				feature_type: 'place',
				center: [ SEARCHED.lng, SEARCHED.lat ],
			},
		] );

		const settings = sidebar( page );

		// Style.
		await expect( preview ).toHaveAttribute( 'data-cairn-state', 'ready' );
		await settings
			.getByRole( 'combobox', { name: 'Map style' } )
			.selectOption( { label: 'Outdoors' } );
		// The preview is rebuilt with that style, fetched from the maps service.
		await expect
			.poll( async () => ( await previewView( editor ) )?.style, {
				timeout: 60_000,
			} )
			.toContain( 'mapbox/outdoors-v12' );
		expect(
			mapsService
				.styleRequests()
				.some( ( r ) => r.path.includes( '/mapbox/outdoors-v12' ) )
		).toBe( true );

		// View: typed fields; a bad latitude is explained and not saved.
		const latitude = settings.getByRole( 'spinbutton', {
			name: 'Latitude',
		} );
		await latitude.fill( '95' );
		await expect(
			settings.getByText( 'Enter a number from' ).first()
		).toBeVisible();
		expect( ( await mapAttributes( editor ) ).center.lat ).toBe( 20 );
		await latitude.fill( '55.95' );
		await settings
			.getByRole( 'spinbutton', { name: 'Longitude' } )
			.fill( '-3.19' );
		await settings.getByRole( 'spinbutton', { name: 'Zoom' } ).fill( '9' );
		// Typed view: saved in the block and shown by the preview.
		expect( ( await mapAttributes( editor ) ).zoom ).toBe( 9 );
		await expect
			.poll( () => previewView( editor ) )
			.toMatchObject( {
				zoom: 9,
				lng: expect.closeTo( -3.19, 5 ),
				lat: expect.closeTo( 55.95, 5 ),
			} );
		await settings
			.getByRole( 'spinbutton', { name: 'Bearing (degrees)' } )
			.fill( '20' );
		await settings
			.getByRole( 'spinbutton', { name: 'Pitch (degrees)' } )
			.fill( '30' );

		// Zoom limits: a minimum above the maximum cannot be saved and is explained.
		await openPanel( page, 'Zoom limits' );
		await settings
			.getByRole( 'spinbutton', { name: 'Maximum zoom' } )
			.fill( '16' );
		await settings
			.getByRole( 'spinbutton', { name: 'Minimum zoom' } )
			.fill( '18' );
		await expect(
			settings.getByText(
				'The minimum zoom cannot be above the maximum zoom.'
			)
		).toBeVisible();
		await settings
			.getByRole( 'spinbutton', { name: 'Minimum zoom' } )
			.fill( '3' );

		// Controls.
		await openPanel( page, 'Controls' );
		await settings.getByRole( 'checkbox', { name: 'Scale bar' } ).check();
		await settings
			.getByRole( 'checkbox', { name: 'Fullscreen button' } )
			.uncheck();
		// The preview is rebuilt with those controls.
		await expect( preview.locator( '.mapboxgl-ctrl-scale' ) ).toHaveCount(
			1,
			{ timeout: 60_000 }
		);
		await expect(
			preview.locator( '.mapboxgl-ctrl-fullscreen' )
		).toHaveCount( 0 );
		await expect( preview.locator( '.mapboxgl-ctrl-zoom-in' ) ).toHaveCount(
			1
		);

		// Language.
		await openPanel( page, 'Label language' );
		await settings
			.getByRole( 'combobox', { name: 'Language of map labels' } )
			.selectOption( 'de' );

		// Clustering.
		await openPanel( page, 'Clustering' );
		await settings
			.getByRole( 'spinbutton', { name: 'Cluster radius (pixels)' } )
			.fill( '60' );

		// Behaviour.
		await openPanel( page, 'Behaviour' );
		await settings
			.getByRole( 'checkbox', {
				name: 'Keep the view in the page address',
			} )
			.check();
		await settings
			.getByRole( 'textbox', { name: 'Height' } )
			.fill( 'tall' );
		await expect(
			settings.getByText( 'Use a CSS length such as 480px' )
		).toBeVisible();
		await settings
			.getByRole( 'textbox', { name: 'Height' } )
			.fill( '420px' );

		// Place search (the fixture geocoder knows Edinburgh).
		await settings
			.getByRole( 'textbox', { name: 'Find a place' } )
			.fill( 'Edinburgh' );
		await settings.getByRole( 'button', { name: 'Search' } ).click();
		await settings
			.getByRole( 'button', { name: /Edinburgh/ } )
			.first()
			.click();
		expect( mapsService.geocodingRequests().length ).toBeGreaterThan( 0 );
		// The found place becomes the block's centre at zoom 10, and the preview goes there.
		await expect
			.poll( async () => ( await mapAttributes( editor ) ).center )
			.toEqual( SEARCHED );
		expect( ( await mapAttributes( editor ) ).zoom ).toBe( 10 );
		await expect
			.poll( () => previewView( editor ), { timeout: 60_000 } )
			.toMatchObject( {
				state: 'ready',
				style: expect.stringContaining( 'mapbox/outdoors-v12' ),
				zoom: 10,
				lng: expect.closeTo( SEARCHED.lng, 5 ),
				lat: expect.closeTo( SEARCHED.lat, 5 ),
				bearing: 20,
				pitch: 30,
			} );

		let attributes = await mapAttributes( editor );
		expect( attributes ).toMatchObject( {
			mapStyle: 'mapbox://styles/mapbox/outdoors-v12',
			center: SEARCHED,
			zoom: 10,
			bearing: 20,
			pitch: 30,
			minZoom: 3,
			maxZoom: 16,
			controls: {
				zoom: true,
				compass: true,
				scale: true,
				fullscreen: false,
				geolocate: false,
			},
			language: 'de',
			cluster: { enabled: true, radius: 60 },
			hash: true,
			height: '420px',
		} );

		// Panning the preview does not change the saved view; "Use current view" does.
		await expect( preview ).toHaveAttribute( 'data-cairn-state', 'ready', {
			timeout: 60_000,
		} );
		const canvas = preview.locator( 'canvas.mapboxgl-canvas' );
		const unpanned = ( await previewView( editor ) )!.lng;
		await canvas.focus();
		await page.keyboard.press( 'ArrowRight' );
		await page.keyboard.press( 'ArrowRight' );
		// The preview has panned east and come to rest: any save of the view has happened.
		await expect
			.poll( async () => ( await previewView( editor ) )?.lng )
			.toBeGreaterThan( unpanned );
		await previewIdle( editor );
		expect( ( await mapAttributes( editor ) ).center ).toEqual(
			attributes.center
		);
		await settings
			.getByRole( 'button', { name: 'Use current view' } )
			.click();
		attributes = await mapAttributes( editor );
		expect( attributes.center.lng ).toBeGreaterThan( SEARCHED.lng );

		// Add a marker by clicking the map.
		await editor.clickBlockToolbarButton( 'Add marker' );
		const box = await canvas.boundingBox();
		if ( ! box ) {
			throw new Error( 'The preview canvas has no box.' );
		}
		const spot = { x: box.width / 2, y: box.height / 2 };
		const clickedPlace = await previewPlaceAt( editor, spot );
		await canvas.click( { position: spot } );
		const form = editor.canvas.getByRole( 'group', { name: 'Marker' } );
		await form
			.getByRole( 'textbox', { name: 'Marker title' } )
			.fill( 'North pier' );
		await form
			.getByRole( 'textbox', { name: 'Text (optional)' } )
			.fill( 'Fish and chips at the end.' );
		await form.getByRole( 'button', { name: 'Save marker' } ).click();
		await expect
			.poll(
				async () =>
					( await markersTitled( requestUtils, 'North pier' ) ).length
			)
			.toBe( 1 );
		const [ created ] = await markersTitled( requestUtils, 'North pier' );
		expect( created?.status ).toBe( 'publish' );
		// Stored where the editor clicked (to well under a pixel at this zoom).
		expect( created?.meta.cairn_lat ).toBeCloseTo( clickedPlace.lat, 3 );
		expect( created?.meta.cairn_lng ).toBeCloseTo( clickedPlace.lng, 3 );

		// Select it on the map and edit it, once the preview's feed has reloaded and draws it.
		await expect
			.poll( () => previewMarkersAt( editor, spot ) )
			.toContain( created!.id );
		await canvas.click( { position: spot } );
		await form
			.getByRole( 'textbox', { name: 'Marker title' } )
			.fill( 'North pier lighthouse' );
		await form
			.getByRole( 'combobox', { name: 'Group' } )
			.selectOption( { label: 'Harbours' } );
		await form.getByRole( 'button', { name: 'Save marker' } ).click();
		await expect
			.poll(
				async () =>
					(
						await markersTitled(
							requestUtils,
							'North pier lighthouse'
						)
					).length
			)
			.toBe( 1 );
		// The group chosen in the form is stored on the marker.
		const [ grouped ] = await markersTitled(
			requestUtils,
			'North pier lighthouse'
		);
		expect( grouped?.[ 'cairn-marker-groups' ] ).toEqual( [ harbours ] );
		expect( grouped?.meta.cairn_lat ).toBe( created?.meta.cairn_lat );

		// Drag it to a new place.
		const handle = editor.canvas.locator( '.cairn-maps-drag-handle' );
		await expect( handle ).toBeVisible();
		// Centre the handle in the canvas, clear of the block toolbar above the map.
		await handle.evaluate( ( element ) =>
			element.scrollIntoView( { block: 'center' } )
		);
		const handleBox = await handle.boundingBox();
		if ( ! handleBox ) {
			throw new Error( 'The drag handle has no box.' );
		}
		await page.mouse.move(
			handleBox.x + handleBox.width / 2,
			handleBox.y + handleBox.height / 2
		);
		await page.mouse.down();
		await page.mouse.move(
			handleBox.x + handleBox.width / 2 + 60,
			handleBox.y + handleBox.height / 2 + 40,
			{ steps: 8 }
		);
		await page.mouse.up();
		await expect
			.poll( async () => {
				const [ moved ] = await markersTitled(
					requestUtils,
					'North pier lighthouse'
				);
				return moved?.meta.cairn_lng;
			} )
			.toBeGreaterThan( created?.meta.cairn_lng ?? 0 );

		// Move it to the trash, after a confirmation.
		await form.getByRole( 'button', { name: 'Move to trash' } ).click();
		await form
			.getByRole( 'button', { name: 'Yes, move to trash' } )
			.click();
		await expect
			.poll( async () => {
				const [ trashed ] = await markersTitled(
					requestUtils,
					'North pier lighthouse'
				);
				return trashed?.status;
			} )
			.toBe( 'trash' );

		// Save, reload: no validation warning, every attribute kept.
		const saved = await mapAttributes( editor );
		await publishPost( editor, page );
		const pageId = new URL( page.url() ).searchParams.get( 'post' );
		const savedPage = ( await requestUtils.rest( {
			path: `/wp/v2/pages/${ pageId }`,
			params: { context: 'edit' },
		} ) ) as { link: string; content: { raw: string } };
		// The stored post content carries what the editor chose.
		const stored = savedBlockAttributes( savedPage.content.raw );
		for ( const key of [
			'mapStyle',
			'center',
			'zoom',
			'bearing',
			'pitch',
			'minZoom',
			'maxZoom',
			'controls',
			'language',
			'cluster',
			'hash',
			'height',
		] ) {
			expect( stored[ key ], key ).toEqual( saved[ key ] );
		}
		expect( stored.mapStyle ).toBe( 'mapbox://styles/mapbox/outdoors-v12' );
		expect( stored.controls ).toMatchObject( {
			scale: true,
			fullscreen: false,
		} );
		await page.reload();
		await dismissWelcomeGuide( page );
		await expect(
			editor.canvas.locator( '.wp-block-cairn-map__preview' )
		).toBeVisible( { timeout: 60_000 } );
		await expect(
			editor.canvas.locator( '.block-editor-warning' )
		).toHaveCount( 0 );
		expect( await mapAttributes( editor ) ).toEqual( saved );
		expect( errors ).toEqual( [] );

		// What visitors get from the saved page.
		await expectVisitorsSeeSavedMap( browser, savedPage.link );
	} );
} );
