/**
 * One entry of the places list as a card: a thumbnail (a post's featured image, else its group's
 * icon or colour), the title, the group and, once the visitor located themselves, the distance.
 * The title is the button that shows the place on the map (its accessible name says so, with the
 * distance); the group and distance are text of the entry. The picture is decorative: the title
 * names the place. Text is React text, never markup.
 * @since 0.3.0
 */
import type { CSSProperties } from 'react';
import { __, sprintf } from '@wordpress/i18n';

import { DirectionsAnchor } from '../directions-anchor';
import type { DirectionsApp } from '../types';
import type { ListedPlace } from './engine';
import type { PlacesGroup } from './controller';

export interface PlaceCardProps {
	place: ListedPlace;
	/** The map's groups by slug (those with places). */
	groups: ReadonlyMap< string, PlacesGroup >;
	/** The distance as the visitor reads it ("350 m"), or '' before locating. */
	distance: string;
	/** The page's language, for the list of group names. */
	locale?: string;
	/** A route's length and ascent ("12.4 km, 650 m ascent"), '' for other places. */
	route?: string;
	/**
	 * The app of the entry's "Directions" link, to the place's point (a route's start, an
	 * area's label point); none by default. @since 0.9.0
	 */
	directions?: DirectionsApp;
	onChoose: ( id: number ) => void;
	/** The entry has focus (its id) or lost it (null): its shape is highlighted on the map. */
	onFocus?: ( id: number | null ) => void;
}

/**
 * A list entry's accessible name: what choosing it does.
 * @param title
 * @param distance
 */
export function entryLabel( title: string, distance: string ): string {
	const name = title || __( '(no title)', 'cairn-maps' );
	return distance
		? sprintf(
				/* translators: 1: place name, 2: its distance ("350 m"). */
				__( 'Show %1$s on the map, %2$s away', 'cairn-maps' ),
				name,
				distance
			)
		: sprintf(
				/* translators: %s: place name. */
				__( 'Show %s on the map', 'cairn-maps' ),
				name
			);
}

/**
 * Names as a list in the page's language ("Huts and Lakes").
 * @param names
 * @param locale
 */
function listNames( names: string[], locale?: string ): string {
	try {
		return new Intl.ListFormat( locale, {
			style: 'long',
			type: 'conjunction',
		} ).format( names );
	} catch {
		return names.join( ', ' );
	}
}

/**
 * The place's groups the map knows, in the place's order.
 * @param place
 * @param groups
 */
function placeGroups(
	place: ListedPlace,
	groups: ReadonlyMap< string, PlacesGroup >
): PlacesGroup[] {
	const found: PlacesGroup[] = [];
	for ( const slug of place.groups ) {
		const group = groups.get( slug );
		if ( group && ! found.includes( group ) ) {
			found.push( group );
		}
	}
	return found;
}

/**
 * The card's picture: the post's thumbnail; else the first group's icon, else the first group
 * with a colour as a swatch; else the default marker colour. Fixed size, so nothing moves when
 * an image arrives.
 * @param root0
 * @param root0.thumb
 * @param root0.groups
 */
function CardPicture( {
	thumb,
	groups,
}: {
	thumb: string | undefined;
	groups: PlacesGroup[];
} ) {
	if ( thumb ) {
		return (
			<span className="wp-block-cairn-map__card-picture">
				<img
					className="wp-block-cairn-map__card-thumb"
					src={ thumb }
					alt=""
					width={ 64 }
					height={ 64 }
					loading="lazy"
					decoding="async"
				/>
			</span>
		);
	}
	const withIcon = groups.find( ( group ) => group.icon );
	const withColor = groups.find( ( group ) => group.color );
	return (
		<span className="wp-block-cairn-map__card-picture" aria-hidden="true">
			<span
				className={
					withIcon
						? 'wp-block-cairn-map__card-icon'
						: 'wp-block-cairn-map__card-swatch'
				}
				style={
					withIcon
						? {
								backgroundImage: `url(${ JSON.stringify( withIcon.icon ) })`,
							}
						: ( {
								'--cairn-group-color':
									withColor?.color || undefined,
							} as CSSProperties )
				}
			/>
		</span>
	);
}

export function PlaceCard( {
	place,
	groups,
	distance,
	locale,
	route = '',
	directions = 'none',
	onChoose,
	onFocus,
}: PlaceCardProps ) {
	const title = place.title || __( '(no title)', 'cairn-maps' );
	const own = placeGroups( place, groups );
	// Only the title is the button's text, so its name ("Show … on the map") holds all it shows
	// (WCAG 2.5.3); the button covers the whole card (::after), so the card is what one clicks.
	// The entry holds the button itself (DESIGN.md "Places": `li[data-cairn-marker-id] > button`).
	return (
		<li
			className="wp-block-cairn-map__card"
			data-cairn-marker-id={ place.id }
		>
			<CardPicture thumb={ place.thumb } groups={ own } />
			<button
				type="button"
				className="wp-block-cairn-map__list-button wp-block-cairn-map__card-button"
				aria-label={ entryLabel( place.title, distance ) }
				onClick={ () => onChoose( place.id ) }
				onFocus={ onFocus && ( () => onFocus( place.id ) ) }
				onBlur={ onFocus && ( () => onFocus( null ) ) }
			>
				<span className="wp-block-cairn-map__card-title">
					{ title }
				</span>
			</button>
			{ ( own.length > 0 || distance || route ) && (
				<span className="wp-block-cairn-map__card-meta">
					{ route && (
						<span className="wp-block-cairn-map__card-route">
							{ route }
							<span
								className="wp-block-cairn-map__distance-sep"
								aria-hidden="true"
							>
								{ ' — ' }
							</span>
						</span>
					) }
					{ own.length > 0 && (
						<span className="wp-block-cairn-map__card-group">
							{ listNames(
								own.map( ( group ) => group.name ),
								locale
							) }
						</span>
					) }
					{ distance && (
						<span className="wp-block-cairn-map__distance">
							<span
								className="wp-block-cairn-map__distance-sep"
								aria-hidden="true"
							>
								{ ' — ' }
							</span>
							{ distance }
						</span>
					) }
				</span>
			) }
			{ /* Above the button's cover (::after): the link is its own target. */ }
			<DirectionsAnchor
				app={ directions }
				title={ place.title }
				lat={ place.lat }
				lng={ place.lng }
				className="wp-block-cairn-map__card-directions"
			/>
		</li>
	);
}

export default PlaceCard;
