/**
 * The places panel's part of `npm run bench:front` (issue 11): on a page whose map has finished
 * its first draw, how long a visitor waits for
 * - search: from the last keystroke of a word that matches a few places to the list and the map
 *   showing the matches;
 * - group toggle: from the key that switches a group off (or on again) to the map redrawn with
 *   the new clusters (and the list);
 * - move: from the end of a pan (`moveend`) to the list showing the places in view;
 * and the longest main-thread long task (PerformanceObserver `longtask`) in each interaction's
 * window (from its first input to the map idle after the answer).
 *
 * The end of each wait is the wrapper's `cairn:places-change` (DESIGN.md "Places": sent once the
 * list and the map's clusters show the new filter or view). At that moment the page also records
 * what the list and the map show, so the report can say whether the answer was really there.
 * When the panel is absent (the runtime before issue 11), every measure is skipped with a reason.
 */
import type { Page } from '@playwright/test';

import { GROUPS, SEARCH_WORDS } from './site';

export interface PlacesSample {
	/** ms from the input (last keystroke, key press, moveend) to `cairn:places-change`. */
	ms: number | null;
	/**
	 * Diagnostic: ms from the same input to the first change of the list into what it holds at
	 * the event (0 when it already held it: e.g. a move that changes nothing listed).
	 */
	listMs?: number | null;
	/** Longest long task from the interaction's first input to the map idle after it, ms. */
	longestTask: number;
	/** Whether the list and the map showed the expected answer when the event came. */
	ok: boolean;
	note?: string;
}

export interface PlacesRun {
	skipped?: string;
	search: PlacesSample[];
	toggle: PlacesSample[];
	move: PlacesSample[];
	error?: string;
}

interface Snapshot {
	at: number;
	search: string;
	hiddenGroups: string[];
	total: number;
	inView: number;
	listed: number;
	/** The listed ids, joined: compared with the list's changes (see `lists`). */
	ids: string;
	/** Sum of what the map draws: cluster `point_count`s plus single places. */
	drawn: number;
}

interface PlacesBench {
	events: Snapshot[];
	/** performance.now() of each `input` event on the search field. */
	inputs: number[];
	/** performance.now() of each keydown. */
	keys: number[];
	/** Each change of the panel's list: when, and the ids it then holds (diagnostic). */
	lists: Array< [ number, string ] >;
	longTasks: Array< [ number, number ] >;
}

/**
 * Init script (before the page's own): records `cairn:places-change` with what the list and the
 * map show at that moment, search-field input and key times. Long tasks come from the bench's
 * own observer (front.bench.ts `instrument`).
 */
