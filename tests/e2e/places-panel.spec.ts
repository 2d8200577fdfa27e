/**
 * The places panel as visitors see it (issue 24, "A panel that looks designed"): beside the map in
 * a wide block with its list scrolling inside while the map stays in view, below the map on a
 * phone; entries as cards with the group's icon or colour and its name; readable on a dark
 * palette set in the block's colour settings; and the map following its box whenever the box
 * changes size (a column narrowing from 645 to 400 px, a hidden parent shown), not only when the
 * window does. Screenshots at 1280 and 390 px wide (docs/screenshots/ with CAIRN_SCREENSHOTS=1).
 *
 * Contract: DESIGN.md "Places" (the DOM hooks are unchanged by the cards).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';

import { VISITOR_STATE } from './global-setup';
import { expect, test } from './fixtures/maps-service';
import { screenshotPath } from './utils/screenshots';
import { FAKE_PUBLIC_TOKEN, mapBlock, setToken } from './utils/map-page';
import {
	ensureGroup,
	guardVisitorPages,
	publishFrontPage,
	seedMarkers,
	uploadImage,
	waitForIdle,
} from './utils/front-map';

interface DemoFile {
	groups: Array< { slug: string; name: string } >;
	markers: Array< {
		title: string;
		group: string;
		lat: number;
		lng: number;
	} >;
}

/** Each demo group's look: a colour and a white glyph drawn on it (see drawIcon). */
const LOOKS: Record< string, { color: string; glyph: string } > = {
	lighthouses: { color: '#c62828', glyph: 'lighthouse' },
	summits: { color: '#2e7d32', glyph: 'mountain' },
	museums: { color: '#6a1b9a', glyph: 'museum' },
	'railway-stations': { color: '#1565c0', glyph: 'train' },
};
/** A group with a colour and no icon: its cards show a swatch. */
const SWATCH = { slug: 'panel-bothies', name: 'Bothies', color: '#0a8f3c' };
const BOTHY = { title: 'Corrour Bothy', lat: 56.7586, lng: -4.6903 };
/** Western Europe: where the demo places of the pictures are. */
const BOX = { west: -11, south: 42, east: 16, north: 60 };
const PER_GROUP = 14;

const urls = { wide: '', dark: '', columns: '' };
let iconGroup = '';

/**
 * A 96 px group icon, drawn in the browser: a round badge in the group's colour with a white
 * glyph. Returns PNG bytes.
 * @param page       A page to draw in.
 * @param look       The group's look.
 * @param look.color Badge colour.
 * @param look.glyph What the badge shows.
 */
async function drawIcon(
	page: Page,
	look: { color: string; glyph: string }
): Promise< Buffer > {
	const data = await page.evaluate( ( { color, glyph } ) => {
		const canvas = document.createElement( 'canvas' );
		canvas.width = 96;
		canvas.height = 96;
		const c = canvas.getContext( '2d' )!;
		c.fillStyle = '#ffffff';
		c.beginPath();
		c.arc( 48, 48, 46, 0, Math.PI * 2 );
		c.fill();
		c.fillStyle = color;
		c.beginPath();
		c.arc( 48, 48, 41, 0, Math.PI * 2 );
		c.fill();
		c.fillStyle = '#ffffff';
		const poly = ( points: number[][] ) => {
			c.beginPath();
			points.forEach( ( [ x, y ], i ) =>
				i ? c.lineTo( x!, y! ) : c.moveTo( x!, y! )
			);
			c.closePath();
			c.fill();
		};
		if ( glyph === 'mountain' ) {
			poly( [
				[ 18, 68 ],
				[ 40, 30 ],
				[ 50, 46 ],
				[ 58, 36 ],
				[ 78, 68 ],
			] );
		} else if ( glyph === 'lighthouse' ) {
			poly( [
				[ 40, 72 ],
				[ 43, 36 ],
				[ 53, 36 ],
				[ 56, 72 ],
			] );
			c.fillRect( 41, 28, 14, 6 );
			poly( [
				[ 40, 28 ],
				[ 48, 20 ],
				[ 56, 28 ],
			] );
			c.fillRect( 58, 29, 14, 3 );
			c.fillRect( 24, 29, 14, 3 );
		} else if ( glyph === 'museum' ) {
			poly( [
				[ 22, 38 ],
				[ 48, 22 ],
				[ 74, 38 ],
			] );
			for ( const x of [ 28, 40, 52, 64 ] ) {
				c.fillRect( x, 42, 5, 22 );
			}
			c.fillRect( 22, 66, 52, 6 );
		} else {
			c.beginPath();
			c.roundRect( 30, 22, 36, 42, 8 );
			c.fill();
			c.fillStyle = color;
			c.fillRect( 35, 29, 26, 13 );
			c.beginPath();
			c.arc( 38, 54, 3.5, 0, Math.PI * 2 );
			c.arc( 58, 54, 3.5, 0, Math.PI * 2 );
			c.fill();
			c.fillStyle = '#ffffff';
			poly( [
				[ 34, 64 ],
				[ 39, 64 ],
				[ 31, 74 ],
				[ 26, 74 ],
			] );
			poly( [
				[ 57, 64 ],
				[ 62, 64 ],
				[ 70, 74 ],
				[ 65, 74 ],
			] );
		}
		return canvas.toDataURL( 'image/png' ).split( ',' )[ 1 ]!;
	}, look );
	return Buffer.from( data, 'base64' );
}

