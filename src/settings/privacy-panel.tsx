/**
 * Privacy: click-to-load consent (and the WP Consent API category it follows), what Mapbox
 * receives, and what deleting the plugin removes.
 */
import {
	Card,
	CardBody,
	CardHeader,
	SelectControl,
	ToggleControl,
} from '@wordpress/components';
import { __ } from '@wordpress/i18n';

import type { ConsentApiState, PageData } from './page-data';

export interface PrivacyPanelProps {
	requireConsent: boolean;
	onRequireConsentChange: ( value: boolean ) => void;
	/** The WP Consent API category whose consent lets the maps load. */
	consentCategory: string;
	onConsentCategoryChange: ( value: string ) => void;
	/** Whether the server found the WP Consent API, and a consent plugin using it. */
	consentApi: ConsentApiState;
	consentCategories: PageData[ 'consentCategories' ];
	privacyPolicyUrl: string;
}

function consentApiStatus( state: ConsentApiState ): string {
	switch ( state ) {
		case 'active':
			return __(
				'WP Consent API: active, with a consent management plugin asking visitors. Maps load as soon as the visitor accepts the category below in your consent banner; the “Load map” button records that choice too.',
				'cairn-maps'
			);
		case 'no-consent-type':
			return __(
				'WP Consent API: installed, but no consent management plugin has set a consent type, so there is no banner to follow yet. Maps wait for their “Load map” button, which also records the choice through the API.',
				'cairn-maps'
			);
		default:
			return __(
				'WP Consent API: not found. With it and a consent management plugin that uses it, maps would follow the visitor’s choice in your consent banner.',
				'cairn-maps'
			);
	}
}

export function PrivacyPanel( {
	requireConsent,
	onRequireConsentChange,
	consentCategory,
	onConsentCategoryChange,
	consentApi,
	consentCategories,
	privacyPolicyUrl,
}: PrivacyPanelProps ) {
	return (
		<Card className="cairn-maps-settings__card">
			<CardHeader>
				<h2>{ __( 'Privacy', 'cairn-maps' ) }</h2>
			</CardHeader>
			<CardBody>
				<ToggleControl
					__nextHasNoMarginBottom
					label={ __(
						'Load maps only after the visitor agrees',
						'cairn-maps'
					) }
					help={ __(
						'Maps show a “Load map” button with a short note. Nothing is requested from Mapbox until the visitor selects it, or accepts the category below in a consent banner that uses the WP Consent API. The list of places stays visible. This setting is the switch: a consent plugin alone does not hold the maps back.',
						'cairn-maps'
					) }
					checked={ requireConsent }
					onChange={ onRequireConsentChange }
				/>
				<p className="cairn-maps-settings__consent-api">
					{ consentApiStatus( consentApi ) }
				</p>
				{ consentApi !== 'absent' && (
					<SelectControl
						__nextHasNoMarginBottom
						__next40pxDefaultSize
						label={ __( 'Consent category', 'cairn-maps' ) }
						help={ __(
							'The WP Consent API category whose consent lets the maps load. Mapbox records usage events, so Marketing is the default.',
							'cairn-maps'
						) }
						value={ consentCategory }
						options={ consentCategories }
						onChange={ onConsentCategoryChange }
						disabled={ ! requireConsent }
					/>
				) }
				<h3>
					{ __(
						'What Mapbox receives when a map loads',
						'cairn-maps'
					) }
				</h3>
				<ul className="cairn-maps-settings__list">
					<li>
						{ __(
							'The visitor’s IP address, browser user agent and the address of the page, as with any file a browser downloads.',
							'cairn-maps'
						) }
					</li>
					<li>
						{ __(
							'Which part of the map is viewed, through the map tiles requested.',
							'cairn-maps'
						) }
					</li>
					<li>
						{ __(
							'Usage events (map loads and sessions) that the Mapbox terms of service require. Optional performance metrics are switched off.',
							'cairn-maps'
						) }
					</li>
					<li>
						{ __(
							'An anonymous identifier that the map keeps in the browser’s local storage (entries named “mapbox.eventData…”, such as mapbox.eventData.uuid:…), renewed every 24 hours.',
							'cairn-maps'
						) }
					</li>
				</ul>
				{ privacyPolicyUrl ? (
					<p>
						<a href={ privacyPolicyUrl }>
							{ __(
								'Suggested text for your privacy policy (Settings → Privacy → Policy guide)',
								'cairn-maps'
							) }
						</a>
					</p>
				) : (
					<p>
						{ __(
							'Suggested text for your privacy policy is in Settings → Privacy → Policy guide.',
							'cairn-maps'
						) }
					</p>
				) }
			</CardBody>
		</Card>
	);
}
