/**
 * Without a places panel (a host that shows none), the server-rendered list of places is still the
 * keyboard and screen-reader way into the map: each entry becomes a button that flies the map to
 * the place and opens its popup.
 */
import { __, sprintf } from '@wordpress/i18n';

export function upgradeMarkerList(
	host: HTMLElement,
	choose: ( id: number ) => void
): () => void {
	const doc = host.ownerDocument;
	const items = Array.from(
		host.querySelectorAll< HTMLElement >( 'li[data-cairn-marker-id]' )
	);
	const cleanups: Array< () => void > = [];
	for ( const item of items ) {
		const id = Number( item.dataset.cairnMarkerId );
		if ( ! Number.isInteger( id ) || id <= 0 ) {
			continue;
		}
		const original = Array.from( item.childNodes );
		// The entry's "Directions" link (Blocks\Directions_Link) stays a link, after the button.
		const way = original.find(
			( node ) =>
				node instanceof HTMLAnchorElement &&
				node.classList.contains( 'wp-block-cairn-map__directions' )
		);
		const name = original
			.filter( ( node ) => node !== way )
			.map( ( node ) => node.textContent ?? '' )
			.join( '' )
			.trim();
		const button = doc.createElement( 'button' );
		button.type = 'button';
		button.className = 'wp-block-cairn-map__list-button';
		button.textContent = name;
		button.setAttribute(
			'aria-label',
			sprintf(
				/* translators: %s: place name. */
				__( 'Show %s on the map', 'cairn-maps' ),
				name
			)
		);
		const onClick = () => choose( id );
		button.addEventListener( 'click', onClick );
		item.replaceChildren( ...( way ? [ button, ' ', way ] : [ button ] ) );
		cleanups.push( () => {
			button.removeEventListener( 'click', onClick );
			item.replaceChildren( ...original );
		} );
	}
	return () => cleanups.forEach( ( cleanup ) => cleanup() );
}
