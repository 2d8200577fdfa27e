'use client';
/**
 * A post's maps in the browser: one `<CairnMap>` per map, in document order. A client component
 * because the maps start in the browser (mapbox-gl needs WebGL); the server renders each map's
 * wrapper, its places list and its messages, so the page has them before JavaScript runs.
 */
import { CairnMap } from '@cairn-maps/map/react';
import type { PostMap } from '@cairn-maps/map';

export interface PostMapListProps {
	/** The maps of `fetchPostMaps()`, passed from the server component as plain JSON. */
	maps: PostMap[];
	/** A public token to use instead of the site's. */
	accessToken?: string;
}

export function PostMapList( { maps, accessToken }: PostMapListProps ) {
	return (
		<>
			{ maps.map( ( map, index ) => (
				<CairnMap
					key={ `${ index }:${ map.id }` }
					config={ map.config }
					accessToken={ accessToken }
				/>
			) ) }
		</>
	);
}
