/**
 * mapbox-gl's style specification (its expression engine and validator), which mapbox-gl ships
 * as `dist/style-spec/index.cjs` with declarations beside it under another name.
 */
declare module 'mapbox-gl/dist/style-spec/index.cjs' {
	export * from 'mapbox-gl/dist/style-spec/index.d.ts';
}
