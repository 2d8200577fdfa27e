/**
 * `<CairnMap config={…} />`: a Cairn map in a React app. It renders the same wrapper the WordPress
 * block does (`data-cairn-state`, a labelled map region, alerts and events on the wrapper); the map
 * itself starts in an effect, so server-side rendering gives the container and the browser the
 * canvas. One effect owns the map's whole life and always destroys it.
 */
import { useEffect, useId, useRef, useState } from 'react';
import type { CSSProperties, ReactNode } from 'react';
import { __ } from '@wordpress/i18n';

import type { CairnMap as RuntimeMap } from './create-map';
import { createMap } from './start';
import type { MapErrorCode, MapLibSource } from './types';
import type { PlacesController } from './places/controller';
import { PlacesPanel } from './places/panel';

export { PlacesPanel };
export type { PlacesController };
import type { Map as MapboxMap } from 'mapbox-gl';

export interface CairnMapProps {
	/** The map's configuration: a `config` of `fetchPostMaps()` or the `cairn_maps` REST field. */
	config: Record< string, unknown >;
	/** An access token to use instead of the site's. */
	accessToken?: string;
	/** mapbox-gl, its module, or a promise of it. Default: `import( 'mapbox-gl' )`. */
	mapLib?: MapLibSource;
	/** Added to the wrapper's classes. */
	className?: string;
	/** The map region's accessible name. Default: "Interactive map". */
	label?: string;
	/** Called when the map and its markers are ready. */
	onReady?: ( map: MapboxMap ) => void;
	/** Called with the error code when the map cannot be shown (the alert is on the page too). */
	onError?: ( code: MapErrorCode ) => void;
	/** Shown after the map. */
	children?: ReactNode;
	/**
	 * The places panel (search, groups, the list that follows the map) after the map, as the
	 * WordPress block shows it. Default true.
	 */
	placesPanel?: boolean;
}

const HEIGHT = /^(?:[1-9]\d{0,3}|\d{1,4}\.\d{1,3})(px|em|rem|vh|svh|dvh)$/;

export function CairnMap( {
	config,
	accessToken,
	mapLib,
	className,
	label,
	onReady,
	onError,
	children,
	placesPanel = true,
}: CairnMapProps ) {
	const [ places, setPlaces ] = useState< PlacesController | null >( null );
	const placesId = 'cairn-places-' + useId().replace( /[^\w-]/g, '' );
	const hostRef = useRef< HTMLDivElement >( null );
	const containerRef = useRef< HTMLDivElement >( null );
	const callbacks = useRef( { onReady, onError } );
	callbacks.current = { onReady, onError };
	// The map restarts when what it shows changes, not when a parent renders a new object.
	const key = JSON.stringify( config );

	useEffect( () => {
		const host = hostRef.current;
		if ( ! host ) {
			return undefined;
		}
		const onFailure = ( event: Event ) => {
			const code = ( event as CustomEvent< { code: MapErrorCode } > )
				.detail?.code;
			if ( code ) {
				callbacks.current.onError?.( code );
			}
		};
		host.addEventListener( 'cairn:map-error', onFailure );
		const map: RuntimeMap = createMap(
			containerRef.current,
			JSON.parse( key ),
			{
				host,
				mapLib,
				accessToken,
				onPlaces: placesPanel
					? ( controller ) => {
							setPlaces( controller );
							return () => setPlaces( null );
						}
					: undefined,
			}
		);
		map.ready.then(
			( ready ) => callbacks.current.onReady?.( ready ),
			() => undefined // Reported through the alert and `cairn:map-error`.
		);
		return () => {
			host.removeEventListener( 'cairn:map-error', onFailure );
			map.destroy();
		};
	}, [ key, mapLib, accessToken, placesPanel ] );

	const height =
		typeof config.height === 'string' && HEIGHT.test( config.height )
			? config.height
			: undefined;
	return (
		<div
			ref={ hostRef }
			className={ [ 'wp-block-cairn-map', className ]
				.filter( Boolean )
				.join( ' ' ) }
			data-cairn-state="loading"
			style={
				height
					? ( { '--cairn-map-height': height } as CSSProperties )
					: undefined
			}
		>
			{ places && (
				<a
					className="wp-block-cairn-map__skip"
					href={ `#${ placesId }` }
				>
					{ __( 'Skip the map', 'cairn-maps' ) }
				</a>
			) }
			<div
				ref={ containerRef }
				className="wp-block-cairn-map__map"
				role="region"
				aria-label={ label ?? __( 'Interactive map', 'cairn-maps' ) }
			/>
			{ places && (
				<div
					id={ placesId }
					className="wp-block-cairn-map__places"
					role="region"
					aria-label={ __( 'Places', 'cairn-maps' ) }
				>
					<PlacesPanel places={ places } />
				</div>
			) }
			{ children }
		</div>
	);
}

export default CairnMap;
