/**
 * What deleting the plugin removes.
 */
import {
	Card,
	CardBody,
	CardHeader,
	ToggleControl,
} from '@wordpress/components';
import { __ } from '@wordpress/i18n';

export interface DataPanelProps {
	deleteDataOnUninstall: boolean;
	onChange: ( value: boolean ) => void;
}

export function DataPanel( {
	deleteDataOnUninstall,
	onChange,
}: DataPanelProps ) {
	return (
		<Card className="cairn-maps-settings__card">
			<CardHeader>
				<h2>{ __( 'Your data', 'cairn-maps' ) }</h2>
			</CardHeader>
			<CardBody>
				<ToggleControl
					__nextHasNoMarginBottom
					label={ __(
						'Delete all markers and settings when the plugin is deleted',
						'cairn-maps'
					) }
					help={
						deleteDataOnUninstall
							? __(
									'Deleting the plugin from the Plugins screen removes all markers, marker groups and settings for good.',
									'cairn-maps'
								)
							: __(
									'Deleting the plugin removes its settings but keeps your markers and marker groups, so nothing is lost if you install it again.',
									'cairn-maps'
								)
					}
					checked={ deleteDataOnUninstall }
					onChange={ onChange }
				/>
				<p className="cairn-maps-settings__note">
					{ __(
						'Deactivating the plugin never deletes anything.',
						'cairn-maps'
					) }
				</p>
			</CardBody>
		</Card>
	);
}
