/**
 * Privacy: click-to-load consent, what Mapbox receives, and what deleting the plugin removes.
 */
import {
	Card,
	CardBody,
	CardHeader,
	ToggleControl,
} from '@wordpress/components';
import { __ } from '@wordpress/i18n';

export interface PrivacyPanelProps {
	requireConsent: boolean;
	onRequireConsentChange: ( value: boolean ) => void;
	privacyPolicyUrl: string;
}

export function PrivacyPanel( {
	requireConsent,
	onRequireConsentChange,
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
						'Maps show a “Load map” button with a short note. Nothing is requested from Mapbox until the visitor selects it. The list of places stays visible.',
						'cairn-maps'
					) }
					checked={ requireConsent }
					onChange={ onRequireConsentChange }
				/>
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
