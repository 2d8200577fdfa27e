'use client';
/**
 * A post's maps: one `<CairnMap>` per map, in document order. A client component because the maps
 * start in the browser (mapbox-gl needs WebGL); on the server it renders what the theme renders
 * without JavaScript (each map's first page of places, the consent placeholder, the server's
 * error), so the page has them before any script runs.
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
					places={ map.places }
					error={ map.error }
					accessToken={ accessToken }
				/>
			) ) }
		</>
	);
}
