/**
 * The places of one map and what a visitor does with them: one filter state (search text, groups
 * switched off) that the map's clusters, the list and the announced count all follow.
 *
 * Framework-free: the React panel (places/panel.tsx) reads `getState()` through `subscribe()` and
 * calls the actions; the map's source is fed from the places worker (places/client.ts).
 */
import type { GeoJSONSource, Map as MapboxMap } from 'mapbox-gl';
import { __, _n, sprintf } from '@wordpress/i18n';

import type {
	EngineOptions,
	ListedPlace,
	ListResult,
	LoadResult,
} from './engine';
import type { PlacesClient } from './client';
import type { PopupController } from '../popup';
import type { ShapesHandle } from '../shapes/handle';
import type { GroupStyle, MapConfig } from '../types';
import { MARKERS_SOURCE } from '../markers-layer';
import { LIMITS } from '../limits';
import { formatCount } from '../count';
import { engineOf } from '../engine/registry';
import { clipSearch } from './words';
import {
	NEAR_PARAM,
	RADIUS_PARAM,
	geocodeText,
	nearAnnouncement,
	nearFromAddress,
	nearParam,
	nearTextFromAddress,
	sameNear,
} from './near';

export type ListMode = 'view' | 'search' | 'all' | 'near';

/**
 * A visitor's "near": a position (typed text found, or their own), and the radius in metres
 * (0: any distance, the list only nearest first).
 * @since 0.8.0
 */
export interface NearState {
	lng: number;
	lat: number;
	radius: number;
	/** What the visitor typed; '' for their own position. */
	text: string;
}

export interface PlacesGroup extends GroupStyle {
	count: number;
}

export interface PlacesState {
	/** `loading` until the places are in, `error` when the feed could not be read. */
	status: 'loading' | 'ready' | 'error';
	/** Every place of the map. */
	total: number;
	/** The map's groups that have places, in the site's order. */
	groups: PlacesGroup[];
	search: string;
	hidden: string[];
	/** Places that pass the filter. */
	matches: number;
	mode: ListMode;
	list: ListResult;
	/** The visitor's position once located: the list is sorted by distance. */
	origin: { lng: number; lat: number } | null;
	/** Near a place, within a radius (`?cairn-near=…&cairn-radius=…`). @since 0.8.0 */
	near: NearState | null;
	/** A "near" being found, or why the last one was not. @since 0.8.0 */
	nearStatus: 'idle' | 'finding' | 'not-found' | 'failed';
	/** The label language chosen by the visitor ('' before any choice). */
	language: string;
	/** The map's routes and areas are known (their list entries show their facts). */
	shapes: boolean;
}

/** Sent by the map's wrapper once the list and the map both show a new filter or view. */
export interface PlacesChangeDetail {
	search: string;
	hiddenGroups: string[];
	total: number;
	inView: number;
	mode: ListMode;
}

const PAGE_SIZE = LIMITS.markerList.maxItems;
const LANGUAGE_KEY = 'cairn-maps-language';
/** Places are revealed up to this zoom at least, so a chosen place is seen up close. */
const CLOSE_ZOOM = 14;
/** Events of moves the panel made itself (flying to a chosen place): the list stays as it is. */
const OWN_MOVE = { cairnPlaces: true };

type BBox = [ number, number, number, number ];

const EMPTY_LIST: ListResult = { total: 0, page: 0, pages: 1, items: [] };

function wrapLng( lng: number ): number {
	return ( ( ( ( lng + 180 ) % 360 ) + 360 ) % 360 ) - 180;
}

/**
 * The map's view as `[west, south, east, north]`, grown by `pad` of its size on each side.
 * @param map
 * @param pad
 */
