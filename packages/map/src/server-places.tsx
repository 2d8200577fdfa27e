/**
 * What `<CairnMap>` renders on the server and before its map starts, exactly as the WordPress
 * theme renders it without JavaScript (Blocks\Places_List, Consent_Placeholder, the error alert):
 * the first page of the map's places as a list with a count of them all, the consent placeholder
 * when the site asks for consent, and the error the server found. React escapes every text.
 */
import { __, _n, sprintf } from '@wordpress/i18n';

import { consentNote } from './consent-gate';
import { DirectionsAnchor } from './directions-anchor';
import { errorMessage } from './errors';
import type { DirectionsApp, MapErrorCode, PostMapPlaces } from './types';

/**
 * The server's list of places: a title with their count, one page of entries
 * (`li[data-cairn-marker-id]`, each with its "Directions" link unless the map shows none) and
 * which of them this page shows.
 * @param root0
 * @param root0.places
 * @param root0.listId
 * @param root0.directions The configuration's app (`directionsApp()`), `none` by default.
 */
export function ServerPlaces( {
	places,
	listId,
	directions = 'none',
}: {
	places: PostMapPlaces;
	listId: string;
	directions?: DirectionsApp;
} ) {
	const { items, total, page, perPage } = places;
	const first = ( page - 1 ) * perPage + 1;
	return (
		<div className="wp-block-cairn-map__markers" id={ listId }>
			<h2 className="wp-block-cairn-map__markers-title">
				{ sprintf(
					/* translators: %s: number of places on the map ("10,000"). */
					_n(
						'%s place on this map',
						'%s places on this map',
						total,
						'cairn-maps'
					),
					// Plain digits: the server and the browser render the same text (hydration).
					String( total )
				) }
			</h2>
			{ items.length > 0 && (
				<ul className="wp-block-cairn-map__list">
					{ items.map( ( item ) => (
						<li
							key={ item.id }
							data-cairn-marker-id={ item.id }
							data-lng={ item.lng }
							data-lat={ item.lat }
						>
							{ item.link ? (
								<a href={ item.link }>{ item.title }</a>
							) : (
								item.title
							) }
							{ directions !== 'none' && ' ' }
							<DirectionsAnchor
								app={ directions }
								title={ item.title }
								lat={ item.lat }
								lng={ item.lng }
								className="wp-block-cairn-map__directions"
							/>
						</li>
					) ) }
				</ul>
			) }
			{ total > items.length && items.length > 0 && (
				<nav
					className="wp-block-cairn-map__pages"
					aria-label={ __( 'Pages of places', 'cairn-maps' ) }
				>
					<span className="wp-block-cairn-map__pages-range">
						{ sprintf(
							/* translators: 1: number of the first place on this page, 2: of the last, 3: number of places in all. */
							__( 'Places %1$s–%2$s of %3$s', 'cairn-maps' ),
							String( first ),
							String( first + items.length - 1 ),
							String( total )
						) }
					</span>
				</nav>
			) }
		</div>
	);
}

/**
 * The click-to-load placeholder the theme shows while the map waits for consent.
 * @param root0
 * @param root0.category
 */
export function ConsentPlaceholder( { category }: { category: string } ) {
	return (
		<div className="wp-block-cairn-map__consent">
			<p className="wp-block-cairn-map__consent-note">
				{ consentNote( category ) }
			</p>
			<button
				type="button"
				className="wp-block-cairn-map__consent-button wp-element-button"
			>
				{ __( 'Load map', 'cairn-maps' ) }
			</button>
		</div>
	);
}

/**
 * The alert for an error the server found.
 * @param root0
 * @param root0.code
 */
export function ServerError( { code }: { code: MapErrorCode } ) {
	return (
		<div
			className="wp-block-cairn-map__error"
			role="alert"
			data-cairn-error={ code }
		>
			{ errorMessage( code ) }
		</div>
	);
}
