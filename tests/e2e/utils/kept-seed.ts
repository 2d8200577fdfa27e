/**
 * Seed data that outlives a Playwright worker. A failing test restarts the worker, which runs the
 * file's `afterAll` and then its `beforeAll` again: for a spec that creates hundreds of markers on
 * the one-PHP-worker Playground site, deleting and creating them again after each failure takes
 * minutes and, on a loaded machine, times out the next test's set-up. So the seed is written to a
 * state file (per site), reused by the next worker when it is still on the site, and removed only
 * once every test of the file has run (`finish()`: the file passes the titles it declares, so no
 * count is kept by hand); a seed left on a site that is still up is removed by the next run's
 * set-up.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { RequestUtils } from '@wordpress/e2e-test-utils-playwright';

/** Something the spec created over REST: deleted with `?force=true`, markers first. */
export interface CreatedItem {
	path: string;
	id: number;
}

interface State< T > {
	baseURL: string;
	data: T;
	created: CreatedItem[];
	/** Titles of the tests that have run (passed or not). */
	done: string[];
}

const DIR = path.join( __dirname, '..', '..', '..', 'artifacts', 'e2e-state' );

export class KeptSeed< T > {
	private readonly file: string;

	/**
	 * @param name    File name part (the spec's).
	 * @param baseURL The site.
	 * @param tests   Titles of the file's tests, as declared: the seed goes when all have run.
	 */
	constructor(
		name: string,
		private readonly baseURL: string,
		private readonly tests: readonly string[]
	) {
		const hash = crypto
			.createHash( 'sha1' )
			.update( baseURL )
			.digest( 'hex' )
			.slice( 0, 8 );
		this.file = path.join( DIR, `${ name }-${ hash }.json` );
	}

	private read(): State< T > | null {
		try {
			const state = JSON.parse(
				fs.readFileSync( this.file, 'utf8' )
			) as State< T >;
			return state.baseURL === this.baseURL ? state : null;
		} catch {
			return null;
		}
	}

	private write( state: State< T > ): void {
		fs.mkdirSync( DIR, { recursive: true } );
		fs.writeFileSync( this.file, JSON.stringify( state ) );
	}

	/**
	 * The seed: the kept one when `stillThere` says it is on the site and this run has not used
	 * it up, else a new one from `create` (after removing a stale one).
	 *
	 * @param requestUtils REST.
	 * @param create       Creates the data; calls `track` for everything it creates.
	 * @param stillThere   Whether kept data is still on the site.
	 */
	async get(
		requestUtils: RequestUtils,
		create: ( track: ( item: CreatedItem ) => void ) => Promise< T >,
		stillThere: ( data: T ) => Promise< boolean >
	): Promise< T > {
		const kept = this.read();
		if ( kept && ! this.usedUp( kept ) ) {
			if ( await stillThere( kept.data ).catch( () => false ) ) {
				return kept.data;
			}
		}
		if ( kept && this.usedUp( kept ) ) {
			// Used up by a run that ended before its clean-up, on this same site: clean it now.
			if ( await stillThere( kept.data ).catch( () => false ) ) {
				await this.remove( requestUtils, kept.created );
			}
		}
		// Otherwise kept data that is not on the site belongs to a site that is gone (every test
		// run may start a fresh one, whose ids mean other things): forget it, delete nothing.
		const created: CreatedItem[] = [];
		const data = await create( ( item ) => {
			created.push( item );
			// Written as it goes: a set-up that dies half-way still leaves a list to clean.
			this.write( {
				baseURL: this.baseURL,
				data: {} as T,
				created,
				done: [],
			} );
		} );
		this.write( { baseURL: this.baseURL, data, created, done: [] } );
		return data;
	}

	/** Whether every declared test has run on this seed. */
	private usedUp( state: State< T > ): boolean {
		return this.tests.every( ( title ) => state.done.includes( title ) );
	}

	/** Notes that a test ran (call it in `afterEach`). */
	ran( title: string ): void {
		const state = this.read();
		if ( state && ! state.done.includes( title ) ) {
			state.done.push( title );
			this.write( state );
		}
	}

	/** In `afterAll`: once every test has run, deletes the seed and forgets it. */
	async finish( requestUtils: RequestUtils ): Promise< void > {
		const state = this.read();
		if ( ! state || ! this.usedUp( state ) ) {
			return;
		}
		await this.remove( requestUtils, state.created );
		fs.rmSync( this.file, { force: true } );
	}

	private async remove(
		requestUtils: RequestUtils,
		items: CreatedItem[]
	): Promise< void > {
		// Markers before the groups and pages that name them; 25 to a batch, patiently.
		const order = ( item: CreatedItem ) =>
			item.path.includes( 'markers' ) ? 0 : 1;
		const sorted = [ ...items ].sort( ( a, b ) => order( a ) - order( b ) );
		for ( let start = 0; start < sorted.length; start += 25 ) {
			await requestUtils.rest( {
				method: 'POST',
				path: '/batch/v1',
				data: {
					requests: sorted
						.slice( start, start + 25 )
						.map( ( item ) => ( {
							method: 'DELETE',
							path: `${ item.path }/${ item.id }?force=true`,
						} ) ),
				},
				timeout: 180_000,
			} );
		}
	}
}
