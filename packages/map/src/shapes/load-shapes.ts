/**
 * The shapes chunk (`cairn-map-shapes`), loaded only by a map whose configuration has a
 * `shapesUrl`: fetches the shapes feed as soon as it is loaded (while the style and the points
 * load), then draws the shapes once the style is in. A feed that cannot be read leaves the
 * points map as it is and says so in the map's polite notice.
 * @since 0.5.0
 */
import type { Map as MapboxMap } from 'mapbox-gl';
import { __ } from '@wordpress/i18n';

import { DEFAULT_COLOR } from '../markers-layer';
import { createNotice } from '../notice';
import { matches, queryWords, searchText } from '../places/words';
import type { MapConfig } from '../types';
import { fetchShapes, type ShapeFeature } from './feed';
import type { ShapesHandle } from './handle';
import { addShapesLayers } from './layers';
import { buildShapeDetails, listSummary } from './profile';

export type { ShapesHandle };

export interface ShapesOptions {
	config: Pick< MapConfig, 'shapesUrl' | 'groupStyles' | 'units' >;
	/** The page's language, for numbers. */
	lang?: string;
	/** Resolves once the map's style is in (`style.load`). */
	styled: Promise< void >;
	/** Whether the map is gone (then nothing is drawn). */
	removed: () => boolean;
	onClick: ( id: number, lngLat: { lng: number; lat: number } ) => void;
}

/**
 * Shows the failure in the map's notice (the points stay): never an exception on the page.
 * @param map
 */
function tellFailure( map: MapboxMap ): () => void {
	const notice = createNotice( map.getContainer() );
	notice.show(
		__(
			'The routes and areas of this map could not be loaded. Its places are shown.',
			'cairn-maps'
		)
	);
	return notice.remove;
}

/**
 * The shapes' search text: the words of the title and of the group names (places/words.ts).
 * @param shape
 * @param names
 */
function shapeText(
	shape: ShapeFeature,
	names: ReadonlyMap< string, string >
): string {
	return searchText(
		shape.title,
		shape.groups.map( ( slug ) => names.get( slug ) ?? '' )
	);
}

/**
 * Fetches and draws a map's shapes; resolves with their handle (one that knows no shape when the
 * feed could not be read: the notice says so), or null when the map is gone.
 * @param map
 * @param options
 */
export async function startShapes(
	map: MapboxMap,
	options: ShapesOptions
): Promise< ShapesHandle | null > {
	const { config, lang } = options;
	let shapes: ShapeFeature[];
	try {
		shapes = await fetchShapes( config.shapesUrl );
	} catch {
		await options.styled;
		return options.removed() ? null : failed( map );
	}
	await options.styled;
	if ( options.removed() ) {
		return null;
	}
	const byId = new Map( shapes.map( ( shape ) => [ shape.id, shape ] ) );
	const names = new Map(
		config.groupStyles.map( ( style ) => [ style.slug, style.name ] )
	);
	const layers = addShapesLayers( map, shapes, {
		groupStyles: config.groupStyles,
		defaultColor: DEFAULT_COLOR,
		onClick: options.onClick,
	} );
	let texts: Map< number, string > | null = null;
	return {
		summary: ( id ) => {
			const shape = byId.get( id );
			return shape && listSummary( shape, config.units, lang );
		},
		bbox: ( id ) => byId.get( id )?.bbox ?? null,
		details: ( doc, id ) => {
			const shape = byId.get( id );
			return shape
				? buildShapeDetails( doc, shape, config.units, lang )
				: null;
		},
		filter: ( hidden, search ) => {
			const words = queryWords( search );
			if ( hidden.length === 0 && words.length === 0 ) {
				layers.show( null );
				return;
			}
			texts ??= new Map(
				shapes.map( ( shape ) => [
					shape.id,
					shapeText( shape, names ),
				] )
			);
			const shown = shapes.filter(
				( shape ) =>
					// Like a point: hidden when every one of its groups is switched off.
					! (
						shape.groups.length > 0 &&
						shape.groups.every( ( slug ) =>
							hidden.includes( slug )
						)
					) && matches( texts!.get( shape.id )!, words )
			);
			layers.show( shown.map( ( shape ) => shape.id ) );
		},
		highlight: ( id ) =>
			layers.focus( id !== null && byId.has( id ) ? id : null ),
		remove: layers.remove,
	};
}

/**
 * A feed that could not be read: the notice, and a handle that knows no shape.
 * @param map
 */
function failed( map: MapboxMap ): ShapesHandle {
	const removeNotice = tellFailure( map );
	return {
		summary: () => undefined,
		bbox: () => null,
		details: () => null,
		filter: () => undefined,
		highlight: () => undefined,
		remove: removeNotice,
	};
}
