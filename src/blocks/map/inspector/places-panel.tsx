/**
 * "Places": what the visitor's places panel offers (search, group filter, a list that follows
 * the map), the label languages visitors may switch between, and the map app of the places'
 * "Directions" links (the site's, unless this map chooses another).
 */
import {
	FormTokenField,
	PanelBody,
	SelectControl,
	ToggleControl,
} from '@wordpress/components';
import { __, sprintf } from '@wordpress/i18n';
import type { DirectionsChoice } from '@cairn-maps/map';

import {
	directionsAppLabel,
	directionsAppOptions,
} from '../../../shared/directions';
import { languageOptions } from '../../../shared/languages';
import { getEditorData } from '../editor-data';
import { languagesFromTokens } from '../validation';
import type { PanelProps } from './types';

/** The block's choices of app: the site's (named), then each app. */
function directionsChoices(): Array< {
	value: DirectionsChoice;
	label: string;
} > {
	return [
		{
			value: 'site',
			label: sprintf(
				/* translators: %s: the map app chosen in Settings → Cairn Maps ("OpenStreetMap"). */
				__( 'The site’s choice (%s)', 'cairn-maps' ),
				directionsAppLabel( getEditorData().directions )
			),
		},
		...directionsAppOptions(),
	];
}

export function PlacesPanel( {
	attributes: { places, languages, directions = 'site' },
	setAttributes,
}: PanelProps< 'places' | 'languages' | 'directions' > ) {
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
			<SelectControl
				__next40pxDefaultSize
				__nextHasNoMarginBottom
				label={ __( 'Directions link', 'cairn-maps' ) }
				help={ __(
					'Each popup and list entry links to directions to the place in this map app. Nothing is sent to it until a visitor follows the link.',
					'cairn-maps'
				) }
				value={ directions }
				options={ directionsChoices() }
				onChange={ ( value ) =>
					setAttributes( { directions: value as DirectionsChoice } )
				}
			/>
		</PanelBody>
	);
}
