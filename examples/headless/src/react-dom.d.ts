/**
 * The two react-dom functions this app uses, typed as @types/react-dom 18 types them: the
 * repository installs @types/react but not @types/react-dom. Delete this file once it does.
 */
declare module 'react-dom/client' {
	import type { ReactNode } from 'react';

	export interface Root {
		render: ( children: ReactNode ) => void;
		unmount: () => void;
	}

	export function createRoot( container: Element | DocumentFragment ): Root;
}

declare module 'react-dom' {
	import type { ReactNode, ReactPortal } from 'react';

	export function createPortal(
		children: ReactNode,
		container: Element | DocumentFragment,
		key?: string | null
	): ReactPortal;
}
