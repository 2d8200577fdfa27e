/**
 * The map follows its box, not only the window.
 */
import type { Map as MapboxMap } from 'mapbox-gl';

/**
 * Redraws the map at its container's size whenever that changes: mapbox-gl 3 watches only the
 * window (`trackResize`: `resize`, `orientationchange`, `fullscreenchange`), so a column that
 * narrows, a panel opening beside the map, a tab or accordion shown or the editor's sidebar
 * toggled would leave the canvas at its old size, stretched or cut. A hidden container (0 wide or
 * high) keeps the last drawing until it is shown again. `resize()` does nothing when the size is
 * the same, so the window's own events and this one never draw twice. Returns the disconnect.
 * @since 0.3.0
 * @param map
 */
export function followContainerSize( map: MapboxMap ): () => void {
	const container = map.getContainer();
	const Observer =
		container.ownerDocument.defaultView?.ResizeObserver ??
		globalThis.ResizeObserver;
	if ( typeof Observer !== 'function' ) {
		return () => undefined; // No ResizeObserver (old browsers, jsdom): the window's events only.
	}
	const observer = new Observer( () => {
		if ( container.clientWidth > 0 && container.clientHeight > 0 ) {
			map.resize();
			map.triggerRepaint();
		}
	} );
	observer.observe( container );
	return () => observer.disconnect();
}
