/**
 * The live preview: the same `createMap` runtime visitors get, inside the editor canvas.
 *
 * The map's life is `useCairnMap`'s (one effect, always destroyed). Settings that mapbox-gl can
 * change in place (camera, language, the places) are applied to the running map; the rest
 * recreate it.
 * Panning the preview never writes the block's attributes: "Use current view" does that.
 */
import type { Map as MapboxMap } from 'mapbox-gl';
import { useEffect, useRef } from '@wordpress/element';
import { __ } from '@wordpress/i18n';
import type { DirectionsApp, GroupStyle, MapConfig } from '@cairn-maps/map';

import { engineOf } from '@cairn-maps/map/plugin';

import { MapHost } from '../../shared/map-host';
import { useCairnMap } from '../../shared/use-cairn-map';
import type { PreviewBasemap } from './editor-data';
import type { MapBlockAttributes } from './types';

export interface MapPreviewProps {
	attributes: MapBlockAttributes;
	/** The style, engine and basemap the block draws (editor-data's previewBasemap()). */
	basemap: PreviewBasemap;
	accessToken: string;
	/** Feed URL of the block's markers ('' for none). Changing it reloads the places in place. */
	markersUrl: string;
	/** Feed URL of the block's posts ('' for none). Changing it reloads the places in place. */
	postsUrl?: string;
	/** Feed URL of the block's routes and areas ('' for none). Changing it rebuilds the map. */
	shapesUrl?: string;
	markerUrl: string;
	/** Group colours and icons (the site's, as on the front end). */
	groupStyles?: GroupStyle[];
	/** The site's units, as the page's configuration carries them (EditorData's). */
	units: MapConfig[ 'units' ];
	/** The app of the "Directions" links, resolved as for the page (previewDirections()). */
	directions: DirectionsApp;
	/** Called with the map once it is ready, and with null when it goes away. */
	onMap: ( map: MapboxMap | null ) => void;
}

export function MapPreview( {
	attributes,
	basemap,
	accessToken,
	markersUrl,
	postsUrl = '',
	shapesUrl = '',
	markerUrl,
	groupStyles = [],
	units,
	directions,
	onMap,
}: MapPreviewProps ) {
	/** The feed addresses the running map read its places from. */
	const placesUrl = useRef( '' );
	const feeds = [ markersUrl, postsUrl ].filter( Boolean );
	const feedsKey = feeds.join( ' ' );

	const {
		controls,
		cluster,
		minZoom,
		maxZoom,
		center,
		zoom,
		bearing,
		pitch,
		language,
	} = attributes;

	const { hostRef, containerRef, map, cairn } = useCairnMap( {
		// Settings that need a new map.
		rebuildKey: JSON.stringify( [
			accessToken,
			basemap.style,
			controls,
			cluster,
			minZoom,
			maxZoom,
			// A map without places has no places layer: one that gains a feed is built again.
			feeds.length > 0,
			groupStyles,
			attributes.places,
			attributes.languages,
			shapesUrl,
			units,
			directions,
		] ),
		config: () => {
			placesUrl.current = feedsKey;
			return {
				...attributes,
				style: basemap.style,
				engine: basemap.engine,
				basemap: basemap.basemap,
				accessToken,
				markersUrl,
				postsUrl,
				shapesUrl,
				markerUrl,
				groupStyles,
				// What the page's configuration carries: the list reads as visitors read it.
				units,
				directions,
				// The editor never takes over the address bar or page scrolling.
				hash: false,
				cooperativeGestures: true,
			};
		},
		onReady: ( ready ) => onMap( ready ),
		onRemove: () => onMap( null ),
	} );

	useEffect( () => {
		map?.jumpTo( {
			center: [ center.lng, center.lat ],
			zoom,
			bearing,
			pitch,
		} );
	}, [ map, center.lng, center.lat, zoom, bearing, pitch ] );

	useEffect( () => {
		if ( map ) {
			engineOf( map ).setLanguage( map, language );
		}
	}, [ map, language ] );

	// A marker added, moved or removed in the editor, other posts chosen, the post saved: the
	// places are read again, in place.
	useEffect( () => {
		if ( map && feedsKey && feedsKey !== placesUrl.current ) {
			placesUrl.current = feedsKey;
			cairn.current?.places?.reload( feedsKey.split( ' ' ) );
		}
	}, [ map, feedsKey, cairn ] );

	return (
		<MapHost
			handle={ { hostRef, containerRef } }
			className="wp-block-cairn-map__preview"
			mapClassName="wp-block-cairn-map__map"
			label={ __( 'Map preview', 'cairn-maps' ) }
			mapStyle={ { height: attributes.height } }
		>
			{ /* The places panel visitors get (search, groups, list), rendered by the runtime. */ }
			<div
				className="wp-block-cairn-map__places"
				role="region"
				aria-label={ __( 'Places', 'cairn-maps' ) }
			/>
		</MapHost>
	);
}
