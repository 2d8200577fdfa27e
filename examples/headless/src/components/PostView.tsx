/**
 * Any post's maps by id, through the package's `fetchPostMaps()` (`/cairn/v1/posts/<id>/maps`):
 * what a front end does when it has a post id but not the post. A post the site does not show to
 * anonymous readers (a draft, a private post) gives a message with the status, and nothing of it.
 */
import { useCallback } from 'react';
import { fetchPostMaps } from '@cairn-maps/map';
import { CairnMap } from '@cairn-maps/map/react';

import { useRemote } from '../use-remote';
import { Failure } from './Failure';

export interface PostViewProps {
	site: string;
	id: number;
	/** An access token to use instead of the site's. */
	token?: string;
}

export function PostView( { site, id, token }: PostViewProps ) {
	const load = useCallback(
		( signal: AbortSignal ) => fetchPostMaps( site, id, { signal } ),
		[ site, id ]
	);
	const remote = useRemote( load );

	return (
		<article>
			<h1>Maps of post { id }</h1>
			{ remote.state === 'loading' && (
				<p role="status">Reading the post’s maps…</p>
			) }
			{ remote.state === 'error' && (
				<Failure error={ remote.error } what="maps" />
			) }
			{ remote.state === 'done' && remote.value.maps.length === 0 && (
				<p>This post has no maps (or they need its password).</p>
			) }
			{ remote.state === 'done' &&
				remote.value.maps.map( ( map, index ) => (
					<CairnMap
						key={ `${ index }:${ map.id }` }
						config={ map.config }
						places={ map.places }
						error={ map.error }
						accessToken={ token }
					/>
				) ) }
		</article>
	);
}
