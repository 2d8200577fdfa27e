/**
 * The inline form of a marker being added: where the editor clicked, a title (required) and an
 * optional text.
 */
import { Button, TextControl, TextareaControl } from '@wordpress/components';
import { __, sprintf } from '@wordpress/i18n';

import type { Position } from './marker-data';

export interface AddDraft {
	title: string;
	text: string;
}

export interface AddMarkerFormProps {
	position: Position;
	/** What the editor typed; kept by the caller, so a cancelled form keeps it for the next click. */
	draft: AddDraft;
	onDraft: ( draft: AddDraft ) => void;
	busy: boolean;
	onSubmit: () => void;
	onCancel: () => void;
}

export function AddMarkerForm( {
	position,
	draft,
	onDraft,
	busy,
	onSubmit,
	onCancel,
}: AddMarkerFormProps ) {
	return (
		<form
			onSubmit={ ( event ) => {
				event.preventDefault();
				onSubmit();
			} }
		>
			<p>
				{ sprintf(
					/* translators: 1: latitude, 2: longitude. */
					__( 'New marker at %1$s, %2$s', 'cairn-maps' ),
					position.lat.toFixed( 5 ),
					position.lng.toFixed( 5 )
				) }
			</p>
			<TextControl
				__next40pxDefaultSize
				__nextHasNoMarginBottom
				label={ __( 'Marker title', 'cairn-maps' ) }
				value={ draft.title }
				onChange={ ( title: string ) => onDraft( { ...draft, title } ) }
				required
			/>
			<TextareaControl
				__nextHasNoMarginBottom
				label={ __( 'Text (optional)', 'cairn-maps' ) }
				value={ draft.text }
				onChange={ ( text: string ) => onDraft( { ...draft, text } ) }
			/>
			<Button
				variant="primary"
				type="submit"
				isBusy={ busy }
				disabled={ busy || ! draft.title.trim() }
			>
				{ __( 'Save marker', 'cairn-maps' ) }
			</Button>
			<Button variant="tertiary" onClick={ onCancel }>
				{ __( 'Cancel', 'cairn-maps' ) }
			</Button>
		</form>
	);
}
