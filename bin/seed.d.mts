/**
 * Types of bin/seed.mjs for the e2e set-up, which uploads the demo world archive.
 */

/** Where a site serves the demo world archive from. */
export interface SeededBasemap {
	/** Its attachment. */
	id: number;
	/** The file's own URL in uploads. */
	fileUrl: string;
	/** The first URL that answers Range requests (the file's, the dev site's cairn-byte-range.php, or the plugin's route). */
	url: string;
	/** `pmtiles://` + url. */
	style: string;
	/** Whether url answers Range requests. */
	ranges: boolean;
}

export const BASEMAP_SLUG: string;

export function uploadBasemap( options: {
	siteUrl: string;
	log?: ( message: string ) => void;
} ): Promise< SeededBasemap | null >;
