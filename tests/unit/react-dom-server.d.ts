/**
 * The one function of react-dom/server the tests use (the repository has no @types/react-dom).
 */
declare module 'react-dom/server' {
	import type { ReactElement } from 'react';

	export function renderToString( element: ReactElement ): string;
}
