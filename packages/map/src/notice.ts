/**
 * A polite, non-fatal message on the map (e.g. "your location could not be found"). Unlike the
 * error alert it never changes `data-cairn-state`: the map keeps working.
 */

export interface Notice {
	show: ( message: string ) => void;
	clear: () => void;
	remove: () => void;
}

/**
 * Creates the (empty) live region at once: screen readers announce changes to a region that
 * already exists more reliably than a region that appears with its text.
 *
 * @param parent The element the message is shown in (the map container).
 */
export function createNotice( parent: HTMLElement ): Notice {
	const region = parent.ownerDocument.createElement( 'div' );
	region.className = 'wp-block-cairn-map__notice';
	region.setAttribute( 'role', 'status' );
	region.setAttribute( 'aria-live', 'polite' );
	parent.appendChild( region );
	return {
		show: ( message ) => {
			region.textContent = message;
		},
		clear: () => {
			region.textContent = '';
		},
		remove: () => region.remove(),
	};
}
