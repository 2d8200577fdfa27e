/**
 * The first-draw instrumentation shared by bench:front's specs (front.bench.ts, tiles.bench.ts):
 * a fresh context per page with the offline maps service, long tasks and the map's milestones
 * (`ready`, `sourceLoaded`, `firstClusters`: the first frame with rendered features in the
 * `cairn-clusters`/`cairn-points` layers, `done`: the map idle after it).
 */
import type { Browser, Page } from '@playwright/test';

import { MapsService } from '../../tests/e2e/fixtures/maps-service';
import { instrumentPlaces } from './places';
import type { BenchSite } from './site';

/** Runs before the page's scripts: long tasks and the map's milestones. */
export function instrument() {
	const bench = {
		longTasks: [] as Array< [ number, number ] >,
		marks: {} as Record< string, number >,
	};
	( window as unknown as { bench: typeof bench } ).bench = bench;
	new PerformanceObserver( ( list ) => {
		for ( const entry of list.getEntries() ) {
			bench.longTasks.push( [ entry.startTime, entry.duration ] );
		}
	} ).observe( { type: 'longtask', buffered: true } );
	document.addEventListener( 'cairn:map-ready', ( event ) => {
		bench.marks.ready = performance.now();
		const map = ( event as CustomEvent ).detail.map;
		( window as unknown as { benchMap: unknown } ).benchMap = map;
		// `idle` comes after the next frame; the map may be idle already when it is ready.
		const whenIdle = ( then: () => void ) => {
			map.once( 'idle', then );
			map.triggerRepaint();
		};
		if ( ! map.getSource( 'cairn-markers' ) ) {
			whenIdle( () => {
				bench.marks.firstClusters = performance.now();
				bench.marks.done = performance.now();
			} );
			return;
		}
		const check = () => {
			if ( ! map.isSourceLoaded( 'cairn-markers' ) ) {
				return;
			}
			bench.marks.sourceLoaded ??= performance.now();
			const drawn = map.queryRenderedFeatures( {
				layers: [ 'cairn-clusters', 'cairn-points' ],
			} ).length;
			if ( drawn > 0 ) {
				bench.marks.firstClusters = performance.now();
				map.off( 'render', check );
				whenIdle( () => {
					bench.marks.done = performance.now();
				} );
			}
		};
		map.on( 'render', check );
		// Ready can come after the frame that drew them (the map is then idle): look now too.
		check();
	} );
}

export async function newPage( browser: Browser, site: BenchSite ) {
	const context = await browser.newContext( {
		viewport: { width: 1280, height: 800 },
	} );
	const service = new MapsService( [ new URL( site.origin ).host ] );
	await service.install( context );
	const page = await context.newPage();
	await page.addInitScript( instrument );
	await page.addInitScript( instrumentPlaces );
	return { context, page };
}

export async function longTasksUntil( page: Page, until: number ) {
	const tasks = await page.evaluate(
		() =>
			(
				window as unknown as {
					bench: { longTasks: Array< [ number, number ] > };
				}
			 ).bench.longTasks
	);
	const counted = tasks.filter( ( [ start ] ) => start <= until );
	return {
		longTasks: Math.round(
			counted.reduce( ( sum, [ , d ] ) => sum + d, 0 )
		),
		longTaskCount: counted.length,
		longestTask: Math.round(
			Math.max( 0, ...counted.map( ( [ , d ] ) => d ) )
		),
	};
}
