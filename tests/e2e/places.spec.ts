/**
 * Visitors find any place (issue 11): on a map of 240 places in 5 groups, keyboard only, a visitor
 * reaches a place beyond the first 50 by search and by the list that follows the map, opens and
 * closes its popup (focus goes in, and comes back to the entry); hides a group and the map's
 * clusters count without it; opens a place from `?cairn-place=<id>` (and from the popup's "Copy
 * link"); gets the list nearest first after locating themselves; and without JavaScript pages
 * through every place of the map. axe-core finds no serious fault with the panel in use, and
 * hostile titles and group names stay text everywhere.
 *
 * Contract: DESIGN.md "Places" (attribute `places`, DOM hooks, `?cairn-place=`, `cairn-places=`),
 * and the wrapper's `cairn:places-change` (`detail: { search, hiddenGroups, total, inView }`),
 * sent once the list and the map's clusters show a new filter or view.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';

import { VISITOR_STATE } from './global-setup';
import { expect, test } from './fixtures/maps-service';
import { FAKE_PUBLIC_TOKEN, mapBlock } from './utils/map-page';
import {
	nextMoveEnd,
	recordMapEvents,
	waitForIdle,
	watchPageErrors,
} from './utils/front-map';
import { KeptSeed } from './utils/kept-seed';
import {
	distanceKm,
	drawnMarkers,
	focusedElement,
	idsInHtml,
	listedIds,
	mapBounds,
	placesEventCount,
	publishTrackedPage,
	recordPlacesEvents,
	seedPlaces,
	tabTo,
	waitForPlacesChange,
	withQuery,
	type SpecGroup,
	type SpecPlace,
} from './utils/places';

const COUNT = 240;
/** Where the places are: every one of them in view at the block's first view. */
const BOX = { west: 2, south: 45.5, east: 12, north: 50.5 };
const VIEW = { center: { lng: 7, lat: 48 }, zoom: 4 };
const LIST_MAX = 50; // limits.json markerList.maxItems

/**
 * A title whose markup only appears once WordPress strips tags and decodes entities (the feed):
 * inserted anywhere as HTML, its image fails to load and sets `window.pwned` (checked after
 * every test, with the page's dialogs).
 */
const HOSTILE_TITLE =
	'Hostile &lt;img src=x onerror=window.pwned=1&gt; Quarry <img src=x onerror=alert(2)>';
/** What that title is as plain text (what a visitor must read, literally). */
const HOSTILE_TEXT = 'Hostile <img src=x onerror=window.pwned=1> Quarry';
/** WordPress strips tags from a term name; entities stay and come out as markup characters. */
const HOSTILE_GROUP_NAME =
	'Places spec &lt;img src=x onerror=alert(3)&gt; Forts';

const GROUPS = [
	{
		slug: 'places-spec-harbours',
		name: 'Places spec Harbours',
		color: '#1f77b4',
	},
	{
		slug: 'places-spec-museums',
		name: 'Places spec Museums',
		color: '#2ca02c',
	},
	{ slug: 'places-spec-parks', name: 'Places spec Parks', color: '#9467bd' },
	{ slug: 'places-spec-cafes', name: 'Places spec Cafés', color: '#8c564b' },
	{ slug: 'places-spec-forts', name: HOSTILE_GROUP_NAME, color: '#d62728' },
];
const KINDS: Record< string, string > = {
	'places-spec-harbours': 'Harbour',
	'places-spec-museums': 'Museum',
	'places-spec-parks': 'Park',
	'places-spec-cafes': 'Café',
	'places-spec-forts': 'Fort',
};
/** The hostile title goes to the 120th place. */
const HOSTILE_INDEX = 119;

/** The label languages a visitor may choose from on the languages page. */
const LABEL_LANGUAGES = [ 'en', 'fr', 'de' ];

const urls = { map: '', locate: '', twoMaps: '', languages: '' };
let places: SpecPlace[] = [];
let groups: SpecGroup[] = [];
/** Ids of the first page of the server-rendered list (what a visitor saw before issue 11). */
let firstServerPage: number[] = [];

const host = ( page: Page ): Locator =>
	page.locator( '.wp-block-cairn-map' ).first();
const entryButton = ( id: number ) =>
	`li[data-cairn-marker-id="${ id }"] > button`;
const placeById = ( id: number ) => {
	const place = places.find( ( p ) => p.id === id );
	if ( ! place ) {
		throw new Error( `no place ${ id }` );
	}
	return place;
};

/** A title with its accents dropped, as a visitor may type it. */
const plain = ( text: string ) =>
	text.normalize( 'NFD' ).replace( /[\u0300-\u036f]/g, '' );

/**
 * The places beyond the first page of the server list, last seeded first. The search target has
 * an accent in its title (the visitor types it without, in capitals).
 */
function beyondFirstFifty(): SpecPlace[] {
	return places
		.filter(
			( place, i ) =>
				i !== HOSTILE_INDEX && ! firstServerPage.includes( place.id )
		)
		.reverse();
}

async function statusText( page: Page ): Promise< string > {
	return (
		await host( page ).locator( '[role="status"]' ).allTextContents()
	).join( ' ' );
}

/** Opens the page and waits for the map and the panel's first list (its entries are buttons). */
async function openMap( page: Page, url: string ) {
	await page.goto( url );
	await mapOpened( page );
}

/** Waits for the map of a page just (re)loaded and the panel's first list. */
async function mapOpened( page: Page ) {
	await waitForIdle( page );
	await expect(
		host( page ).locator(
			'.wp-block-cairn-map__places input[type="search"]'
		)
	).toBeVisible();
	await expect(
		host( page )
			.locator(
				'.wp-block-cairn-map__list > li[data-cairn-marker-id] > button'
			)
			.first()
	).toBeVisible();
}

