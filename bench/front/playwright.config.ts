/**
 * Playwright configuration of `npm run bench:front` (started by bench/front/run.mjs): one test,
 * the suite's browser (Debian's Chromium, WebGL through SwiftShader), no WordPress. With
 * CAIRN_BENCH_SPEC=shapes (bench/front/shapes.mjs, `npm run bench:front:shapes`), issue 21's
 * shapes.bench.ts instead; with CAIRN_BENCH_SPEC=tiles (bench/front/tiles.mjs), issue 22's tiles.bench.ts.
 */
import path from 'node:path';
import { defineConfig } from '@playwright/test';

import suite from '../../playwright.config';

export default defineConfig( {
	testDir: __dirname,
	testMatch:
		{
			shapes: /shapes\.bench\.ts$/,
			// Issue 22: bench/front/tiles.mjs (`npm run bench:front:tiles`).
			tiles: /tiles\.bench\.ts$/,
			// Issue 31: bench/front/engines.mjs (`npm run bench:front:engines`).
			engines: /engines\.bench\.ts$/,
		}[ process.env.CAIRN_BENCH_SPEC ?? '' ] ?? /front\.bench\.ts$/,
	outputDir: path.join( __dirname, '..', '..', 'artifacts', 'bench-front' ),
	workers: 1,
	retries: 0,
	timeout: 20 * 60_000,
	reporter: [ [ 'list' ] ],
	use: {
		headless: true,
		viewport: { width: 1280, height: 800 },
		launchOptions: suite.use?.launchOptions,
		trace: 'off',
		screenshot: 'off',
		video: 'off',
	},
	projects: [ { name: 'chromium', use: { browserName: 'chromium' } } ],
} );
