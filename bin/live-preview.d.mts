/**
 * Types of bin/live-preview.mjs for tests/live-preview/.
 */

/** A running Live Preview. */
export interface LivePreview {
	/** The site, e.g. http://127.0.0.1:24817. */
	url: string;
	/** The page the blueprint opens. */
	landingUrl: string;
	/** The Playground server's output. */
	log: string;
	/** Stops the server and removes its work folder. */
	stop: () => Promise< void >;
}

export function freePort(): Promise< number >;

export function startLivePreview( options?: {
	port?: number;
	zip?: string;
	timeout?: number;
	log?: ( message: string ) => void;
} ): Promise< LivePreview >;
