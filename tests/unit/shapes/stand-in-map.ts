/**
 * A stand-in for the few mapbox-gl calls the shapes make (shapes/layers.ts, load-shapes.ts): it
 * records the sources, layers, filters and feature states, and answers "what is under the
 * pointer" (`queryRenderedFeatures`) as the test says.
 */
export type Point = { x: number; y: number };
export type Box = [ [ number, number ], [ number, number ] ];
export type Query = (
	where: Point | Box,
	layers: string[]
) => Array< { id?: unknown } >;
export type Handler = ( event: unknown ) => void;

export class StandInMap {
	layers: Array< {
		id: string;
		before?: string;
		spec: Record< string, unknown >;
	} > = [];
	sources: Record< string, unknown > = {};
	filters: Record< string, unknown > = {};
	featureState: Record< string, Record< string, boolean > > = {};
	handlers: Record< string, Handler[] > = {};
	canvas = document.createElement( 'canvas' );
	container = document.createElement( 'div' );
	queries: Array< { where: Point | Box; layers: string[] } > = [];
	/** What is under the pointer: by default nothing. */
	answer: Query = () => [];
	/** The view, for the shape tiles: its zoom and `[west, south, east, north]`. */
	zoom = 5;
	view: [ number, number, number, number ] = [ 5, 45, 9, 47 ];

	constructor( public styleLayers: string[] = [] ) {}

	getStyle() {
		return {
			layers: [
				...this.styleLayers.map( ( id ) => ( { id } ) ),
				...this.layers.map( ( { id } ) => ( { id } ) ),
			],
		};
	}
	addSource( id: string, spec: unknown ) {
		this.sources[ id ] = spec;
	}
	getSource( id: string ) {
		const source = this.sources[ id ] as
			Record< string, unknown > | undefined;
		return (
			source && {
				...source,
				setData: ( data: unknown ) => {
					this.sources[ id ] = { ...source, data };
				},
			}
		);
	}
	getZoom() {
		return this.zoom;
	}
	getBounds() {
		const [ west, south, east, north ] = this.view;
		return {
			getWest: () => west,
			getSouth: () => south,
			getEast: () => east,
			getNorth: () => north,
		};
	}
	removeSource( id: string ) {
		delete this.sources[ id ];
	}
	addLayer(
		spec: { id: string } & Record< string, unknown >,
		before?: string
	) {
		this.layers.push( { id: spec.id, before, spec } );
	}
	getLayer( id: string ) {
		return this.styleLayers.includes( id ) ||
			this.layers.some( ( layer ) => layer.id === id )
			? { id }
			: undefined;
	}
	removeLayer( id: string ) {
		this.layers = this.layers.filter( ( layer ) => layer.id !== id );
		this.styleLayers = this.styleLayers.filter( ( layer ) => layer !== id );
	}
	setFilter( id: string, filter: unknown ) {
		this.filters[ id ] = filter;
	}
	setFeatureState(
		{ source, id }: { source: string; id: number },
		state: Record< string, boolean >
	) {
		const key = `${ source }/${ id }`;
		this.featureState[ key ] = { ...this.featureState[ key ], ...state };
	}
	queryRenderedFeatures( where: Point | Box, options: { layers: string[] } ) {
		this.queries.push( { where, layers: options.layers } );
		return this.answer( where, options.layers );
	}
	getCanvas() {
		return this.canvas;
	}
	getContainer() {
		return this.container;
	}
	on( type: string, handler: Handler ) {
		( this.handlers[ type ] ??= [] ).push( handler );
	}
	off( type: string, handler: Handler ) {
		this.handlers[ type ] = ( this.handlers[ type ] ?? [] ).filter(
			( own ) => own !== handler
		);
	}
	fire( type: string, point: Point = { x: 100, y: 50 } ) {
		const event = { point, lngLat: { lng: 7.01, lat: 46.01 } };
		( this.handlers[ type ] ?? [] ).forEach( ( handler ) =>
			handler( event )
		);
	}
}
