/**
 * Settings → Cairn Maps: loads the settings from `/wp/v2/settings`, then shows the form that edits
 * them and saves them in one request (settings-form.tsx).
 */
import { Notice, Spinner } from '@wordpress/components';
import { useEffect, useState } from '@wordpress/element';

import {
	fetchPluginSettings,
	requestErrorMessage,
} from '../shared/settings-api';
import type { PluginSettings } from '../shared/settings-api';
import type { PageData } from './page-data';
import { SettingsForm } from './settings-form';

export interface SettingsScreenProps {
	page: PageData;
}

export function SettingsScreen( { page }: SettingsScreenProps ) {
	const [ settings, setSettings ] = useState< PluginSettings | null >( null );
	const [ loadError, setLoadError ] = useState( '' );

	useEffect( () => {
		let current = true;
		fetchPluginSettings().then(
			( loaded ) => current && setSettings( loaded ),
			( error: unknown ) =>
				current && setLoadError( requestErrorMessage( error ) )
		);
		return () => {
			current = false;
		};
	}, [] );

	if ( loadError ) {
		return (
			<Notice status="error" isDismissible={ false }>
				{ loadError }
			</Notice>
		);
	}
	if ( ! settings ) {
		return <Spinner />;
	}
	return <SettingsForm initial={ settings } page={ page } />;
}
