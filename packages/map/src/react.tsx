/**
 * `<CairnMap config={…} places={…} />`: a Cairn map in a React app. It renders what the WordPress
 * block renders (`data-cairn-state`, a labelled map region, alerts and events on the wrapper), on
 * the server too: the first page of places as the theme's list (`places`), the consent
 * placeholder when the site asks for consent, the error the server found (`error`). In the
 * browser it hydrates that markup, then starts the map (after consent where required) and puts
 * the places panel in place of the list once the places are known. One effect owns the map's
 * whole life and always destroys it.
 */
import { useEffect, useId, useRef, useState } from 'react';
import type { CSSProperties, ReactNode } from 'react';
import { __ } from '@wordpress/i18n';

import type { CairnMap as RuntimeMap } from './create-map';
import { createMap } from './start';
import { consent as parseConsent } from './config';
import { directionsApp } from './directions';
import { parsePlaces } from './fetch-post-maps';
import type { MapErrorCode, MapLibSource, PostMapPlaces } from './types';
import type { PlacesController } from './places/controller';
import { PlacesPanel } from './places/panel';
import { ConsentPlaceholder, ServerError, ServerPlaces } from './server-places';

export { PlacesPanel };
export type { PlacesController };
import type { Map as MapboxMap } from 'mapbox-gl';

export interface CairnMapProps {
	/** The map's configuration: a `config` of `fetchPostMaps()` or the `cairn_maps` REST field. */
	config: Record< string, unknown >;
	/**
	 * The map's first page of places (`places` of the same map): rendered as the theme's list
	 * on the server and until the places panel takes over, so the page has its places without
	 * JavaScript and for search engines.
	 */
	places?: PostMapPlaces;
	/** The error the server found (`error` of the same map): its alert is rendered on the server. */
	error?: MapErrorCode | '';
	/**
	 * The visitor has agreed to load the map already (an app's own consent banner): a map whose
	 * configuration requires consent then starts without its "Load map" placeholder.
	 */
	consentGiven?: boolean;
	/** An access token to use instead of the site's. */
	accessToken?: string;
	/** mapbox-gl or maplibre-gl, its module, or a promise of it. Default: the config's engine's, imported lazily. */
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
	places: serverPlaces,
	error,
	consentGiven = false,
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
	// False on the server and in the render that hydrates its markup; the map starts after it.
	const [ live, setLive ] = useState( false );
	const placesId = 'cairn-places-' + useId().replace( /[^\w-]/g, '' );
	const hostRef = useRef< HTMLDivElement >( null );
	const containerRef = useRef< HTMLDivElement >( null );
	const callbacks = useRef( { onReady, onError } );
	callbacks.current = { onReady, onError };
	// The map restarts when what it shows changes, not when a parent renders a new object.
	const key = JSON.stringify( config );

	useEffect( () => setLive( true ), [] );

	useEffect( () => {
		const host = hostRef.current;
		// Once live, the server's alert and placeholder are gone: the runtime shows its own.
		if ( ! host || ! live ) {
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
				consentGiven,
				// The list is React's: without the panel it stays as it is (the runtime's own
				// fallback would turn its entries into buttons behind React's back).
				onPlaces: placesPanel
					? ( controller ) => {
							setPlaces( controller );
							return () => setPlaces( null );
						}
					: () => () => undefined,
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
	}, [ live, key, mapLib, accessToken, placesPanel, consentGiven ] );

	const listed = serverPlaces ? parsePlaces( serverPlaces ) : null;
	const consent = parseConsent( config.consent );
	const gated = ! live && consent.required && ! consentGiven && ! error;
	const serverError = ! live && error ? error : null;
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
			data-cairn-state={ serverError ? 'error' : 'loading' }
			data-cairn-consent={ gated ? 'required' : undefined }
			data-cairn-consent-category={
				gated && consent.category ? consent.category : undefined
			}
			style={
				height
					? ( { '--cairn-map-height': height } as CSSProperties )
					: undefined
			}
		>
			{ ( places || listed ) && (
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
				aria-describedby={
					listed && ! places ? `${ placesId }-list` : undefined
				}
			>
				{ gated && (
					<ConsentPlaceholder category={ consent.category } />
				) }
			</div>
			{ serverError && <ServerError code={ serverError } /> }
			{ ( places || listed ) && (
				<div
					id={ placesId }
					className="wp-block-cairn-map__places"
					role="region"
					aria-label={ __( 'Places', 'cairn-maps' ) }
				>
					{ places ? (
						<PlacesPanel places={ places } />
					) : (
						listed && (
							<ServerPlaces
								places={ listed }
								listId={ `${ placesId }-list` }
								directions={ directionsApp(
									config.directions
								) }
							/>
						)
					) }
				</div>
			) }
			{ children }
		</div>
	);
}

export default CairnMap;
