/**
 * What the rest of the runtime (create-map.ts, the places controller) holds of a map's shapes
 * once the shapes chunk has drawn them. Types only: the points-only code imports no shapes code.
 * @since 0.5.0
 */
import type { BBox } from './feed';

export interface ShapesHandle {
	/** A route's line for its list entry ("12.4 km, 650 m ascent"), '' for an area; undefined: not a shape. */
	summary: ( id: number ) => string | undefined;
	/** The shape's `[west, south, east, north]`, or null when the id is not a shape. */
	bbox: ( id: number ) => BBox | null;
	/**
	 * What the shape's popup adds to the place's details (length, ascent, profile), or null. The
	 * popup's answer may carry the route's profile (`profile`, unread: the shapes chunk reads it),
	 * which the shape tiles leave out (@since 0.7.0).
	 */
	details: (
		doc: Document,
		id: number,
		profile?: unknown
	) => HTMLElement | null;
	/** Shows only the shapes that pass the places filter (groups switched off, search text). */
	filter: ( hidden: readonly string[], search: string ) => void;
	/** Highlights one shape (its list entry or popup has focus), or none. */
	highlight: ( id: number | null ) => void;
	/**
	 * Calls `listener` when more shapes became known (the shape tiles of a new view), so their
	 * list entries tell their facts. @since 0.7.0
	 */
	onChange?: ( listener: () => void ) => void;
	/** Takes the shapes off the map. */
	remove: () => void;
}
