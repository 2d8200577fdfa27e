/**
 * The public entry of the map runtime for headless pages and other hosts.
 */
export { createMap, showError } from './create-map';
export type { CairnMap, CreateMapOptions } from './create-map';
export { parseMapConfig } from './config';
export { checkToken } from './token';
export { MapError, errorMessage } from './errors';
export type * from './types';
