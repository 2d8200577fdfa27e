/**
 * "Label language": the language of the map's labels (`auto`: the visitor's).
 */
import { PanelBody, SelectControl } from '@wordpress/components';
import { __ } from '@wordpress/i18n';

import { languageOptions } from '../../../shared/languages';
import type { PanelProps } from './types';

export function LanguagePanel( {
	attributes: { language },
	setAttributes,
}: PanelProps< 'language' > ) {
	return (
		<PanelBody
			title={ __( 'Label language', 'cairn-maps' ) }
			initialOpen={ false }
		>
			<SelectControl
				__next40pxDefaultSize
				__nextHasNoMarginBottom
				label={ __( 'Language of map labels', 'cairn-maps' ) }
				value={ language }
				options={ languageOptions() }
				onChange={ ( value: string ) =>
					setAttributes( { language: value } )
				}
			/>
		</PanelBody>
	);
}
