/**
 * What the places controller asks of mapbox-gl, recorded, for the controller's unit tests: moves
 * happen when a test says so, and the markers source takes in data at once or when told.
 */

export type BBox = [ number, number, number, number ];
type Listener = ( event?: unknown ) => void;

export interface Drawn {
	id: number;
	properties: {
		cluster?: boolean;
		cluster_id?: number;
		point_count?: number;
	};
	geometry: { coordinates: [ number, number ] };
}

/** What the controller asks of mapbox-gl, recorded; moves happen when a test says so. */
export class StandInMap {
	listeners: Record< string, Listener[] > = {};
	bbox: BBox;
	zoom = 5;
	drawn: Drawn[] = [];
	fitBounds = jest.fn();
	easeTo = jest.fn();
	jumpTo = jest.fn();
	/** mapbox-gl's flight ends with `moveend`, carrying the event data it was given. */
	flyTo = jest.fn(
		( options: { center: [ number, number ] }, data: object = {} ) => {
			this.fire( 'moveend', { ...data } );
			return options;
		}
	);
	setLanguage = jest.fn();
	/** How many times the source was given data. */
	draws = 0;
	/** Set: mapbox-gl takes new data in only when the test says so (`taken`). */
	holdData = false;
	taken: () => void = () => undefined;
	sourceLoaded = true;
	constructor( bbox: BBox ) {
		this.bbox = bbox;
	}
	private readonly source = {
		setData: ( data: { features: Drawn[] } ) => {
			this.drawn = data.features;
			this.draws++;
			// mapbox-gl's worker has taken in the new data.
			const take = () =>
				this.fire( 'sourcedata', {
					sourceId: 'cairn-markers',
					sourceDataType: 'content',
				} );
			if ( this.holdData ) {
				this.taken = take;
			} else {
				take();
			}
		},
	};
	on( type: string, listener: Listener ) {
		( this.listeners[ type ] ??= [] ).push( listener );
		return this;
	}
	off( type: string, listener: Listener ) {
		this.listeners[ type ] = ( this.listeners[ type ] ?? [] ).filter(
			( item ) => item !== listener
		);
		return this;
	}
	once( type: string, listener: Listener ) {
		const wrapped = ( event?: unknown ) => {
			this.off( type, wrapped );
			listener( event );
		};
		return this.on( type, wrapped );
	}
	fire( type: string, event?: unknown ) {
		[ ...( this.listeners[ type ] ?? [] ) ].forEach( ( listener ) =>
			listener( event )
		);
	}
	/** The visitor moves the map. */
	moveTo( bbox: BBox, zoom = this.zoom ) {
		this.bbox = bbox;
		this.zoom = zoom;
		this.fire( 'move', {} );
		this.fire( 'moveend', {} );
	}
	getBounds() {
		const [ west, south, east, north ] = this.bbox;
		return {
			getWest: () => west,
			getSouth: () => south,
			getEast: () => east,
			getNorth: () => north,
		};
	}
	getZoom() {
		return this.zoom;
	}
	getMaxZoom() {
		return 22;
	}
	getSource( id: string ) {
		return id === 'cairn-markers' ? this.source : undefined;
	}
	isSourceLoaded() {
		return this.sourceLoaded;
	}
	isStyleLoaded() {
		return true;
	}
	getStyle() {
		return { layers: [] };
	}
	triggerRepaint() {
		this.fire( 'render' );
	}
}
