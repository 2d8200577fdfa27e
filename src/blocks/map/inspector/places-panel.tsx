/**
 * "Places": what the visitor's places panel offers (search, group filter, a list that follows
 * the map) and the label languages visitors may switch between.
 */
import {
	FormTokenField,
	PanelBody,
	ToggleControl,
} from '@wordpress/components';
import { __ } from '@wordpress/i18n';

import { languageOptions } from '../../../shared/languages';
import { languagesFromTokens } from '../validation';
import type { PanelProps } from './types';

export function PlacesPanel( {
	attributes: { places, languages },
	setAttributes,
}: PanelProps< 'places' | 'languages' > ) {
	const visitorLanguages = languageOptions().filter(
		( option ) => option.value !== 'auto'
	);
	// The panel's switches: the part of `places` each sets, its label and help.
	const toggles: Array< [ keyof typeof places, string, string ] > = [
		[
			'search',
			__( 'Search field', 'cairn-maps' ),
			__( 'Visitors find a place by its name or group.', 'cairn-maps' ),
		],
		[
			'groupFilter',
			__( 'Group filter', 'cairn-maps' ),
			__(
				'A button per group shows or hides its places (only on maps with two or more groups).',
				'cairn-maps'
			),
		],
		[
			'followMap',
			__( 'List follows the map', 'cairn-maps' ),
			__(
				'The list shows the places in view after each move.',
				'cairn-maps'
			),
		],
	];
	return (
		<PanelBody title={ __( 'Places', 'cairn-maps' ) } initialOpen={ false }>
			{ toggles.map( ( [ key, label, help ] ) => (
				<ToggleControl
					key={ key }
					__nextHasNoMarginBottom
					label={ label }
					help={ help }
					checked={ places[ key ] }
					onChange={ ( value: boolean ) =>
						setAttributes( {
							places: { ...places, [ key ]: value },
						} )
					}
				/>
			) ) }
			<FormTokenField
				__next40pxDefaultSize
				__nextHasNoMarginBottom
				label={ __(
					'Label languages visitors can choose',
					'cairn-maps'
				) }
				value={ languages.map(
					( tag ) =>
						visitorLanguages.find(
							( option ) => option.value === tag
						)?.label ?? tag
				) }
				suggestions={ visitorLanguages.map(
					( option ) => option.label
				) }
				__experimentalExpandOnFocus
				__experimentalValidateInput={ ( token: string ) =>
					languagesFromTokens( [ token ], visitorLanguages ).length >
					0
				}
				onChange={ ( tokens ) =>
					setAttributes( {
						languages: languagesFromTokens(
							tokens,
							visitorLanguages
						),
					} )
				}
			/>
			<p className="components-form-token-field__help">
				{ __(
					'Choose two or more to give visitors a language switch on the map.',
					'cairn-maps'
				) }
			</p>
		</PanelBody>
	);
}
