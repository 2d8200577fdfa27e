/**
 * A link to a view of this app: a real address (it opens in a new tab, it can be copied), followed
 * without reloading on a plain click.
 */
import type { MouseEvent, ReactNode } from 'react';

import { hrefFor, navigate, type Route } from '../address';

export interface LinkProps {
	/** The view to open. */
	to: Route;
	/** Marks the link to the view being shown. */
	current?: boolean;
	children: ReactNode;
}

export function Link( { to, current, children }: LinkProps ) {
	const href = hrefFor( to, window.location.search, import.meta.env.DEV );
	const onClick = ( event: MouseEvent< HTMLAnchorElement > ) => {
		if (
			event.defaultPrevented ||
			event.button !== 0 ||
			event.metaKey ||
			event.ctrlKey ||
			event.shiftKey ||
			event.altKey
		) {
			return;
		}
		event.preventDefault();
		navigate( href );
	};
	return (
		<a
			href={ href }
			onClick={ onClick }
			aria-current={ current ? 'page' : undefined }
		>
			{ children }
		</a>
	);
}