export function viewBox( map: MapboxMap, pad = 0 ): BBox {
	const bounds = map.getBounds();
	if ( ! bounds ) {
		return [ -180, -90, 180, 90 ];
	}
	let west = bounds.getWest();
	let east = bounds.getEast();
	const width = east - west;
	const height = bounds.getNorth() - bounds.getSouth();
	west -= width * pad;
	east += width * pad;
	const south = Math.max( -90, bounds.getSouth() - height * pad );
	const north = Math.min( 90, bounds.getNorth() + height * pad );
	if ( east - west >= 360 ) {
		return [ -180, south, 180, north ];
	}
	const wrappedEast = wrapLng( east );
	return [
		wrapLng( west ),
		south,
		wrappedEast === -180 ? 180 : wrappedEast,
		north,
	];
}

/**
 * Resolves once mapbox-gl has taken in the source's new data (its worker answered, `content`) and
 * every tile of the source is loaded again, or after two seconds.
 * @param map
 */
function sourceLoaded( map: MapboxMap ): Promise< void > {
	return new Promise( ( resolve ) => {
		let content = false;
		const check = ( event?: {
			sourceId?: string;
			sourceDataType?: string;
		} ) => {
			if (
				event?.sourceId === MARKERS_SOURCE &&
				event.sourceDataType === 'content'
			) {
				content = true;
			}
			if ( content && map.isSourceLoaded( MARKERS_SOURCE ) ) {
				done();
			}
		};
		const onRender = () => check();
		const done = () => {
			map.off( 'sourcedata', check );
			map.off( 'render', onRender );
			window.clearTimeout( timer );
			resolve();
		};
		const timer = window.setTimeout( done, 2000 );
		map.on( 'sourcedata', check );
		map.on( 'render', onRender );
	} );
}

/**
 * What the places worker needs of a map's configuration.
 * @param config The map's configuration.
 */
export function placesEngineOptions( config: MapConfig ): EngineOptions {
	return {
		clusterEnabled: config.cluster.enabled,
		clusterRadius: config.cluster.radius,
		clusterMaxZoom: LIMITS.cluster.maxZoom,
		groups: config.groupStyles.map( ( style ) => ( {
			slug: style.slug,
			name: style.name,
		} ) ),
	};
}

export interface PlacesControllerOptions {
	map: MapboxMap;
	host: HTMLElement;
	config: MapConfig;
	client: PlacesClient;
	popups: PopupController;
	/**
	 * The client's load of the feed, started before the map's style was in (the worker reads and
	 * clusters the feed while the style loads): `client.load( feed, placesEngineOptions( config ) )`.
	 */
	loading: Promise< LoadResult >;
	/** The feed could not be read: the map reports `markers`. */
	onError: () => void;
	/** The places are known (not yet drawn): the host shows its panel now. */
	onLoaded: () => void;
	/** The map shows its first places (or never will: the feed failed). */
	onFirstDraw: () => void;
}

export class PlacesController {
	private state: PlacesState;
	private readonly listeners = new Set< () => void >();
	private readonly map: MapboxMap;
	private readonly host: HTMLElement;
	private readonly config: MapConfig;
	private readonly client: PlacesClient;
	private readonly popups: PopupController;
	private readonly region: HTMLElement;
	private readonly cleanups: Array< () => void > = [];
	private destroyed = false;
	/** Filter requests are numbered: an answer to an older one is dropped. */
	private filterSeq = 0;
	private listSeq = 0;
	private featuresBusy = false;
	private featuresAgain = false;
	/** Settles once the map's source holds the clusters of the latest view and filter. */
	private drawn: Promise< void > = Promise.resolve();
	/** The bounding box of the places that pass the filter ("Show all results on the map"). */
	private resultBounds: [ number, number, number, number ] | null = null;
	/** The map's routes and areas, once drawn (the shapes chunk: only maps that have some). */
	private shapes: ShapesHandle | null = null;

	constructor( options: PlacesControllerOptions ) {
		this.map = options.map;
		this.host = options.host;
		this.config = options.config;
		this.client = options.client;
		this.popups = options.popups;
		this.state = {
			status: 'loading',
			total: 0,
			groups: [],
			search: '',
			hidden: [],
			matches: 0,
			mode: this.modeFor( '' ),
			list: EMPTY_LIST,
			origin: null,
			near: null,
			nearStatus: 'idle',
			language: '',
			shapes: false,
		};
		this.region = this.statusRegion();
		this.restoreLanguage();
		this.start( options );
	}

