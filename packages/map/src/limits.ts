/**
 * The map's limits and fixed defaults, read from the JSON file PHP reads too.
 */
import limits from './limits.json';

/** The limits; the file's `$comment` is left out of the bundles (webpack.config.js, build.mjs). */
export const LIMITS: Omit< typeof limits, '$comment' > = limits;

/** mapbox-gl options that repeat its own defaults on purpose: the spec fixes them, so we pin them. */
export const PINNED_MAP_OPTIONS = {
	minZoom: limits.zoom.min,
	maxZoom: limits.zoom.max,
	maxPitch: limits.pitch.max,
	clickTolerance: limits.clickTolerance,
	bearingSnap: limits.bearingSnap,
	fadeDuration: limits.fadeDuration,
} as const;
