/**
 * Hand-picked markers: a searchable list of published markers.
 */
import { Button, ComboboxControl } from '@wordpress/components';
import { store as coreStore } from '@wordpress/core-data';
import { useSelect } from '@wordpress/data';
import { useState } from '@wordpress/element';
import { __, sprintf } from '@wordpress/i18n';

interface MarkerRecord {
	id: number;
	title: { rendered: string; raw?: string };
}

export interface MarkerPickerProps {
	ids: number[];
	onChange: ( ids: number[] ) => void;
}

/** Titles come from REST as HTML; show them as text. */
function plain( html: string ): string {
	return (
		new window.DOMParser().parseFromString( html, 'text/html' ).body
			.textContent ?? ''
	);
}

export function MarkerPicker( { ids, onChange }: MarkerPickerProps ) {
	const [ search, setSearch ] = useState( '' );
	const { found, chosen } = useSelect(
		( select ) => {
			const store = select( coreStore );
			return {
				found:
					( store.getEntityRecords( 'postType', 'cairn_marker', {
						search,
						per_page: 20,
						status: 'publish',
						_fields: 'id,title',
					} ) as MarkerRecord[] | null ) ?? [],
				chosen:
					ids.length > 0
						? ( ( store.getEntityRecords(
								'postType',
								'cairn_marker',
								{
									include: ids,
									per_page: 100,
									_fields: 'id,title',
								}
							) as MarkerRecord[] | null ) ?? [] )
						: [],
			};
		},
		[ search, ids ]
	);
	const titleOf = ( id: number ) =>
		plain(
			chosen.find( ( marker ) => marker.id === id )?.title.rendered ??
				`#${ id }`
		);
	return (
		<div className="cairn-maps-marker-picker">
			<ComboboxControl
				__next40pxDefaultSize
				__nextHasNoMarginBottom
				label={ __( 'Add a marker', 'cairn-maps' ) }
				value={ null }
				options={ found
					.filter( ( marker ) => ! ids.includes( marker.id ) )
					.map( ( marker ) => ( {
						value: String( marker.id ),
						label:
							plain( marker.title.rendered ) || `#${ marker.id }`,
					} ) ) }
				onFilterValueChange={ setSearch }
				onChange={ ( value?: string | null ) => {
					const id = Number( value );
					if (
						Number.isInteger( id ) &&
						id > 0 &&
						! ids.includes( id )
					) {
						onChange( [ ...ids, id ] );
					}
				} }
			/>
			{ ids.length === 0 ? (
				<p>{ __( 'No markers chosen yet.', 'cairn-maps' ) }</p>
			) : (
				<ul className="cairn-maps-marker-picker__list">
					{ ids.map( ( id ) => (
						<li key={ id }>
							<span>{ titleOf( id ) }</span>
							<Button
								variant="link"
								isDestructive
								label={ sprintf(
									/* translators: %s: marker title. */
									__(
										'Remove %s from this map',
										'cairn-maps'
									),
									titleOf( id )
								) }
								onClick={ () =>
									onChange(
										ids.filter( ( other ) => other !== id )
									)
								}
							>
								{ __( 'Remove', 'cairn-maps' ) }
							</Button>
						</li>
					) ) }
				</ul>
			) }
		</div>
	);
}
