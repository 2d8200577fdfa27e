/**
 * The editor packages are not installed for development (the build maps them to `wp.plugins`
 * and `wp.editor`, which WordPress provides); these declarations cover the parts the marker
 * sidebar uses.
 */
declare module '@wordpress/plugins' {
	import type { ComponentType } from 'react';

	export function registerPlugin(
		name: string,
		settings: { render: ComponentType; icon?: string | null }
	): unknown;
}

declare module '@wordpress/editor' {
	import type { ComponentType, ReactNode } from 'react';

	export const PluginDocumentSettingPanel: ComponentType< {
		name: string;
		title: string;
		className?: string;
		children?: ReactNode;
	} >;
}
