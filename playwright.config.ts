/**
 * Playwright configuration for the end-to-end suite (run it with `npm run test:e2e`, which
 * starts a site on a free port, or on CAIRN_E2E_PORT, and sets WP_BASE_URL; see bin/test-e2e.sh).
 *
 * The browser is Debian's Chromium (Playwright cannot download its own here) with WebGL on the
 * CPU through SwiftShader, so mapbox-gl renders headless; the page itself is composited in
 * software (--disable-gpu-compositing, see below). The background-networking flags stop Chromium
 * from flooding the closed network with refused connections.
 */
import path from 'node:path';
import { defineConfig } from '@playwright/test';

// @wordpress/e2e-test-utils-playwright reads these from the environment when it loads.
process.env.WP_BASE_URL ??= 'http://localhost:8889';
process.env.STORAGE_STATE_PATH ??= path.join(
	__dirname,
	'artifacts',
	'storage-states',
	'admin.json'
);

export default defineConfig( {
	testDir: 'tests/e2e',
	outputDir: process.env.CAIRN_E2E_OUTPUT || 'artifacts/test-results',
	globalSetup: './tests/e2e/global-setup.ts',
	// One PHP worker serves the whole Playground site: run tests one at a time.
	workers: 1,
	fullyParallel: false,
	forbidOnly: !! process.env.CI,
	// No retries, on CI either: a retry hides a flaky test, and a flaky test is fixed (it waits
	// for a condition, never for time), not run again until it passes.
	retries: 0,
	// Generous: Playground answers a page in ~1 s and opens the block editor in 4–8 s.
	timeout: 120_000,
	// bin/test-e2e.sh: the whole run stops in time to write its reports (0: no limit).
	globalTimeout: Number( process.env.CAIRN_E2E_GLOBAL_TIMEOUT_MS ) || 0,
	expect: { timeout: 20_000 },
	// bin/test-e2e.sh's shards also write a JSON report each (PLAYWRIGHT_JSON_OUTPUT_NAME).
	reporter: [
		[ 'list' ],
		...( process.env.CI
			? [
					[
						'html',
						{
							open: 'never',
							outputFolder:
								process.env.CAIRN_E2E_REPORT ||
								'artifacts/playwright-report',
						},
					] as [ string, object ],
				]
			: [] ),
		...( process.env.PLAYWRIGHT_JSON_OUTPUT_NAME
			? [ [ 'json' ] as [ string ] ]
			: [] ),
	],
	use: {
		baseURL: process.env.WP_BASE_URL,
		storageState: process.env.STORAGE_STATE_PATH,
		headless: true,
		viewport: { width: 1280, height: 800 },
		actionTimeout: 20_000,
		navigationTimeout: 60_000,
		trace: 'retain-on-failure',
		screenshot: 'only-on-failure',
		video: 'off',
		launchOptions: {
			executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
			args: [
				'--no-sandbox',
				'--use-angle=swiftshader',
				'--enable-unsafe-swiftshader',
				'--disable-background-networking',
				'--disable-component-update',
				'--disable-sync',
				'--no-first-run',
				'--ignore-gpu-blocklist',
				// Pages are composited on the CPU without SwiftShader; WebGL still draws through it.
				// SwiftShader compositing every frame of a 1280 × 800 page cost more than it drew:
				// Chromium's CPU time for post-location.spec fell from 173 s to 124 s.
				'--disable-gpu-compositing',
			],
		},
	},
	projects: [ { name: 'chromium', use: { browserName: 'chromium' } } ],
} );