	/** The wrapper's one polite status region (created when the server rendered none). */
	private statusRegion(): HTMLElement {
		const found = this.host.querySelector< HTMLElement >(
			':scope > .wp-block-cairn-map__status'
		);
		if ( found ) {
			return found;
		}
		const region = this.host.ownerDocument.createElement( 'div' );
		region.className = 'wp-block-cairn-map__status screen-reader-text';
		region.setAttribute( 'role', 'status' );
		region.setAttribute( 'aria-live', 'polite' );
		this.host.appendChild( region );
		this.cleanups.push( () => region.remove() );
		return region;
	}

	private engineOptions(): EngineOptions {
		return placesEngineOptions( this.config );
	}

	private groupsOf( counts: Record< string, number > ): PlacesGroup[] {
		return this.config.groupStyles
			.filter( ( style ) => ( counts[ style.slug ] ?? 0 ) > 0 )
			.map( ( style ) => ( {
				...style,
				count: counts[ style.slug ] ?? 0,
			} ) );
	}

	private loadSeq = 0;

	/**
	 * Reads the places again (the editor's preview after a marker changed), keeping the visitor's
	 * filter, view and page.
	 * @param source The feed's address, or the addresses of the feeds drawn together.
	 */
	reload = async ( source: string | string[] ): Promise< void > => {
		if ( this.state.status !== 'ready' ) {
			return;
		}
		const seq = ++this.loadSeq;
		let loaded;
		try {
			loaded = await this.client.load( source, this.engineOptions() );
		} catch {
			return; // The places shown stay.
		}
		if ( this.destroyed || seq !== this.loadSeq ) {
			return;
		}
		const groups = this.groupsOf( loaded.groups );
		const hidden = this.state.hidden.filter( ( slug ) =>
			groups.some( ( group ) => group.slug === slug )
		);
		this.set( {
			total: loaded.total,
			matches: loaded.total,
			groups,
			hidden,
		} );
		await this.applyFilter();
	};

	private async start( options: PlacesControllerOptions ) {
		const map = this.map;
		let loaded;
		try {
			loaded = await options.loading;
		} catch {
			if ( ! this.destroyed ) {
				this.set( { status: 'error' } );
				options.onError();
				options.onFirstDraw();
			}
			return;
		}
		if ( this.destroyed ) {
			return;
		}
		const counts = loaded.groups;
		this.set( {
			status: 'ready',
			total: loaded.total,
			matches: loaded.total,
			groups: this.groupsOf( counts ),
		} );
		options.onLoaded();
		const onMove = () => this.refreshFeatures();
		const onMoveEnd = ( event: object ) => {
			if ( ! ( event as { cairnPlaces?: boolean } ).cairnPlaces ) {
				this.refreshList( true );
			}
		};
		if ( this.config.cluster.enabled ) {
			map.on( 'move', onMove );
		}
		map.on( 'moveend', onMoveEnd );
		this.cleanups.push( () => {
			map.off( 'move', onMove );
			map.off( 'moveend', onMoveEnd );
		} );
		const fromAddress = nearFromAddress( this.location() );
		const onPopState = () => this.restoreNear();
		const view = this.host.ownerDocument.defaultView ?? window;
		view.addEventListener( 'popstate', onPopState );
		this.cleanups.push( () =>
			view.removeEventListener( 'popstate', onPopState )
		);
		if ( fromAddress ) {
			// `?cairn-near=…`: the map's first places are the ones near it.
			await this.applyNear( fromAddress, false );
			options.onFirstDraw();
		} else {
			await this.refreshFeatures();
			options.onFirstDraw();
			await this.refreshList( false );
			// `?cairn-near=<text>` (the no-JavaScript form's): looked up, the address then
			// carries the point in place of that entry.
			const typed = nearTextFromAddress( this.location() );
			if ( typed ) {
				await this.searchNear( typed.text, typed.radius, false, true );
			}
		}
		this.openFromAddress();
	}

