/**
 * Site-wide defaults for new map blocks: label language and controls. The style of new maps is
 * the site's basemap (basemap-panel.tsx): the defaults keep block.json's style, which means it.
 */
import {
	Card,
	CardBody,
	CardHeader,
	SelectControl,
} from '@wordpress/components';
import { __ } from '@wordpress/i18n';

import { ControlsToggles } from '../shared/map-fields';
import type { SiteDefaults } from '../shared/defaults';
import { languageOptions } from '../shared/languages';

export interface DefaultsPanelProps {
	value: SiteDefaults;
	onChange: ( value: SiteDefaults ) => void;
}

export function DefaultsPanel( { value, onChange }: DefaultsPanelProps ) {
	const languages = languageOptions();
	if ( ! languages.some( ( option ) => option.value === value.language ) ) {
		// A tag set through the REST API that the list does not offer: keep it selectable.
		languages.push( { value: value.language, label: value.language } );
	}

	return (
		<Card className="cairn-maps-settings__card">
			<CardHeader>
				<h2>{ __( 'Defaults for new maps', 'cairn-maps' ) }</h2>
			</CardHeader>
			<CardBody>
				<p className="cairn-maps-settings__intro">
					{ __(
						'Maps you add from now on start with these settings; each map can still change them. Maps already on your pages keep their own. Their style is the basemap above, unless a map names its own.',
						'cairn-maps'
					) }
				</p>
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
					<ControlsToggles
						value={ value.controls }
						onChange={ ( controls ) =>
							onChange( { ...value, controls } )
						}
					/>
				</fieldset>
			</CardBody>
		</Card>
	);
}