export function instrumentPlaces() {
	const bench: Omit< PlacesBench, 'longTasks' > = {
		events: [],
		inputs: [],
		keys: [],
		lists: [],
	};
	const listIds = ( root: ParentNode ) =>
		Array.from(
			root.querySelectorAll(
				'.wp-block-cairn-map__list > li[data-cairn-marker-id]'
			)
		)
			.map( ( item ) => item.getAttribute( 'data-cairn-marker-id' ) )
			.join( ',' );
	// When the list alone is ready (before the map has drawn): a diagnostic beside the event,
	// watched only once the interactions start (measurePlaces), not during the first draw.
	( window as unknown as { placesBenchWatch: () => void } ).placesBenchWatch =
		() => {
			const panel = document.querySelector(
				'.wp-block-cairn-map__places'
			);
			if ( ! panel ) {
				return;
			}
			let last = listIds( panel );
			bench.lists.push( [ performance.now(), last ] );
			new MutationObserver( () => {
				const ids = listIds( panel );
				if ( ids !== last ) {
					last = ids;
					bench.lists.push( [ performance.now(), ids ] );
				}
			} ).observe( panel, { childList: true, subtree: true } );
		};
	( window as unknown as { placesBench: typeof bench } ).placesBench = bench;
	document.addEventListener(
		'input',
		( event ) => {
			if (
				( event.target as Element | null )?.matches?.(
					'input[type="search"]'
				)
			) {
				bench.inputs.push( performance.now() );
			}
		},
		true
	);
	document.addEventListener(
		'keydown',
		() => bench.keys.push( performance.now() ),
		true
	);
	document.addEventListener( 'cairn:places-change', ( event ) => {
		const at = performance.now();
		const detail = ( event as CustomEvent ).detail ?? {};
		const host = event.target as HTMLElement;
		const map = (
			window as unknown as {
				benchMap?: {
					getLayer: ( id: string ) => unknown;
					queryRenderedFeatures: ( options: object ) => Array< {
						id?: unknown;
						properties?: Record< string, unknown >;
					} >;
				};
			}
		 ).benchMap;
		let drawn = -1;
		if ( map?.getLayer( 'cairn-clusters' ) ) {
			const clusters = new Map< unknown, number >();
			for ( const feature of map.queryRenderedFeatures( {
				layers: [ 'cairn-clusters' ],
			} ) ) {
				clusters.set(
					feature.properties?.cluster_id,
					Number( feature.properties?.point_count )
				);
			}
			const points = new Set< unknown >();
			const layers = [ 'cairn-points', 'cairn-point-icons' ].filter(
				( id ) => map.getLayer( id )
			);
			if ( layers.length ) {
				for ( const feature of map.queryRenderedFeatures( {
					layers,
				} ) ) {
					points.add( feature.id );
				}
			}
			drawn =
				[ ...clusters.values() ].reduce( ( a, b ) => a + b, 0 ) +
				points.size;
		}
		bench.events.push( {
			at,
			search: String( detail.search ?? '' ),
			hiddenGroups: Array.isArray( detail.hiddenGroups )
				? [ ...detail.hiddenGroups ]
				: [],
			total: Number( detail.total ),
			inView: Number( detail.inView ),
			listed: host.querySelectorAll(
				'.wp-block-cairn-map__list > li[data-cairn-marker-id]'
			).length,
			ids: listIds( host ),
			drawn,
		} );
	} );
}

const LIST_MAX = 50;
const WAIT_MS = 30_000;

function read( page: Page ): Promise< PlacesBench > {
	return page.evaluate( () => {
		const w = window as unknown as {
			placesBench: Omit< PlacesBench, 'longTasks' >;
			bench: { longTasks: Array< [ number, number ] > };
		};
		return { ...w.placesBench, longTasks: w.bench.longTasks };
	} );
}

/** Waits for an event after `since` (index) that `match` accepts; returns it or null. */
async function waitForEvent(
	page: Page,
	since: number,
	match: { search?: string; hiddenGroups?: string[] }
): Promise< Snapshot | null > {
	try {
		const handle = await page.waitForFunction(
			( { from, expected } ) => {
				const events = (
					window as unknown as {
						placesBench: { events: Snapshot[] };
					}
				 ).placesBench.events.slice( from );
				const same = ( a: string[], b: string[] ) =>
					a.length === b.length &&
					a.every( ( v ) => b.includes( v ) );
				return (
					events.find(
						( event ) =>
							( expected.search === undefined ||
								event.search.trim().toLowerCase() ===
									expected.search.toLowerCase() ) &&
							( expected.hiddenGroups === undefined ||
								same(
									event.hiddenGroups,
									expected.hiddenGroups
								) )
					) ?? null
				);
			},
			{ from: since, expected: match },
			{ timeout: WAIT_MS, polling: 100 }
		);
		return ( await handle.jsonValue() ) as Snapshot;
	} catch {
		return null;
	}
}

/** Waits until no `cairn:places-change` came for `quiet` ms and the map is idle. */
async function settle( page: Page, quiet = 700 ): Promise< void > {
	let count = -1;
	for ( let i = 0; i < 60; i++ ) {
		const now = ( await read( page ) ).events.length;
		if ( now === count ) {
			break;
		}
		count = now;
		await page.waitForTimeout( quiet );
	}
	await idle( page );
}