	/** Redraws the map's clusters for the current view and filter; one request at a time. */
	private refreshFeatures(): Promise< void > {
		if ( this.featuresBusy ) {
			// The running refresh draws once more, for the view and filter as they are by then.
			this.featuresAgain = true;
			return this.drawn;
		}
		this.featuresBusy = true;
		this.drawn = ( async () => {
			do {
				this.featuresAgain = false;
				try {
					const features = await this.client.features(
						viewBox( this.map, this.client.viewPad ?? 0.5 ),
						this.map.getZoom()
					);
					const source =
						this.map.getSource< GeoJSONSource >( MARKERS_SOURCE );
					if ( ! this.destroyed && source ) {
						const loaded = sourceLoaded( this.map );
						source.setData( {
							type: 'FeatureCollection',
							features,
						} );
						await loaded;
					}
				} catch {
					// Places not loaded: nothing to draw.
				}
			} while ( this.featuresAgain && ! this.destroyed );
			this.featuresBusy = false;
		} )();
		return this.drawn;
	}

	private modeFor( search: string ): ListMode {
		if ( this.state?.near ) {
			return 'near';
		}
		if ( search.trim() !== '' ) {
			return 'search';
		}
		return this.config.places.followMap ? 'view' : 'all';
	}

	/**
	 * Reads the list for the current filter, view and page; announces the count when asked.
	 * @param announce
	 * @param page
	 */
	private async refreshList( announce: boolean, page = 0 ): Promise< void > {
		if ( this.state.status !== 'ready' ) {
			return;
		}
		const seq = ++this.listSeq;
		const mode = this.modeFor( this.state.search );
		let list: ListResult;
		try {
			list = await this.client.list( {
				bbox: mode === 'view' ? viewBox( this.map ) : null,
				page,
				pageSize: PAGE_SIZE,
				origin: this.state.near ?? this.state.origin,
			} );
		} catch {
			return;
		}
		if ( this.destroyed || seq !== this.listSeq ) {
			return;
		}
		this.set( { list, mode } );
		if ( announce ) {
			this.announce();
		}
	}

	private announce(): void {
		const { list, mode, hidden, search } = this.state;
		let text: string;
		const near = this.state.near;
		if ( mode === 'near' && near ) {
			text = nearAnnouncement(
				list.total,
				near,
				this.config.units,
				this.locale
			);
		} else if ( mode === 'search' && list.capped ) {
			text = sprintf(
				/* translators: 1: number of places ("10,000"), 2: the search text. */
				_n(
					'More than %1$s place matches “%2$s”',
					'More than %1$s places match “%2$s”',
					list.total,
					'cairn-maps'
				),
				formatCount( list.total, this.locale ),
				search.trim().slice( 0, 100 )
			);
		} else if ( mode === 'search' ) {
			text = sprintf(
				/* translators: 1: number of places ("1,234"), 2: the search text. */
				_n(
					'%1$s place matches “%2$s”',
					'%1$s places match “%2$s”',
					list.total,
					'cairn-maps'
				),
				formatCount( list.total, this.locale ),
				search.trim().slice( 0, 100 )
			);
		} else if ( mode === 'view' ) {
			text = sprintf(
				/* translators: %s: number of places ("1,234"). */
				_n(
					'%s place in view',
					'%s places in view',
					list.total,
					'cairn-maps'
				),
				formatCount( list.total, this.locale )
			);
		} else {
			text = sprintf(
				/* translators: %s: number of places ("1,234"). */
				_n( '%s place', '%s places', list.total, 'cairn-maps' ),
				formatCount( list.total, this.locale )
			);
		}
		if ( hidden.length > 0 ) {
			text = sprintf(
				/* translators: 1: "12 places in view", 2: number of hidden groups. */
				_n(
					'%1$s, %2$d group hidden',
					'%1$s, %2$d groups hidden',
					hidden.length,
					'cairn-maps'
				),
				text,
				hidden.length
			);
		}
		this.region.textContent = text + '.';
		this.notify();
	}

