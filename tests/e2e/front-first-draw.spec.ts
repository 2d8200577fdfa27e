/**
 * Issue 22, "Small maps fast too": nothing only the places panel needs comes before a small map's
 * first clusters. WordPress's React downloads with the map (preloaded) but runs only once the
 * clusters are drawn, and the panel's chunk is requested after them; then the panel replaces the
 * server's list as before.
 */
import { VISITOR_STATE } from './global-setup';
import { expect, test } from './fixtures/maps-service';
import { FAKE_PUBLIC_TOKEN, mapBlock, setToken } from './utils/map-page';
import {
	guardVisitorPages,
	publishFrontPage,
	seedMarkers,
} from './utils/front-map';

interface FirstDraw {
	/** What had happened when the first frame with clusters was drawn. */
	drawn?: { react: boolean; reactScript: boolean; panelChunk: boolean };
}

/**
 * Runs before the page's scripts: catches the map when mapbox-gl sets `window.mapboxgl` and, on
 * the first frame that draws the places' clusters, notes whether React has run, whether its
 * script elements exist and whether the panel's chunk has arrived.
 */
function watchFirstDraw() {
	const seen: FirstDraw = {};
	const view = window as unknown as Record< string, unknown >;
	view.firstDraw = seen;
	let lib: { Map: { prototype: Record< string, unknown > } } | undefined;
	Object.defineProperty( window, 'mapboxgl', {
		configurable: true,
		get: () => lib,
		set: ( value ) => {
			lib = value;
			const proto = value.Map.prototype;
			const addSource = proto.addSource as (
				...args: unknown[]
			) => unknown;
			proto.addSource = function (
				this: {
					on: ( type: string, listener: () => void ) => void;
					off: ( type: string, listener: () => void ) => void;
					getLayer: ( id: string ) => unknown;
					queryRenderedFeatures: ( options: object ) => unknown[];
				},
				id: string,
				...rest: unknown[]
			) {
				const result = addSource.call( this, id, ...rest );
				if ( id !== 'cairn-markers' ) {
					return result;
				}
				const check = () => {
					if ( seen.drawn || ! this.getLayer( 'cairn-points' ) ) {
						return;
					}
					const drawn = this.queryRenderedFeatures( {
						layers: [ 'cairn-clusters', 'cairn-points' ],
					} );
					if ( drawn.length === 0 ) {
						return;
					}
					seen.drawn = {
						react: view.React !== undefined,
						reactScript:
							document.querySelector(
								'script[src*="react-dom"]'
							) !== null,
						panelChunk: performance
							.getEntriesByType( 'resource' )
							.some( ( entry ) =>
								/cairn-map-panel/.test( entry.name )
							),
					};
					this.off( 'render', check );
				};
				this.on( 'render', check );
				return result;
			};
		},
	} );
}

test.describe( 'the first clusters of a small map', () => {
	test.use( { storageState: VISITOR_STATE } );
	let url = '';

	test.beforeAll( async ( { requestUtils } ) => {
		await setToken( requestUtils, FAKE_PUBLIC_TOKEN );
		const ids = await seedMarkers(
			requestUtils,
			Array.from( { length: 40 }, ( _, i ) => ( {
				title: `First draw place ${ i + 1 }`,
				lng: -3.2 + ( i % 8 ) * 0.08,
				lat: 55.7 + Math.floor( i / 8 ) * 0.08,
			} ) )
		);
		url = await publishFrontPage(
			requestUtils,
			'First draw spec',
			mapBlock( {
				center: { lng: -2.9, lat: 55.9 },
				zoom: 7,
				markers: { source: 'ids', groups: [], ids },
				places: { search: true, groupFilter: true, followMap: false },
			} )
		);
	} );

	guardVisitorPages();

	test( 'are drawn before React runs; the panel comes after them', async ( {
		page,
	} ) => {
		await page.addInitScript( watchFirstDraw );
		await page.goto( url );
		await page.locator( '.wp-block-cairn-map' ).scrollIntoViewIfNeeded();
		await page.waitForFunction(
			() =>
				( window as unknown as { firstDraw: FirstDraw } ).firstDraw
					.drawn
		);
		expect(
			await page.evaluate(
				() =>
					( window as unknown as { firstDraw: FirstDraw } ).firstDraw
						.drawn
			)
		).toEqual( { react: false, reactScript: false, panelChunk: false } );
		// React's scripts downloaded with the map, to run without a download once it is drawn.
		await expect(
			page.locator( 'link[rel="preload"][href*="react-dom"]' )
		).toHaveCount( 1 );
		// Then the panel takes over the server's list, as before.
		await expect(
			page.getByRole( 'searchbox', { name: 'Search places' } )
		).toBeVisible();
		await expect(
			page
				.locator( '.wp-block-cairn-map__places' )
				.getByRole( 'button', { name: /First draw place 1\b/ } )
		).toBeVisible();
		expect( await page.evaluate( () => typeof window.React ) ).toBe(
			'object'
		);
	} );
} );
