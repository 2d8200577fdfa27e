/**
 * Settings → Cairn Maps: loads the settings from `/wp/v2/settings`, edits them, saves them in one
 * request. The server checks everything again and refuses with a 400 without storing anything.
 */
import { Button, Notice, Spinner } from '@wordpress/components';
import { useEffect, useState } from '@wordpress/element';
import type { FormEvent } from 'react';
import { __, sprintf } from '@wordpress/i18n';
import { checkToken } from '@cairn-maps/map';

import { tokenVerdict } from '../shared/token-messages';
import {
	fetchPluginSettings,
	requestErrorMessage,
	savePluginSettings,
} from '../shared/settings-api';
import type { PluginSettings } from '../shared/settings-api';
import { DataPanel } from './data-panel';
import { DefaultsPanel, defaultsError } from './defaults-panel';
import { GeocoderPanel } from './geocoder-panel';
import { LocationsPanel } from './locations-panel';
import { OriginsPanel, originsError } from './origins-panel';
import type { PageData } from './page-data';
import { PrivacyPanel } from './privacy-panel';
import { TokenPanel } from './token-panel';

interface ScreenNotice {
	status: 'success' | 'error';
	message: string;
}

export interface SettingsScreenProps {
	page: PageData;
}

export function SettingsScreen( { page }: SettingsScreenProps ) {
	const [ settings, setSettings ] = useState< PluginSettings | null >( null );
	const [ loadError, setLoadError ] = useState( '' );
	const [ saving, setSaving ] = useState( false );
	const [ notice, setNotice ] = useState< ScreenNotice | null >( null );
	const [ storedTokenProblem, setStoredTokenProblem ] = useState(
		page.storedTokenProblem
	);

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

	const update = ( changes: Partial< PluginSettings > ) =>
		setSettings( { ...settings, ...changes } );
	const tokenCheck = checkToken( settings.accessToken );
	const tokenAcceptable = tokenVerdict( tokenCheck ).acceptable;
	const defaultsProblem = defaultsError( settings.defaults );
	const originsProblem = originsError( settings.allowedOrigins );
	const canSave =
		tokenAcceptable && ! defaultsProblem && ! originsProblem && ! saving;

	const save = async ( event: FormEvent ) => {
		event.preventDefault();
		if ( ! canSave ) {
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
			<DefaultsPanel
				value={ settings.defaults }
				onChange={ ( defaults ) => update( { defaults } ) }
			/>
			<GeocoderPanel />
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
			<div className="cairn-maps-settings__actions">
				<Button
					__next40pxDefaultSize
					type="submit"
					variant="primary"
					isBusy={ saving }
					disabled={ ! canSave }
					accessibleWhenDisabled
					aria-describedby={
						canSave ? undefined : 'cairn-maps-settings-save-blocked'
					}
				>
					{ __( 'Save changes', 'cairn-maps' ) }
				</Button>
				{ ! canSave && ! saving && (
					<span
						id="cairn-maps-settings-save-blocked"
						className="cairn-maps-settings__blocked"
					>
						{ tokenAcceptable
							? defaultsProblem || originsProblem
							: __(
									'Fix the access token before saving.',
									'cairn-maps'
								) }
					</span>
				) }
			</div>
		</form>
	);
}
