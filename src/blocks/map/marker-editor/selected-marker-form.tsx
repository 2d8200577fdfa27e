/**
 * The form of the marker selected on the map: its title, text and group, a link to its full edit
 * screen, the trash, and "Close".
 */
import {
	Button,
	SelectControl,
	TextControl,
	TextareaControl,
} from '@wordpress/components';
import { useEffect, useState } from '@wordpress/element';
import { __ } from '@wordpress/i18n';

import type { GroupTerm } from '../marker-groups';
import type { MarkerDraft, MarkerRecord } from './marker-data';
import { TrashControl } from './trash-control';

export interface SelectedMarkerFormProps {
	markerId: number;
	/** The marker, undefined while it loads. */
	record: MarkerRecord | undefined;
	groups: GroupTerm[];
	busy: boolean;
	/** The marker edit screen's address without the id. */
	editUrl: string;
	/** Changes with each selecting click on the map, which takes back a trash question. */
	selection: number;
	onSave: ( draft: MarkerDraft ) => void;
	onTrash: () => void;
	onClose: () => void;
}

export function SelectedMarkerForm( {
	markerId,
	record,
	groups,
	busy,
	editUrl,
	selection,
	onSave,
	onTrash,
	onClose,
}: SelectedMarkerFormProps ) {
	const [ draft, setDraft ] = useState< MarkerDraft >( {
		title: '',
		content: '',
		group: 0,
	} );
	useEffect( () => {
		if ( record ) {
			setDraft( {
				title: record.title.raw ?? '',
				content: record.content.raw ?? '',
				group: record[ 'cairn-marker-groups' ]?.[ 0 ] ?? 0,
			} );
		}
	}, [ record ] );

	return (
		<form
			onSubmit={ ( event ) => {
				event.preventDefault();
				if ( draft.title.trim() ) {
					onSave( draft );
				}
			} }
		>
			{ ! record ? (
				<p>{ __( 'Loading marker…', 'cairn-maps' ) }</p>
			) : (
				<>
					<TextControl
						__next40pxDefaultSize
						__nextHasNoMarginBottom
						label={ __( 'Marker title', 'cairn-maps' ) }
						value={ draft.title }
						onChange={ ( title: string ) =>
							setDraft( { ...draft, title } )
						}
					/>
					<TextareaControl
						__nextHasNoMarginBottom
						label={ __( 'Text', 'cairn-maps' ) }
						value={ draft.content }
						onChange={ ( content: string ) =>
							setDraft( { ...draft, content } )
						}
					/>
					<SelectControl
						__next40pxDefaultSize
						__nextHasNoMarginBottom
						label={ __( 'Group', 'cairn-maps' ) }
						value={ String( draft.group ) }
						options={ [
							{
								value: '0',
								label: __( 'No group', 'cairn-maps' ),
							},
							...groups.map( ( group ) => ( {
								value: String( group.id ),
								label: group.name,
							} ) ),
						] }
						onChange={ ( value: string ) =>
							setDraft( { ...draft, group: Number( value ) } )
						}
					/>
					<p className="cairn-maps-help">
						{ __(
							'Drag the highlighted marker on the map to move it.',
							'cairn-maps'
						) }
					</p>
					<Button
						variant="primary"
						type="submit"
						isBusy={ busy }
						disabled={ busy || ! draft.title.trim() }
					>
						{ __( 'Save marker', 'cairn-maps' ) }
					</Button>
					<Button
						variant="link"
						href={ editUrl + markerId }
						target="_blank"
					>
						{ __( 'Open full editor', 'cairn-maps' ) }
					</Button>
					<TrashControl
						key={ selection }
						busy={ busy }
						onTrash={ onTrash }
					/>
				</>
			) }
			<Button variant="tertiary" onClick={ onClose }>
				{ __( 'Close', 'cairn-maps' ) }
			</Button>
		</form>
	);
}
