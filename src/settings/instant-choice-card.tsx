/**
 * A settings card of one choice that saves itself as soon as the owner picks (the address search
 * service, the directions app), so the screen's own form and its "Save changes" stay as they are.
 * The server refuses a value it does not take with a 400 and keeps the stored one; the card then
 * shows the stored choice again with the server's message.
 * @since 0.9.0
 */
import apiFetch from '@wordpress/api-fetch';
import {
	Card,
	CardBody,
	CardHeader,
	Notice,
	RadioControl,
	Spinner,
} from '@wordpress/components';
import { useEffect, useState } from '@wordpress/element';
import { __ } from '@wordpress/i18n';

import { requestErrorMessage } from '../shared/settings-api';

export interface InstantChoiceCardProps< T extends string > {
	/** The option, as `/wp/v2/settings` names it. */
	option: string;
	/** The stored choice in a `/wp/v2/settings` answer (the default when missing or unknown). */
	parse: ( settings: unknown ) => T;
	/** The choices, each with its label. */
	options: ReadonlyArray< { value: T; label: string } >;
	className: string;
	title: string;
	/** What the choice does, above it. */
	intro: string;
	/** The radio group's label. */
	label: string;
	/** What the card says once a choice is stored. */
	savedMessage: ( stored: T ) => string;
}

type Status< T > =
	| { kind: 'idle' }
	| { kind: 'saving' }
	| { kind: 'saved'; value: T }
	| { kind: 'error'; message: string };

export function InstantChoiceCard< T extends string >( {
	option,
	parse,
	options,
	className,
	title,
	intro,
	label,
	savedMessage,
}: InstantChoiceCardProps< T > ) {
	const [ value, setValue ] = useState< T | null >( null );
	const [ status, setStatus ] = useState< Status< T > >( { kind: 'idle' } );

	useEffect( () => {
		let current = true;
		apiFetch( { path: '/wp/v2/settings' } ).then(
			( settings: unknown ) => current && setValue( parse( settings ) ),
			( error: unknown ) =>
				current &&
				setStatus( {
					kind: 'error',
					message: requestErrorMessage( error ),
				} )
		);
		return () => {
			current = false;
		};
	}, [ parse ] );

	const choose = async ( picked: string ) => {
		const chosen = options.find( ( choice ) => choice.value === picked );
		if ( ! chosen || value === null ) {
			return;
		}
		const previous = value;
		setValue( chosen.value );
		setStatus( { kind: 'saving' } );
		try {
			const stored = parse(
				await apiFetch( {
					path: '/wp/v2/settings',
					method: 'POST',
					data: { [ option ]: chosen.value },
				} )
			);
			setValue( stored );
			setStatus( { kind: 'saved', value: stored } );
		} catch ( error ) {
			setValue( previous );
			setStatus( {
				kind: 'error',
				message: requestErrorMessage( error ),
			} );
		}
	};

	return (
		<Card className={ `cairn-maps-settings__card ${ className }` }>
			<CardHeader>
				<h2>{ title }</h2>
			</CardHeader>
			<CardBody>
				<p>{ intro }</p>
				{ value === null && status.kind !== 'error' && <Spinner /> }
				{ value !== null && (
					<RadioControl
						label={ label }
						selected={ value }
						disabled={ status.kind === 'saving' }
						options={ [ ...options ] }
						onChange={ ( picked ) => void choose( picked ) }
					/>
				) }
				<div aria-live="polite">
					{ status.kind === 'saving' && (
						<p>{ __( 'Saving…', 'cairn-maps' ) }</p>
					) }
					{ status.kind === 'saved' && (
						<p>{ savedMessage( status.value ) }</p>
					) }
				</div>
				{ status.kind === 'error' && (
					<Notice status="error" isDismissible={ false }>
						{ status.message }
					</Notice>
				) }
			</CardBody>
		</Card>
	);
}
