/**
 * What the map block shows in the editor while the site has no usable access token: what is
 * missing, a link to Settings → Cairn Maps and, for administrators, a field to paste the token
 * right here (checked as it is typed, saved through `/wp/v2/settings`).
 *
 * `useTokenStatus()` tells every map block on the screen when a token is saved here, so they all
 * switch to the live map at once.
 */
import { Button, Notice, Placeholder } from '@wordpress/components';
import { useState, useSyncExternalStore } from '@wordpress/element';
import type { FormEvent } from 'react';
import { __, sprintf } from '@wordpress/i18n';
import { checkToken } from '@cairn-maps/map';

import {
	requestErrorMessage,
	savePluginSettings,
} from '../../shared/settings-api';
import { TokenField } from '../../shared/token-field';
import { getEditorData } from './editor-data';

export type TokenStatusCode =
	'ok' | 'missing-token' | 'secret-token' | 'invalid-token';

export interface TokenStatus {
	status: TokenStatusCode;
	/** The public token the maps use ('' unless status is `ok`). */
	accessToken: string;
	canManageOptions: boolean;
	settingsUrl: string;
}

// The token saved from a placeholder during this editing session, shared by every block.
let savedToken: string | null = null;
const listeners = new Set< () => void >();

function subscribe( listener: () => void ): () => void {
	listeners.add( listener );
	return () => listeners.delete( listener );
}

function setSavedToken( token: string ): void {
	savedToken = token;
	listeners.forEach( ( listener ) => listener() );
}

function readStatus(): TokenStatus {
	const data = getEditorData();
	const accessToken = savedToken ?? data.accessToken;
	let status: TokenStatusCode = 'ok';
	if ( savedToken === null && data.tokenError ) {
		status =
			data.tokenError === 'secret-token' ||
			data.tokenError === 'invalid-token'
				? data.tokenError
				: 'missing-token';
	} else if ( checkToken( accessToken ).kind !== 'public' ) {
		status = 'missing-token';
	}
	return {
		status,
		accessToken: status === 'ok' ? accessToken : '',
		canManageOptions: data.canManageOptions,
		settingsUrl: data.settingsUrl,
	};
}

let cachedKey = '';
let cachedStatus: TokenStatus | null = null;

function snapshot(): TokenStatus {
	// useSyncExternalStore needs a stable object while nothing changed.
	const next = readStatus();
	const key = JSON.stringify( next );
	if ( ! cachedStatus || key !== cachedKey ) {
		cachedKey = key;
		cachedStatus = next;
	}
	return cachedStatus;
}

/** Whether the site has a usable token, and the token itself (public; pages print it anyway). */
export function useTokenStatus(): TokenStatus {
	return useSyncExternalStore( subscribe, snapshot, snapshot );
}

function instructions( status: TokenStatusCode ): string {
	switch ( status ) {
		case 'secret-token':
			return __(
				'This map cannot be shown: the Mapbox token configured for this site is a secret or temporary token, which must never be used on web pages. A public token (starting with “pk.”) is needed.',
				'cairn-maps'
			);
		case 'invalid-token':
			return __(
				'This map cannot be shown: the Mapbox access token configured for this site is not valid. A public token (starting with “pk.”) is needed.',
				'cairn-maps'
			);
		default:
			return __(
				'This map needs a public Mapbox access token before it can be shown. Maps are drawn by Mapbox, which identifies your site by this token.',
				'cairn-maps'
			);
	}
}

export function TokenPlaceholder() {
	const { status, canManageOptions, settingsUrl } = useTokenStatus();
	const [ token, setToken ] = useState( '' );
	const [ saving, setSaving ] = useState( false );
	const [ error, setError ] = useState( '' );
	const check = checkToken( token );
	const canSave = check.kind === 'public' && ! saving;

	const save = async ( event: FormEvent ) => {
		event.preventDefault();
		if ( ! canSave ) {
			return;
		}
		setSaving( true );
		setError( '' );
		try {
			const saved = await savePluginSettings( { accessToken: token } );
			setSavedToken( saved.accessToken );
		} catch ( caught ) {
			setError( requestErrorMessage( caught ) );
			setSaving( false );
		}
	};

	return (
		<Placeholder
			className="wp-block-cairn-map__token-placeholder"
			icon="location-alt"
			label={ __( 'Cairn Map', 'cairn-maps' ) }
			instructions={ instructions( status ) }
		>
			{ canManageOptions ? (
				<form
					className="wp-block-cairn-map__token-form"
					onSubmit={ save }
				>
					{ error && (
						<Notice status="error" isDismissible={ false }>
							{ error }
						</Notice>
					) }
					<TokenField
						value={ token }
						onChange={ setToken }
						label={ __(
							'Public Mapbox access token',
							'cairn-maps'
						) }
						hideEmptyVerdict
					/>
					<div className="wp-block-cairn-map__token-actions">
						<Button
							__next40pxDefaultSize
							type="submit"
							variant="primary"
							isBusy={ saving }
							disabled={ ! canSave }
							accessibleWhenDisabled
						>
							{ __( 'Save token', 'cairn-maps' ) }
						</Button>
						<Button
							__next40pxDefaultSize
							variant="link"
							href={ settingsUrl }
							target="_blank"
						>
							{ __( 'Open Settings → Cairn Maps', 'cairn-maps' ) }
						</Button>
					</div>
					<p className="wp-block-cairn-map__token-help">
						{ check.kind === 'public'
							? sprintf(
									/* translators: %s: Mapbox account name. */
									__(
										'Saving stores it for the whole site: every map uses the token of Mapbox account “%s”.',
										'cairn-maps'
									),
									check.account
								)
							: __(
									'Copy a public token from account.mapbox.com (Tokens). Restrict it to this site’s address there.',
									'cairn-maps'
								) }
					</p>
				</form>
			) : (
				<p className="wp-block-cairn-map__token-help">
					{ __(
						'Ask a site administrator to add a public Mapbox access token in Settings → Cairn Maps.',
						'cairn-maps'
					) }
				</p>
			) }
		</Placeholder>
	);
}
