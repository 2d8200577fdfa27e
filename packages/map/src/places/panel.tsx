/**
 * The places panel: the visitors' way to every place of a map without a mouse — a search field,
 * a group legend, the language of the labels and a list that follows the map, paged by 50.
 * React around the framework-free places controller; the plugin renders it into the server's
 * `.wp-block-cairn-map__places` region (React from WordPress), `<CairnMap>` renders it in an app.
 * Every place title and group name is React text: never markup.
 */
import { useId, useMemo, useState, useSyncExternalStore } from 'react';
import type { CSSProperties, KeyboardEvent } from 'react';
import { __, _n, sprintf } from '@wordpress/i18n';

import type { PlacesController, PlacesGroup, PlacesState } from './controller';
import { PlaceCard } from './place-card';
import { FEET_PER_METRE, METRES_PER_MILE, formatUnit } from '../shapes/units';
import { formatRadius, radiusChoices } from './near';
import { formatCount } from '../count';

export interface PlacesPanelProps {
	places: PlacesController;
}

function locale( places: PlacesController ): string | undefined {
	return places.locale || undefined;
}

/**
 * A distance in the site's units: metres/kilometres, or feet/miles.
 * @param metres
 * @param units
 * @param lang
 */
export function formatDistance(
	metres: number,
	units: 'metric' | 'imperial',
	lang?: string
): string {
	if ( units === 'imperial' ) {
		const miles = metres / METRES_PER_MILE;
		return miles < 0.1
			? formatUnit(
					Math.round( metres * FEET_PER_METRE ),
					'foot',
					0,
					lang
				)
			: formatUnit( miles, 'mile', miles < 10 ? 1 : 0, lang );
	}
	return metres < 1000
		? formatUnit( Math.round( metres / 10 ) * 10, 'meter', 0, lang )
		: formatUnit(
				metres / 1000,
				'kilometer',
				metres < 10_000 ? 1 : 0,
				lang
			);
}

function languageName( tag: string, lang?: string ): string {
	try {
		const names = new Intl.DisplayNames( lang ? [ lang ] : undefined, {
			type: 'language',
		} );
		return names.of( tag ) ?? tag;
	} catch {
		return tag;
	}
}

function SearchField( {
	places,
	state,
}: {
	places: PlacesController;
	state: PlacesState;
} ) {
	const id = useId();
	const [ text, setText ] = useState( state.search );
	const change = ( value: string ) => {
		setText( value );
		places.setSearch( value );
	};
	const onKeyDown = ( event: KeyboardEvent< HTMLInputElement > ) => {
		if ( event.key === 'Escape' && text !== '' ) {
			event.preventDefault();
			event.stopPropagation();
			change( '' );
		}
	};
	return (
		<div className="wp-block-cairn-map__search">
			<label htmlFor={ id }>
				{ __( 'Search places', 'cairn-maps' ) }
			</label>
			<input
				id={ id }
				type="search"
				value={ text }
				autoComplete="off"
				maxLength={ 200 }
				onChange={ ( event ) => change( event.target.value ) }
				onKeyDown={ onKeyDown }
			/>
		</div>
	);
}

/**
 * "Near: [a town, address or postcode | my location] within [any | 1 … 100 km or mi]".
 * @param props
 * @param props.places
 * @param props.state
 */
function NearField( {
	places,
	state,
}: {
	places: PlacesController;
	state: PlacesState;
} ) {
	const id = useId();
	const near = state.near;
	const [ text, setText ] = useState( near?.text ?? '' );
	const [ radius, setRadius ] = useState( near?.radius ?? 0 );
	const choices = radiusChoices( places.units );
	const lang = locale( places );
	// The address changed (back, forward, a shared link): the fields show its search.
	const [ shown, setShown ] = useState( near );
	if ( shown !== near ) {
		setShown( near );
		setText( near?.text ?? '' );
		setRadius( near?.radius ?? 0 );
	}
	const chosen = choices.find(
		( choice ) => Math.abs( choice - radius ) <= 1
	);
	const busy = state.nearStatus === 'finding';
	return (
		<form
			className="wp-block-cairn-map__near"
			role="search"
			aria-label={ __( 'Places near', 'cairn-maps' ) }
			onSubmit={ ( event ) => {
				event.preventDefault();
				places.searchNear( text, radius );
			} }
		>
			<label htmlFor={ `${ id }-text` }>
				{ __( 'Near', 'cairn-maps' ) }
			</label>
			<input
				id={ `${ id }-text` }
				type="text"
				value={ text }
				autoComplete="off"
				maxLength={ 200 }
				placeholder={ __(
					'A town, address or postcode',
					'cairn-maps'
				) }
				onChange={ ( event ) => setText( event.target.value ) }
			/>{ ' ' }
			<button
				type="button"
				className="wp-block-cairn-map__near-me"
				disabled={ busy }
				onClick={ () => places.searchNear( '', radius, true ) }
			>
				{ __( 'My location', 'cairn-maps' ) }
			</button>{ ' ' }
			<label htmlFor={ `${ id }-radius` }>
				{ __( 'within', 'cairn-maps' ) }
			</label>
			<select
				id={ `${ id }-radius` }
				value={ String( chosen ?? ( radius > 0 ? radius : 0 ) ) }
				onChange={ ( event ) => {
					const value = Number( event.target.value );
					setRadius( value );
					if ( near ) {
						places.searchNear( near.text, value, near.text === '' );
					}
				} }
			>
				<option value="0">
					{ __( 'any distance', 'cairn-maps' ) }
				</option>
				{ ! chosen && radius > 0 && (
					<option value={ String( radius ) }>
						{ formatRadius( radius, places.units, lang ) }
					</option>
				) }
				{ choices.map( ( choice ) => (
					<option key={ choice } value={ String( choice ) }>
						{ formatRadius( choice, places.units, lang ) }
					</option>
				) ) }
			</select>{ ' ' }
			<button type="submit" disabled={ busy }>
				{ __( 'Find', 'cairn-maps' ) }
			</button>
			{ near && (
				<>
					{ ' ' }
					<button
						type="button"
						className="wp-block-cairn-map__near-clear"
						onClick={ () => {
							setText( '' );
							places.clearNear();
						} }
					>
						{ __( 'Clear', 'cairn-maps' ) }
					</button>
				</>
			) }
			{ state.nearStatus === 'not-found' && (
				<p className="wp-block-cairn-map__near-status">
					{ __(
						'No such place was found. Try a town, a postcode or a fuller address.',
						'cairn-maps'
					) }
				</p>
			) }
			{ state.nearStatus === 'failed' && (
				<p className="wp-block-cairn-map__near-status">
					{ __(
						'The place could not be looked up. Try again later.',
						'cairn-maps'
					) }
				</p>
			) }
		</form>
	);
}

