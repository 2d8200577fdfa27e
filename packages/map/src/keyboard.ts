/**
 * Arrow-key panning by our own step (mapbox-gl's keyboard handler has a fixed 100 px step and no
 * option). Plain arrow keys are handled here before mapbox-gl sees them; every other key (zoom,
 * rotate, pitch with Shift) stays with mapbox-gl's own handler.
 */
import type { Map as MapboxMap } from 'mapbox-gl';

import { LIMITS } from './limits';

const OFFSETS: Record< string, [ number, number ] > = {
	ArrowLeft: [ -1, 0 ],
	ArrowRight: [ 1, 0 ],
	ArrowUp: [ 0, -1 ],
	ArrowDown: [ 0, 1 ],
};

export function attachKeyboardPanning( map: MapboxMap ): () => void {
	const container = map.getContainer();
	const onKeyDown = ( event: KeyboardEvent ) => {
		const offset = OFFSETS[ event.key ];
		if (
			! offset ||
			event.shiftKey ||
			event.altKey ||
			event.ctrlKey ||
			event.metaKey ||
			event.target !== map.getCanvas()
		) {
			return;
		}
		event.preventDefault();
		event.stopPropagation();
		map.panBy(
			[
				offset[ 0 ] * LIMITS.keyboardPanStep,
				offset[ 1 ] * LIMITS.keyboardPanStep,
			],
			{ duration: 300 }
		);
	};
	// Capture on the outer container runs before mapbox-gl's listener on the canvas container.
	container.addEventListener( 'keydown', onKeyDown, true );
	return () => container.removeEventListener( 'keydown', onKeyDown, true );
}