/** Resolves at the map's next `idle` (after a repaint), with its time; at most 20 s. */
function idle( page: Page ): Promise< number > {
	return page.evaluate(
		() =>
			new Promise< number >( ( resolve ) => {
				const map = (
					window as unknown as {
						benchMap?: {
							once: (
								type: string,
								listener: () => void
							) => void;
							triggerRepaint: () => void;
						};
					}
				 ).benchMap;
				if ( ! map ) {
					resolve( performance.now() );
					return;
				}
				const timer = setTimeout(
					() => resolve( performance.now() ),
					20_000
				);
				map.once( 'idle', () => {
					clearTimeout( timer );
					resolve( performance.now() );
				} );
				map.triggerRepaint();
			} )
	);
}

/** When the list first held what it holds at `event`, after `from` (null: never seen). */
async function listReady(
	page: Page,
	from: number,
	event: Snapshot
): Promise< number | null > {
	const { lists } = await read( page );
	const before = lists.filter( ( [ at ] ) => at <= from ).pop();
	if ( before && before[ 1 ] === event.ids ) {
		return 0;
	}
	const found = lists.find(
		( [ at, ids ] ) => at > from && at <= event.at + 1 && ids === event.ids
	);
	return found ? Math.round( found[ 0 ] - from ) : null;
}

/** Longest long task that started in [from, to] (the observer reports them a little late). */
async function longestTask( page: Page, from: number, to: number ) {
	await page.waitForTimeout( 150 );
	const { longTasks } = await read( page );
	return Math.round(
		Math.max(
			0,
			...longTasks
				.filter( ( [ start ] ) => start >= from - 1 && start <= to )
				.map( ( [ , duration ] ) => duration )
		)
	);
}

async function measureSearch(
	page: Page,
	word: string
): Promise< PlacesSample > {
	const field = page
		.locator( '.wp-block-cairn-map__places input[type="search"]' )
		.first();
	await field.focus();
	const before = await read( page );
	const since = before.events.length;
	const firstInput = before.inputs.length;
	// A quick typist: 60 ms between keys.
	await page.keyboard.type( word, { delay: 60 } );
	const event = await waitForEvent( page, since, { search: word } );
	const after = await read( page );
	const inputs = after.inputs.slice( firstInput );
	const last = inputs[ inputs.length - 1 ];
	if ( ! event || last === undefined ) {
		return {
			ms: null,
			longestTask: 0,
			ok: false,
			note: event ? 'no input event' : 'no cairn:places-change',
		};
	}
	const idleAt = await idle( page );
	const ok =
		event.total > 0 &&
		event.listed === Math.min( event.total, LIST_MAX ) &&
		event.drawn >= 0 &&
		event.drawn <= event.total;
	const sample: PlacesSample = {
		ms: Math.round( event.at - last ),
		listMs: await listReady( page, last, event ),
		longestTask: await longestTask( page, inputs[ 0 ]!, idleAt ),
		ok,
		...( ok
			? {}
			: {
					note: `matches ${ event.total }, listed ${ event.listed }, drawn ${ event.drawn }`,
				} ),
	};
	// Escape clears the search (the contract); wait for the list of the view again.
	const cleared = ( await read( page ) ).events.length;
	await page.keyboard.press( 'Escape' );
	await waitForEvent( page, cleared, { search: '' } );
	await settle( page );
	return sample;
}

async function measureToggle(
	page: Page,
	slug: string,
	hide: boolean
): Promise< PlacesSample > {
	const button = page
		.locator(
			`.wp-block-cairn-map__places button[data-cairn-group="${ slug }"]`
		)
		.first();
	await button.focus();
	const before = await read( page );
	const drawnBefore = before.events[ before.events.length - 1 ]?.drawn ?? -1;
	const since = before.events.length;
	const firstKey = before.keys.length;
	await page.keyboard.press( 'Enter' );
	const event = await waitForEvent( page, since, {
		hiddenGroups: hide ? [ slug ] : [],
	} );
	const keyAt = ( await read( page ) ).keys[ firstKey ];
	if ( ! event || keyAt === undefined ) {
		return {
			ms: null,
			longestTask: 0,
			ok: false,
			note: 'no cairn:places-change',
		};
	}
	const idleAt = await idle( page );
	const ok = event.drawn >= 0 && event.drawn !== drawnBefore;
	const sample: PlacesSample = {
		ms: Math.round( event.at - keyAt ),
		listMs: await listReady( page, keyAt, event ),
		longestTask: await longestTask( page, keyAt, idleAt ),
		ok,
		...( ok
			? {}
			: {
					note: `clusters drew ${ event.drawn } places before and after`,
				} ),
	};
	await settle( page );
	return sample;
}

