/**
 * Helpers for places.spec.ts (issue 11, the places panel): seed a map of many places in several
 * groups, record the wrapper's `cairn:places-change` events, move focus with the keyboard only,
 * and read what the map draws (cluster counts and single places) through mapbox-gl.
 */
import { distance } from '../../../packages/map/src/places/engine';
import type { Page } from '@playwright/test';
import type { RequestUtils } from '@wordpress/e2e-test-utils-playwright';

import { expect } from '../fixtures/maps-service';
import type { CreatedItem } from './kept-seed';

/** `detail` of `cairn:places-change`, as the contract (DESIGN.md "Places") gives it. */
export interface PlacesChange {
	search: string;
	hiddenGroups: string[];
	total: number;
	inView: number;
}

declare global {
	interface Window {
		/** Every `cairn:places-change` of the page, in order (see recordPlacesEvents). */
		cairnPlacesEvents: Array< PlacesChange & { at: number } >;
	}
}

/**
 * Before the page's own scripts run: keep every `cairn:places-change` (bubbling from the wrapper)
 * in `window.cairnPlacesEvents`.
 *
 * @param page The page, before `goto`.
 */
export async function recordPlacesEvents( page: Page ): Promise< void > {
	await page.addInitScript( () => {
		window.cairnPlacesEvents = [];
		document.addEventListener( 'cairn:places-change', ( event ) => {
			const detail = ( event as CustomEvent ).detail ?? {};
			window.cairnPlacesEvents.push( {
				search: detail.search,
				hiddenGroups: Array.isArray( detail.hiddenGroups )
					? [ ...detail.hiddenGroups ]
					: detail.hiddenGroups,
				total: detail.total,
				inView: detail.inView,
				at: performance.now(),
			} );
		} );
	} );
}

/** How many `cairn:places-change` events the page has sent so far. */
export function placesEventCount( page: Page ): Promise< number > {
	return page.evaluate( () => window.cairnPlacesEvents.length );
}

/**
 * Waits for a `cairn:places-change` sent after the `since`-th one whose detail matches `match`
 * (every given key equal; `hiddenGroups` compared as a set), and returns it.
 *
 * @param page    The page.
 * @param since   placesEventCount() before the action.
 * @param match   Expected detail values.
 * @param timeout ms.
 */
export async function waitForPlacesChange(
	page: Page,
	since: number,
	match: Partial< PlacesChange > = {},
	timeout = 30_000
): Promise< PlacesChange > {
	const handle = await page.waitForFunction(
		( { from, expected } ) => {
			const same = ( key: string, a: unknown, b: unknown ) => {
				if ( Array.isArray( a ) && Array.isArray( b ) ) {
					return (
						a.length === b.length &&
						a.every( ( v ) => b.includes( v ) )
					);
				}
				if ( key === 'search' ) {
					// The field's text, however the panel trims or cases it.
					return (
						String( a ?? '' )
							.trim()
							.toLowerCase() ===
						String( b ?? '' )
							.trim()
							.toLowerCase()
					);
				}
				return a === b;
			};
			const found = window.cairnPlacesEvents
				.slice( from )
				.reverse()
				.find( ( event ) =>
					Object.entries( expected ).every( ( [ key, value ] ) =>
						same( key, event[ key as keyof PlacesChange ], value )
					)
				);
			return found ?? null;
		},
		{ from: since, expected: match },
		{ timeout, polling: 50 }
	);
	return ( await handle.jsonValue() ) as PlacesChange;
}

/**
 * Presses Tab (or Shift+Tab) until the focused element matches `selector` (CSS, tested with
 * `Element.matches`) and, when given, has `name` in its accessible label or text; fails after
 * `max` presses. Keyboard only: no `focus()`, no mouse. Without `backwards` it first tries
 * Shift+Tab for a few steps (the target is often just behind), then Tab.
 *
 * @param page              The page.
 * @param selector          What must end up focused.
 * @param options           Options.
 * @param options.name      Text the element's label or text must contain.
 * @param options.backwards Shift+Tab only (true) or Tab only (false).
 * @param options.max       Most presses.
 */
export async function tabTo(
	page: Page,
	selector: string,
	options: { name?: string; backwards?: boolean; max?: number } = {}
): Promise< void > {
	const { name = '', backwards, max = 150 } = options;
	const focused = () =>
		page.evaluate(
			( { css, label } ) => {
				// In the page: its focus, read as a visitor's keyboard leaves it.
				const { activeElement: element } = document;
				if ( ! element?.matches( css ) ) {
					return false;
				}
				if ( ! label ) {
					return true;
				}
				const text = `${ element.getAttribute( 'aria-label' ) ?? '' } ${
					element.textContent ?? ''
				}`;
				return text.includes( label );
			},
			{ css: selector, label: name }
		);
	if ( await focused() ) {
		return;
	}
	const tries: Array< [ string, number ] > =
		backwards === undefined
			? [
					[ 'Shift+Tab', 12 ],
					[ 'Tab', max ],
				]
			: [ [ backwards ? 'Shift+Tab' : 'Tab', max ] ];
	for ( const [ key, presses ] of tries ) {
		for ( let i = 0; i < presses; i++ ) {
			await page.keyboard.press( key );
			if ( await focused() ) {
				return;
			}
		}
		if ( key === 'Shift+Tab' && backwards === undefined ) {
			// Back to where it started, then forwards.
			for ( let i = 0; i < presses; i++ ) {
				await page.keyboard.press( 'Tab' );
			}
		}
	}
	expect(
		await focused(),
		`the keyboard never reached ${ selector }${ name ? ` "${ name }"` : '' }`
	).toBe( true );
}

