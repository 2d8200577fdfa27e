/**
 * The results of an address search: the listbox the search field controls, the note when nothing
 * was found, and the provider's attribution, as its terms require.
 */
import { __ } from '@wordpress/i18n';

import type { GeocodeAnswer, GeocodeResult } from './geocode-answer';

/** The listbox's id, for the field's `aria-controls`. */
export const resultsId = ( id: string ) => `${ id }-results`;

/** The id of the option at an index, for the field's `aria-activedescendant`. */
export const resultId = ( id: string, index: number ) =>
	`${ id }-result-${ index }`;

export interface AddressSearchResultsProps {
	/** The search's id, which the ids of the list and its options start with. */
	id: string;
	/** The answer to show, or null while the list is closed. */
	answer: GeocodeAnswer | null;
	active: number;
	onChoose: ( result: GeocodeResult ) => void;
}

export function AddressSearchResults( {
	id,
	answer,
	active,
	onChoose,
}: AddressSearchResultsProps ) {
	const results = answer?.results ?? [];
	return (
		<>
			<ul
				id={ resultsId( id ) }
				role="listbox"
				aria-label={ __( 'Addresses found', 'cairn-maps' ) }
				className="cairn-maps-address-search__results"
				hidden={ answer === null || results.length === 0 }
			>
				{ results.map( ( result, index ) => (
					// The combobox pattern: the keys are handled in the field, which keeps the focus.
					// eslint-disable-next-line jsx-a11y/click-events-have-key-events
					<li
						key={ `${ result.lat },${ result.lng },${ index }` }
						id={ resultId( id, index ) }
						role="option"
						aria-selected={ index === active }
						className="cairn-maps-address-search__result"
						// Keep the focus in the field; the click chooses.
						onMouseDown={ ( event ) => event.preventDefault() }
						onClick={ () => onChoose( result ) }
					>
						{ result.label }
					</li>
				) ) }
			</ul>
			{ answer && results.length === 0 && (
				<p className="cairn-maps-address-search__empty">
					{ __(
						'No address found. Try fewer words, or place the point on the map.',
						'cairn-maps'
					) }
				</p>
			) }
			{ answer?.attribution && (
				<p className="cairn-maps-address-search__attribution">
					{ answer.attributionUrl ? (
						<a
							href={ answer.attributionUrl }
							target="_blank"
							rel="noreferrer"
						>
							{ answer.attribution }
						</a>
					) : (
						answer.attribution
					) }
				</p>
			) }
		</>
	);
}
