/**
 * The access token: the field, what is wrong with the stored one, and how to get a safe token.
 */
import { Card, CardBody, CardHeader, Notice } from '@wordpress/components';
import { __, sprintf } from '@wordpress/i18n';

import { TokenField } from '../shared/token-field';
import type { PageData } from './page-data';

export interface TokenPanelProps {
	value: string;
	onChange: ( value: string ) => void;
	siteUrl: string;
	storedTokenProblem: PageData[ 'storedTokenProblem' ];
}

export function TokenPanel( {
	value,
	onChange,
	siteUrl,
	storedTokenProblem,
}: TokenPanelProps ) {
	return (
		<Card className="cairn-maps-settings__card">
			<CardHeader>
				<h2>{ __( 'Access token', 'cairn-maps' ) }</h2>
			</CardHeader>
			<CardBody>
				{ storedTokenProblem && (
					<Notice status="warning" isDismissible={ false }>
						{ storedTokenProblem === 'secret-token'
							? __(
									'The token stored on this site is a secret or temporary token. It is never used on pages, so maps show a notice instead of the map until you save a public token.',
									'cairn-maps'
								)
							: __(
									'The token stored on this site is not a valid Mapbox token, so maps show a notice instead of the map until you save a public token.',
									'cairn-maps'
								) }
					</Notice>
				) }
				<TokenField value={ value } onChange={ onChange } />
				<div className="cairn-maps-settings__guide">
					<p>
						{ __(
							'Every page with a map includes this token, so anyone can read it. That is why only a public token (starting with “pk.”) is accepted. Keep it safe by restricting it to your site:',
							'cairn-maps'
						) }
					</p>
					<ol>
						<li>
							{ __(
								'Sign in at account.mapbox.com and open “Tokens”.',
								'cairn-maps'
							) }
						</li>
						<li>
							{ __(
								'Create a token for this site and keep only the public scopes selected by default.',
								'cairn-maps'
							) }
						</li>
						<li>
							{ siteUrl
								? sprintf(
										/* translators: %s: the site's address. */
										__(
											'Under “URL restrictions”, add this site’s address: %s. The token then works only on your pages, even if someone copies it.',
											'cairn-maps'
										),
										siteUrl
									)
								: __(
										'Under “URL restrictions”, add this site’s address. The token then works only on your pages, even if someone copies it.',
										'cairn-maps'
									) }
						</li>
						<li>
							{ __(
								'Copy the token (it starts with “pk.”) and paste it above.',
								'cairn-maps'
							) }
						</li>
					</ol>
				</div>
			</CardBody>
		</Card>
	);
}
