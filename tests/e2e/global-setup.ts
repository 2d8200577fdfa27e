/**
 * Logs in once for the whole run and saves the session for every test.
 *
 * The Playground runtime logs every fresh client in as admin on its first request (a 302 that
 * sets `wordpress_logged_in_*` and `playground_auto_login_already_happened=1`). Sending that
 * cookie from the start switches the auto-login off, so:
 * - admin.json: a real log-in through wp-login.php plus the cookie (logged-in tests);
 * - visitor.json: only the cookie (tests that must be anonymous: front end, cache headers,
 *   "no cookies for visitors"). Use it with `test.use( { storageState: VISITOR_STATE } )`.
 *
 * It also puts the demo world archive (.cache/basemap/world.pmtiles, built when needed) in the
 * site's media library and writes where it is served to basemap.json beside those files
 * (BASEMAP_STATE: bin/seed.mjs's SeededBasemap, or `{ "error": … }` when the site refused it).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { request, type FullConfig } from '@playwright/test';
import { RequestUtils } from '@wordpress/e2e-test-utils-playwright';

/** bin/seed.mjs, loaded as the ES module it is (a static import would be compiled to CommonJS). */
const seedModule = () => import( '../../bin/seed.mjs' );

export const AUTO_LOGIN_COOKIE = 'playground_auto_login_already_happened';

export const VISITOR_STATE = path.join(
	path.dirname(
		process.env.STORAGE_STATE_PATH ?? 'artifacts/storage-states/admin.json'
	),
	'visitor.json'
);

/** Where the set-up records the demo world archive's URLs (see the header). */
export const BASEMAP_STATE = path.join(
	path.dirname( VISITOR_STATE ),
	'basemap.json'
);

/** A storage state holding only the cookie that turns Playground's auto-login off. */
function visitorState( baseURL: string ) {
	return {
		cookies: [
			{
				name: AUTO_LOGIN_COOKIE,
				value: '1',
				domain: new URL( baseURL ).hostname,
				path: '/',
				expires: -1,
				httpOnly: false,
				secure: false,
				sameSite: 'Lax' as const,
			},
		],
		origins: [],
	};
}

async function globalSetup( config: FullConfig ) {
	const { baseURL, storageState } = config.projects[ 0 ]!.use;
	if ( ! baseURL || typeof storageState !== 'string' ) {
		throw new Error(
			'playwright.config.ts must set use.baseURL and use.storageState (a path).'
		);
	}

	// Fail fast with a clear message when no site answers.
	const probe = await request.newContext( { baseURL } );
	try {
		await probe.get( '/', { timeout: 60_000, maxRedirects: 0 } );
	} catch ( error ) {
		throw new Error(
			`No WordPress site answers at ${ baseURL }. Run the suite with \`npm run test:e2e\` (it starts one), ` +
				`or start one yourself and set WP_BASE_URL. (${ ( error as Error ).message })`
		);
	} finally {
		await probe.dispose();
	}

	// Seed both files with the auto-login cookie; RequestUtils.setup() loads the admin file
	// into its request context before logging in, and setupRest() saves the result back.
	await fs.mkdir( path.dirname( storageState ), { recursive: true } );
	await fs.writeFile(
		VISITOR_STATE,
		JSON.stringify( visitorState( baseURL ) )
	);
	await fs.writeFile(
		storageState,
		JSON.stringify( visitorState( baseURL ) )
	);

	const requestUtils = await RequestUtils.setup( {
		baseURL,
		storageStatePath: storageState,
	} );
	await requestUtils.setupRest();
	await requestUtils.request.dispose();

	const problems: string[] = [];
	const { uploadBasemap } = await seedModule();
	const basemap = await uploadBasemap( {
		siteUrl: baseURL,
		log: ( message ) => {
			if ( message.startsWith( 'WARNING' ) ) {
				problems.push( message );
			}
		},
	} ).catch( ( error: Error ) => {
		problems.push( error.message );
		return null;
	} );
	await fs.writeFile(
		BASEMAP_STATE,
		JSON.stringify( basemap ?? { error: problems.join( '; ' ) } )
	);
}

export default globalSetup;
