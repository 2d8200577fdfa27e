/**
 * Types of bin/lib/plugin-check-rules.mjs for its unit test.
 */

/** One finding, in Plugin Check's columns. */
export interface Finding {
	file: string;
	line: number;
	type: 'ERROR' | 'WARNING';
	code: string;
	message: string;
}

export function fileFindings( tree: {
	files: string[];
	folders: string[];
} ): Finding[];
export function headerFields( text: string ): Map< string, string >;
export function headerFindings( folder: string ): Finding[];
export function codeFindings( folder: string, files: string[] ): Finding[];
