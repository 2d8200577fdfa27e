/**
 * The block's attributes, mirroring block.json: the runtime package owns the type, so a headless
 * app and the editor read the same one.
 */
export type { MapBlockAttributes } from '@cairn-maps/map';
