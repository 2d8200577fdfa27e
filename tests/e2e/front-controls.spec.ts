/**
 * The map's controls as the block configures them, the geolocate control's polite messages, and
 * the label language (classic styles rewrite their label fields; Standard takes mapbox-gl's
 * `language`, which reaches the maps service as `language=` on TileJSON requests).
 */
import limits from '../../packages/map/src/limits.json';
import { VISITOR_STATE } from './global-setup';
import { expect, test } from './fixtures/maps-service';
import { FAKE_PUBLIC_TOKEN, mapBlock, setToken } from './utils/map-page';
import {
	nextMoveEnd,
	waitForIdle,
	publishFrontPage,
	guardVisitorPages,
} from './utils/front-map';

const ALL_ON = {
	zoom: true,
	compass: true,
	scale: true,
	fullscreen: true,
	geolocate: true,
};
const ALL_OFF = {
	zoom: false,
	compass: false,
	scale: false,
	fullscreen: false,
	geolocate: false,
};
const CONTROLS = {
	zoom: '.mapboxgl-ctrl-zoom-in',
	compass: '.mapboxgl-ctrl-compass',
	scale: '.mapboxgl-ctrl-scale',
	fullscreen: '.mapboxgl-ctrl-fullscreen',
	geolocate: '.mapboxgl-ctrl-geolocate',
};
const EDINBURGH = { latitude: 55.9533, longitude: -3.1883 };

const urls: Record< string, string > = {};

