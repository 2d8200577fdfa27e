/**
 * The server's list of places upgraded where the map shows no places panel: each entry becomes
 * a button that shows the place on the map, named for the place alone, and its "Directions" link
 * (Blocks\Directions_Link) stays a link beside it; taken away, the entry is the server's again.
 */
import { upgradeMarkerList } from '../../packages/map/src/marker-list';

function serverList(): HTMLElement {
	const host = document.createElement( 'div' );
	host.innerHTML =
		'<ul class="wp-block-cairn-map__list">' +
		'<li data-cairn-marker-id="7" data-lng="7.25" data-lat="46.5">Hut &amp; bar <a class="cairn-map-directions wp-block-cairn-map__directions" href="https://www.openstreetmap.org/directions?route=;46.5,7.25" aria-label="Directions to Hut &amp; bar (opens in a new tab)" target="_blank" rel="noopener noreferrer">Directions</a></li>' +
		'<li data-cairn-marker-id="9" data-lng="-0.1" data-lat="51.5">Bridge <span class="wp-block-cairn-map__distance">3.2 km</span></li>' +
		'</ul>';
	return host;
}

describe( 'upgradeMarkerList', () => {
	it( 'makes each entry a button named for its place, and keeps its Directions link', () => {
		const host = serverList();
		const before = host.innerHTML;
		const chosen: number[] = [];
		const undo = upgradeMarkerList( host, ( id ) => chosen.push( id ) );

		const buttons = Array.from( host.querySelectorAll( 'button' ) );
		expect( buttons.map( ( button ) => button.textContent ) ).toEqual( [
			'Hut & bar',
			'Bridge 3.2 km',
		] );
		expect( buttons[ 0 ]!.getAttribute( 'aria-label' ) ).toBe(
			'Show Hut & bar on the map'
		);
		const link = host.querySelector(
			'li[data-cairn-marker-id="7"] > button + a.wp-block-cairn-map__directions'
		);
		expect( link?.getAttribute( 'href' ) ).toBe(
			'https://www.openstreetmap.org/directions?route=;46.5,7.25'
		);
		expect( link?.getAttribute( 'target' ) ).toBe( '_blank' );
		expect(
			host.querySelectorAll( 'li[data-cairn-marker-id="9"] a' )
		).toHaveLength( 0 );

		buttons[ 0 ]!.click();
		buttons[ 1 ]!.click();
		expect( chosen ).toEqual( [ 7, 9 ] );

		undo();
		expect( host.innerHTML ).toBe( before );
	} );
} );
