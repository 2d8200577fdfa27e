'use client';
/**
 * A post's maps: one `<CairnMap>` per map, in document order. A client component because the maps
 * start in the browser (mapbox-gl needs WebGL); on the server it renders what the theme renders
 * without JavaScript (each map's first page of places, the consent placeholder, the server's
 * error), so the page has them before any script runs.
 */
import { CairnMap } from '@cairn-maps/map/react';
import { setMapLibreWorkerUrl, type PostMap } from '@cairn-maps/map';

// Maps on MapLibre (a site without a Mapbox token, or a keyless or self-hosted basemap) need
// maplibre-gl's worker from this app: app/maplibre-gl-worker.js/route.ts serves it.
setMapLibreWorkerUrl( '/maplibre-gl-worker.js' );

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
