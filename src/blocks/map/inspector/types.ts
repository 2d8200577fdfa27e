/**
 * What every panel of the block's sidebar takes: the attributes it shows and `setAttributes`,
 * the way Gutenberg's own blocks split their InspectorControls.
 */
import type { MapBlockAttributes } from '../types';

export type SetAttributes = (
	attributes: Partial< MapBlockAttributes >
) => void;

export interface PanelProps< Name extends keyof MapBlockAttributes > {
	attributes: Pick< MapBlockAttributes, Name >;
	setAttributes: SetAttributes;
}