/** What the focused element is: tag, classes, text, accessible-ish name, and the popup it is in. */
export function focusedElement( page: Page ) {
	return page.evaluate( () => {
		const { activeElement: element } = document;
		return {
			tag: element?.tagName.toLowerCase() ?? '',
			text: element?.textContent?.trim() ?? '',
			inPopup: Boolean( element?.closest( '.mapboxgl-popup' ) ),
			markerId:
				element
					?.closest( 'li[data-cairn-marker-id]' )
					?.getAttribute( 'data-cairn-marker-id' ) ?? null,
		};
	} );
}

/**
 * What the map draws now: each cluster once (by `cluster_id`) with its `point_count`, the ids of
 * single places, and their sum. Read through `queryRenderedFeatures` on the block's layers.
 *
 * @param page  The page.
 * @param index Map block on the page.
 */
export function drawnMarkers( page: Page, index = 0 ) {
	return page.evaluate( ( i ) => {
		const map = window.cairnMap( i );
		const clusters = new Map< number, number >();
		if ( map.getLayer( 'cairn-clusters' ) ) {
			for ( const feature of map.queryRenderedFeatures( {
				layers: [ 'cairn-clusters' ],
			} ) ) {
				clusters.set(
					Number( feature.properties?.cluster_id ),
					Number( feature.properties?.point_count )
				);
			}
		}
		const points = new Set< number >();
		const pointLayers = [ 'cairn-points', 'cairn-point-icons' ].filter(
			( layer ) => map.getLayer( layer )
		);
		if ( pointLayers.length ) {
			for ( const feature of map.queryRenderedFeatures( {
				layers: pointLayers,
			} ) ) {
				points.add( Number( feature.id ) );
			}
		}
		const counts = [ ...clusters.values() ].sort( ( a, b ) => b - a );
		return {
			clusterCounts: counts,
			points: [ ...points ],
			total: counts.reduce( ( a, b ) => a + b, 0 ) + points.size,
		};
	}, index );
}

/** The map's visible bounds (west, south, east, north). */
export function mapBounds( page: Page, index = 0 ) {
	return page.evaluate( ( i ) => {
		const bounds = window.cairnMap( i ).getBounds();
		if ( ! bounds ) {
			throw new Error( 'no bounds' );
		}
		return {
			west: bounds.getWest(),
			south: bounds.getSouth(),
			east: bounds.getEast(),
			north: bounds.getNorth(),
		};
	}, index );
}

/** Ids of the list entries (`li[data-cairn-marker-id]`) of the `index`-th map, in order. */
export function listedIds( page: Page, index = 0 ): Promise< number[] > {
	return page
		.locator( '.wp-block-cairn-map' )
		.nth( index )
		.locator( '.wp-block-cairn-map__list > li[data-cairn-marker-id]' )
		.evaluateAll( ( items ) =>
			items.map( ( item ) =>
				Number( item.getAttribute( 'data-cairn-marker-id' ) )
			)
		);
}

export interface SpecPlace {
	id: number;
	title: string;
	lng: number;
	lat: number;
	group: string;
}

export interface SpecGroup {
	slug: string;
	name: string;
	id: number;
}

/**
 * Made-up place names, one word each, all different (so a search for one finds that place, and
 * fuzzy matching has little to find besides), from syllables.
 *
 * @param count How many.
 */
export function placeWords( count: number ): string[] {
	const first = [ 'Bal', 'Cor', 'Dun', 'Fel', 'Gar', 'Hol', 'Kir', 'Lom' ];
	const middle = [ 'a', 'e', 'i', 'o', 'u', 'ae' ];
	const last = [ 'brik', 'dant', 'fist', 'gorm', 'vetch' ];
	const words: string[] = [];
	for ( const a of first ) {
		for ( const b of middle ) {
			for ( const c of last ) {
				words.push( `${ a }${ b }${ c }` );
			}
		}
	}
	if ( count > words.length ) {
		throw new Error( 'not enough words' );
	}
	// Spread neighbours apart: consecutive places do not share a first syllable.
	return Array.from(
		{ length: count },
		( _, i ) => words[ ( i * 37 ) % words.length ]!
	);
}

/** REST with patience: the Playground site has one PHP worker, often busy on a loaded machine. */
const SLOW = { timeout: 180_000 };