/** The map area and the places region of the first map, as laid out. */
async function boxes( page: Page ) {
	const host = page.locator( '.wp-block-cairn-map' ).first();
	const map = await host
		.locator( ':scope > .wp-block-cairn-map__map' )
		.boundingBox();
	const places = await host
		.locator( ':scope > .wp-block-cairn-map__places' )
		.boundingBox();
	expect( map ).not.toBeNull();
	expect( places ).not.toBeNull();
	return { map: map!, places: places! };
}

/** Opens a page, waits for its first map to be drawn and for its cards to be listed. */
async function openMap( page: Page, url: string ) {
	await page.goto( url );
	await waitForIdle( page );
	await expect(
		page
			.locator( '.wp-block-cairn-map__places li[data-cairn-marker-id]' )
			.first()
			.locator( ':scope > button.wp-block-cairn-map__card-button' )
	).toBeVisible();
}

/** Every group icon of the cards decoded, so a picture shows them. */
function iconsDecoded( page: Page ) {
	return page.evaluate( () =>
		Promise.all(
			Array.from(
				new Set(
					Array.from(
						document.querySelectorAll< HTMLElement >(
							'.wp-block-cairn-map__card-icon'
						),
						( element ) =>
							/url\("(.*)"\)/.exec(
								getComputedStyle( element ).backgroundImage
							)?.[ 1 ] ?? ''
					).filter( Boolean )
				),
				( src ) => {
					const image = new Image();
					image.src = src;
					return image.decode();
				}
			)
		).then( () => undefined )
	);
}

/**
 * The first map's size as mapbox-gl draws it: the container's CSS width and height, the canvas's
 * CSS size, and the canvas's drawing buffer in CSS pixels (width / devicePixelRatio). A canvas
 * left at an old size shows as a CSS size or a buffer that differs from the container's.
 * @param page
 */
function drawnSize( page: Page ) {
	return page.evaluate( () => {
		const map = window.cairnMap( 0 );
		const container = map.getContainer();
		const canvas = map.getCanvas();
		const ratio = window.devicePixelRatio;
		return {
			container: [ container.clientWidth, container.clientHeight ],
			canvas: [ canvas.clientWidth, canvas.clientHeight ],
			buffer: [
				Math.round( canvas.width / ratio ),
				Math.round( canvas.height / ratio ),
			],
		};
	} );
}

/** Waits until the first map's canvas is drawn at `width` × its container's height. */
async function expectMapWidth( page: Page, width: number ) {
	await expect
		.poll( async () => {
			const size = await drawnSize( page );
			const height = size.container[ 1 ]!;
			return { ...size, height };
		} )
		.toMatchObject( {
			container: [ width, expect.any( Number ) ],
			canvas: [ width, expect.any( Number ) ],
			buffer: [ width, expect.any( Number ) ],
		} );
	const size = await drawnSize( page );
	// Not stretched vertically either.
	expect( size.canvas[ 1 ] ).toBe( size.container[ 1 ] );
	expect( size.buffer[ 1 ] ).toBe( size.container[ 1 ] );
}

