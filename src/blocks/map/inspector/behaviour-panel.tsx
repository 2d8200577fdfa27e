/**
 * "Behaviour": the view in the page address, cooperative gestures and the map's height.
 */
import { PanelBody, TextControl, ToggleControl } from '@wordpress/components';
import { __ } from '@wordpress/i18n';

import { heightError } from '../validation';
import type { PanelProps } from './types';

export interface BehaviourPanelProps extends PanelProps<
	'hash' | 'cooperativeGestures'
> {
	/**
	 * What the height field holds, and its setter: only a valid length reaches the block. Kept by
	 * the caller, which outlives the sidebar, so a length being typed survives a deselection.
	 */
	heightText: readonly [ string, ( text: string ) => void ];
}

export function BehaviourPanel( {
	attributes: { hash, cooperativeGestures },
	setAttributes,
	heightText: [ heightText, setHeightText ],
}: BehaviourPanelProps ) {
	return (
		<PanelBody
			title={ __( 'Behaviour', 'cairn-maps' ) }
			initialOpen={ false }
		>
			<ToggleControl
				__nextHasNoMarginBottom
				label={ __(
					'Keep the view in the page address',
					'cairn-maps'
				) }
				help={ __(
					'Visitors can share a link to what they see.',
					'cairn-maps'
				) }
				checked={ hash }
				onChange={ ( value: boolean ) =>
					setAttributes( { hash: value } )
				}
			/>
			<ToggleControl
				__nextHasNoMarginBottom
				label={ __( 'Cooperative gestures', 'cairn-maps' ) }
				help={ __(
					'The page scrolls normally; zoom with Ctrl/⌘ + scroll or two fingers.',
					'cairn-maps'
				) }
				checked={ cooperativeGestures }
				onChange={ ( value: boolean ) =>
					setAttributes( { cooperativeGestures: value } )
				}
			/>
			<TextControl
				__next40pxDefaultSize
				__nextHasNoMarginBottom
				label={ __( 'Height', 'cairn-maps' ) }
				value={ heightText }
				help={ heightError( heightText ) || undefined }
				onChange={ ( value: string ) => {
					setHeightText( value );
					if ( ! heightError( value ) ) {
						setAttributes( { height: value } );
					}
				} }
			/>
		</PanelBody>
	);
}