test.describe( 'front-end map controls and language', () => {
	test.use( { storageState: VISITOR_STATE } );

	test.beforeAll( async ( { requestUtils } ) => {
		await setToken( requestUtils, FAKE_PUBLIC_TOKEN );
		const pages: Record< string, Record< string, unknown > > = {
			allOn: { controls: ALL_ON, bearing: 40, zoom: 3 },
			allOff: { controls: ALL_OFF },
			defaults: {},
			classicDe: {
				mapStyle: 'mapbox://styles/mapbox/streets-v12',
				language: 'de',
			},
			classicAuto: {
				mapStyle: 'mapbox://styles/mapbox/streets-v12',
				language: 'auto',
			},
			standardDe: {
				mapStyle: 'mapbox://styles/mapbox/standard',
				language: 'de',
			},
		};
		for ( const [ key, attributes ] of Object.entries( pages ) ) {
			urls[ key ] = await publishFrontPage(
				requestUtils,
				`Controls spec: ${ key }`,
				mapBlock( {
					...attributes,
					markers: { source: 'ids', ids: [] },
				} )
			);
		}
	} );
	guardVisitorPages();

	test( 'shows exactly the controls the block asks for', async ( {
		page,
	} ) => {
		const expectations: Array< [ string, Record< string, boolean > ] > = [
			[ 'allOn', ALL_ON ],
			[ 'allOff', ALL_OFF ],
			// block.json's defaults: zoom, compass and fullscreen.
			[
				'defaults',
				{ ...ALL_OFF, zoom: true, compass: true, fullscreen: true },
			],
		];
		for ( const [ key, wanted ] of expectations ) {
			await page.goto( urls[ key ]! );
			const map = page.locator( '.wp-block-cairn-map' );
			await expect( map ).toHaveAttribute( 'data-cairn-state', 'ready', {
				timeout: 45_000,
			} );
			for ( const [ control, selector ] of Object.entries( CONTROLS ) ) {
				await expect(
					map.locator( selector ),
					`${ key }: ${ control }`
				).toHaveCount( wanted[ control ] ? 1 : 0 );
			}
		}
	} );

	test( 'the zoom and compass buttons work for a visitor', async ( {
		page,
	} ) => {
		await page.goto( urls.allOn! );
		await waitForIdle( page );
		expect(
			await page.evaluate( () => window.cairnMap().getBearing() )
		).toBe( 40 );

		let moved = nextMoveEnd( page );
		await page.getByRole( 'button', { name: 'Zoom in' } ).click();
		await moved;
		expect( await page.evaluate( () => window.cairnMap().getZoom() ) ).toBe(
			4
		);

		moved = nextMoveEnd( page );
		await page
			.getByRole( 'button', { name: 'Reset bearing to north' } )
			.click();
		await moved;
		expect(
			await page.evaluate( () => window.cairnMap().getBearing() )
		).toBe( 0 );
		await expect( page.locator( '.mapboxgl-ctrl-scale' ) ).toHaveText(
			/\d+\s*(km|m)/
		);
	} );

	test.describe( 'geolocate', () => {
		test.describe( 'when the visitor shares the location', () => {
			test.use( {
				permissions: [ 'geolocation' ],
				geolocation: EDINBURGH,
			} );

			test( 'flies to the visitor, capped at zoom 15', async ( {
				page,
			} ) => {
				await page.goto( urls.allOn! );
				await waitForIdle( page );
				const moved = nextMoveEnd( page );
				await page
					.getByRole( 'button', { name: 'Find my location' } )
					.click();
				await moved;
				const camera = await page.evaluate( () => {
					const map = window.cairnMap();
					return { ...map.getCenter(), zoom: map.getZoom() };
				} );
				expect( camera.lat ).toBeCloseTo( EDINBURGH.latitude, 2 );
				expect( camera.lng ).toBeCloseTo( EDINBURGH.longitude, 2 );
				// A fix without an accuracy radius is a point: the camera goes to the cap itself.
				// (The cap and the 6 s timeout equal mapbox-gl's defaults, so no browser can tell
				// ours from theirs; tests/unit/geolocate-options.test.ts checks they are passed.)
				expect( camera.zoom ).toBeCloseTo(
					limits.geolocate.maxZoom,
					5
				);
				await expect(
					page.locator( '.mapboxgl-user-location-dot' )
				).toHaveCount( 1 );
				await expect(
					page.locator( '.wp-block-cairn-map__notice' )
				).toHaveText( '' );
			} );
		} );

		test( 'a refusal gives a polite status message, not an error', async ( {
			page,
			context,
		} ) => {
			// No permission granted: the browser refuses, as it does once a visitor said no.
			await context.clearPermissions();
			await page.goto( urls.allOn! );
			await waitForIdle( page );
			await page
				.getByRole( 'button', { name: 'Find my location' } )
				.click();

			const notice = page.getByRole( 'status' ).filter( {
				hasText: 'location',
			} );
			await expect( notice ).toContainText(
				'Your location is not shared with this site'
			);
			await expect( notice ).toBeVisible();
			const map = page.locator( '.wp-block-cairn-map' );
			await expect( map ).toHaveAttribute( 'data-cairn-state', 'ready' );
			await expect( page.getByRole( 'alert' ) ).toHaveCount( 0 );
			expect(
				await page.evaluate( () => window.cairnEvents.errors )
			).toEqual( [] );
		} );

		test( 'no answer within 6 seconds gives a polite timeout message', async ( {
			page,
		} ) => {
			// A location provider that never answers: mapbox-gl's own 6 s timer must fire.
			await page.addInitScript( () => {
				Object.defineProperty(
					Geolocation.prototype,
					'getCurrentPosition',
					{
						value: (
							_success: PositionCallback,
							_failure: PositionErrorCallback,
							options: PositionOptions
						) => {
							( window as unknown as { asked: unknown } ).asked =
								{
									...options,
									at: performance.now(),
								};
						},
					}
				);
			} );
			await page.goto( urls.allOn! );
			await waitForIdle( page );
			await page
				.getByRole( 'button', { name: 'Find my location' } )
				.click();
			const notice = page.locator( '.wp-block-cairn-map__notice' );
			await expect( notice ).toHaveText( /took too long/, {
				timeout: 15_000,
			} );
			const asked = ( await page.evaluate(
				() => ( window as unknown as { asked: unknown } ).asked
			) ) as PositionOptions & { at: number };
			expect( asked.timeout ).toBe( limits.geolocate.timeout );
			expect( asked.maximumAge ).toBe( 0 );
			await expect( notice ).toHaveAttribute( 'role', 'status' );
			await expect( page.getByRole( 'alert' ) ).toHaveCount( 0 );
			await expect(
				page.locator( '.wp-block-cairn-map' )
			).toHaveAttribute( 'data-cairn-state', 'ready' );
		} );
	} );

	test( 'a classic style shows labels in the chosen language', async ( {
		page,
	} ) => {
		await page.goto( urls.classicDe! );
		await waitForIdle( page );
		const field = JSON.stringify(
			await page.evaluate( () =>
				window
					.cairnMap()
					.getLayoutProperty( 'country-label', 'text-field' )
			)
		);
		expect( field ).toContain( '"name_de"' );
		expect( field ).not.toContain( '"name_en"' );
	} );

	test.describe( 'with a French-speaking visitor', () => {
		test.use( { locale: 'fr-FR' } );

		test( '"auto" follows the page’s own language first, then the visitor’s, on a classic style', async ( {
			page,
		} ) => {
			const labels = async () =>
				JSON.stringify(
					await page.evaluate( () =>
						window
							.cairnMap()
							.getLayoutProperty( 'country-label', 'text-field' )
					)
				);
			// WordPress prints <html lang="en-US">: the page's language wins over the browser's.
			await page.goto( urls.classicAuto! );
			await waitForIdle( page );
			expect( await labels() ).toContain( '"name_en"' );
			expect( await labels() ).not.toContain( '"name_fr"' );

			// The same page served with another <html lang> (or none).
			const documents = ( url: URL ) =>
				url.href.startsWith(
					new URL( urls.classicAuto!, page.url() ).href
				);
			const openWithLang = async ( lang: string | null ) => {
				await page.unroute( documents );
				await page.route( documents, async ( route ) => {
					if ( route.request().resourceType() !== 'document' ) {
						return route.fallback();
					}
					const response = await route.fetch();
					const html = ( await response.text() ).replace(
						/<html([^>]*) lang="[^"]*"/,
						lang ? `<html$1 lang="${ lang }"` : '<html$1'
					);
					await route.fulfill( { response, body: html } );
				} );
				await page.goto( urls.classicAuto! );
				await waitForIdle( page );
			};

			// A page in German (as a multilingual plugin sets it per page): German labels.
			await openWithLang( 'de-DE' );
			expect( await labels() ).toContain( '"name_de"' );

			// A page without a language: the visitor's (French).
			await openWithLang( null );
			expect( await labels() ).toContain( '"name_fr"' );
			expect( await labels() ).not.toContain( '"name_en"' );
		} );
	} );

	test( 'Standard takes the language through mapbox-gl and the TileJSON requests', async ( {
		page,
		mapsService,
	} ) => {
		await page.goto( urls.standardDe! );
		await waitForIdle( page );
		expect(
			await page.evaluate( () => window.cairnMap().getLanguage() )
		).toBe( 'de' );
		const tileJson = mapsService.tileJsonRequests();
		expect( tileJson.length ).toBeGreaterThan( 0 );
		for ( const request of tileJson ) {
			expect(
				new URL( request.url ).searchParams.get( 'language' )
			).toBe( 'de' );
		}
	} );
} );
