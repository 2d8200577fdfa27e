/**
 * The map follows its container (ResizeObserver): jsdom cannot lay out, so a stand-in observer
 * delivers the sizes a browser would; the e2e spec places-panel.spec.ts checks the real canvas.
 */
import type { Map as MapboxMap } from 'mapbox-gl';

import { followContainerSize } from '../../packages/map/src/follow-container-size';

class StandInObserver {
	static made: StandInObserver[] = [];
	observed: Element[] = [];
	disconnected = false;
	constructor( readonly callback: () => void ) {
		StandInObserver.made.push( this );
	}
	observe( element: Element ) {
		this.observed.push( element );
	}
	disconnect() {
		this.disconnected = true;
	}
}

function sized( element: HTMLElement, width: number, height: number ) {
	Object.defineProperty( element, 'clientWidth', {
		configurable: true,
		value: width,
	} );
	Object.defineProperty( element, 'clientHeight', {
		configurable: true,
		value: height,
	} );
}

describe( 'followContainerSize', () => {
	const original = window.ResizeObserver;
	let container: HTMLElement;
	let map: { resize: jest.Mock; triggerRepaint: jest.Mock };

	beforeEach( () => {
		StandInObserver.made = [];
		container = document.createElement( 'div' );
		document.body.append( container );
		map = {
			resize: jest.fn(),
			triggerRepaint: jest.fn(),
		};
		Object.assign( map, { getContainer: () => container } );
	} );

	afterEach( () => {
		window.ResizeObserver = original;
		container.remove();
	} );

	it( 'redraws at each new size of the container, keeps the drawing while it is hidden, and disconnects', () => {
		window.ResizeObserver =
			StandInObserver as unknown as typeof ResizeObserver;
		const stop = followContainerSize( map as unknown as MapboxMap );
		const [ observer ] = StandInObserver.made;
		expect( observer?.observed ).toEqual( [ container ] );

		sized( container, 400, 360 );
		observer!.callback();
		expect( map.resize ).toHaveBeenCalledTimes( 1 );
		expect( map.triggerRepaint ).toHaveBeenCalledTimes( 1 );

		// Hidden (display: none): 0 × 0, nothing to draw at.
		sized( container, 0, 0 );
		observer!.callback();
		expect( map.resize ).toHaveBeenCalledTimes( 1 );

		sized( container, 520, 360 );
		observer!.callback();
		expect( map.resize ).toHaveBeenCalledTimes( 2 );

		stop();
		expect( observer!.disconnected ).toBe( true );
	} );

	it( 'does nothing where there is no ResizeObserver (the window’s events remain)', () => {
		( window as { ResizeObserver?: unknown } ).ResizeObserver = undefined;
		const stop = followContainerSize( map as unknown as MapboxMap );
		expect( () => stop() ).not.toThrow();
		expect( map.resize ).not.toHaveBeenCalled();
	} );
} );
