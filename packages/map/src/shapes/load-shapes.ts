/**
 * The shapes chunk (`cairn-map-shapes`), loaded only by a map whose configuration has a
 * `shapesUrl`: fetches the shapes feed as soon as it is loaded (while the style and the points
 * load), then draws the shapes once the style is in. A map whose configuration also names shape
 * tiles (`shapeTilesUrl`, heavy selections) fetches those of its view instead and follows the
 * view (tiled-shapes.ts). A feed that cannot be read leaves the points map as it is and says so
 * in the map's polite notice.
 * @since 0.5.0
 */
import type { Map as MapboxMap } from 'mapbox-gl';
import { __ } from '@wordpress/i18n';

import { DEFAULT_COLOR } from '../markers-layer';
import { createNotice } from '../notice';
import { matches, queryWords, searchText } from '../places/words';
import type { MapConfig } from '../types';
import { fetchShapes, parseProfile, type ShapeFeature } from './feed';
import type { ShapesHandle } from './handle';
import { addShapesLayers } from './layers';
import { buildShapeDetails, listSummary } from './profile';
import { startTiledShapes } from './tiled-shapes';

export type { ShapesHandle };

export interface ShapesOptions {
	/** With `shapeTilesUrl`, the shape tiles of each view are drawn instead of the whole feed. */
	config: Pick< MapConfig, 'shapesUrl' | 'groupStyles' | 'units' > &
		Partial< Pick< MapConfig, 'shapeTilesUrl' > >;
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

/** Where a map's shapes come from: the whole feed, or the shape tiles of each view. */
interface ShapeSource {
	/** Every shape known, by id (its facts are the whole shape's). */
	known: ReadonlyMap< number, ShapeFeature >;
	/** The copies to draw now. */
	drawn: () => readonly ShapeFeature[];
	/** Calls `listener` when what is drawn may have changed. */
	onChange: ( listener: () => void ) => void;
	stop: () => void;
}

/**
 * Opens a map's shapes: the shape tiles when its configuration names them, else the feed.
 * @param map
 * @param config
 * @throws Error when they cannot be read.
 */
async function openSource(
	map: MapboxMap,
	config: ShapesOptions[ 'config' ]
): Promise< ShapeSource > {
	if ( config.shapeTilesUrl ) {
		const tiled = await startTiledShapes( map, config.shapeTilesUrl );
		return {
			known: tiled.store.all(),
			drawn: tiled.drawn,
			onChange: tiled.onChange,
			stop: tiled.stop,
		};
	}
	const shapes = await fetchShapes( config.shapesUrl );
	return {
		known: new Map( shapes.map( ( shape ) => [ shape.id, shape ] ) ),
		drawn: () => shapes,
		onChange: () => undefined,
		stop: () => undefined,
	};
}

/**
 * Whether a shape passes the places filter: like a point, hidden when every one of its groups is
 * switched off; and every word of the search starts a word of its text.
 * @param shape
 * @param hidden
 * @param words
 * @param text   Its search text (shapeText()).
 */
function passes(
	shape: ShapeFeature,
	hidden: readonly string[],
	words: string[],
	text: string
): boolean {
	return (
		! (
			shape.groups.length > 0 &&
			shape.groups.every( ( slug ) => hidden.includes( slug ) )
		) && matches( text, words )
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
	let source: ShapeSource;
	try {
		source = await openSource( map, config );
	} catch {
		await options.styled;
		return options.removed() ? null : failed( map );
	}
	await options.styled;
	if ( options.removed() ) {
		source.stop();
		return null;
	}
	const { known } = source;
	const names = new Map(
		config.groupStyles.map( ( style ) => [ style.slug, style.name ] )
	);
	const layers = addShapesLayers( map, source.drawn(), {
		groupStyles: config.groupStyles,
		defaultColor: DEFAULT_COLOR,
		onClick: options.onClick,
	} );
	const texts = new Map< number, string >();
	const textOf = ( shape: ShapeFeature ): string => {
		const text = texts.get( shape.id ) ?? shapeText( shape, names );
		texts.set( shape.id, text );
		return text;
	};
	let filter: { hidden: readonly string[]; words: string[] } | null = null;
	const apply = () => {
		const shown = filter;
		layers.show(
			shown
				? [ ...known.values() ]
						.filter( ( shape ) =>
							passes(
								shape,
								shown.hidden,
								shown.words,
								textOf( shape )
							)
						)
						.map( ( shape ) => shape.id )
				: null
		);
	};
	const listeners: Array< () => void > = [];
	source.onChange( () => {
		layers.update( source.drawn() );
		if ( filter ) {
			apply(); // Shapes seen for the first time follow the filter too.
		}
		listeners.forEach( ( listener ) => listener() );
	} );
	return {
		summary: ( id ) => {
			const shape = known.get( id );
			return shape && listSummary( shape, config.units, lang );
		},
		bbox: ( id ) => known.get( id )?.bbox ?? null,
		details: ( doc, id, profile ) => {
			const shape = known.get( id );
			const given = shape?.profile ? undefined : parseProfile( profile );
			return shape
				? buildShapeDetails(
						doc,
						given ? { ...shape, profile: given } : shape,
						config.units,
						lang
					)
				: null;
		},
		filter: ( hidden, search ) => {
			const words = queryWords( search );
			filter =
				hidden.length === 0 && words.length === 0
					? null
					: { hidden, words };
			apply();
		},
		highlight: ( id ) =>
			layers.focus( id !== null && known.has( id ) ? id : null ),
		onChange: ( listener ) => listeners.push( listener ),
		remove: () => {
			source.stop();
			layers.remove();
		},
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
