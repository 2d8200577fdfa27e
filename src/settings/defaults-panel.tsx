/**
 * Site-wide defaults for new map blocks: style, label language and controls.
 */
import {
	Card,
	CardBody,
	CardHeader,
	SelectControl,
	TextControl,
	ToggleControl,
} from '@wordpress/components';
import { useState } from '@wordpress/element';
import { __ } from '@wordpress/i18n';

import { styleError } from '../blocks/map/validation';
import { languageOptions } from '../map/languages';
import { CUSTOM_STYLE, styleOptions } from '../map/styles';
import type { ControlsConfig } from '../map/types';
import type { SiteDefaults } from './defaults';

export interface DefaultsPanelProps {
	value: SiteDefaults;
	onChange: ( value: SiteDefaults ) => void;
}

function controlLabels(): Array< [ keyof ControlsConfig, string ] > {
	return [
		[ 'zoom', __( 'Zoom buttons', 'cairn-maps' ) ],
		[ 'compass', __( 'Compass', 'cairn-maps' ) ],
		[ 'scale', __( 'Scale bar', 'cairn-maps' ) ],
		[ 'fullscreen', __( 'Fullscreen button', 'cairn-maps' ) ],
		[ 'geolocate', __( 'Locate me', 'cairn-maps' ) ],
	];
}

/** Whether the defaults can be saved; the message to show when not. */
export function defaultsError( value: SiteDefaults ): string {
	return styleError( value.mapStyle );
}

export function DefaultsPanel( { value, onChange }: DefaultsPanelProps ) {
	const presets = styleOptions();
	const [ styleChoice, setStyleChoice ] = useState( () =>
		presets.some( ( preset ) => preset.value === value.mapStyle )
			? value.mapStyle
			: CUSTOM_STYLE
	);
	const [ customStyle, setCustomStyle ] = useState( () =>
		styleChoice === CUSTOM_STYLE ? value.mapStyle : ''
	);
	const languages = languageOptions();
	if ( ! languages.some( ( option ) => option.value === value.language ) ) {
		// A tag set through the REST API that the list does not offer: keep it selectable.
		languages.push( { value: value.language, label: value.language } );
	}
	const customError = customStyle ? styleError( customStyle ) : '';

	return (
		<Card className="cairn-maps-settings__card">
			<CardHeader>
				<h2>{ __( 'Defaults for new maps', 'cairn-maps' ) }</h2>
			</CardHeader>
			<CardBody>
				<p className="cairn-maps-settings__intro">
					{ __(
						'Maps you add from now on start with these settings; each map can still change them. Maps already on your pages keep their own.',
						'cairn-maps'
					) }
				</p>
				<SelectControl
					__next40pxDefaultSize
					__nextHasNoMarginBottom
					label={ __( 'Map style', 'cairn-maps' ) }
					value={ styleChoice }
					options={ [
						...presets,
						{
							value: CUSTOM_STYLE,
							label: __( 'Custom style URL', 'cairn-maps' ),
						},
					] }
					onChange={ ( choice: string ) => {
						setStyleChoice( choice );
						onChange( {
							...value,
							mapStyle:
								choice === CUSTOM_STYLE ? customStyle : choice,
						} );
					} }
				/>
				{ styleChoice === CUSTOM_STYLE && (
					<TextControl
						__next40pxDefaultSize
						__nextHasNoMarginBottom
						label={ __( 'Style URL', 'cairn-maps' ) }
						value={ customStyle }
						onChange={ ( url: string ) => {
							setCustomStyle( url );
							onChange( { ...value, mapStyle: url.trim() } );
						} }
						help={
							customError ||
							__(
								'mapbox://styles/owner/style, or the https:// address of a style document.',
								'cairn-maps'
							)
						}
						aria-invalid={ !! customError || ! customStyle }
					/>
				) }
				<SelectControl
					__next40pxDefaultSize
					__nextHasNoMarginBottom
					label={ __( 'Label language', 'cairn-maps' ) }
					value={ value.language }
					options={ languages }
					onChange={ ( language: string ) =>
						onChange( { ...value, language } )
					}
				/>
				<fieldset className="cairn-maps-settings__controls">
					<legend>{ __( 'Controls', 'cairn-maps' ) }</legend>
					{ controlLabels().map( ( [ name, label ] ) => (
						<ToggleControl
							key={ name }
							__nextHasNoMarginBottom
							label={ label }
							checked={ value.controls[ name ] }
							onChange={ ( on: boolean ) =>
								onChange( {
									...value,
									controls: {
										...value.controls,
										[ name ]: on,
									},
								} )
							}
						/>
					) ) }
				</fieldset>
			</CardBody>
		</Card>
	);
}
