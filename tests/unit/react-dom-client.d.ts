/**
 * The part of react-dom/client the tests use (the repository has no @types/react-dom).
 */
declare module 'react-dom/client' {
	import type { ReactNode } from 'react';

	export interface Root {
		render: ( children: ReactNode ) => void;
		unmount: () => void;
	}

	export function createRoot( container: Element ): Root;
}