	/** Tells listeners (and the page: `cairn:places-change`) once the map has drawn. */
	private notify(): void {
		const detail: PlacesChangeDetail = {
			search: this.state.search,
			hiddenGroups: [ ...this.state.hidden ],
			total: this.state.matches,
			inView: this.state.list.total,
			mode: this.state.mode,
		};
		const send = () => {
			if ( this.destroyed ) {
				return;
			}
			const view = this.host.ownerDocument.defaultView ?? window;
			this.host.dispatchEvent(
				new view.CustomEvent( 'cairn:places-change', {
					bubbles: true,
					detail,
				} )
			);
		};
		// After the clusters on their way, if any, are drawn.
		this.drawn.then( () => {
			this.map.once( 'render', send );
			this.map.triggerRepaint();
		} );
	}

	private async applyFilter(): Promise< void > {
		const seq = ++this.filterSeq;
		const { search, hidden, near } = this.state;
		this.shapes?.filter( hidden, search );
		let result;
		try {
			result = await this.client.filter(
				near && near.radius > 0
					? {
							search,
							hidden,
							near: {
								lng: near.lng,
								lat: near.lat,
								radius: near.radius,
							},
						}
					: { search, hidden }
			);
		} catch {
			return;
		}
		if ( this.destroyed || seq !== this.filterSeq ) {
			return;
		}
		this.resultBounds = result.bounds;
		this.set( { matches: result.count, mode: this.modeFor( search ) } );
		// The list first (a scan), the clusters after (a new index: the long part).
		const list = this.refreshList( true );
		await Promise.all( [ list, this.refreshFeatures() ] );
	}

	// --- What the panel reads -------------------------------------------------------------------

	getState = (): PlacesState => this.state;

	subscribe = ( listener: () => void ): ( () => void ) => {
		this.listeners.add( listener );
		return () => this.listeners.delete( listener );
	};

	private set( patch: Partial< PlacesState > ): void {
		this.state = { ...this.state, ...patch };
		this.listeners.forEach( ( listener ) => listener() );
	}

	get options(): MapConfig[ 'places' ] {
		return this.config.places;
	}

	get units(): MapConfig[ 'units' ] {
		return this.config.units;
	}

	/** The app of the list entries' "Directions" links ('none': no links). @since 0.9.0 */
	get directions(): MapConfig[ 'directions' ] {
		return this.config.directions ?? 'none';
	}

	get languages(): string[] {
		return this.config.languages;
	}

	/** Places per page of the list. */
	get pageSize(): number {
		return PAGE_SIZE;
	}

	/** The page's language, for numbers and language names. */
	get locale(): string {
		return this.host.ownerDocument.documentElement.lang;
	}

	// --- What the panel does --------------------------------------------------------------------

	setSearch = ( search: string ): void => {
		const text = clipSearch( search );
		if ( text === this.state.search ) {
			return;
		}
		this.set( { search: text } );
		this.applyFilter();
	};

	toggleGroup = ( slug: string ): void => {
		if ( ! this.state.groups.some( ( group ) => group.slug === slug ) ) {
			return; // A group the map does not have (any more).
		}
		const hidden = this.state.hidden.includes( slug )
			? this.state.hidden.filter( ( item ) => item !== slug )
			: [ ...this.state.hidden, slug ];
		this.set( { hidden } );
		this.applyFilter();
	};

	showAllGroups = (): void => {
		if ( this.state.hidden.length > 0 ) {
			this.set( { hidden: [] } );
			this.applyFilter();
		}
	};

	setPage = ( page: number ): void => {
		this.refreshList( false, page );
	};

	/** Fits the map to every place that passes the filter. */
	fitToResults = (): void => {
		// The filter's own answer: asking the worker again would rebuild its index.
		if ( ! this.resultBounds || this.destroyed ) {
			return;
		}
		const [ west, south, east, north ] = this.resultBounds;
		this.map.fitBounds(
			[
				[ west, south ],
				[ east, north ],
			],
			{ padding: 40, maxZoom: CLOSE_ZOOM + 2 }
		);
	};

