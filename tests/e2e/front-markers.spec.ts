/**
 * Markers on the visitor's map: clusters (counts and expansion), popups fed hostile marker text,
 * the keyboard (the list of places and the arrow keys), group colours and icons with the
 * `image-type` failure, and an axe-core scan of a ready map with a popup open.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

import { VISITOR_STATE } from './global-setup';
import { expect, test } from './fixtures/maps-service';
import { FAKE_PUBLIC_TOKEN, mapBlock, setToken } from './utils/map-page';
import {
	colourDistance,
	ensureGroup,
	nextMoveEnd,
	pixelAt,
	seedMarkers,
	solidPng,
	waitForIdle,
	publishFrontPage,
	uploadImage,
	guardVisitorPages,
} from './utils/front-map';

const HOSTILE_TITLE =
	'Café <img src=x onerror=alert(1)><script>alert(2)</script>';
const HOSTILE_CONTENT =
	'<p>Safe <strong>text</strong> here.</p><script>alert(3)</script>' +
	'<img src=x onerror=alert(4)><a href="javascript:alert(5)">a link</a>';

const COLOURS = {
	default: '#d1495b',
	green: '#0a8f3c',
	icon: '#1f4fd1',
};
/** Icons are uploaded under these names; the "broken" one is served as an SVG by the test. */
const ICON_FILE = 'cairn-front-icon.png';
const BROKEN_ICON_FILE = 'cairn-front-broken-icon.png';

const urls = { clusters: '', popups: '', groups: '' };
let hostileId = 0;
const groupPlaces = {
	green: { lng: -4, lat: 45 },
	icon: { lng: -1, lat: 45 },
	broken: { lng: 2, lat: 45 },
	none: { lng: 5, lat: 45 },
};

/** Deterministic scatter of `count` points in a box. */
function scatter( count: number ) {
	return Array.from( { length: count }, ( _, i ) => ( {
		title: `Cluster spec place ${ i + 1 }`,
		lng: -3.2 + 0.4 * Math.sin( i * 12.9898 ),
		lat: 55.95 + 0.15 * Math.sin( i * 78.233 + 1 ),
	} ) );
}

async function openPage( page: Page, url: string ) {
	await page.goto( url );
	await waitForIdle( page );
}

