/**
 * mapbox-gl's Popup as the popup controller and a visitor see it, for unit tests: like mapbox-gl
 * 3, `addTo` puts its container in the map's, focuses the first focusable element (with
 * `focusAfterOpen`) and fires `open`; `remove` drops the container, then fires `close`. Its close
 * button removes it. The e2e specs run the real one.
 */

/** What a popup needs of its map. */
interface PopupHost {
	getContainer: () => HTMLElement;
}

const FOCUSABLE = 'a[href], button, input, [tabindex]:not([tabindex="-1"])';

/** mapbox-gl's Popup as far as the popup controller and a visitor see it. */
export class StandInPopup {
	static made: StandInPopup[] = [];
	lngLat: [ number, number ] | null = null;
	content: HTMLElement | null = null;
	private container: HTMLElement | undefined;
	private map: PopupHost | null = null;
	private readonly listeners: Record< string, Array< () => void > > = {};
	constructor( readonly options: Record< string, unknown > ) {
		StandInPopup.made.push( this );
	}
	setLngLat( lngLat: [ number, number ] ) {
		this.lngLat = lngLat;
		return this;
	}
	setDOMContent( content: HTMLElement ) {
		this.content = content;
		return this;
	}
	on( type: string, listener: () => void ) {
		( this.listeners[ type ] ??= [] ).push( listener );
		return this;
	}
	getElement() {
		return this.container;
	}
	isOpen() {
		return this.map !== null;
	}
	addTo( map: PopupHost ) {
		this.map = map;
		const doc = map.getContainer().ownerDocument;
		this.container = doc.createElement( 'div' );
		this.container.className = 'mapboxgl-popup';
		const close = doc.createElement( 'button' );
		close.className = 'mapboxgl-popup-close-button';
		close.setAttribute( 'aria-label', 'Close popup' );
		close.addEventListener( 'click', () => this.remove() );
		this.container.append( this.content!, close );
		map.getContainer().append( this.container );
		if ( this.options.focusAfterOpen ) {
			this.container.querySelector< HTMLElement >( FOCUSABLE )?.focus();
		}
		this.fire( 'open' );
		return this;
	}
	remove() {
		this.container?.remove();
		this.container = undefined;
		this.map = null;
		this.fire( 'close' );
		return this;
	}
	private fire( type: string ) {
		( this.listeners[ type ] ?? [] ).forEach( ( listener ) => listener() );
	}
}
