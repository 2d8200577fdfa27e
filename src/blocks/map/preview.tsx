/**
 * The live preview: the same `createMap` runtime visitors get, inside the editor canvas.
 *
 * One effect owns the map's life and always destroys it. Settings that mapbox-gl can change in
 * place (camera, language, the places) are applied to the running map; the rest recreate it.
 * Panning the preview never writes the block's attributes: "Use current view" does that.
 */
import type { Map as MapboxMap } from 'mapbox-gl';
import { useEffect, useRef, useState } from '@wordpress/element';
import { __ } from '@wordpress/i18n';

import type { CairnMap } from './runtime';
import type { GroupStyle } from '../../../packages/map/src/types';
import type { MapBlockAttributes } from './types';

export interface MapPreviewProps {
	attributes: MapBlockAttributes;
	accessToken: string;
	/** Feed URL of the block's markers ('' for none). Changing it reloads the places in place. */
	markersUrl: string;
	markerUrl: string;
	/** Group colours and icons (the site's, as on the front end). */
	groupStyles?: GroupStyle[];
	/** Called with the map once it is ready, and with null when it goes away. */
	onMap: ( map: MapboxMap | null ) => void;
}

export function MapPreview( {
	attributes,
	accessToken,
	markersUrl,
	markerUrl,
	groupStyles = [],
	onMap,
}: MapPreviewProps ) {
	const hostRef = useRef< HTMLDivElement >( null );
	const containerRef = useRef< HTMLDivElement >( null );
	const [ map, setMap ] = useState< MapboxMap | null >( null );
	const cairnRef = useRef< CairnMap | null >( null );
	/** The feed address the running map read its places from. */
	const placesUrl = useRef( '' );
	const latest = useRef( { attributes, markersUrl } );
	latest.current = { attributes, markersUrl };

	const {
		mapStyle,
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
	// Settings that need a new map.
	const rebuildKey = JSON.stringify( [
		accessToken,
		mapStyle,
		controls,
		cluster,
		minZoom,
		maxZoom,
		Boolean( markersUrl ),
		groupStyles,
		attributes.places,
		attributes.languages,
	] );

	useEffect( () => {
		const host = hostRef.current;
		const container = containerRef.current;
		if ( ! host || ! container ) {
			return undefined;
		}
		let cairn: CairnMap | null = null;
		let cancelled = false;
		const current = latest.current;
		import( /* webpackChunkName: "cairn-map-runtime" */ './runtime' ).then(
			( { createMap } ) => {
				if ( cancelled ) {
					return;
				}
				placesUrl.current = current.markersUrl;
				cairn = cairnRef.current = createMap(
					container,
					{
						...current.attributes,
						style: current.attributes.mapStyle,
						accessToken,
						markersUrl: current.markersUrl,
						markerUrl,
						groupStyles,
						// The editor never takes over the address bar or page scrolling.
						hash: false,
						cooperativeGestures: true,
					},
					{ host }
				);
				cairn.ready.then(
					( ready ) => {
						if ( ! cancelled ) {
							setMap( ready );
							onMap( ready );
						}
					},
					() => undefined // Shown in the preview by the runtime itself.
				);
			}
		);
		return () => {
			cancelled = true;
			setMap( null );
			onMap( null );
			cairn?.destroy();
		};
		// eslint-disable-next-line react-hooks/exhaustive-deps -- rebuildKey lists what recreates the map.
	}, [ rebuildKey ] );

	useEffect( () => {
		map?.jumpTo( {
			center: [ center.lng, center.lat ],
			zoom,
			bearing,
			pitch,
		} );
	}, [ map, center.lng, center.lat, zoom, bearing, pitch ] );

	useEffect( () => {
		map?.setLanguage( language );
	}, [ map, language ] );

	// A marker added, moved or removed in the editor: the places are read again, in place.
	useEffect( () => {
		if ( map && markersUrl && markersUrl !== placesUrl.current ) {
			placesUrl.current = markersUrl;
			cairnRef.current?.places?.reload( markersUrl );
		}
	}, [ map, markersUrl ] );

	return (
		<div
			ref={ hostRef }
			className="wp-block-cairn-map__preview"
			data-cairn-state="loading"
		>
			<div
				ref={ containerRef }
				className="wp-block-cairn-map__map"
				role="region"
				aria-label={ __( 'Map preview', 'cairn-maps' ) }
				style={ { height: attributes.height } }
			/>
			{ /* The places panel visitors get (search, groups, list), rendered by the runtime. */ }
			<div
				className="wp-block-cairn-map__places"
				role="region"
				aria-label={ __( 'Places', 'cairn-maps' ) }
			/>
		</div>
	);
}