function GroupLegend( {
	places,
	state,
}: {
	places: PlacesController;
	state: PlacesState;
} ) {
	const label = useId();
	const lang = locale( places );
	return (
		<div
			className="wp-block-cairn-map__groups"
			role="group"
			aria-labelledby={ label }
		>
			<span id={ label } className="wp-block-cairn-map__groups-title">
				{ __( 'Groups', 'cairn-maps' ) }
			</span>
			{ state.groups.map( ( group ) => {
				const shown = ! state.hidden.includes( group.slug );
				return (
					<button
						key={ group.slug }
						type="button"
						className="wp-block-cairn-map__group"
						data-cairn-group={ group.slug }
						aria-pressed={ shown }
						onClick={ () => places.toggleGroup( group.slug ) }
					>
						<span
							className="wp-block-cairn-map__group-swatch"
							aria-hidden="true"
							style={
								{
									'--cairn-group-color':
										group.color || undefined,
									backgroundImage: group.icon
										? `url(${ JSON.stringify( group.icon ) })`
										: undefined,
								} as CSSProperties
							}
						/>
						{ group.name }{ ' ' }
						<span className="wp-block-cairn-map__group-count">
							{ sprintf(
								/* translators: %s: number of places in the group ("1,234"). */
								__( '(%s)', 'cairn-maps' ),
								formatCount( group.count, lang )
							) }
						</span>
					</button>
				);
			} ) }
			<button
				type="button"
				className="wp-block-cairn-map__groups-all"
				disabled={ state.hidden.length === 0 }
				onClick={ places.showAllGroups }
			>
				{ __( 'Show all', 'cairn-maps' ) }
			</button>
		</div>
	);
}

function LanguageChoice( {
	places,
	state,
}: {
	places: PlacesController;
	state: PlacesState;
} ) {
	const id = useId();
	const lang = locale( places );
	return (
		<div className="wp-block-cairn-map__language">
			<label htmlFor={ id }>{ __( 'Map labels', 'cairn-maps' ) }</label>
			<select
				id={ id }
				value={ state.language || '' }
				onChange={ ( event ) =>
					places.setLanguage( event.target.value )
				}
			>
				{ state.language === '' && (
					<option value="">{ __( 'Default', 'cairn-maps' ) }</option>
				) }
				{ places.languages.map( ( tag ) => (
					<option key={ tag } value={ tag } lang={ tag }>
						{ languageName( tag, lang ) }
					</option>
				) ) }
			</select>
		</div>
	);
}

function listTitle( state: PlacesState, places: PlacesController ): string {
	const near = state.near;
	if ( state.mode === 'near' && near ) {
		if ( near.radius <= 0 ) {
			return near.text
				? sprintf(
						/* translators: %s: a place the visitor typed. */
						__( 'Places, nearest to “%s” first', 'cairn-maps' ),
						near.text
					)
				: __( 'Places, nearest first', 'cairn-maps' );
		}
		const radius = formatRadius(
			near.radius,
			places.units,
			locale( places )
		);
		return near.text
			? sprintf(
					/* translators: 1: a distance ("25 km"), 2: a place the visitor typed. */
					__(
						'Places within %1$s of “%2$s”, nearest first',
						'cairn-maps'
					),
					radius,
					near.text
				)
			: sprintf(
					/* translators: %s: a distance ("25 km"). */
					__(
						'Places within %s of you, nearest first',
						'cairn-maps'
					),
					radius
				);
	}
	if ( state.mode === 'search' ) {
		return __( 'Matching places', 'cairn-maps' );
	}
	if ( state.origin ) {
		return state.mode === 'view'
			? __( 'Places in view, nearest first', 'cairn-maps' )
			: __( 'Places, nearest first', 'cairn-maps' );
	}
	return state.mode === 'view'
		? __( 'Places in view', 'cairn-maps' )
		: __( 'All places', 'cairn-maps' );
}

