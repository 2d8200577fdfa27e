/**
 * Playwright configuration of the Live Preview check (`npm run test:live-preview`): the browser
 * settings of the end-to-end suite (Debian's Chromium, WebGL through SwiftShader), but no wp-env
 * site, no global set-up and no stored log-in: the spec boots its own Playground from the
 * blueprint (bin/live-preview.mjs).
 */
import { defineConfig } from '@playwright/test';

import base from '../../playwright.config';

export default defineConfig( {
	testDir: '.',
	outputDir: '../../artifacts/live-preview-results',
	workers: 1,
	fullyParallel: false,
	forbidOnly: !! process.env.CI,
	retries: 0,
	timeout: 120_000,
	expect: { timeout: 20_000 },
	reporter: [ [ 'list' ] ],
	use: {
		...base.use,
		baseURL: undefined,
		storageState: undefined,
	},
	projects: [ { name: 'chromium', use: { browserName: 'chromium' } } ],
} );
