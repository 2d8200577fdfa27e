/**
 * "Zoom limits": the zoom range visitors may use; the saved zoom follows it.
 */
import { PanelBody } from '@wordpress/components';
import { __ } from '@wordpress/i18n';

import { NumberField } from '../number-field';
import { RANGES, zoomRangeError } from '../validation';
import type { PanelProps } from './types';

export function ZoomLimitsPanel( {
	attributes: { zoom, minZoom, maxZoom },
	setAttributes,
}: PanelProps< 'zoom' | 'minZoom' | 'maxZoom' > ) {
	return (
		<PanelBody
			title={ __( 'Zoom limits', 'cairn-maps' ) }
			initialOpen={ false }
		>
			<NumberField
				label={ __( 'Minimum zoom', 'cairn-maps' ) }
				value={ minZoom }
				range={ RANGES.zoom }
				step={ 0.5 }
				check={ ( value ) => zoomRangeError( value, maxZoom ) }
				onChange={ ( value ) =>
					setAttributes( {
						minZoom: value,
						zoom: Math.max( zoom, value ),
					} )
				}
			/>
			<NumberField
				label={ __( 'Maximum zoom', 'cairn-maps' ) }
				value={ maxZoom }
				range={ RANGES.zoom }
				step={ 0.5 }
				check={ ( value ) => zoomRangeError( minZoom, value ) }
				onChange={ ( value ) =>
					setAttributes( {
						maxZoom: value,
						zoom: Math.min( zoom, value ),
					} )
				}
			/>
		</PanelBody>
	);
}