/**
 * Creates `groups` (slugs must be unique to the spec) and publishes `count` places spread on a
 * grid inside `box` (coordinates rounded to 4 decimals, inside the feed's precision), one group
 * each in turn. `titleOf( i, word )` names the i-th place. Everything created goes to `track`.
 *
 * @param requestUtils REST.
 * @param track        Told of everything created.
 * @param groups       Groups to create, in order.
 * @param count        Number of places.
 * @param box          Where the places go.
 * @param box.west     West edge.
 * @param box.south    South edge.
 * @param box.east     East edge.
 * @param box.north    North edge.
 * @param titleOf      Title of the i-th place.
 */
export async function seedPlaces(
	requestUtils: RequestUtils,
	track: ( item: CreatedItem ) => void,
	groups: Array< { slug: string; name: string; color: string } >,
	count: number,
	box: { west: number; south: number; east: number; north: number },
	titleOf: ( i: number, word: string, group: string ) => string
): Promise< { places: SpecPlace[]; groups: SpecGroup[] } > {
	const created: SpecGroup[] = [];
	for ( const group of groups ) {
		const found = ( await requestUtils.rest( {
			path: '/wp/v2/cairn-marker-groups',
			params: { slug: group.slug, context: 'edit' },
			...SLOW,
		} ) ) as Array< { id: number } >;
		const saved = ( await requestUtils.rest( {
			method: 'POST',
			path: found[ 0 ]
				? `/wp/v2/cairn-marker-groups/${ found[ 0 ].id }`
				: '/wp/v2/cairn-marker-groups',
			data: {
				name: group.name,
				slug: group.slug,
				meta: { cairn_color: group.color, cairn_icon: 0 },
			},
			...SLOW,
		} ) ) as { id: number };
		track( { path: '/wp/v2/cairn-marker-groups', id: saved.id } );
		created.push( { slug: group.slug, name: group.name, id: saved.id } );
	}
	const words = placeWords( count );
	const columns = Math.ceil( Math.sqrt( count * 1.6 ) );
	const rows = Math.ceil( count / columns );
	const round = ( value: number ) => Math.round( value * 1e4 ) / 1e4;
	const planned = Array.from( { length: count }, ( _, i ) => {
		const group = created[ i % created.length ]!;
		// A little jitter so that no two places share a row or a column exactly.
		const col = i % columns;
		const row = Math.floor( i / columns );
		return {
			title: titleOf( i, words[ i ]!, group.slug ),
			lng: round(
				box.west +
					( ( col + 0.5 + 0.2 * Math.sin( i * 7.1 ) ) *
						( box.east - box.west ) ) /
						columns
			),
			lat: round(
				box.south +
					( ( row + 0.5 + 0.2 * Math.cos( i * 3.7 ) ) *
						( box.north - box.south ) ) /
						rows
			),
			group,
		};
	} );
	const ids: number[] = [];
	for ( let start = 0; start < planned.length; start += 25 ) {
		const answer = ( await requestUtils.rest( {
			method: 'POST',
			path: '/batch/v1',
			data: {
				requests: planned
					.slice( start, start + 25 )
					.map( ( place ) => ( {
						method: 'POST',
						path: '/wp/v2/cairn-markers',
						body: {
							title: place.title,
							content: '',
							status: 'publish',
							meta: {
								cairn_lng: place.lng,
								cairn_lat: place.lat,
							},
							'cairn-marker-groups': [ place.group.id ],
						},
					} ) ),
			},
			...SLOW,
		} ) ) as {
			responses: Array< { status: number; body: { id: number } } >;
		};
		for ( const response of answer.responses ) {
			expect( response.status ).toBe( 201 );
			track( { path: '/wp/v2/cairn-markers', id: response.body.id } );
			ids.push( response.body.id );
		}
	}
	return {
		groups: created,
		places: planned.map( ( place, i ) => ( {
			id: ids[ i ]!,
			title: place.title,
			lng: place.lng,
			lat: place.lat,
			group: place.group.slug,
		} ) ),
	};
}

/** Publishes a page (tracked); returns its address. */
export async function publishTrackedPage(
	requestUtils: RequestUtils,
	track: ( item: CreatedItem ) => void,
	title: string,
	content: string
): Promise< string > {
	const page = ( await requestUtils.rest( {
		method: 'POST',
		path: '/wp/v2/pages',
		data: { title, content, status: 'publish' },
		...SLOW,
	} ) ) as { id: number; link: string };
	track( { path: '/wp/v2/pages', id: page.id } );
	return page.link;
}

/** Marker ids listed in server-rendered HTML (`li[data-cairn-marker-id]`), in order. */
export function idsInHtml( html: string ): number[] {
	return [ ...html.matchAll( /data-cairn-marker-id="(\d+)"/g ) ].map(
		( match ) => Number( match[ 1 ] )
	);
}

/** Great-circle distance in km (the runtime's own formula, unit-tested on its own). */
export function distanceKm(
	a: { lng: number; lat: number },
	b: { lng: number; lat: number }
): number {
	return distance( a, b ) / 1000;
}

/** A page URL with a query parameter added (plain permalinks already have `?page_id=`). */
export function withQuery( url: string, key: string, value: string ): string {
	const address = new URL( url );
	address.searchParams.set( key, value );
	return address.toString();
}
