declare module '*.scss';
declare module '*.css';

/**
 * The block-editor package ships no type declarations; these cover the parts this plugin uses.
 */
declare module '@wordpress/block-editor' {
	import type { ComponentType, ReactNode } from 'react';

	export function useBlockProps(
		props?: Record< string, unknown >
	): Record< string, unknown >;
	export const InspectorControls: ComponentType< {
		children?: ReactNode;
		group?: string;
	} >;
	export const BlockControls: ComponentType< {
		children?: ReactNode;
		group?: string;
	} >;
}
