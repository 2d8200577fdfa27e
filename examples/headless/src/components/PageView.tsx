/**
 * A page of the site with its maps, shown either way: React components from `cairn_maps`, or the
 * rendered HTML started by `hydrate()`.
 */
import { useCallback } from 'react';

import type { Way } from '../address';
import { useRemote } from '../use-remote';
import { fetchPage } from '../wordpress';
import { ComponentsContent } from './ComponentsContent';
import { Failure } from './Failure';
import { Link } from './Link';
import { RenderedContent } from './RenderedContent';

export interface PageViewProps {
	site: string;
	id: number;
	way: Way;
	/** An access token to use instead of the site's. */
	token?: string;
}

const WAYS: Array< { way: Way; label: string } > = [
	{ way: 'components', label: 'React components (cairn_maps)' },
	{ way: 'html', label: 'Rendered HTML (hydrate)' },
];

export function PageView( { site, id, way, token }: PageViewProps ) {
	const load = useCallback(
		( signal: AbortSignal ) => fetchPage( site, id, signal ),
		[ site, id ]
	);
	const remote = useRemote( load );

	if ( remote.state === 'loading' ) {
		return <p role="status">Reading the page…</p>;
	}
	if ( remote.state === 'error' ) {
		return <Failure error={ remote.error } what="page" />;
	}
	const page = remote.value;
	// A new page, way or token starts from fresh markup and fresh maps.
	const key = `${ page.id }:${ way }:${ token ?? '' }`;
	return (
		<article>
			<h1>{ page.title || `Page ${ page.id }` }</h1>
			<nav className="app-ways" aria-label="How the maps are shown">
				{ WAYS.map( ( item ) => (
					<Link
						key={ item.way }
						to={ { view: 'page', id: page.id, way: item.way } }
						current={ item.way === way }
					>
						{ item.label }
					</Link>
				) ) }
			</nav>
			{ way === 'html' && (
				<RenderedContent
					key={ key }
					html={ page.contentHtml }
					accessToken={ token }
				/>
			) }
			{ way === 'components' && page.maps === null && (
				<p role="alert">
					The site gives no <code>cairn_maps</code> field for this
					page: is Cairn Maps 0.2 or later active there?
				</p>
			) }
			{ way === 'components' && page.maps !== null && (
				<ComponentsContent
					key={ key }
					html={ page.contentHtml }
					maps={ page.maps }
					accessToken={ token }
				/>
			) }
		</article>
	);
}