/** Sets the width of an element of the page (the window stays as it is). */
function setWidth( element: Locator, width: string ) {
	return element.evaluate( ( node, value ) => {
		( node as HTMLElement ).style.setProperty(
			'width',
			value,
			'important'
		);
		( node as HTMLElement ).style.setProperty(
			'max-width',
			'none',
			'important'
		);
	}, width );
}

test.describe( 'the places panel', () => {
	test.use( { storageState: VISITOR_STATE } );
	guardVisitorPages();

	test.beforeAll( async ( { requestUtils, browser }, testInfo ) => {
		await setToken( requestUtils, FAKE_PUBLIC_TOKEN );
		const demo = JSON.parse(
			await fs.readFile(
				path.join( __dirname, '..', '..', 'bin', 'demo-markers.json' ),
				'utf8'
			)
		) as DemoFile;
		await fs.mkdir( testInfo.outputDir, { recursive: true } );
		const drawing = await browser.newPage( { storageState: undefined } );
		const slugs: string[] = [];
		const markers = [];
		for ( const group of demo.groups ) {
			const look = LOOKS[ group.slug ]!;
			const file = path.join(
				testInfo.outputDir,
				`panel-${ group.slug }.png`
			);
			await fs.writeFile( file, await drawIcon( drawing, look ) );
			const slug = `panel-${ group.slug }`;
			const id = await ensureGroup( requestUtils, {
				name: group.name,
				slug,
				color: look.color,
				icon: await uploadImage( requestUtils, file ),
			} );
			slugs.push( slug );
			if ( group.slug === 'lighthouses' ) {
				iconGroup = slug;
			}
			markers.push(
				...demo.markers
					.filter(
						( marker ) =>
							marker.group === group.slug &&
							marker.lng > BOX.west &&
							marker.lng < BOX.east &&
							marker.lat > BOX.south &&
							marker.lat < BOX.north
					)
					.slice( 0, PER_GROUP )
					.map( ( marker ) => ( {
						title: marker.title,
						lng: marker.lng,
						lat: marker.lat,
						groups: [ id ],
					} ) )
			);
		}
		await drawing.close();
		const bothies = await ensureGroup( requestUtils, SWATCH );
		slugs.push( SWATCH.slug );
		markers.push( { ...BOTHY, groups: [ bothies ] } );
		await seedMarkers( requestUtils, markers );

		const map = ( extra: Record< string, unknown > ) =>
			mapBlock( {
				center: { lng: 1.5, lat: 51.5 },
				zoom: 3.6,
				height: '520px',
				markers: { source: 'groups', groups: slugs, ids: [] },
				places: { search: true, groupFilter: true, followMap: false },
				...extra,
			} );
		urls.wide = await publishFrontPage(
			requestUtils,
			'Places to visit',
			`<!-- wp:paragraph --><p>Lighthouses, summits, museums and great stations: choose one in the list or on the map.</p><!-- /wp:paragraph -->${ map(
				{ align: 'wide' }
			) }`
		);
		urls.dark = await publishFrontPage(
			requestUtils,
			'Places panel on a dark palette',
			map( {
				align: 'wide',
				backgroundColor: 'contrast',
				textColor: 'base',
				style: {
					spacing: {
						padding: {
							top: '16px',
							right: '16px',
							bottom: '16px',
							left: '16px',
						},
					},
				},
			} )
		);
		// The map in a group whose visibility the page switches (a tab, an accordion).
		urls.columns = await publishFrontPage(
			requestUtils,
			'Places panel in a column',
			`<!-- wp:group {"className":"panel-spec-box"} --><div class="wp-block-group panel-spec-box">${ map(
				{ height: '360px' }
			) }</div><!-- /wp:group -->`
		);
	} );

	test( 'at 1280 px the places stand beside the map, their list scrolls inside and the map stays in view', async ( {
		page,
	}, testInfo ) => {
		await page.setViewportSize( { width: 1280, height: 900 } );
		await openMap( page, urls.wide );
		const { map, places } = await boxes( page );
		// Beside: to the right of the map, top aligned, no taller than the map.
		expect( places.x ).toBeGreaterThanOrEqual( map.x + map.width );
		expect( Math.abs( places.y - map.y ) ).toBeLessThanOrEqual( 1 );
		expect( places.height ).toBeLessThanOrEqual( map.height + 1 );
		expect( map.width ).toBeGreaterThan( places.width );

		const list = page.locator(
			'.wp-block-cairn-map__places .wp-block-cairn-map__list'
		);
		const sizes = await list.evaluate( ( element ) => ( {
			scroll: element.scrollHeight,
			client: element.clientHeight,
		} ) );
		expect( sizes.scroll ).toBeGreaterThan( sizes.client );

		await page.locator( '.wp-block-cairn-map' ).scrollIntoViewIfNeeded();
		const pageScroll = await page.evaluate( () => window.scrollY );
		const mapTop = ( await boxes( page ) ).map.y;
		await list.hover();
		await page.mouse.wheel( 0, 600 );
		await expect
			.poll( () => list.evaluate( ( element ) => element.scrollTop ) )
			.toBeGreaterThan( 0 );
		// The list scrolled, the page did not: the map is where it was, wholly in view.
		await page.mouse.wheel( 0, 100_000 );
		await expect
			.poll( () =>
				list.evaluate(
					( element ) =>
						element.scrollTop + element.clientHeight >=
						element.scrollHeight - 1
				)
			)
			.toBe( true );
		expect( await page.evaluate( () => window.scrollY ) ).toBe(
			pageScroll
		);
		const after = await boxes( page );
		expect( after.map.y ).toBe( mapTop );
		expect( after.map.y ).toBeGreaterThanOrEqual( 0 );
		expect( after.map.y + after.map.height ).toBeLessThanOrEqual( 900 );

		// The picture for the README and the note: the list at its top, the block in view under
		// the page's title, no pointer over it.
		await list.evaluate( ( element ) => {
			element.scrollTop = 0;
			element.closest( '.wp-block-cairn-map__places' )!.scrollTop = 0;
		} );
		await page.evaluate(
			( top ) => window.scrollTo( 0, top ),
			await page
				.locator( 'h1' )
				.first()
				.evaluate(
					( element ) =>
						element.getBoundingClientRect().top +
						window.scrollY -
						24
				)
		);
		await page.mouse.move( 0, 0 );
		await page.evaluate( () =>
			document.fonts.ready.then( () => undefined )
		);
		await iconsDecoded( page );
		await waitForIdle( page );
		await page.screenshot( {
			path: screenshotPath( 'places-panel-1280.png', testInfo ),
		} );
	} );

	test( 'at 390 px the places follow the map, as wide as it', async ( {
		page,
	}, testInfo ) => {
		await page.setViewportSize( { width: 390, height: 844 } );
		await openMap( page, urls.wide );
		const { map, places } = await boxes( page );
		expect( places.y ).toBeGreaterThanOrEqual( map.y + map.height );
		expect( Math.abs( places.x - map.x ) ).toBeLessThanOrEqual( 1 );
		expect( Math.abs( places.width - map.width ) ).toBeLessThanOrEqual( 1 );
		// The cards stack in one column.
		const cards = page.locator(
			'.wp-block-cairn-map__places li[data-cairn-marker-id]'
		);
		const first = ( await cards.nth( 0 ).boundingBox() )!;
		const second = ( await cards.nth( 1 ).boundingBox() )!;
		expect( second.y ).toBeGreaterThan( first.y + first.height - 1 );
		expect( Math.abs( second.x - first.x ) ).toBeLessThanOrEqual( 1 );

		// The picture: the map, the panel and its first cards below it, as a phone scrolls them.
		const top = await page
			.locator( '.wp-block-cairn-map' )
			.evaluate(
				( element ) =>
					element.getBoundingClientRect().top + window.scrollY
			);
		await iconsDecoded( page );
		await waitForIdle( page );
		// A taller window of the same width: the layout stays the phone's.
		await page.setViewportSize( { width: 390, height: 1150 } );
		await page.evaluate( ( y ) => window.scrollTo( 0, y ), top - 16 );
		await page.mouse.move( 0, 0 );
		await page.evaluate( () =>
			document.fonts.ready.then( () => undefined )
		);
		await page.screenshot( {
			path: screenshotPath( 'places-panel-390.png', testInfo ),
		} );
	} );

	test( 'without JavaScript the server’s list stands beside the map area the same way', async ( {
		browser,
	}, testInfo ) => {
		const context = await browser.newContext( {
			javaScriptEnabled: false,
			storageState: VISITOR_STATE,
			viewport: { width: 1280, height: 900 },
		} );
		const page = await context.newPage();
		await page.goto( urls.wide );
		const { map, places } = await boxes( page );
		expect( places.x ).toBeGreaterThanOrEqual( map.x + map.width );
		expect( Math.abs( places.y - map.y ) ).toBeLessThanOrEqual( 1 );
		expect( places.height ).toBeLessThanOrEqual( map.height + 1 );
		// Its first page of 50 places scrolls inside, with the links to the next page in view.
		const list = page.locator(
			'.wp-block-cairn-map__places .wp-block-cairn-map__list'
		);
		await expect( list.locator( 'li[data-cairn-marker-id]' ) ).toHaveCount(
			50
		);
		expect(
			await list.evaluate(
				( element ) => element.scrollHeight > element.clientHeight
			)
		).toBe( true );
		const next = page.locator( '.wp-block-cairn-map__pages-next' );
		const nextBox = ( await next.boundingBox() )!;
		expect( nextBox.y + nextBox.height ).toBeLessThanOrEqual(
			map.y + map.height + 1
		);
		await page
			.locator( '.wp-block-cairn-map' )
			.screenshot( { path: testInfo.outputPath( 'no-js.png' ) } );
		await context.close();
	} );

	test( 'a card shows its group: the icon, else the colour, and the name', async ( {
		page,
	} ) => {
		await page.setViewportSize( { width: 1280, height: 900 } );
		await openMap( page, urls.wide );
		const panel = page.locator( '.wp-block-cairn-map__places' );
		await panel
			.getByRole( 'searchbox', { name: 'Search places' } )
			.fill( 'Bell Rock' );
		const lighthouse = panel
			.locator( 'li[data-cairn-marker-id]' )
			.filter( { hasText: 'Bell Rock Lighthouse' } );
		await expect( lighthouse ).toHaveCount( 1 );
		await expect(
			lighthouse.locator( '.wp-block-cairn-map__card-group' )
		).toHaveText( 'Lighthouses' );
		const icon = lighthouse.locator( '.wp-block-cairn-map__card-icon' );
		await expect( icon ).toBeVisible();
		// The group's own uploaded icon, as its map markers have it.
		const iconUrl = await page.evaluate(
			( slug ) =>
				(
					JSON.parse(
						document
							.querySelector( '.wp-block-cairn-map' )!
							.getAttribute( 'data-cairn-config' )!
					) as {
						groupStyles: Array< { slug: string; icon: string } >;
					}
				 ).groupStyles.find( ( style ) => style.slug === slug )?.icon,
			iconGroup
		);
		expect( iconUrl ).toMatch( /panel-lighthouses.*\.png$/ );
		expect(
			await icon.evaluate(
				( element ) => getComputedStyle( element ).backgroundImage
			)
		).toBe( `url("${ iconUrl }")` );
		const iconBox = ( await icon.boundingBox() )!;
		expect( iconBox.width ).toBeGreaterThanOrEqual( 24 );

		await panel
			.getByRole( 'searchbox', { name: 'Search places' } )
			.fill( 'Corrour' );
		const bothy = panel
			.locator( 'li[data-cairn-marker-id]' )
			.filter( { hasText: BOTHY.title } );
		await expect( bothy ).toHaveCount( 1 );
		await expect(
			bothy.locator( '.wp-block-cairn-map__card-group' )
		).toHaveText( SWATCH.name );
		await expect(
			bothy.locator( '.wp-block-cairn-map__card-swatch' )
		).toHaveCSS( 'background-color', 'rgb(10, 143, 60)' );
		// Choosing the card still shows the place: its popup opens.
		await bothy.getByRole( 'button' ).click();
		await expect(
			page.locator( '.mapboxgl-popup .cairn-map-popup__title' )
		).toHaveText( BOTHY.title );
	} );

	test( 'on a dark palette every part of the panel takes the block’s light text', async ( {
		page,
	}, testInfo ) => {
		await page.setViewportSize( { width: 1280, height: 900 } );
		await openMap( page, urls.dark );
		const found = await page.evaluate( () => {
			const host = document.querySelector< HTMLElement >(
				'.wp-block-cairn-map'
			)!;
			const rgb = ( value: string ) =>
				( value.match( /[\d.]+/g ) ?? [] ).map( Number );
			const luminance = ( value: string ) => {
				const [ r = 0, g = 0, b = 0 ] = rgb( value );
				const channel = ( c: number ) => {
					const s = c / 255;
					return s <= 0.03928
						? s / 12.92
						: ( ( s + 0.055 ) / 1.055 ) ** 2.4;
				};
				return (
					0.2126 * channel( r ) +
					0.7152 * channel( g ) +
					0.0722 * channel( b )
				);
			};
			const contrast = ( a: string, b: string ) => {
				const [ hi, lo ] = [ luminance( a ), luminance( b ) ].sort(
					( x, y ) => y - x
				);
				return ( hi! + 0.05 ) / ( lo! + 0.05 );
			};
			const background = getComputedStyle( host ).backgroundColor;
			const parts = [
				'.wp-block-cairn-map__markers-title',
				'input[type="search"]',
				'.wp-block-cairn-map__group',
				'.wp-block-cairn-map__list-title',
				'.wp-block-cairn-map__card-title',
				'.wp-block-cairn-map__card-group',
			];
			return {
				background,
				text: getComputedStyle( host ).color,
				parts: parts.map( ( selector ) => {
					const element = host.querySelector( selector )!;
					const style = getComputedStyle( element );
					const own = rgb( style.backgroundColor );
					// A part's own background, if it paints one, else the block's.
					const under =
						own.length === 4 && own[ 3 ] === 0
							? background
							: style.backgroundColor;
					return {
						selector,
						readable:
							contrast( style.color, under ) *
								Number( style.opacity ) >=
							4.5,
					};
				} ),
			};
		} );
		expect( found.background ).toBe( 'rgb(17, 17, 17)' );
		expect( found.text ).toBe( 'rgb(255, 255, 255)' );
		expect( found.parts ).toEqual(
			found.parts.map( ( part ) => ( { ...part, readable: true } ) )
		);
		await iconsDecoded( page );
		await page
			.locator( '.wp-block-cairn-map' )
			.screenshot( { path: testInfo.outputPath( 'dark.png' ) } );
	} );

	test( 'the map follows its box: a column narrowed from 645 to 400 px, a hidden parent shown', async ( {
		page,
	} ) => {
		await page.setViewportSize( { width: 1280, height: 900 } );
		await openMap( page, urls.columns );
		const box = page.locator( '.panel-spec-box' );
		await setWidth( box, '645px' );
		await expectMapWidth( page, 645 );
		const windowWidth = await page.evaluate( () => window.innerWidth );

		await setWidth( box, '400px' );
		await expectMapWidth( page, 400 );

		// Hidden (a closed tab), made narrower while hidden, then shown again.
		await box.evaluate( ( element ) => {
			( element as HTMLElement ).style.display = 'none';
		} );
		await setWidth( box, '520px' );
		await box.evaluate( ( element ) => {
			( element as HTMLElement ).style.display = '';
		} );
		await expectMapWidth( page, 520 );
		// All along, the window kept its size.
		expect( await page.evaluate( () => window.innerWidth ) ).toBe(
			windowWidth
		);
		// And the map still draws its places at the new size.
		await waitForIdle( page );
		expect(
			await page.evaluate(
				() =>
					window.cairnMap( 0 ).queryRenderedFeatures( {
						layers: [ 'cairn-clusters', 'cairn-points' ],
					} ).length
			)
		).toBeGreaterThan( 0 );
	} );
} );
