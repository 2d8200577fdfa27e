/**
 * Types of bin/plugin-zip.mjs for the TypeScript specs that check the release zip.
 */

/** What only mapbox-gl's own code contains (its licence banner, its stylesheet probe). */
export const MAPBOX_GL_SIGNATURES: RegExp[];

/** The files of a list (relative to `source`) that hold mapbox-gl code. */
export function mapboxGlFiles( source: string, files: string[] ): string[];