	/**
	 * Flies to a place and opens its popup; closing the popup returns focus to its list entry.
	 * @param id
	 */
	choose = async ( id: number ): Promise< void > => {
		const place = await this.client.reveal( id, this.map.getZoom() );
		if ( ! place || this.destroyed ) {
			return;
		}
		this.flyAndOpen( place, () =>
			this.host.querySelector< HTMLElement >(
				`.wp-block-cairn-map__places li[data-cairn-marker-id="${ place.id }"] button`
			)
		);
	};

	// --- Routes and areas -----------------------------------------------------------------------

	/**
	 * The map's shapes are drawn: they follow the filter from now on, and their list entries
	 * show their facts.
	 * @param shapes
	 */
	attachShapes = ( shapes: ShapesHandle ): void => {
		if ( this.destroyed ) {
			return;
		}
		this.shapes = shapes;
		shapes.filter( this.state.hidden, this.state.search );
		this.set( { shapes: true } );
		// Shapes the tiles of a new view brought: their list entries tell their facts.
		shapes.onChange?.(
			() => ! this.destroyed && this.set( { shapes: true } )
		);
	};

	/**
	 * A route's line for its list entry ("12.4 km, 650 m ascent"); '' for other places.
	 * @param id
	 */
	shapeSummary = ( id: number ): string => this.shapes?.summary( id ) ?? '';

	/**
	 * Highlights a shape while its list entry has focus (null: none).
	 * @param id
	 */
	highlight = ( id: number | null ): void => {
		this.shapes?.highlight( id );
	};

	/**
	 * Opens a shape's popup where it was clicked, with the route's facts and profile.
	 * @param id
	 * @param at
	 * @param at.lng
	 * @param at.lat
	 */
	openShape = ( id: number, at: { lng: number; lat: number } ): void => {
		this.openShapePopup( id, at, null );
	};

	private openShapePopup(
		id: number,
		at: { lng: number; lat: number },
		returnFocus: ( () => HTMLElement | null ) | null
	): void {
		const shapes = this.shapes;
		shapes?.highlight( id );
		this.popups.open( id, at, {
			position: at,
			returnFocus,
			extra: ( doc, details ) =>
				shapes?.details( doc, id, details?.profile ) ?? null,
			onClose: () => shapes?.highlight( null ),
		} );
	}

	private flyAndOpen(
		place: ListedPlace & { zoom: number },
		returnFocus: ( () => HTMLElement | null ) | null
	): void {
		const map = this.map;
		const bbox = this.shapes?.bbox( place.id );
		if ( bbox ) {
			// A route or an area: the whole shape in view, its popup at its anchor.
			map.once( 'moveend', () =>
				this.openShapePopup(
					place.id,
					{ lng: place.lng, lat: place.lat },
					returnFocus
				)
			);
			map.fitBounds(
				[
					[ bbox[ 0 ], bbox[ 1 ] ],
					[ bbox[ 2 ], bbox[ 3 ] ],
				],
				{ padding: 40, maxZoom: CLOSE_ZOOM + 2, essential: true },
				OWN_MOVE
			);
			return;
		}
		const zoom = Math.min(
			map.getMaxZoom(),
			Math.max( place.zoom, map.getZoom(), CLOSE_ZOOM )
		);
		const open = () =>
			this.popups.open(
				place.id,
				{ lng: place.lng, lat: place.lat },
				{ returnFocus }
			);
		map.once( 'moveend', open );
		map.flyTo(
			{ center: [ place.lng, place.lat ], zoom, essential: true },
			OWN_MOVE
		);
	}

	/** `?cairn-place=<id>` opens that place; anything else there is ignored. */
	private async openFromAddress(): Promise< void > {
		const view = this.host.ownerDocument.defaultView ?? window;
		let value: string | null = null;
		try {
			value = new URL( view.location.href ).searchParams.get(
				'cairn-place'
			);
		} catch {
			return;
		}
		if ( ! value || ! /^[1-9]\d{0,15}$/.test( value ) ) {
			return;
		}
		const place = await this.client.reveal(
			Number( value ),
			this.map.getZoom()
		);
		if ( place && ! this.destroyed ) {
			this.flyAndOpen( place, null );
		}
	}

