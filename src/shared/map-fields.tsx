/**
 * Fields the block's inspector and the settings screen's defaults share: the map style (a preset
 * or a checked custom URL) and the controls a map shows.
 */
import {
	SelectControl,
	TextControl,
	ToggleControl,
} from '@wordpress/components';
import { useState } from '@wordpress/element';
import { __ } from '@wordpress/i18n';
import type { ControlsConfig } from '@cairn-maps/map';

import { styleError } from './style-url';
import { blockStyleOptions, CUSTOM_STYLE } from './styles';

export interface StyleFieldProps {
	/** The style URL in use. */
	value: string;
	/**
	 * Called with every choice: the style URL (trimmed) and whether it is valid. A preset is always
	 * valid; a custom URL is checked with the same rules the server uses.
	 */
	onChange: ( url: string, valid: boolean ) => void;
	/** The hosts a custom https style may be on (a block's style); none for any https host. */
	hosts?: readonly string[];
	/** The site's hosts, which a `pmtiles://` archive must be on; none to leave that to the server. */
	localHosts?: readonly string[];
}

export function StyleField( {
	value,
	onChange,
	hosts,
	localHosts,
}: StyleFieldProps ) {
	const presets = blockStyleOptions();
	const [ choice, setChoice ] = useState( () =>
		presets.some( ( preset ) => preset.value === value )
			? value
			: CUSTOM_STYLE
	);
	const [ custom, setCustom ] = useState( () =>
		choice === CUSTOM_STYLE ? value : ''
	);
	const error = custom ? styleError( custom, hosts, localHosts ) : '';
	const pick = ( url: string ) =>
		onChange(
			url.trim(),
			url.trim() !== '' && ! styleError( url, hosts, localHosts )
		);

	return (
		<>
			<SelectControl
				__next40pxDefaultSize
				__nextHasNoMarginBottom
				label={ __( 'Map style', 'cairn-maps' ) }
				value={ choice }
				options={ [
					...presets,
					{
						value: CUSTOM_STYLE,
						label: __( 'Custom style URL', 'cairn-maps' ),
					},
				] }
				onChange={ ( next: string ) => {
					setChoice( next );
					pick( next === CUSTOM_STYLE ? custom : next );
				} }
			/>
			{ choice === CUSTOM_STYLE && (
				<TextControl
					__next40pxDefaultSize
					__nextHasNoMarginBottom
					label={ __( 'Style URL', 'cairn-maps' ) }
					value={ custom }
					onChange={ ( url: string ) => {
						setCustom( url );
						pick( url );
					} }
					help={
						error ||
						__(
							'mapbox://styles/owner/style, the https:// address of a style document, or pmtiles:// and a .pmtiles archive on this site.',
							'cairn-maps'
						)
					}
					aria-invalid={ !! error || ! custom }
				/>
			) }
		</>
	);
}

export interface ControlsTogglesProps {
	value: ControlsConfig;
	onChange: ( value: ControlsConfig ) => void;
}

export function ControlsToggles( { value, onChange }: ControlsTogglesProps ) {
	const labels: Array< [ keyof ControlsConfig, string ] > = [
		[ 'zoom', __( 'Zoom buttons', 'cairn-maps' ) ],
		[ 'compass', __( 'Compass', 'cairn-maps' ) ],
		[ 'scale', __( 'Scale bar', 'cairn-maps' ) ],
		[ 'fullscreen', __( 'Fullscreen button', 'cairn-maps' ) ],
		[ 'geolocate', __( 'Locate me', 'cairn-maps' ) ],
	];
	return (
		<>
			{ labels.map( ( [ name, label ] ) => (
				<ToggleControl
					key={ name }
					__nextHasNoMarginBottom
					label={ label }
					checked={ value[ name ] }
					onChange={ ( on: boolean ) =>
						onChange( { ...value, [ name ]: on } )
					}
				/>
			) ) }
		</>
	);
}
