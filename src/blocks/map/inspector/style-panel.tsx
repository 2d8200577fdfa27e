/**
 * "Style": the map style, a preset or a custom URL on the hosts the site allows.
 */
import { PanelBody } from '@wordpress/components';
import { useMemo } from '@wordpress/element';
import { __ } from '@wordpress/i18n';

import { StyleField } from '../../../shared/map-fields';
import { getEditorData } from '../editor-data';
import type { PanelProps } from './types';

export function StylePanel( {
	attributes: { mapStyle },
	setAttributes,
}: PanelProps< 'mapStyle' > ) {
	const { styleHosts, localHosts } = useMemo( () => getEditorData(), [] );
	return (
		<PanelBody title={ __( 'Style', 'cairn-maps' ) }>
			<StyleField
				value={ mapStyle }
				hosts={ styleHosts }
				localHosts={ localHosts }
				onChange={ ( url, valid ) => {
					// The block keeps its last valid style while a custom URL is being typed.
					if ( valid ) {
						setAttributes( { mapStyle: url } );
					}
				} }
			/>
		</PanelBody>
	);
}