	/** The visitor located themselves: the list is sorted by distance. */
	setOrigin = ( origin: { lng: number; lat: number } | null ): void => {
		this.set( { origin } );
		this.refreshList( true );
	};

	// --- Near a place (since 0.8.0) -------------------------------------------------------------

	/** The page's address. */
	private location(): string {
		return ( this.host.ownerDocument.defaultView ?? window ).location.href;
	}

	/**
	 * Shows the places within a radius of what the visitor typed (an address, a town, a postcode:
	 * the site's geocoder; or one of the map's place names), or of their own position (`text`
	 * ''), and puts the search in the address (a new history entry: the back button undoes it).
	 * An empty `text` with `mine` false clears it.
	 * @param text    What the visitor typed.
	 * @param radius  Metres; 0 for any distance (nearest first only).
	 * @param mine    Near the visitor's own position.
	 * @param replace Rewrite the current history entry instead of adding one.
	 */
	searchNear = async (
		text: string,
		radius: number,
		mine = false,
		replace = false
	): Promise< void > => {
		const typed = clipSearch( text.trim() );
		if ( ! mine && typed === '' ) {
			this.clearNear();
			return;
		}
		this.set( { nearStatus: 'finding' } );
		let point: { lng: number; lat: number } | null;
		try {
			point = mine ? await this.ownPosition() : await this.find( typed );
		} catch {
			if ( ! this.destroyed ) {
				this.set( { nearStatus: 'failed' } );
				this.region.textContent = mine
					? __( 'Your location is not available.', 'cairn-maps' )
					: __(
							'The place could not be looked up. Try again later.',
							'cairn-maps'
						);
			}
			return;
		}
		if ( this.destroyed ) {
			return;
		}
		if ( ! point ) {
			this.set( { nearStatus: 'not-found' } );
			this.region.textContent = sprintf(
				/* translators: %s: what the visitor typed. */
				__( 'No place called “%s” was found.', 'cairn-maps' ),
				typed.slice( 0, 100 )
			);
			return;
		}
		const near: NearState = {
			lng: point.lng,
			lat: point.lat,
			radius: Math.max( 0, radius ),
			text: mine ? '' : typed,
		};
		this.pushAddress( near, replace );
		await this.applyNear( near, true );
	};

	/** Drops the "near" search: every place again (a new history entry). */
	clearNear = (): void => {
		if ( ! this.state.near ) {
			this.set( { nearStatus: 'idle' } );
			return;
		}
		this.pushAddress( null );
		this.set( { near: null, nearStatus: 'idle' } );
		this.applyFilter();
	};

	/** The address changed (back, forward): its "near", or none. */
	private restoreNear(): void {
		const near = nearFromAddress( this.location() );
		if ( sameNear( near, this.state.near ) ) {
			return;
		}
		if ( near ) {
			this.applyNear( near, true );
		} else {
			this.set( { near: null, nearStatus: 'idle' } );
			this.applyFilter();
		}
	}

	/**
	 * Shows a "near": the filter and the list follow it, the map fits its places.
	 * @param near
	 * @param fit  Move the map to the places found (or to the position when none).
	 */
	private async applyNear( near: NearState, fit: boolean ): Promise< void > {
		this.set( { near, nearStatus: 'idle', mode: 'near' } );
		await this.applyFilter();
		if ( this.destroyed ) {
			return;
		}
		const bounds = near.radius > 0 ? this.resultBounds : null;
		if ( bounds ) {
			this.map.fitBounds(
				[
					[ bounds[ 0 ], bounds[ 1 ] ],
					[ bounds[ 2 ], bounds[ 3 ] ],
				],
				{ padding: 40, maxZoom: CLOSE_ZOOM, animate: fit },
				OWN_MOVE
			);
		} else {
			this.map.jumpTo(
				{
					center: [ near.lng, near.lat ],
					zoom: Math.max( this.map.getZoom(), 10 ),
				},
				OWN_MOVE
			);
		}
		await this.refreshFeatures();
	}