/** What the spec seeds once per site (see KeptSeed: it outlives a worker restarted by a failure). */
interface Seed {
	places: SpecPlace[];
	groups: SpecGroup[];
	urls: typeof urls;
	firstServerPage: number[];
}
/**
 * Titles of the tests of this file, as they are declared (placesTest): the seed is removed once
 * every one of them has run. Counted by the declarations themselves, never by hand.
 */
const declared: string[] = [];
/**
 * `test`, noting the title in `declared`. The cast keeps Playwright's own signature for callers
 * (its overloads cannot be spelled as one parameter list).
 */
const placesTest = ( ( title: string, body: unknown ) => {
	declared.push( title );
	( test as unknown as ( name: string, fn: unknown ) => void )( title, body );
} ) as unknown as typeof test;

test.describe( 'visitors find any place', () => {
	test.use( { storageState: VISITOR_STATE } );

	let dialogs: string[] = [];
	let pageErrors: Error[] = [];
	let seed: KeptSeed< Seed >;

	test.beforeAll( async ( { requestUtils, request, baseURL } ) => {
		test.setTimeout( 600_000 );
		await requestUtils.rest( {
			method: 'POST',
			path: '/wp/v2/settings',
			data: { cairn_maps_access_token: FAKE_PUBLIC_TOKEN },
			timeout: 180_000,
		} );
		seed = new KeptSeed< Seed >( 'places-spec', baseURL!, declared );
		const data = await seed.get(
			requestUtils,
			async ( track ) => {
				const seeded = await seedPlaces(
					requestUtils,
					track,
					GROUPS,
					COUNT,
					BOX,
					( i, word, group ) => {
						if ( i === HOSTILE_INDEX ) {
							return HOSTILE_TITLE;
						}
						// A few accents, for the search that ignores them.
						const name =
							i % 4 === 0 ? word.replace( 'o', 'ó' ) : word;
						return `${ name } ${ KINDS[ group ] }`;
					}
				);
				const block = {
					...VIEW,
					height: '480px',
					markers: {
						source: 'groups',
						groups: seeded.groups.map( ( group ) => group.slug ),
						ids: [],
					},
					cluster: { enabled: true, radius: 80 },
					places: {
						search: true,
						groupFilter: true,
						followMap: true,
					},
				};
				const pages = {
					map: await publishTrackedPage(
						requestUtils,
						track,
						'Places spec: 240 places',
						mapBlock( block )
					),
					locate: await publishTrackedPage(
						requestUtils,
						track,
						'Places spec: nearest first',
						mapBlock( {
							...block,
							controls: {
								zoom: true,
								compass: true,
								scale: false,
								fullscreen: false,
								geolocate: true,
							},
						} )
					),
					languages: await publishTrackedPage(
						requestUtils,
						track,
						'Places spec: label languages',
						mapBlock( {
							...block,
							height: '300px',
							languages: LABEL_LANGUAGES,
						} )
					),
					twoMaps: await publishTrackedPage(
						requestUtils,
						track,
						'Places spec: two maps',
						mapBlock( { ...block, height: '300px' } ) +
							mapBlock( {
								...block,
								height: '300px',
								markers: {
									source: 'ids',
									groups: [],
									ids: seeded.places
										.slice( 0, 70 )
										.map( ( p ) => p.id ),
								},
							} )
					),
				};
				const html = await (
					await request.get( pages.map, { timeout: 120_000 } )
				).text();
				return {
					...seeded,
					urls: pages,
					firstServerPage: idsInHtml( html ),
				};
			},
			async ( kept ) => {
				// Still on this site: the page answers with its map of 240 places.
				const html = await (
					await request.get( kept.urls.map, { timeout: 120_000 } )
				).text();
				return (
					Boolean( kept.urls.languages ) &&
					idsInHtml( html ).join() === kept.firstServerPage.join() &&
					html.includes( `${ COUNT } places on this map` )
				);
			}
		);
		places = data.places;
		groups = data.groups;
		Object.assign( urls, data.urls );
		firstServerPage = data.firstServerPage;
		expect( firstServerPage.length ).toBe( LIST_MAX );
	} );

	test.afterAll( async ( { requestUtils } ) => {
		test.setTimeout( 600_000 );
		await seed?.finish( requestUtils );
	} );

	test.beforeEach( async ( { page } ) => {
		dialogs = [];
		pageErrors = watchPageErrors( page );
		page.on( 'dialog', ( dialog ) => {
			dialogs.push( dialog.message() );
			void dialog.dismiss();
		} );
		await recordMapEvents( page );
		await recordPlacesEvents( page );
	} );

	test.afterEach( async ( { page }, testInfo ) => {
		seed.ran( testInfo.title );
		// Hostile text never ran: no alert(), no element made of a title or a group name.
		expect( dialogs ).toEqual( [] );
		expect( pageErrors.map( ( error ) => error.message ) ).toEqual( [] );
		if ( ! page.isClosed() && page.url().startsWith( 'http' ) ) {
			expect(
				await page.evaluate(
					() => ( window as unknown as { pwned?: unknown } ).pwned
				),
				'a title or group name inserted as HTML ran its onerror'
			).toBeUndefined();
			await expect( page.locator( 'img[src="x"]' ) ).toHaveCount( 0 );
		}
	} );

	placesTest(
		'search by keyboard reaches a place beyond the first 50; its popup takes focus and gives it back',
		async ( { page } ) => {
			const target = beyondFirstFifty().find( ( p ) =>
				p.title.includes( 'ó' )
			);
			expect(
				target,
				'a place with an accent beyond the first 50'
			).toBeTruthy();
			const word = plain(
				target!.title.split( ' ' )[ 0 ]!
			).toUpperCase();

			await openMap( page, urls.map );
			// From the top of the page: the skip link comes before the map and leads past it.
			await tabTo( page, 'a.wp-block-cairn-map__skip', {
				backwards: false,
			} );
			await expect( page.locator( ':focus' ) ).toHaveText(
				/Skip the map/
			);
			await page.keyboard.press( 'Enter' );
			await page.keyboard.press( 'Tab' );
			const landed = await page.evaluate( () => {
				const { activeElement } = document;
				return {
					inPanel: Boolean(
						activeElement?.closest( '.wp-block-cairn-map__places' )
					),
					inMap: Boolean(
						activeElement?.closest( '.wp-block-cairn-map__map' )
					),
				};
			} );
			expect( landed ).toEqual( { inPanel: true, inMap: false } );

			await tabTo( page, 'input[type="search"]', { backwards: false } );
			await expect( page.locator( ':focus' ) ).toHaveAccessibleName(
				'Search places'
			);
			const since = await placesEventCount( page );
			await page.keyboard.type( word, { delay: 30 } );
			const change = await waitForPlacesChange( page, since, {
				search: word,
			} );
			// A few places match (the word, maybe a near spelling), not the map's 240.
			expect( change.total ).toBeGreaterThan( 0 );
			expect( change.total ).toBeLessThan( 20 );
			await expect(
				host( page ).locator( entryButton( target!.id ) )
			).toBeVisible();
			const listed = await listedIds( page );
			expect( listed.length ).toBe( change.total );
			expect( listed ).toContain( target!.id );
			expect( await statusText( page ) ).toContain(
				String( change.total )
			);
			// The map shows the matches only: what it draws counts at most the matches.
			await expect
				.poll( async () => ( await drawnMarkers( page ) ).total )
				.toBeLessThanOrEqual( change.total );
			expect( ( await drawnMarkers( page ) ).total ).toBeGreaterThan( 0 );

			// Tab to the entry and choose it: the map flies there and the popup opens, focused.
			await tabTo( page, entryButton( target!.id ), {
				backwards: false,
			} );
			await page.keyboard.press( 'Enter' );
			const popup = page.locator( '.mapboxgl-popup' );
			await expect( popup ).toBeVisible();
			await expect( popup ).toContainText( target!.title );
			await expect
				.poll( async () => ( await focusedElement( page ) ).inPopup )
				.toBe( true );
			const center = await page.evaluate( () =>
				window.cairnMap().getCenter()
			);
			expect( center.lng ).toBeCloseTo( target!.lng, 2 );
			expect( center.lat ).toBeCloseTo( target!.lat, 2 );

			// Escape closes it, and focus is back on the entry.
			await page.keyboard.press( 'Escape' );
			await expect( popup ).toHaveCount( 0 );
			await expect
				.poll( async () => ( await focusedElement( page ) ).markerId )
				.toBe( String( target!.id ) );

			// Escape in the field clears the search.
			await tabTo( page, 'input[type="search"]', { backwards: true } );
			const cleared = await placesEventCount( page );
			await page.keyboard.press( 'Escape' );
			await expect( page.locator( 'input[type="search"]' ) ).toHaveValue(
				''
			);
			await waitForPlacesChange( page, cleared, { search: '' } );

			// Any string is handled: patterns, other scripts, very long input (no page error). A
			// search without a word (punctuation, emoji) is no search, on the tiled map too.
			for ( const [ text, total ] of [
				[ '(.*[\\', COUNT ],
				[ 'ناقة', 0 ],
				[ '🙂'.repeat( 200 ), COUNT ],
				[ 'x'.repeat( 3000 ), 0 ],
			] as const ) {
				const before = await placesEventCount( page );
				await page.keyboard.insertText( text );
				await waitForPlacesChange( page, before, { total } );
				await expect(
					host( page ).locator( 'li[data-cairn-marker-id]' )
				).toHaveCount( Math.min( total, LIST_MAX ) );
				await page.keyboard.press( 'Escape' );
				await expect(
					page.locator( 'input[type="search"]' )
				).toHaveValue( '' );
			}
		}
	);

	placesTest(
		'the list follows the map: its pages reach a place beyond the first 50, and a keyboard move lists what is in view',
		async ( { page } ) => {
			await openMap( page, urls.map );
			const bounds = await mapBounds( page );
			const inside = ( p: SpecPlace ) =>
				p.lng > bounds.west &&
				p.lng < bounds.east &&
				p.lat > bounds.south &&
				p.lat < bounds.north;
			expect(
				places.every( inside ),
				'every place in the first view'
			).toBe( true );
			const first = await listedIds( page );
			expect( first.length ).toBe( LIST_MAX );

			const target = beyondFirstFifty().find(
				( p ) => ! first.includes( p.id )
			);
			expect( target ).toBeTruthy();
			await tabTo( page, 'button', {
				name: 'Next places',
				backwards: false,
			} );
			for ( let i = 0; i < 5; i++ ) {
				const shown = await listedIds( page );
				if ( shown.includes( target!.id ) ) {
					break;
				}
				await tabTo( page, 'button', { name: 'Next places' } );
				await page.keyboard.press( 'Enter' );
				await expect
					.poll( async () => ( await listedIds( page ) ).join() )
					.not.toBe( shown.join() );
				const next = await listedIds( page );
				expect( next.length ).toBeLessThanOrEqual( LIST_MAX );
				// Another page: none of the places of the page before.
				expect( next.filter( ( id ) => shown.includes( id ) ) ).toEqual(
					[]
				);
			}
			expect( await listedIds( page ) ).toContain( target!.id );
			await tabTo( page, entryButton( target!.id ) );
			await page.keyboard.press( 'Enter' );
			const popup = page.locator( '.mapboxgl-popup' );
			await expect( popup ).toContainText( target!.title );
			await expect
				.poll( async () => ( await focusedElement( page ) ).inPopup )
				.toBe( true );
			// Its close button, by keyboard: focus comes back to the entry.
			await tabTo( page, '.mapboxgl-popup-close-button' );
			await page.keyboard.press( 'Enter' );
			await expect( popup ).toHaveCount( 0 );
			await expect
				.poll( async () => ( await focusedElement( page ) ).markerId )
				.toBe( String( target!.id ) );

			// Move the map by keyboard (out from the place, then a pan): after each move the list
			// holds exactly the places in view (those within 2 % of an edge may go either way).
			await tabTo( page, 'canvas.mapboxgl-canvas' );
			const press = async ( key: string ) => {
				const moved = nextMoveEnd( page );
				await page.keyboard.press( key );
				await moved;
			};
			const inView = async () => {
				const now = await mapBounds( page );
				const margin = {
					lng: ( now.east - now.west ) * 0.02,
					lat: ( now.north - now.south ) * 0.02,
				};
				const within = ( p: SpecPlace, m: number ) =>
					p.lng > now.west + m * margin.lng &&
					p.lng < now.east - m * margin.lng &&
					p.lat > now.south + m * margin.lat &&
					p.lat < now.north - m * margin.lat;
				return {
					surely: places
						.filter( ( p ) => within( p, 1 ) )
						.map( ( p ) => p.id ),
					maybe: places
						.filter( ( p ) => within( p, -1 ) )
						.map( ( p ) => p.id ),
				};
			};
			for ( const key of [
				'-',
				'-',
				'-',
				'-',
				'-',
				'-',
				'-',
				'ArrowRight',
				'ArrowUp',
			] ) {
				await press( key );
			}
			// A view of a few dozen places at most (one page of the list).
			for (
				let i = 0;
				i < 4 && ( await inView() ).maybe.length > LIST_MAX;
				i++
			) {
				await press( '=' );
			}
			const { surely, maybe } = await inView();
			expect( surely.length, 'a view with a few places' ).toBeGreaterThan(
				2
			);
			expect( maybe.length ).toBeLessThanOrEqual( LIST_MAX );
			// One more move (the map comes to rest), then the list must follow it: it comes to hold
			// the places in view, and the last announcement counts them.
			await press( 'ArrowLeft' );
			const expected = await inView();
			const followsView = async () => {
				const shown = await listedIds( page );
				return (
					expected.surely.every( ( id ) => shown.includes( id ) ) &&
					shown.every( ( id ) => expected.maybe.includes( id ) )
				);
			};
			await expect.poll( followsView ).toBe( true );
			const listed = await listedIds( page );
			const lastInView = () =>
				page.evaluate(
					() =>
						window.cairnPlacesEvents[
							window.cairnPlacesEvents.length - 1
						]?.inView
				);
			await expect.poll( lastInView ).toBe( listed.length );
			expect( listed.length ).toBeGreaterThan( 0 );
			expect( await statusText( page ) ).toContain(
				String( listed.length )
			);
		}
	);

	placesTest(
		'a group toggle hides its places from the clusters the map draws, and "Show all" brings them back',
		async ( { page } ) => {
			await openMap( page, urls.map );
			const start = await drawnMarkers( page );
			expect( start.total ).toBe( COUNT );
			expect( start.clusterCounts.length ).toBeGreaterThan( 0 );

			const [ parks, forts ] = [ groups[ 2 ]!, groups[ 4 ]! ];
			const inGroup = ( slug: string ) =>
				places.filter( ( p ) => p.group === slug ).map( ( p ) => p.id );
			// One toggle per group, with its name and count; the hostile name is text.
			for ( const group of groups ) {
				const toggle = host( page ).locator(
					`button[data-cairn-group="${ group.slug }"]`
				);
				await expect( toggle ).toHaveCount( 1 );
				await expect( toggle ).toContainText(
					String( inGroup( group.slug ).length )
				);
			}
			await expect(
				host( page ).locator(
					`button[data-cairn-group="${ parks.slug }"]`
				)
			).toContainText( parks.name );
			await expect(
				host( page ).locator(
					`button[data-cairn-group="${ forts.slug }"]`
				)
			).toContainText( 'img src=x onerror=alert(3)' );

			const toggle = `button[data-cairn-group="${ parks.slug }"]`;
			// A shown group's toggle is pressed; hiding the group releases it.
			await expect( host( page ).locator( toggle ) ).toHaveAttribute(
				'aria-pressed',
				'true'
			);
			await tabTo( page, toggle, { backwards: false } );
			let since = await placesEventCount( page );
			await page.keyboard.press( 'Space' );
			const hidden = await waitForPlacesChange( page, since, {
				hiddenGroups: [ parks.slug ],
			} );
			await expect( host( page ).locator( toggle ) ).toHaveAttribute(
				'aria-pressed',
				'false'
			);
			const withoutParks = COUNT - inGroup( parks.slug ).length;
			expect( hidden.total ).toBe( withoutParks );
			// The map's clusters are rebuilt without the group (a layer filter could not do that).
			await expect
				.poll( async () => ( await drawnMarkers( page ) ).total )
				.toBe( withoutParks );
			const after = await drawnMarkers( page );
			expect( after.clusterCounts ).not.toEqual( start.clusterCounts );
			const listed = await listedIds( page );
			expect( listed.length ).toBe( LIST_MAX );
			expect(
				listed.filter( ( id ) => inGroup( parks.slug ).includes( id ) )
			).toEqual( [] );
			expect( await statusText( page ) ).toMatch( /1 group hidden/ );

			// A second group, the one with the hostile name.
			await tabTo( page, `button[data-cairn-group="${ forts.slug }"]` );
			since = await placesEventCount( page );
			await page.keyboard.press( 'Enter' );
			await waitForPlacesChange( page, since, {
				hiddenGroups: [ parks.slug, forts.slug ],
			} );
			const both = withoutParks - inGroup( forts.slug ).length;
			await expect
				.poll( async () => ( await drawnMarkers( page ) ).total )
				.toBe( both );
			expect( await statusText( page ) ).toMatch( /2 groups hidden/ );
			expect( await statusText( page ) ).not.toContain( '<img' );

			// "Show all" brings every place back, on the map too.
			await tabTo( page, 'button', { name: 'Show all' } );
			since = await placesEventCount( page );
			await page.keyboard.press( 'Enter' );
			await waitForPlacesChange( page, since, {
				hiddenGroups: [],
				total: COUNT,
			} );
			await expect
				.poll( async () => ( await drawnMarkers( page ) ).total )
				.toBe( COUNT );
			await expect( host( page ).locator( toggle ) ).toHaveAttribute(
				'aria-pressed',
				'true'
			);
		}
	);

	placesTest(
		'?cairn-place=<id> opens that place from inside a cluster; "Copy link" copies such a link; unknown ids are ignored',
		async ( { page, context } ) => {
			const target = beyondFirstFifty()[ 3 ]!;
			// At the first view, the place is inside a cluster.
			await openMap( page, urls.map );
			expect( ( await drawnMarkers( page ) ).points ).not.toContain(
				target.id
			);

			await page.goto(
				withQuery( urls.map, 'cairn-place', String( target.id ) )
			);
			await waitForIdle( page );
			const popup = page.locator( '.mapboxgl-popup' );
			await expect( popup ).toBeVisible();
			await expect( popup ).toContainText( target.title );
			await waitForIdle( page );
			// The map flew in: the place is drawn on its own now, under its popup.
			await expect
				.poll( async () => ( await drawnMarkers( page ) ).points )
				.toContain( target.id );

			// Copy link, by keyboard: the copied address opens the same place.
			await context.grantPermissions(
				[ 'clipboard-read', 'clipboard-write' ],
				{
					origin: new URL( urls.map ).origin,
				}
			);
			await tabTo( page, '.mapboxgl-popup button', {
				name: 'Copy link',
				backwards: false,
			} );
			await page.keyboard.press( 'Enter' );
			await expect
				.poll( () =>
					page.evaluate( () => navigator.clipboard.readText() )
				)
				.toContain( `cairn-place=${ target.id }` );
			const copied = await page.evaluate( () =>
				navigator.clipboard.readText()
			);
			expect( new URL( copied ).searchParams.get( 'cairn-place' ) ).toBe(
				String( target.id )
			);
			expect( new URL( copied ).pathname ).toBe(
				new URL( urls.map ).pathname
			);

			// Unknown and malformed ids: the map is ready, quietly, with no popup and no alert. The
			// moment that proves it: the places worker answers in order, and the panel asks for the
			// place in the address before the visitor can search; once a later search is answered
			// (its change sent), a place found would already be flying in.
			for ( const value of [
				'999999999',
				'-3',
				'12abc',
				'"><img src=x onerror=alert(9)>',
			] ) {
				await openMap(
					page,
					withQuery( urls.map, 'cairn-place', value )
				);
				await expect( host( page ) ).toHaveAttribute(
					'data-cairn-state',
					'ready'
				);
				const since = await placesEventCount( page );
				await host( page )
					.locator( 'input[type="search"]' )
					.fill( 'park' );
				await waitForPlacesChange( page, since, { search: 'park' } );
				expect(
					await page.evaluate( () => ( {
						moving: window.cairnMap().isMoving(),
						zoom: window.cairnMap().getZoom(),
					} ) )
				).toEqual( { moving: false, zoom: VIEW.zoom } );
				await expect( page.locator( '.mapboxgl-popup' ) ).toHaveCount(
					0
				);
				await expect( page.locator( '[role="alert"]' ) ).toHaveCount(
					0
				);
				expect(
					await page.evaluate( () => window.cairnEvents.errors )
				).toEqual( [] );
			}
		}
	);

	placesTest(
		'after the visitor locates themselves, the list is nearest first, with distances',
		async ( { page, context } ) => {
			const near = places[ 150 ]!;
			const me = { lng: near.lng + 0.004, lat: near.lat - 0.003 };
			await context.grantPermissions( [ 'geolocation' ], {
				origin: new URL( urls.locate ).origin,
			} );
			await context.setGeolocation( {
				latitude: me.lat,
				longitude: me.lng,
			} );
			await openMap( page, urls.locate );

			await tabTo( page, 'button.mapboxgl-ctrl-geolocate', {
				backwards: false,
			} );
			const moved = nextMoveEnd( page );
			await page.keyboard.press( 'Enter' );
			await moved;
			// Zoom out by keyboard until a few places are in view.
			await tabTo( page, 'canvas.mapboxgl-canvas' );
			for ( let i = 0; i < 7; i++ ) {
				const out = nextMoveEnd( page );
				await page.keyboard.press( '-' );
				await out;
			}
			// The list of the view the map came to rest at: a few places, nearest first.
			const sortedByDistance = async () => {
				const shown = await listedIds( page );
				const byDistance = [ ...shown ].sort(
					( a, b ) =>
						distanceKm( me, placeById( a ) ) -
						distanceKm( me, placeById( b ) )
				);
				return {
					few: shown.length > 2,
					sorted: shown.join() === byDistance.join(),
					first: shown[ 0 ],
				};
			};
			await expect
				.poll( sortedByDistance )
				.toEqual( { few: true, sorted: true, first: near.id } );
			// An en_US site measures in miles: each entry says how far it is in miles (feet under
			// a tenth of a mile), the nearest exactly as a visitor reads it.
			const miles = ( distanceKm( me, near ) * 1000 ) / 1609.344;
			const nearest = new Intl.NumberFormat( 'en-US', {
				style: 'unit',
				unit: 'mile',
				maximumFractionDigits: 1,
			} ).format( miles );
			expect( miles ).toBeGreaterThan( 0.1 );
			// The distance is the entry's text, beside its button (a card: issue 24).
			const first = host( page ).locator(
				`li[data-cairn-marker-id="${ near.id }"]`
			);
			await expect(
				first.locator( '.wp-block-cairn-map__distance' )
			).toHaveText( ` — ${ nearest }` );
			const texts = await host( page )
				.locator(
					'.wp-block-cairn-map__list .wp-block-cairn-map__distance'
				)
				.allTextContents();
			expect( texts.length ).toBe( ( await listedIds( page ) ).length );
			for ( const text of texts ) {
				expect( text ).toMatch( /^ — [\d.,]+ (mi|ft)$/ );
			}
		}
	);

	placesTest(
		'without JavaScript, the list pages through every place of the map (per map on the page)',
		async ( { browser } ) => {
			const context = await browser.newContext( {
				javaScriptEnabled: false,
				storageState: VISITOR_STATE,
				baseURL: new URL( urls.map ).origin,
			} );
			const page = await context.newPage();
			try {
				await page.goto( urls.map );
				// The skip link comes before the map element, in the block's own markup.
				const html = await page
					.locator( '.wp-block-cairn-map' )
					.first()
					.innerHTML();
				const skip = page
					.locator( 'a.wp-block-cairn-map__skip' )
					.first();
				await expect( skip ).toHaveText( /Skip the map/ );
				expect(
					html.indexOf( 'wp-block-cairn-map__skip' )
				).toBeGreaterThan( -1 );
				expect(
					html.indexOf( 'wp-block-cairn-map__skip' )
				).toBeLessThan( html.indexOf( 'wp-block-cairn-map__map"' ) );
				const target = (
					( await skip.getAttribute( 'href' ) ) ?? ''
				).replace( /^.*#/, '' );
				const panel = page.locator( `[id="${ target }"]` );
				await expect( panel ).toHaveClass(
					/wp-block-cairn-map__places/
				);
				await expect( panel ).toHaveAttribute( 'role', 'region' );
				await expect( panel ).toHaveAccessibleName( 'Places' );
				await expect( panel.locator( 'h2' ) ).toContainText(
					`${ COUNT } places on this map`
				);

				const seen: number[] = [];
				let pages = 0;
				for ( ; pages < 10; pages++ ) {
					const ids = idsInHtml(
						await page
							.locator( '.wp-block-cairn-map__list' )
							.first()
							.innerHTML()
					);
					expect( ids.length ).toBeGreaterThan( 0 );
					expect( ids.length ).toBeLessThanOrEqual( LIST_MAX );
					seen.push( ...ids );
					const pager = page
						.locator( 'nav.wp-block-cairn-map__pages' )
						.first();
					if ( pages === 1 ) {
						await expect( pager ).toContainText(
							`51–100 of ${ COUNT }`
						);
					}
					if ( pages > 0 ) {
						await expect(
							pager.getByRole( 'link', {
								name: 'Previous places',
							} )
						).toHaveCount( 1 );
					}
					const next = pager.getByRole( 'link', {
						name: 'Next places',
					} );
					if ( ( await next.count() ) === 0 ) {
						break;
					}
					expect( await next.getAttribute( 'href' ) ).toContain(
						`cairn-places=${ pages + 2 }`
					);
					await Promise.all( [
						page.waitForURL( /cairn-places=/ ),
						next.press( 'Enter' ),
					] );
					await page.waitForLoadState();
				}
				expect( pages + 1 ).toBe( Math.ceil( COUNT / LIST_MAX ) );
				expect( new Set( seen ).size ).toBe( seen.length );
				expect( [ ...seen ].sort() ).toEqual(
					places.map( ( p ) => p.id ).sort()
				);
				// The hostile title is text in the server's list too.
				await page.goto( urls.map );
				expect( await page.locator( 'img[src="x"]' ).count() ).toBe(
					0
				);

				// Two maps: the second pages with its own parameter; the first stays on page 1.
				await page.goto( urls.twoMaps );
				const second = page.locator( '.wp-block-cairn-map' ).nth( 1 );
				const firstList = idsInHtml(
					await page
						.locator( '.wp-block-cairn-map' )
						.first()
						.locator( '.wp-block-cairn-map__list' )
						.innerHTML()
				);
				const next = second
					.locator( 'nav.wp-block-cairn-map__pages' )
					.getByRole( 'link', { name: 'Next places' } );
				expect( await next.getAttribute( 'href' ) ).toContain(
					'cairn-places-2=2'
				);
				await Promise.all( [
					page.waitForURL( /cairn-places-2=2/ ),
					next.press( 'Enter' ),
				] );
				await page.waitForLoadState();
				const secondPage = idsInHtml(
					await page
						.locator( '.wp-block-cairn-map' )
						.nth( 1 )
						.locator( '.wp-block-cairn-map__list' )
						.innerHTML()
				);
				expect( secondPage.length ).toBe( 20 );
				expect(
					idsInHtml(
						await page
							.locator( '.wp-block-cairn-map' )
							.first()
							.locator( '.wp-block-cairn-map__list' )
							.innerHTML()
					)
				).toEqual( firstList );
			} finally {
				await context.close();
			}
		}
	);

	placesTest(
		'axe-core finds no serious fault with the panel in use; hostile text stays text in list, legend and status',
		async ( { page } ) => {
			await openMap( page, urls.map );
			// Search for the hostile place: its title is the entry's text, character for character.
			await tabTo( page, 'input[type="search"]', { backwards: false } );
			const since = await placesEventCount( page );
			await page.keyboard.type( 'hostile' );
			await waitForPlacesChange( page, since, { search: 'hostile' } );
			const hostile = places[ HOSTILE_INDEX ]!;
			const entry = host( page ).locator( entryButton( hostile.id ) );
			await expect( entry ).toContainText( HOSTILE_TEXT );
			await expect( entry.locator( 'img' ) ).toHaveCount( 0 );
			await expect(
				host( page ).locator(
					'.wp-block-cairn-map__places img[onerror]'
				)
			).toHaveCount( 0 );
			// And a group hidden, so that the legend, list and status all have something to say.
			await tabTo(
				page,
				`button[data-cairn-group="${ groups[ 0 ]!.slug }"]`,
				{
					backwards: false,
				}
			);
			const hiding = await placesEventCount( page );
			await page.keyboard.press( 'Enter' );
			await waitForPlacesChange( page, hiding, {
				hiddenGroups: [ groups[ 0 ]!.slug ],
			} );
			// The popup of the hostile place: its title as text too, once the map came to rest.
			await tabTo( page, entryButton( hostile.id ) );
			await page.keyboard.press( 'Enter' );
			await expect( page.locator( '.mapboxgl-popup' ) ).toContainText(
				HOSTILE_TEXT
			);
			await waitForIdle( page );

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
			// (window.pwned, which the hostile title sets if inserted as HTML, is checked after each
			// test.)
		}
	);
	placesTest(
		'a search with no match says so, aloud and in the panel; a view with no place says so too',
		async ( { page } ) => {
			await openMap( page, urls.map );
			const since = await placesEventCount( page );
			await host( page )
				.locator( 'input[type="search"]' )
				.fill( 'Qwyzzt' );
			const change = await waitForPlacesChange( page, since, {
				search: 'Qwyzzt',
			} );
			expect( change.total ).toBe( 0 );
			await expect(
				host( page ).locator( '.wp-block-cairn-map__empty' )
			).toHaveText( 'No place matches your search.' );
			await expect(
				host( page ).locator( 'li[data-cairn-marker-id]' )
			).toHaveCount( 0 );
			expect( await statusText( page ) ).toBe(
				'0 places match “Qwyzzt”.'
			);
			await expect(
				host( page ).getByRole( 'button', {
					name: 'Show all results on the map',
				} )
			).toHaveCount( 0 );
			await expect
				.poll( async () => ( await drawnMarkers( page ) ).total )
				.toBe( 0 );

			// No search, and the map moved where there is no place (the sea west of the places).
			const cleared = await placesEventCount( page );
			await host( page ).locator( 'input[type="search"]' ).fill( '' );
			await waitForPlacesChange( page, cleared, {
				search: '',
				total: COUNT,
			} );
			const moved = await placesEventCount( page );
			await page.evaluate( () =>
				window.cairnMap().jumpTo( { center: [ -20, 45 ], zoom: 6 } )
			);
			await waitForPlacesChange( page, moved, { inView: 0 } );
			await expect(
				host( page ).locator( '.wp-block-cairn-map__empty' )
			).toHaveText( 'No places in view. Zoom out or move the map.' );
			expect( await statusText( page ) ).toBe( '0 places in view.' );
		}
	);

	placesTest(
		'"Show all results on the map" fits the map to every match',
		async ( { page } ) => {
			const harbours = places.filter(
				( p ) => p.group === 'places-spec-harbours'
			);
			await openMap( page, urls.map );
			const since = await placesEventCount( page );
			await host( page )
				.locator( 'input[type="search"]' )
				.fill( 'Harbour' );
			const change = await waitForPlacesChange( page, since, {
				search: 'Harbour',
			} );
			expect( change.total ).toBe( harbours.length );
			expect( ( await listedIds( page ) ).sort() ).toEqual(
				harbours.map( ( p ) => p.id ).sort()
			);
			// Close in on one of them (the list flies there), away from most of the others.
			const one = harbours[ 7 ]!;
			await host( page ).locator( entryButton( one.id ) ).click();
			await expect( page.locator( '.mapboxgl-popup' ) ).toContainText(
				one.title
			);
			await waitForIdle( page );
			const inside = (
				bounds: Awaited< ReturnType< typeof mapBounds > >,
				p: SpecPlace
			) =>
				p.lng >= bounds.west &&
				p.lng <= bounds.east &&
				p.lat >= bounds.south &&
				p.lat <= bounds.north;
			const close = await mapBounds( page );
			expect(
				harbours.filter( ( p ) => ! inside( close, p ) ).length,
				'most harbours out of view before'
			).toBeGreaterThan( harbours.length / 2 );

			const fitted = nextMoveEnd( page );
			await host( page )
				.getByRole( 'button', { name: 'Show all results on the map' } )
				.click();
			await fitted;
			// Every match is on the canvas, where a visitor sees it, and the map draws them all
			// (its clusters and single places count every match).
			const offCanvas = await page.evaluate( ( matches ) => {
				const map = window.cairnMap();
				const { clientWidth: width, clientHeight: height } =
					map.getCanvas();
				return matches
					.filter( ( p ) => {
						const { x, y } = map.project( [ p.lng, p.lat ] );
						return x < 0 || x > width || y < 0 || y > height;
					} )
					.map( ( p ) => p.title );
			}, harbours );
			expect( offCanvas ).toEqual( [] );
			await expect
				.poll( async () => ( await drawnMarkers( page ) ).total )
				.toBe( harbours.length );
			// Fitted, not merely zoomed out: the view is not much larger than the matches' box.
			const bounds = await mapBounds( page );
			const width =
				Math.max( ...harbours.map( ( p ) => p.lng ) ) -
				Math.min( ...harbours.map( ( p ) => p.lng ) );
			expect( bounds.east - bounds.west ).toBeLessThan( width * 2 );
		}
	);

	placesTest(
		'a cluster clicked while a group is hidden opens onto places of the shown groups only',
		async ( { page } ) => {
			const parks = groups[ 2 ]!;
			const parkIds = places
				.filter( ( p ) => p.group === parks.slug )
				.map( ( p ) => p.id );
			await openMap( page, urls.map );
			const since = await placesEventCount( page );
			await host( page )
				.locator( `button[data-cairn-group="${ parks.slug }"]` )
				.click();
			await waitForPlacesChange( page, since, {
				hiddenGroups: [ parks.slug ],
				total: COUNT - parkIds.length,
			} );
			await expect
				.poll( async () => ( await drawnMarkers( page ) ).total )
				.toBe( COUNT - parkIds.length );

			// The biggest cluster the map draws now, where it is on the screen.
			const cluster = await page.evaluate( () => {
				const map = window.cairnMap();
				const [ biggest ] = map
					.queryRenderedFeatures( { layers: [ 'cairn-clusters' ] } )
					.sort(
						( a, b ) =>
							Number( b.properties?.point_count ) -
							Number( a.properties?.point_count )
					);
				const [ lng, lat ] = ( biggest!.geometry as GeoJSON.Point )
					.coordinates as [ number, number ];
				const { x, y } = map.project( [ lng, lat ] );
				return { x, y, zoom: map.getZoom() };
			} );
			const moving = await placesEventCount( page );
			const expanded = nextMoveEnd( page );
			await host( page )
				.locator( 'canvas.mapboxgl-canvas' )
				.click( { position: { x: cluster.x, y: cluster.y } } );
			await expanded;
			expect(
				await page.evaluate( () => window.cairnMap().getZoom() )
			).toBeGreaterThan( cluster.zoom );
			const change = await waitForPlacesChange( page, moving, {
				hiddenGroups: [ parks.slug ],
			} );
			expect( change.inView ).toBeGreaterThan( 0 );
			// Neither the list of the view nor the map shows a park.
			const listed = await listedIds( page );
			expect( listed.length ).toBeGreaterThan( 0 );
			expect( listed.filter( ( id ) => parkIds.includes( id ) ) ).toEqual(
				[]
			);
			const drawn = await drawnMarkers( page );
			expect(
				drawn.points.filter( ( id ) => parkIds.includes( id ) )
			).toEqual( [] );
		}
	);

	placesTest(
		'the label language a visitor chooses comes back when the page reloads in the same visit',
		async ( { page } ) => {
			const language = () =>
				page.evaluate( () => window.cairnMap().getLanguage() );
			await openMap( page, urls.languages );
			const choice = host( page ).getByRole( 'combobox', {
				name: 'Map labels',
			} );
			await expect( choice ).toHaveValue( '' );
			await choice.selectOption( 'fr' );
			await expect.poll( language ).toBe( 'fr' );

			await page.reload();
			await mapOpened( page );
			await expect( choice ).toHaveValue( 'fr' );
			expect( await language() ).toBe( 'fr' );

			// Another visit (a new tab has its own session): the block's own language again.
			const other = await page.context().newPage();
			try {
				await recordMapEvents( other );
				await recordPlacesEvents( other );
				await openMap( other, urls.languages );
				await expect(
					host( other ).getByRole( 'combobox', {
						name: 'Map labels',
					} )
				).toHaveValue( '' );
			} finally {
				await other.close();
			}
		}
	);

	placesTest(
		'under a Content Security Policy that forbids workers, every place is drawn and search works',
		async ( { page } ) => {
			// `worker-src 'none'` as a site's policy would set it. mapbox-gl itself cannot draw
			// without its own workers (sent as a header, the policy leaves visitors no map at
			// all), so the policy arrives as a <meta> once the style is in and the markers' source
			// is added (or just as a places worker is about to start), after mapbox-gl's workers:
			// a real policy the browser enforces from then on. A places worker is told by its script (a blob holding the engine's
			// messages).
			await page.addInitScript( () => {
				const view = window as unknown as {
					cairnRefusedWorkers: string[];
				};
				view.cairnRefusedWorkers = [];
				document.addEventListener(
					'securitypolicyviolation',
					( event ) => {
						if ( event.effectiveDirective === 'worker-src' ) {
							view.cairnRefusedWorkers.push( event.blockedURI );
						}
					}
				);
				const placesBlobs = new WeakSet< Blob >();
				const placesUrls = new Set< string >();
				const NativeBlob = window.Blob;
				window.Blob = class extends NativeBlob {
					constructor(
						parts?: BlobPart[],
						options?: BlobPropertyBag
					) {
						super( parts, options );
						if (
							parts?.some(
								( part ) =>
									typeof part === 'string' &&
									part.includes( 'No places are loaded.' )
							)
						) {
							placesBlobs.add( this );
						}
					}
				};
				const createObjectURL = URL.createObjectURL.bind( URL );
				URL.createObjectURL = ( object: Blob | MediaSource ) => {
					const url = createObjectURL( object );
					if (
						object instanceof NativeBlob &&
						placesBlobs.has( object )
					) {
						placesUrls.add( url );
					}
					return url;
				};
				const enforce = () => {
					if ( ! document.querySelector( 'meta[http-equiv]' ) ) {
						const meta = document.createElement( 'meta' );
						meta.httpEquiv = 'Content-Security-Policy';
						meta.content = "worker-src 'none'";
						document.head.append( meta );
					}
				};
				const NativeWorker = window.Worker;
				window.Worker = class extends NativeWorker {
					constructor( url: string | URL, options?: WorkerOptions ) {
						if ( placesUrls.has( String( url ) ) ) {
							enforce();
						}
						super( url, options );
					}
				};
				let lib: { Map: { prototype: Record< string, unknown > } };
				Object.defineProperty( window, 'mapboxgl', {
					configurable: true,
					get: () => lib,
					set: ( value ) => {
						lib = value;
						const proto = value.Map.prototype;
						const addSource = proto.addSource as (
							id: string,
							...rest: unknown[]
						) => unknown;
						proto.addSource = function (
							id: string,
							...rest: unknown[]
						) {
							if ( id === 'cairn-markers' ) {
								enforce();
							}
							return addSource.call( this, id, ...rest );
						};
					},
				} );
			} );
			await openMap( page, urls.map );
			// The policy is in force: a worker started now is refused.
			await page.evaluate( () => {
				try {
					new Worker(
						URL.createObjectURL( new Blob( [ 'postMessage(1)' ] ) )
					);
				} catch {
					// Refused at once: the violation event says so too.
				}
			} );
			await expect
				.poll( () =>
					page.evaluate(
						() =>
							(
								window as unknown as {
									cairnRefusedWorkers: string[];
								}
							 ).cairnRefusedWorkers.length
					)
				)
				.toBeGreaterThan( 0 );
			await expect
				.poll( async () => ( await drawnMarkers( page ) ).total )
				.toBe( COUNT );
			const target = beyondFirstFifty()[ 5 ]!;
			const word = target.title.split( ' ' )[ 0 ]!;
			const since = await placesEventCount( page );
			await host( page ).locator( 'input[type="search"]' ).fill( word );
			const change = await waitForPlacesChange( page, since, {
				search: word,
			} );
			expect( change.total ).toBeGreaterThan( 0 );
			expect( await listedIds( page ) ).toContain( target.id );
		}
	);
} );
