/**
 * Which post types can have a location (setting `cairn_maps_post_types`): one checkbox per
 * candidate type the server listed (public, shown in REST, not markers).
 */
import {
	Card,
	CardBody,
	CardHeader,
	CheckboxControl,
} from '@wordpress/components';
import { __ } from '@wordpress/i18n';

import type { PageData } from './page-data';

export interface LocationsPanelProps {
	/** The enabled post types. */
	value: string[];
	onChange: ( value: string[] ) => void;
	/** The types that can be enabled, with their names. */
	types: PageData[ 'locationTypes' ];
}

export function LocationsPanel( {
	value,
	onChange,
	types,
}: LocationsPanelProps ) {
	return (
		<Card className="cairn-maps-settings__card">
			<CardHeader>
				<h2>{ __( 'Locations of content', 'cairn-maps' ) }</h2>
			</CardHeader>
			<CardBody>
				<fieldset className="cairn-maps-settings__types">
					<legend>
						{ __(
							'Content that can have a location',
							'cairn-maps'
						) }
					</legend>
					<p className="cairn-maps-settings__note">
						{ __(
							'Posts of the types checked here get a “Location” panel in the editor, and maps can show them beside markers. Markers always have a place.',
							'cairn-maps'
						) }
					</p>
					{ types.map( ( type ) => (
						<CheckboxControl
							__nextHasNoMarginBottom
							key={ type.value }
							label={ type.label }
							checked={ value.includes( type.value ) }
							onChange={ ( checked: boolean ) =>
								onChange(
									checked
										? [ ...value, type.value ]
										: value.filter(
												( name ) => name !== type.value
											)
								)
							}
						/>
					) ) }
				</fieldset>
			</CardBody>
		</Card>
	);
}