	/**
	 * Writes a "near" into the page's address as a new history entry (null: takes it out).
	 * @param near
	 * @param replace Rewrite the current entry instead.
	 */
	private pushAddress( near: NearState | null, replace = false ): void {
		const view = this.host.ownerDocument.defaultView ?? window;
		try {
			const url = new URL( view.location.href );
			if ( near ) {
				url.searchParams.set( NEAR_PARAM, nearParam( near ) );
				if ( near.radius > 0 ) {
					url.searchParams.set(
						RADIUS_PARAM,
						String( Math.round( near.radius ) / 1000 )
					);
				} else {
					url.searchParams.delete( RADIUS_PARAM );
				}
			} else {
				url.searchParams.delete( NEAR_PARAM );
				url.searchParams.delete( RADIUS_PARAM );
			}
			if ( replace ) {
				view.history.replaceState( view.history.state, '', url.href );
			} else if ( url.href !== view.location.href ) {
				view.history.pushState( view.history.state, '', url.href );
			}
		} catch {
			// A page whose address cannot change (sandboxed): the search still shows.
		}
	}

	/**
	 * Where a typed text is: the site's geocoder as the owner chose it, else (or when it finds
	 * nothing) the first of the map's own places whose name the text starts.
	 * @param text
	 */
	private async find(
		text: string
	): Promise< { lng: number; lat: number } | null > {
		const found = await geocodeText( this.config, text );
		if ( found ) {
			return found;
		}
		const place = await this.client.find( text );
		return place ? { lng: place.lng, lat: place.lat } : null;
	}

	/** The visitor's position, asked of the browser (it asks the visitor). */
	private ownPosition(): Promise< { lng: number; lat: number } > {
		const geolocation = ( this.host.ownerDocument.defaultView ?? window )
			.navigator.geolocation;
		return new Promise( ( resolve, reject ) => {
			if ( ! geolocation ) {
				reject( new Error( 'No geolocation.' ) );
				return;
			}
			geolocation.getCurrentPosition(
				( position ) =>
					resolve( {
						lng: position.coords.longitude,
						lat: position.coords.latitude,
					} ),
				reject,
				{ timeout: LIMITS.geolocate.timeout, maximumAge: 60_000 }
			);
		} );
	}

	/** Switches the label language, remembered for the visit. */
	setLanguage = ( tag: string ): void => {
		if ( ! this.config.languages.includes( tag ) ) {
			return;
		}
		this.set( { language: tag } );
		try {
			this.host.ownerDocument.defaultView?.sessionStorage.setItem(
				LANGUAGE_KEY,
				tag
			);
		} catch {
			// Storage refused (private mode): the choice lasts for this page.
		}
		this.applyLanguage( tag );
	};

	private applyLanguage( tag: string ): void {
		engineOf( this.map ).setLanguage( this.map, tag );
	}

	private restoreLanguage(): void {
		if ( this.config.languages.length < 2 ) {
			return;
		}
		let stored: string | null = null;
		try {
			stored =
				this.host.ownerDocument.defaultView?.sessionStorage.getItem(
					LANGUAGE_KEY
				) ?? null;
		} catch {
			return;
		}
		if ( stored && this.config.languages.includes( stored ) ) {
			this.state = { ...this.state, language: stored };
			// The controller starts once the style is in (createMap waits for its `style.load`),
			// when isStyleLoaded() can still be false while the style's sources load: waiting
			// for another `style.load` then left the labels in the block's language.
			this.applyLanguage( stored );
		}
	}

	/** Expands a cluster: the map eases to the zoom where it breaks apart. */
	expandCluster = async (
		clusterId: number,
		center: [ number, number ]
	): Promise< void > => {
		const zoom = await this.client.expansion( clusterId );
		if ( zoom !== null && ! this.destroyed ) {
			this.map.easeTo( { center, zoom } );
		}
	};

	destroy(): void {
		this.destroyed = true;
		this.shapes = null;
		this.listeners.clear();
		this.cleanups.forEach( ( cleanup ) => cleanup() );
	}
}
