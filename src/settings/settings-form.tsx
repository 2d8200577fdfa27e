/**
 * The settings form: the cards that edit the loaded settings, and one save that sends them all.
 * The server checks everything again and refuses with a 400 without storing anything; its message
 * becomes the form's notice.
 */
import { Notice } from '@wordpress/components';
import { useState } from '@wordpress/element';
import type { FormEvent } from 'react';
import { __, sprintf } from '@wordpress/i18n';

import { tokenVerdict } from '../shared/token-messages';
import { checkToken } from '@cairn-maps/map';
import {
	requestErrorMessage,
	savePluginSettings,
} from '../shared/settings-api';
import type { PluginSettings } from '../shared/settings-api';
import { DataPanel } from './data-panel';
import { BasemapPanel } from './basemap-panel';
import { basemapKind, editedBasemapProblem } from './basemap';
import type { BasemapKind } from './basemap';
import { DefaultsPanel } from './defaults-panel';
import { DirectionsPanel } from './directions-panel';
import { GeocoderPanel } from './geocoder-panel';
import { LocationsPanel } from './locations-panel';
import { OriginsPanel, originsError } from './origins-panel';
import type { PageData } from './page-data';
import { PrivacyPanel } from './privacy-panel';
import { SaveActions } from './save-actions';
import { TokenPanel } from './token-panel';

interface FormNotice {
	status: 'success' | 'error';
	message: string;
}

export interface SettingsFormProps {
	/** The settings as loaded. */
	initial: PluginSettings;
	page: PageData;
}

/**
 * What stops the settings from being saved, the token first; '' when nothing does.
 *
 * @param settings   The settings as edited.
 * @param basemap    The kind of basemap picked.
 * @param localHosts Hosts of the site's addresses (for a self-hosted archive).
 */
function saveProblem(
	settings: PluginSettings,
	basemap: BasemapKind,
	localHosts: readonly string[]
): string {
	if ( ! tokenVerdict( checkToken( settings.accessToken ) ).acceptable ) {
		return __( 'Fix the access token before saving.', 'cairn-maps' );
	}
	if ( editedBasemapProblem( basemap, settings.basemap, localHosts ) ) {
		return __( 'Fix the basemap before saving.', 'cairn-maps' );
	}
	return originsError( settings.allowedOrigins );
}

export function SettingsForm( { initial, page }: SettingsFormProps ) {
	const [ settings, setSettings ] = useState( initial );
	const [ saving, setSaving ] = useState( false );
	const [ notice, setNotice ] = useState< FormNotice | null >( null );
	const [ storedTokenProblem, setStoredTokenProblem ] = useState(
		page.storedTokenProblem
	);

	const update = ( changes: Partial< PluginSettings > ) =>
		setSettings( { ...settings, ...changes } );
	const [ basemap, setBasemap ] = useState< BasemapKind >( () =>
		basemapKind( initial.basemap )
	);
	const problem = saveProblem( settings, basemap, page.localHosts );

	const save = async ( event: FormEvent ) => {
		event.preventDefault();
		if ( problem || saving ) {
			return;
		}
		setSaving( true );
		setNotice( null );
		try {
			const saved = await savePluginSettings( settings );
			setSettings( saved );
			setStoredTokenProblem( '' );
			const check = checkToken( saved.accessToken );
			setNotice( {
				status: 'success',
				message:
					check.kind === 'public'
						? sprintf(
								/* translators: %s: Mapbox account name. */
								__(
									'Settings saved. Maps use the token of Mapbox account “%s”.',
									'cairn-maps'
								),
								check.account
							)
						: __( 'Settings saved.', 'cairn-maps' ),
			} );
		} catch ( error ) {
			setNotice( {
				status: 'error',
				message: requestErrorMessage( error ),
			} );
		} finally {
			setSaving( false );
		}
	};

	return (
		<form
			className="cairn-maps-settings__form"
			onSubmit={ save }
			noValidate
		>
			{ notice && (
				<Notice
					status={ notice.status }
					onRemove={ () => setNotice( null ) }
					className="cairn-maps-settings__notice"
				>
					{ notice.message }
				</Notice>
			) }
			<TokenPanel
				value={ settings.accessToken }
				onChange={ ( accessToken ) => update( { accessToken } ) }
				siteUrl={ page.siteUrl }
				storedTokenProblem={ storedTokenProblem }
			/>
			<BasemapPanel
				value={ settings.basemap }
				onChange={ ( value ) => update( { basemap: value } ) }
				kind={ basemap }
				onKindChange={ setBasemap }
				hasPublicToken={
					checkToken( settings.accessToken ).kind === 'public'
				}
				localHosts={ page.localHosts }
			/>
			<DefaultsPanel
				value={ settings.defaults }
				onChange={ ( defaults ) => update( { defaults } ) }
			/>
			<GeocoderPanel />
			<DirectionsPanel />
			<PrivacyPanel
				requireConsent={ settings.requireConsent }
				onRequireConsentChange={ ( requireConsent ) =>
					update( { requireConsent } )
				}
				consentCategory={ settings.consentCategory }
				onConsentCategoryChange={ ( consentCategory ) =>
					update( { consentCategory } )
				}
				consentApi={ page.consentApi }
				consentCategories={ page.consentCategories }
				privacyPolicyUrl={ page.privacyPolicyUrl }
			/>
			<LocationsPanel
				value={ settings.postTypes }
				onChange={ ( postTypes ) => update( { postTypes } ) }
				types={ page.locationTypes }
			/>
			<OriginsPanel
				value={ settings.allowedOrigins }
				onChange={ ( allowedOrigins ) => update( { allowedOrigins } ) }
			/>
			<DataPanel
				deleteDataOnUninstall={ settings.deleteDataOnUninstall }
				onChange={ ( deleteDataOnUninstall ) =>
					update( { deleteDataOnUninstall } )
				}
			/>
			<SaveActions saving={ saving } problem={ problem } />
		</form>
	);
}
