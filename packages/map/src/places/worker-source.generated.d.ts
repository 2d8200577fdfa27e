/** The places worker's bundled source (packages/map/build-worker.mjs writes the .js beside this). */
declare const source: string;
export default source;
