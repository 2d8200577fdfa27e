/**
 * Headless front ends: which other origins may read the public map data from their pages.
 */
import {
	Card,
	CardBody,
	CardHeader,
	TextareaControl,
} from '@wordpress/components';
import { useId } from '@wordpress/element';
import { __, sprintf } from '@wordpress/i18n';

import { checkOriginLines } from './origins';

export interface OriginsPanelProps {
	/** The origins, one per line as typed. */
	value: string[];
	onChange: ( value: string[] ) => void;
}

/** Whether the origins can be saved; the message to show when not. */
export function originsError( value: string[] ): string {
	return checkOriginLines( value ).problems.length > 0
		? __( 'Fix the allowed origins before saving.', 'cairn-maps' )
		: '';
}

export function OriginsPanel( { value, onChange }: OriginsPanelProps ) {
	const instanceId = useId();
	const helpId = `cairn-maps-origins-help-${ instanceId }`;
	const problemsId = `cairn-maps-origins-problems-${ instanceId }`;
	const { origins, problems } = checkOriginLines( value );
	return (
		<Card className="cairn-maps-settings__card">
			<CardHeader>
				<h2>{ __( 'Headless front ends', 'cairn-maps' ) }</h2>
			</CardHeader>
			<CardBody>
				<p className="cairn-maps-settings__intro">
					{ __(
						'A front end on another site (a Next.js or Vite app, say) can read the public map data from its pages: the marker list, marker details and the maps of a post. It never gets anything that needs a login.',
						'cairn-maps'
					) }
				</p>
				<TextareaControl
					__nextHasNoMarginBottom
					className="cairn-maps-settings__origins"
					label={ __( 'Allowed origins', 'cairn-maps' ) }
					value={ value.join( '\n' ) }
					onChange={ ( text: string ) =>
						onChange( text.split( '\n' ) )
					}
					rows={ 4 }
					spellCheck={ false }
					autoComplete="off"
					placeholder="https://app.example.com"
					aria-invalid={ problems.length > 0 }
					// Our own help and problems, so that both are announced with the field.
					aria-describedby={
						problems.length > 0
							? `${ problemsId } ${ helpId }`
							: helpId
					}
				/>
				{ problems.length > 0 && (
					<ul
						id={ problemsId }
						className="cairn-maps-settings__problems"
						aria-live="polite"
					>
						{ problems.map( ( { line, message } ) => (
							<li key={ line } data-origin-line={ line }>
								{ sprintf(
									/* translators: 1: line number, 2: what is wrong with that line. */
									__( 'Line %1$d: %2$s', 'cairn-maps' ),
									line,
									message
								) }
							</li>
						) ) }
					</ul>
				) }
				<p id={ helpId } className="cairn-maps-settings__note">
					{ origins.length > 0
						? __(
								'Only these origins may read the map data from their pages. One per line: scheme, host and port, such as https://app.example.com or http://localhost:5173.',
								'cairn-maps'
							)
						: __(
								'Empty: any site may read the map data from its pages (it is public anyway, and caches keep one copy for all). To allow only some, enter their origins, one per line: scheme, host and port, such as https://app.example.com or http://localhost:5173.',
								'cairn-maps'
							) }
				</p>
			</CardBody>
		</Card>
	);
}
