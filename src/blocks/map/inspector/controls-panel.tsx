/**
 * "Controls": which map controls visitors get.
 */
import { PanelBody } from '@wordpress/components';
import { __ } from '@wordpress/i18n';

import { ControlsToggles } from '../../../shared/map-fields';
import type { PanelProps } from './types';

export function ControlsPanel( {
	attributes: { controls },
	setAttributes,
}: PanelProps< 'controls' > ) {
	return (
		<PanelBody
			title={ __( 'Controls', 'cairn-maps' ) }
			initialOpen={ false }
		>
			<ControlsToggles
				value={ controls }
				onChange={ ( value ) => setAttributes( { controls: value } ) }
			/>
		</PanelBody>
	);
}