function emptyText( state: PlacesState ): string {
	if ( state.mode === 'near' ) {
		return __(
			'No places within that distance. Choose a larger one.',
			'cairn-maps'
		);
	}
	if ( state.mode === 'search' ) {
		return __( 'No place matches your search.', 'cairn-maps' );
	}
	return state.mode === 'view'
		? __( 'No places in view. Zoom out or move the map.', 'cairn-maps' )
		: __( 'No places to show.', 'cairn-maps' );
}

export function PlacesPanel( { places }: PlacesPanelProps ) {
	const state = useSyncExternalStore(
		places.subscribe,
		places.getState,
		places.getState
	);
	const titleId = useId();
	const options = places.options;
	const lang = locale( places );
	const { list } = state;
	const groupsBySlug = useMemo(
		() =>
			new Map< string, PlacesGroup >(
				state.groups.map( ( group ) => [ group.slug, group ] )
			),
		[ state.groups ]
	);
	const first = list.page * places.pageSize + 1;
	const last = list.page * places.pageSize + list.items.length;
	return (
		<div className="wp-block-cairn-map__markers wp-block-cairn-map__panel">
			<h2 className="wp-block-cairn-map__markers-title">
				{ sprintf(
					/* translators: %s: number of places on the map ("10,000"). */
					_n(
						'%s place on this map',
						'%s places on this map',
						state.total,
						'cairn-maps'
					),
					formatCount( state.total, lang )
				) }
			</h2>
			{ places.languages.length >= 2 && (
				<LanguageChoice places={ places } state={ state } />
			) }
			{ options.search && state.total > 1 && (
				<SearchField places={ places } state={ state } />
			) }
			{ options.search && state.total > 1 && (
				<NearField places={ places } state={ state } />
			) }
			{ options.groupFilter && state.groups.length > 1 && (
				<GroupLegend places={ places } state={ state } />
			) }
			<p id={ titleId } className="wp-block-cairn-map__list-title">
				{ listTitle( state, places ) }
			</p>
			{ list.items.length > 0 ? (
				<ul
					className="wp-block-cairn-map__list"
					aria-labelledby={ titleId }
				>
					{ list.items.map( ( item ) => (
						<PlaceCard
							key={ item.id }
							place={ item }
							groups={ groupsBySlug }
							distance={
								item.distance === undefined
									? ''
									: formatDistance(
											item.distance,
											places.units,
											lang
										)
							}
							locale={ lang }
							directions={ places.directions }
							route={
								state.shapes
									? places.shapeSummary( item.id )
									: ''
							}
							onChoose={ places.choose }
							onFocus={
								state.shapes ? places.highlight : undefined
							}
						/>
					) ) }
				</ul>
			) : (
				state.status === 'ready' && (
					<p className="wp-block-cairn-map__empty">
						{ emptyText( state ) }
					</p>
				)
			) }
			{ list.pages > 1 && (
				<nav
					className="wp-block-cairn-map__pages"
					aria-label={ __( 'Pages of places', 'cairn-maps' ) }
				>
					<button
						type="button"
						disabled={ list.page === 0 }
						onClick={ () => places.setPage( list.page - 1 ) }
					>
						{ __( 'Previous places', 'cairn-maps' ) }
					</button>{ ' ' }
					<span className="wp-block-cairn-map__page-info">
						{ list.capped
							? sprintf(
									/* translators: 1: first place shown, 2: last place shown, 3: number of places ("10,000"): more match. */
									__(
										'Places %1$s–%2$s of %3$s+',
										'cairn-maps'
									),
									formatCount( first, lang ),
									formatCount( last, lang ),
									formatCount( list.total, lang )
								)
							: sprintf(
									/* translators: 1: first place shown, 2: last place shown, 3: number of places in all. */
									__(
										'Places %1$s–%2$s of %3$s',
										'cairn-maps'
									),
									formatCount( first, lang ),
									formatCount( last, lang ),
									formatCount( list.total, lang )
								) }
					</span>{ ' ' }
					<button
						type="button"
						disabled={ list.page >= list.pages - 1 }
						onClick={ () => places.setPage( list.page + 1 ) }
					>
						{ __( 'Next places', 'cairn-maps' ) }
					</button>
				</nav>
			) }
			{ ( state.mode === 'search' || state.hidden.length > 0 ) &&
				state.matches > 0 && (
					<button
						type="button"
						className="wp-block-cairn-map__fit"
						onClick={ places.fitToResults }
					>
						{ __( 'Show all results on the map', 'cairn-maps' ) }
					</button>
				) }
		</div>
	);
}

export default PlacesPanel;
