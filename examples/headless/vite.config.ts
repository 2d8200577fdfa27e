/**
 * Vite for the headless example. `@cairn-maps/map` resolves as it would from npm: through the
 * package's `exports` to its built `dist/` (`npm run build:package`), never to its sources, and
 * with no alias. mapbox-gl is only ever imported by the package, lazily, so it lands in a chunk
 * of its own that loads when the first map starts.
 */
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig( {
	// Relative asset addresses: the built app works from any folder of any static host.
	base: './',
	plugins: [ react() ],
	// The dev server pre-bundles mapbox-gl (a UMD build) before the package asks for it.
	optimizeDeps: { include: [ 'mapbox-gl' ] },
	server: { host: '127.0.0.1', port: 5173 },
	build: {
		outDir: 'dist',
		emptyOutDir: true,
		sourcemap: true,
		// mapbox-gl's own chunk (1.9 MB, 540 kB gzip) loads only with the first map.
		chunkSizeWarningLimit: 2000,
	},
} );