test.describe( 'front-end markers', () => {
	test.use( { storageState: VISITOR_STATE } );

	let dialogs: string[] = [];

	test.beforeAll( async ( { requestUtils }, testInfo ) => {
		await setToken( requestUtils, FAKE_PUBLIC_TOKEN );

		const clusterIds = await seedMarkers( requestUtils, scatter( 30 ) );
		urls.clusters = await publishFrontPage(
			requestUtils,
			'Markers spec: clusters',
			mapBlock( {
				center: { lng: -3.2, lat: 55.95 },
				zoom: 8,
				markers: { source: 'ids', groups: [], ids: clusterIds },
				cluster: { enabled: true, radius: 80 },
			} )
		);

		const popupIds = await seedMarkers( requestUtils, [
			{
				title: HOSTILE_TITLE,
				content: HOSTILE_CONTENT,
				lng: 10,
				lat: 50,
			},
			{ title: 'Popup spec: Lake', lng: 12, lat: 47 },
			{ title: 'Popup spec: Coast', lng: 4, lat: 52 },
		] );
		hostileId = popupIds[ 0 ]!;
		urls.popups = await publishFrontPage(
			requestUtils,
			'Markers spec: popups',
			mapBlock( {
				center: { lng: 8, lat: 50 },
				zoom: 4,
				markers: { source: 'ids', groups: [], ids: popupIds },
			} )
		);

		const upload = async ( name: string, hex: string ) => {
			const file = path.join( testInfo.outputDir, name );
			await fs.mkdir( testInfo.outputDir, { recursive: true } );
			await fs.writeFile( file, solidPng( 48, hex ) );
			return uploadImage( requestUtils, file );
		};
		const groups = {
			green: await ensureGroup( requestUtils, {
				name: '0 Front green',
				slug: 'front-green',
				color: COLOURS.green,
			} ),
			icon: await ensureGroup( requestUtils, {
				name: '0 Front icon',
				slug: 'front-icon',
				icon: await upload( ICON_FILE, COLOURS.icon ),
			} ),
			broken: await ensureGroup( requestUtils, {
				name: '0 Front broken icon',
				slug: 'front-broken',
				icon: await upload( BROKEN_ICON_FILE, '#777777' ),
			} ),
		};
		const groupIds = await seedMarkers(
			requestUtils,
			(
				Object.keys( groupPlaces ) as Array< keyof typeof groupPlaces >
			 ).map( ( key ) => ( {
				title: `Group spec: ${ key }`,
				...groupPlaces[ key ],
				groups:
					key === 'none'
						? []
						: [ groups[ key as keyof typeof groups ] ],
			} ) )
		);
		urls.groups = await publishFrontPage(
			requestUtils,
			'Markers spec: group looks',
			mapBlock( {
				center: { lng: 0.5, lat: 45 },
				zoom: 5,
				markers: { source: 'ids', groups: [], ids: groupIds },
				cluster: { enabled: false, radius: 80 },
			} )
		);
	} );

	guardVisitorPages();
	// Hostile marker text must never open a dialog (an injected alert()).
	test.beforeEach( async ( { page } ) => {
		dialogs = [];
		page.on( 'dialog', ( dialog ) => {
			dialogs.push( dialog.message() );
			void dialog.dismiss();
		} );
	} );
	test.afterEach( () => {
		expect( dialogs ).toEqual( [] );
	} );

	test( 'clusters count every marker, and a click zooms to the expansion zoom', async ( {
		page,
	} ) => {
		await openPage( page, urls.clusters );
		const rendered = await page.evaluate( () => {
			const map = window.cairnMap();
			const clusters = new Map< number, number >();
			for ( const feature of map.queryRenderedFeatures( {
				layers: [ 'cairn-clusters' ],
			} ) ) {
				clusters.set(
					feature.properties?.cluster_id,
					feature.properties?.point_count
				);
			}
			const points = new Set(
				map
					.queryRenderedFeatures( { layers: [ 'cairn-points' ] } )
					.map( ( feature ) => feature.id )
			);
			const labels = map
				.queryRenderedFeatures( { layers: [ 'cairn-cluster-count' ] } )
				.map(
					( feature ) => feature.properties?.point_count_abbreviated
				);
			return {
				counts: [ ...clusters.values() ],
				points: points.size,
				labels: new Set( labels ).size,
			};
		} );
		expect( rendered.counts.length ).toBeGreaterThan( 0 );
		expect(
			rendered.counts.reduce( ( a, b ) => a + b, 0 ) + rendered.points
		).toBe( 30 );
		expect( rendered.labels ).toBeGreaterThan( 0 );

		// The biggest cluster, clicked where it is drawn.
		const target = await page.evaluate( async () => {
			const map = window.cairnMap();
			const [ biggest ] = map
				.queryRenderedFeatures( { layers: [ 'cairn-clusters' ] } )
				.sort(
					( a, b ) =>
						( b.properties?.point_count ?? 0 ) -
						( a.properties?.point_count ?? 0 )
				);
			if ( ! biggest || biggest.geometry.type !== 'Point' ) {
				throw new Error( 'no cluster' );
			}
			const coordinates = biggest.geometry.coordinates as [
				number,
				number,
			];
			const { x, y } = map.project( coordinates );
			return {
				x,
				y,
				coordinates,
				zoom: map.getZoom(),
				count: biggest.properties?.point_count as number,
			};
		} );
		const moved = nextMoveEnd( page );
		await page
			.locator( 'canvas.mapboxgl-canvas' )
			.click( { position: { x: target.x, y: target.y } } );
		await moved;
		await waitForIdle( page );
		const after = await page.evaluate( () => {
			const map = window.cairnMap();
			// What the map now draws around the cluster's centre.
			const counts = map
				.queryRenderedFeatures( {
					layers: [ 'cairn-clusters', 'cairn-points' ],
				} )
				.map(
					( feature ) =>
						( feature.properties?.point_count as number ) ?? 1
				);
			return { zoom: map.getZoom(), ...map.getCenter(), counts };
		} );
		// Eased in to where the cluster breaks apart: its places are drawn in smaller parts.
		expect( after.zoom ).toBeGreaterThan( target.zoom );
		expect( after.zoom ).toBeGreaterThan( 8 );
		expect( after.counts.length ).toBeGreaterThan( 1 );
		expect( Math.max( ...after.counts ) ).toBeLessThan( target.count );
		expect( after.lng ).toBeCloseTo( target.coordinates[ 0 ], 4 );
		expect( after.lat ).toBeCloseTo( target.coordinates[ 1 ], 4 );
	} );

	test( 'arrow keys on the focused map pan by 80 pixels', async ( {
		page,
	} ) => {
		await openPage( page, urls.popups );
		await page.locator( 'canvas.mapboxgl-canvas' ).focus();
		const start = await page.evaluate( () => {
			const center = window.cairnMap().getCenter();
			return { lng: center.lng, lat: center.lat };
		} );
		const projected = () =>
			page.evaluate(
				( lngLat ) => window.cairnMap().project( lngLat ),
				start
			);
		const before = await projected();
		for ( const [ key, dx, dy ] of [
			[ 'ArrowRight', -80, 0 ],
			[ 'ArrowDown', -80, -80 ],
			[ 'ArrowLeft', 0, -80 ],
			[ 'ArrowUp', 0, 0 ],
		] as const ) {
			const moved = nextMoveEnd( page );
			await page.keyboard.press( key );
			await moved;
			const now = await projected();
			expect( now.x - before.x, key ).toBeCloseTo( dx, 0 );
			expect( now.y - before.y, key ).toBeCloseTo( dy, 0 );
		}
	} );

	test( 'the list of places works from the keyboard; hostile text stays text', async ( {
		page,
		requestUtils,
	} ) => {
		await openPage( page, urls.popups );
		// From the map, Tab on to the place whose title carries markup.
		await page.locator( 'canvas.mapboxgl-canvas' ).focus();
		let found = false;
		for ( let i = 0; i < 30 && ! found; i++ ) {
			await page.keyboard.press( 'Tab' );
			found = await page
				.locator( ':focus' )
				.evaluate(
					( element ) =>
						element.classList.contains(
							'wp-block-cairn-map__list-button'
						) && ( element.textContent ?? '' ).includes( 'Café' )
				)
				.catch( () => false );
		}
		expect( found ).toBe( true );
		await expect( page.locator( ':focus' ) ).toHaveAccessibleName(
			/^Show Café.* on the map$/
		);

		await page.keyboard.press( 'Enter' );
		const popup = page.locator( '.mapboxgl-popup' );
		await expect( popup ).toBeVisible();
		const camera = await page.evaluate( () => {
			const map = window.cairnMap();
			return { zoom: map.getZoom(), ...map.getCenter() };
		} );
		expect( camera.lng ).toBeCloseTo( 10, 3 );
		expect( camera.lat ).toBeCloseTo( 50, 3 );
		expect( camera.zoom ).toBeGreaterThanOrEqual( 14 );

		// The popup shows the title the server gives, as text, and only harmless markup.
		const details = ( await requestUtils.rest( {
			path: `/cairn/v1/markers/${ hostileId }`,
		} ) ) as { title: string };
		await expect( popup.locator( '.cairn-map-popup__title' ) ).toHaveText(
			details.title
		);
		await expect(
			popup.locator( '.cairn-map-popup__title' )
		).toContainText( 'Café' );
		await expect(
			popup.locator( '.cairn-map-popup__content' )
		).toContainText( 'Safe text here.' );
		await expect( popup.locator( 'strong' ) ).toHaveText( 'text' );
		await expect(
			popup.locator( 'script, img, iframe, [onerror]' )
		).toHaveCount( 0 );
		await expect( popup.locator( 'a[href^="javascript"]' ) ).toHaveCount(
			0
		);
		await expect( page.locator( 'img[src="x"]' ) ).toHaveCount( 0 );
		// Nothing ran, nor can later: no element of the page carries the hostile markup (the
		// dialog check runs after each test).

		// axe-core: a ready map with its list and an open popup.
		const results = await new AxeBuilder( { page } )
			.include( '.wp-block-cairn-map' )
			.analyze();
		const serious = results.violations
			.filter( ( violation ) =>
				[ 'serious', 'critical' ].includes( violation.impact ?? '' )
			)
			.map( ( violation ) => ( {
				id: violation.id,
				nodes: violation.nodes.map( ( node ) =>
					node.target.join( ' ' )
				),
			} ) );
		expect( serious ).toEqual( [] );
	} );

	test( 'groups colour their markers; an icon that is not a PNG/JPEG is image-type, with the default symbol', async ( {
		page,
		context,
	} ) => {
		// The uploaded "broken" icon is answered with an SVG, as a misconfigured CDN would.
		await context.route(
			`**/${ BROKEN_ICON_FILE.replace( '.png', '' ) }*`,
			( route ) =>
				route.fulfill( {
					status: 200,
					contentType: 'image/svg+xml',
					body: '<svg xmlns="http://www.w3.org/2000/svg" width="48" height="48"><circle cx="24" cy="24" r="20" fill="#777"/></svg>',
				} )
		);
		await page.goto( urls.groups );
		const host = page.locator( '.wp-block-cairn-map' );
		const config = JSON.parse(
			( await host.getAttribute( 'data-cairn-config' ) ) ?? '{}'
		) as { groupStyles?: Array< { slug: string } > };
		expect( config.groupStyles?.map( ( style ) => style.slug ) ).toEqual(
			expect.arrayContaining( [
				'front-green',
				'front-icon',
				'front-broken',
			] )
		);

		const alert = host.locator( '[role="alert"]' );
		await expect( alert ).toHaveAttribute(
			'data-cairn-error',
			'image-type'
		);
		await expect( page.locator( '[role="alert"]' ) ).toHaveCount( 1 );
		await expect( alert ).toContainText( 'PNG or JPEG' );
		await expect( host ).toHaveAttribute( 'data-cairn-state', 'error' );
		expect(
			( await page.evaluate( () => window.cairnEvents.errors ) ).map(
				( event ) => event.code
			)
		).toEqual( [ 'image-type' ] );
		await expect(
			host.locator( '.wp-block-cairn-map__markers' )
		).toContainText( 'Group spec: green' );

		// Not fatal: the map is handed over, keeps its size and draws every marker.
		await waitForIdle( page );
		await page.waitForFunction( () =>
			Boolean( window.cairnMap().getLayer( 'cairn-point-icons' ) )
		);
		await waitForIdle( page );
		const canvas = page.locator( 'canvas.mapboxgl-canvas' );
		expect( ( await canvas.boundingBox() )?.height ).toBeGreaterThan( 300 );
		const positions = await page.evaluate(
			( places ) =>
				Object.fromEntries(
					Object.entries( places ).map( ( [ key, place ] ) => [
						key,
						window.cairnMap().project( place ),
					] )
				),
			groupPlaces
		);
		const colourOf = async ( key: keyof typeof groupPlaces ) =>
			pixelAt( page, canvas, positions[ key ]!.x, positions[ key ]!.y );
		expect(
			colourDistance( await colourOf( 'green' ), COLOURS.green )
		).toBeLessThan( 24 );
		expect(
			colourDistance( await colourOf( 'icon' ), COLOURS.icon )
		).toBeLessThan( 24 );
		expect(
			colourDistance( await colourOf( 'broken' ), COLOURS.default )
		).toBeLessThan( 24 );
		expect(
			colourDistance( await colourOf( 'none' ), COLOURS.default )
		).toBeLessThan( 24 );

		// The icon's marker still opens its popup.
		await canvas.click( {
			position: { x: positions.icon!.x + 10, y: positions.icon!.y },
		} );
		await expect( page.locator( '.mapboxgl-popup' ) ).toContainText(
			'Group spec: icon'
		);
	} );
} );
