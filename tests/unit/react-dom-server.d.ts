/**
 * The functions of react-dom the tests use (the repository has no @types/react-dom).
 */
declare module 'react-dom/server' {
	import type { ReactElement } from 'react';

	export function renderToString( element: ReactElement ): string;
}

declare module 'react-dom/client' {
	import type { ReactElement } from 'react';

	export interface Root {
		render: ( element: ReactElement ) => void;
		unmount: () => void;
	}
	export function createRoot( container: Element ): Root;
	export function hydrateRoot(
		container: Element,
		element: ReactElement,
		options?: { onRecoverableError?: ( error: unknown ) => void }
	): Root;
}
