/**
 * Only maps the server rendered start. kses keeps `class` and `data-*`, so an author can write a
 * look-alike `.wp-block-cairn-map` with a `data-cairn-config` of their own (another style host,
 * feed and token, no consent gate) in a Custom HTML block. The loader starts a wrapper only when
 * its `data-cairn-key` matches the key in the server's `<script type="application/json">` inside
 * it (plugin/Blocks/Map_Block.php, packages/map/src/watch-maps.ts); kses never keeps a script an
 * author writes (tests/php/Blocks/Map_BlockTest.php), so the look-alike stays inert.
 */
import { VISITOR_STATE } from './global-setup';
import { expect, test } from './fixtures/maps-service';
import {
	FAKE_PUBLIC_TOKEN,
	mapBlock,
	setToken,
	waitForMapState,
} from './utils/map-page';

const EVIL_HOST = 'evil.example';

/** What an author can store in a Custom HTML block: every attribute here survives kses. */
function lookAlike(): string {
	const config = {
		accessToken: FAKE_PUBLIC_TOKEN,
		style: `https://${ EVIL_HOST }/style.json`,
		markersUrl: `https://${ EVIL_HOST }/feed.json`,
		markerUrl: `https://${ EVIL_HOST }/marker/`,
	};
	const attribute = JSON.stringify( config ).replace( /"/g, '&quot;' );
	return (
		'<!-- wp:html -->' +
		`<div class="wp-block-cairn-map" data-cairn-state="loading" data-cairn-key="${ '0'.repeat(
			32
		) }" data-cairn-config="${ attribute }" style="--cairn-map-height:300px">` +
		'<div class="wp-block-cairn-map__key" data-type="application/json">"00000000000000000000000000000000"</div>' +
		'<div class="wp-block-cairn-map__map" role="region" aria-label="Fake map"></div></div>' +
		'<!-- /wp:html -->'
	);
}

test.describe( 'a look-alike map in an author’s Custom HTML', () => {
	test.use( { storageState: VISITOR_STATE } );

	let postId = 0;

	test.beforeAll( async ( { requestUtils } ) => {
		await setToken( requestUtils, FAKE_PUBLIC_TOKEN );
		const author = ( await requestUtils.createUser( {
			username: `cairn-fake-author-${ Date.now() }`,
			email: `cairn-fake-author-${ Date.now() }@example.org`,
			password: 'password',
			roles: [ 'author' ],
		} ) ) as { id: number };
		const post = ( await requestUtils.rest( {
			method: 'POST',
			path: '/wp/v2/posts',
			data: {
				title: 'A fake map beside a real one',
				status: 'publish',
				author: author.id,
				// The look-alike first: it is in view when the page loads.
				content: lookAlike() + mapBlock( { zoom: 3 } ),
			},
		} ) ) as { id: number };
		postId = post.id;
	} );

	test.afterAll( async ( { requestUtils } ) => {
		if ( postId ) {
			await requestUtils.rest( {
				method: 'DELETE',
				path: `/wp/v2/posts/${ postId }`,
				params: { force: true },
			} );
		}
	} );

	test( 'the real map is ready; the look-alike makes no request and never starts', async ( {
		page,
		mapsService,
	} ) => {
		const evil: string[] = [];
		page.on( 'request', ( request ) => {
			if ( new URL( request.url() ).hostname === EVIL_HOST ) {
				evil.push( request.url() );
			}
		} );
		const events: string[] = [];
		await page.exposeFunction( 'cairnFakeEvent', ( name: string ) =>
			events.push( name )
		);
		await page.addInitScript( () => {
			for ( const name of [ 'cairn:map-ready', 'cairn:map-error' ] ) {
				document.addEventListener( name, ( event ) => {
					const host = event.target as HTMLElement;
					if ( host.querySelector( '[aria-label="Fake map"]' ) ) {
						(
							window as unknown as {
								cairnFakeEvent: ( name: string ) => void;
							}
						 ).cairnFakeEvent( name );
					}
				} );
			}
		} );

		await page.goto( `/?p=${ postId }` );
		const maps = page.locator( '.wp-block-cairn-map' );
		await expect( maps ).toHaveCount( 2 );
		const fake = maps.filter( {
			has: page.locator( '[aria-label="Fake map"]' ),
		} );
		const real = maps.filter( {
			hasNot: page.locator( '[aria-label="Fake map"]' ),
		} );
		await expect( fake ).toHaveCount( 1 );
		await expect( real ).toHaveAttribute(
			'data-cairn-key',
			/^[0-9a-f]{32}$/
		);

		// The loader decides about every map of the page at once, when it starts: by the time the
		// real map is drawn (it started after the look-alike was passed over), the decision is in.
		expect( await waitForMapState( real ) ).toBe( 'ready' );
		await expect( real.locator( 'canvas.mapboxgl-canvas' ) ).toHaveCount(
			1
		);

		await expect( fake ).toHaveAttribute( 'data-cairn-state', 'loading' );
		await expect( fake.locator( 'canvas' ) ).toHaveCount( 0 );
		await expect( fake.getByRole( 'alert' ) ).toHaveCount( 0 );
		expect( evil ).toEqual( [] );
		expect( events ).toEqual( [] );
		expect(
			mapsService.blocked.filter(
				( blocked ) => blocked.host === EVIL_HOST
			)
		).toEqual( [] );
		// The real map used the site's own style and token only.
		for ( const style of mapsService.styleRequests() ) {
			expect( style.token ).toBe( FAKE_PUBLIC_TOKEN );
		}
	} );
} );