async function measureMove(
	page: Page,
	offset: [ number, number ]
): Promise< PlacesSample > {
	const since = ( await read( page ) ).events.length;
	const ended = await page.evaluate(
		( by ) =>
			new Promise< { start: number; end: number } >( ( resolve ) => {
				const map = (
					window as unknown as {
						benchMap: {
							once: (
								type: string,
								listener: () => void
							) => void;
							panBy: (
								offset: [ number, number ],
								options: object
							) => void;
						};
					}
				 ).benchMap;
				const start = performance.now();
				map.once( 'moveend', () =>
					resolve( { start, end: performance.now() } )
				);
				map.panBy( by, { duration: 300 } );
			} ),
		offset
	);
	const event = await waitForEvent( page, since, {} );
	if ( ! event ) {
		return {
			ms: null,
			longestTask: 0,
			ok: false,
			note: 'no cairn:places-change',
		};
	}
	const idleAt = await idle( page );
	const ok = event.listed === Math.min( event.inView, LIST_MAX );
	const sample: PlacesSample = {
		ms: Math.round( event.at - ended.end ),
		listMs: await listReady( page, ended.end, event ),
		longestTask: await longestTask( page, ended.start, idleAt ),
		ok,
		...( ok
			? {}
			: {
					note: `in view ${ event.inView }, listed ${ event.listed }`,
				} ),
	};
	await settle( page );
	return sample;
}

/**
 * Runs the interactions `repeat` times on a page whose map is ready and drawn (front.bench.ts
 * calls it after the first-draw measures). Each search uses another word of SEARCH_WORDS; each
 * group is hidden then shown again (two samples); moves pan 250 px east and back west.
 *
 * @param page   The page.
 * @param repeat Repetitions of each interaction.
 */
export async function measurePlaces(
	page: Page,
	repeat: number
): Promise< PlacesRun > {
	const run: PlacesRun = { search: [], toggle: [], move: [] };
	const panel = await page
		.locator( '.wp-block-cairn-map__places input[type="search"]' )
		.first()
		.waitFor( { state: 'visible', timeout: 15_000 } )
		.then(
			() => true,
			() => false
		);
	if ( ! panel ) {
		run.skipped = 'no places panel (search field) on the page';
		return run;
	}
	try {
		// The panel's first list (its entries are buttons), then quiet.
		await page
			.locator(
				'.wp-block-cairn-map__places .wp-block-cairn-map__list > li[data-cairn-marker-id] > button'
			)
			.first()
			.waitFor( { state: 'visible', timeout: WAIT_MS } );
		await settle( page );
		await page.evaluate( () =>
			(
				window as unknown as { placesBenchWatch: () => void }
			 ).placesBenchWatch()
		);
		for ( let i = 0; i < repeat; i++ ) {
			run.search.push(
				await measureSearch(
					page,
					SEARCH_WORDS[ i % SEARCH_WORDS.length ]!.toLowerCase()
				)
			);
		}
		const groups = await page
			.locator( '.wp-block-cairn-map__places button[data-cairn-group]' )
			.count();
		if ( groups === 0 ) {
			run.toggle.push( {
				ms: null,
				longestTask: 0,
				ok: false,
				note: 'no group toggles',
			} );
		}
		for ( let i = 0; i < repeat && groups > 0; i++ ) {
			// Mid-sized groups in turn (not the largest: a realistic filter).
			const slug = GROUPS[ 1 + ( i % ( GROUPS.length - 1 ) ) ]!.slug;
			run.toggle.push( await measureToggle( page, slug, true ) );
			run.toggle.push( await measureToggle( page, slug, false ) );
		}
		for ( let i = 0; i < repeat; i++ ) {
			run.move.push(
				await measureMove(
					page,
					i % 2 === 0 ? [ 250, 0 ] : [ -250, 0 ]
				)
			);
		}
	} catch ( error ) {
		run.error = String( error ).split( '\n' )[ 0 ];
	}
	return run;
}
