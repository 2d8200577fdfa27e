/**
 * "View": the saved camera (centre, zoom, bearing, pitch), "Use current view" to take the
 * preview's, and a place search that centres the map.
 */
import type { Map as MapboxMap } from 'mapbox-gl';
import { Button, PanelBody, RangeControl } from '@wordpress/components';
import { __ } from '@wordpress/i18n';

import { NumberField } from '../number-field';
import { PlaceSearch } from '../place-search';
import { RANGES, roundTo } from '../validation';
import type { PanelProps } from './types';

export interface ViewPanelProps extends PanelProps<
	'center' | 'zoom' | 'bearing' | 'pitch' | 'minZoom' | 'maxZoom'
> {
	/** The preview's map, once it is ready. */
	map: MapboxMap | null;
	accessToken: string;
}

export function ViewPanel( {
	attributes: { center, zoom, bearing, pitch, minZoom, maxZoom },
	setAttributes,
	map,
	accessToken,
}: ViewPanelProps ) {
	const useCurrentView = () => {
		if ( ! map ) {
			return;
		}
		const current = map.getCenter();
		setAttributes( {
			center: {
				lng: roundTo( current.lng, 6 ),
				lat: roundTo( current.lat, 6 ),
			},
			zoom: roundTo(
				Math.min( maxZoom, Math.max( minZoom, map.getZoom() ) ),
				2
			),
			bearing: roundTo( map.getBearing(), 1 ),
			pitch: roundTo( map.getPitch(), 1 ),
		} );
	};

	return (
		<PanelBody title={ __( 'View', 'cairn-maps' ) }>
			<p className="cairn-maps-help">
				{ __(
					'Moving the preview does not change the saved view. Move it where you want, then use “Use current view”.',
					'cairn-maps'
				) }
			</p>
			<Button
				variant="secondary"
				onClick={ useCurrentView }
				disabled={ ! map }
			>
				{ __( 'Use current view', 'cairn-maps' ) }
			</Button>
			<NumberField
				label={ __( 'Latitude', 'cairn-maps' ) }
				value={ center.lat }
				range={ RANGES.lat }
				onChange={ ( lat ) =>
					setAttributes( { center: { ...center, lat } } )
				}
			/>
			<NumberField
				label={ __( 'Longitude', 'cairn-maps' ) }
				value={ center.lng }
				range={ RANGES.lng }
				onChange={ ( lng ) =>
					setAttributes( { center: { ...center, lng } } )
				}
			/>
			<RangeControl
				__next40pxDefaultSize
				__nextHasNoMarginBottom
				label={ __( 'Zoom', 'cairn-maps' ) }
				value={ zoom }
				min={ minZoom }
				max={ maxZoom }
				step={ 0.1 }
				onChange={ ( value?: number ) =>
					value !== undefined && setAttributes( { zoom: value } )
				}
			/>
			<RangeControl
				__next40pxDefaultSize
				__nextHasNoMarginBottom
				label={ __( 'Bearing (degrees)', 'cairn-maps' ) }
				value={ bearing }
				min={ RANGES.bearing.min }
				max={ RANGES.bearing.max }
				step={ 1 }
				onChange={ ( value?: number ) =>
					value !== undefined && setAttributes( { bearing: value } )
				}
			/>
			<RangeControl
				__next40pxDefaultSize
				__nextHasNoMarginBottom
				label={ __( 'Pitch (degrees)', 'cairn-maps' ) }
				value={ pitch }
				min={ RANGES.pitch.min }
				max={ RANGES.pitch.max }
				step={ 1 }
				onChange={ ( value?: number ) =>
					value !== undefined && setAttributes( { pitch: value } )
				}
			/>
			<PlaceSearch
				accessToken={ accessToken }
				onSelect={ ( place ) =>
					setAttributes( {
						center: {
							lng: roundTo( place.lng, 6 ),
							lat: roundTo( place.lat, 6 ),
						},
						zoom: Math.min( maxZoom, Math.max( minZoom, 10 ) ),
					} )
				}
			/>
		</PanelBody>
	);
}
