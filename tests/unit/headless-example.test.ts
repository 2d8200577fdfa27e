/**
 * The headless example's own logic (examples/headless/src): what its address means, the links
 * that keep the site and token, how it reads the site's pages, and what a visitor is told when the
 * site refuses.
 */
// The app imports the package by name, as from npm; jest.config.js maps that name to its sources.
import { PostMapsError } from '@cairn-maps/map';

import {
	DEFAULT_SITE,
	allowedSites,
	hrefFor,
	readAddress,
} from '../../examples/headless/src/address';
import { failureMessage } from '../../examples/headless/src/components/Failure';
import { sanitizeContent } from '../../examples/headless/src/sanitize';
import {
	SiteError,
	fetchPage,
	fetchPagesWithMaps,
	htmlToText,
} from '../../examples/headless/src/wordpress';

const MAP = {
	id: 'map-1',
	attributes: { zoom: 9 },
	config: { accessToken: 'pk.x', zoom: 9 },
	error: '',
};

function answerWith( status: number, body: unknown ) {
	const calls: Array< { url: string; init: RequestInit } > = [];
	global.fetch = jest.fn( async ( url: string, init: RequestInit ) => {
		calls.push( { url, init } );
		return {
			ok: status >= 200 && status < 300,
			status,
			json: async () => body,
		};
	} ) as unknown as typeof fetch;
	return calls;
}

describe( 'readAddress', () => {
	it.each( [
		[ '', {}, DEFAULT_SITE + '/', undefined, { view: 'home' } ],
		[
			'?site=https://example.com/blog&page=12',
			{ VITE_CAIRN_SITES: 'https://a.example https://example.com/blog' },
			'https://example.com/blog/',
			undefined,
			{ view: 'page', id: 12, way: 'components' },
		],
		[
			'?page=12&way=html&token=pk.app',
			{
				VITE_CAIRN_SITE: 'https://built.example',
				VITE_MAPBOX_TOKEN: 'pk.built',
				DEV: true,
			},
			'https://built.example/',
			'pk.app',
			{ view: 'page', id: 12, way: 'html' },
		],
		[
			'?post=7',
			{ VITE_MAPBOX_TOKEN: 'pk.built' },
			DEFAULT_SITE + '/',
			'pk.built',
			{ view: 'post', id: 7 },
		],
		[ '?page=0', {}, DEFAULT_SITE + '/', undefined, { view: 'unknown' } ],
		[ '?post=1e3', {}, DEFAULT_SITE + '/', undefined, { view: 'unknown' } ],
	] )(
		'%s with %j: site %s, token %s, %j',
		( search, defaults, site, token, route ) => {
			expect( readAddress( search, defaults ) ).toEqual( {
				site,
				invalidSite: '',
				refusedSite: '',
				sites: expect.arrayContaining( [ site ] ),
				token,
				route,
			} );
		}
	);

	it.each( [ 'javascript:alert(1)', 'example.com', 'ftp://example.com' ] )(
		'refuses %s as a site',
		( value ) => {
			const address = readAddress(
				`?site=${ encodeURIComponent( value ) }`,
				{}
			);
			expect( address.site ).toBe( '' );
			expect( address.invalidSite ).toBe( value );
		}
	);
} );

describe( 'the token in the address', () => {
	/** `import.meta.env` as `vite build` writes it into the app, and as the dev server serves it. */
	const PRODUCTION = {
		BASE_URL: './',
		MODE: 'production',
		DEV: false,
		PROD: true,
		SSR: false,
	};
	const DEVELOPMENT = {
		...PRODUCTION,
		MODE: 'development',
		DEV: true,
		PROD: false,
	};
	const CRAFTED = '?page=12&token=pk.someone-elses';

	it( 'a built app ignores ?token=: its maps keep the site’s token', () => {
		expect( readAddress( CRAFTED, PRODUCTION ).token ).toBeUndefined();
		// Nor do its links carry the token on.
		expect(
			hrefFor( { view: 'post', id: 9 }, CRAFTED, PRODUCTION.DEV )
		).toBe( '?post=9' );
	} );

	it( 'a built app uses the token it was built with, whatever the link says', () => {
		expect(
			readAddress( CRAFTED, {
				...PRODUCTION,
				VITE_MAPBOX_TOKEN: 'pk.built',
			} ).token
		).toBe( 'pk.built' );
	} );

	it( 'without a word about the build, the address gives no token', () => {
		expect( readAddress( CRAFTED, {} ).token ).toBeUndefined();
		expect( hrefFor( { view: 'post', id: 9 }, CRAFTED ) ).toBe( '?post=9' );
	} );

	it( 'the dev server’s build takes ?token= and keeps it in its links', () => {
		expect(
			readAddress( CRAFTED, {
				...DEVELOPMENT,
				VITE_MAPBOX_TOKEN: 'pk.built',
			} ).token
		).toBe( 'pk.someone-elses' );
		expect(
			hrefFor( { view: 'post', id: 9 }, CRAFTED, DEVELOPMENT.DEV )
		).toBe( '?post=9&token=pk.someone-elses' );
	} );
} );

describe( 'the sites the app was built for', () => {
	it.each( [
		[ {}, [ DEFAULT_SITE + '/' ] ],
		[
			{ VITE_CAIRN_SITE: 'https://built.example' },
			[ 'https://built.example/' ],
		],
		[
			{
				VITE_CAIRN_SITES:
					'https://a.example/wp, https://b.example  ftp://c.example',
			},
			[ 'https://a.example/wp/', 'https://b.example/' ],
		],
		[
			{
				VITE_CAIRN_SITE: 'https://b.example/',
				VITE_CAIRN_SITES: 'https://a.example https://b.example',
			},
			[ 'https://b.example/', 'https://a.example/' ],
		],
	] )( '%j allows %j, the first by default', ( defaults, sites ) => {
		expect( allowedSites( defaults ) ).toEqual( sites );
		expect( readAddress( '', defaults ).site ).toBe( sites[ 0 ] );
	} );

	it.each( [
		[ 'https://evil.example/', {}, 'https://evil.example/' ],
		[
			'http://localhost:8888@evil.example',
			{},
			'http://localhost:8888@evil.example/',
		],
		[
			'https://a.example/other-folder/',
			{ VITE_CAIRN_SITES: 'https://a.example/wp' },
			'https://a.example/other-folder/',
		],
		[
			'http://a.example/wp/',
			{ VITE_CAIRN_SITES: 'https://a.example/wp' },
			'http://a.example/wp/',
		],
	] )(
		'refuses ?site=%s (built with %j): no site, and what was refused',
		( asked, defaults, refused ) => {
			const address = readAddress(
				`?site=${ encodeURIComponent( asked ) }&page=3`,
				defaults
			);
			expect( address.site ).toBe( '' );
			expect( address.refusedSite ).toBe( refused );
			expect( address.invalidSite ).toBe( '' );
			expect( address.sites ).toEqual( allowedSites( defaults ) );
		}
	);

	it( 'accepts a listed site however it is spelt', () => {
		const defaults = { VITE_CAIRN_SITES: 'https://a.example/wp/' };
		expect(
			readAddress( '?site=HTTPS://A.example:443/wp#x', defaults ).site
		).toBe( 'https://a.example/wp/' );
	} );
} );

describe( 'sanitizeContent', () => {
	/** What the server renders for a map block (Map_Block, Places_List, Consent_Placeholder). */
	const MAP_BLOCK = `<div class="wp-block-cairn-map" data-cairn-state="loading" data-cairn-consent="required" data-cairn-config="{&quot;zoom&quot;:9,&quot;markers&quot;:{&quot;url&quot;:&quot;https:\/\/a.example\/wp-json\/cairn\/v1\/markers&quot;}}" style="--cairn-map-height:480px"><a class="wp-block-cairn-map__skip" href="#cairn-places">Skip the map</a><div class="wp-block-cairn-map__map" role="region" aria-label="Interactive map" aria-describedby="cairn-places"><div class="wp-block-cairn-map__consent"><p class="wp-block-cairn-map__consent-note">Load it?</p><button type="button" class="wp-block-cairn-map__consent-button wp-element-button">Load map</button></div></div><div class="wp-block-cairn-map__places" role="region" aria-label="Places" id="cairn-places"><div class="wp-block-cairn-map__markers" id="cairn-places-list"><h2 class="wp-block-cairn-map__markers-title">Places</h2><ul class="wp-block-cairn-map__list"><li data-cairn-marker-id="12" data-lng="-3.2" data-lat="55.95">Huts &amp; lakes</li></ul><nav class="wp-block-cairn-map__pages" aria-label="Pages of places"><a class="wp-block-cairn-map__pages-next" rel="next" href="?cairn-places=2#cairn-places-list">Next places</a></nav></div></div></div>`;

	/** Puts HTML in a document and fires what a browser would: each image's error, each link. */
	function insertAndProvoke( html: string ): Record< string, unknown > {
		const flags: Record< string, unknown > = {};
		( window as unknown as { flags: typeof flags } ).flags = flags;
		const root = document.createElement( 'div' );
		document.body.append( root );
		root.innerHTML = html;
		for ( const element of root.querySelectorAll( '*' ) ) {
			element.dispatchEvent( new Event( 'error' ) );
			element.dispatchEvent( new Event( 'load' ) );
			element.dispatchEvent( new MouseEvent( 'mouseover' ) );
		}
		root.remove();
		return flags;
	}

	const HOSTILE = [
		'<img src=x onerror="window.flags.img=1">',
		'<script>window.flags.script=1</script>',
		'<svg><animate onbegin="window.flags.svg=1" attributeName="x"/></svg>',
		'<p onmouseover="window.flags.hover=1">hover</p>',
		'<iframe srcdoc="<script>parent.flags.frame=1</script>"></iframe>',
		'<a href="javascript:window.flags.link=1">link</a>',
		'<object data="javascript:window.flags.object=1"></object>',
	].join( '' );

	it( 'the hostile content would run where it is inserted as it is', () => {
		// jsdom runs inline handlers when their event fires: the test below can see a handler.
		expect( insertAndProvoke( HOSTILE ) ).toEqual(
			expect.objectContaining( { img: 1, hover: 1 } )
		);
	} );

	it( 'keeps nothing that runs', () => {
		const clean = sanitizeContent( HOSTILE );
		expect( insertAndProvoke( clean ) ).toEqual( {} );
		expect( clean ).not.toMatch(
			/onerror|onbegin|onmouseover|<script|<iframe|<object|javascript:/i
		);
		// What is harmless stays: the image, the paragraph, the link's text.
		expect( clean ).toContain( '<img src="x">' );
		expect( clean ).toContain( '<p>hover</p>' );
		expect( clean ).toContain( '>link</a>' );
	} );

	it( 'keeps a map block as the server renders it, data attributes included', () => {
		const root = document.createElement( 'div' );
		root.innerHTML = sanitizeContent(
			`<p>Before</p>${ MAP_BLOCK }<img src=x onerror="window.flags.img=1">`
		);
		const original = document.createElement( 'div' );
		original.innerHTML = MAP_BLOCK;
		expect( root.querySelector( '.wp-block-cairn-map' )?.outerHTML ).toBe(
			original.firstElementChild?.outerHTML
		);
		const host = root.querySelector< HTMLElement >( '.wp-block-cairn-map' );
		expect( JSON.parse( host?.dataset.cairnConfig ?? '' ) ).toEqual( {
			zoom: 9,
			markers: { url: 'https://a.example/wp-json/cairn/v1/markers' },
		} );
		expect(
			root.querySelector( 'li[data-cairn-marker-id="12"]' )?.textContent
		).toBe( 'Huts & lakes' );
		expect( root.querySelector( 'img' )?.hasAttribute( 'onerror' ) ).toBe(
			false
		);
	} );
} );

describe( 'sanitizeContent and the keys of server-rendered maps', () => {
	const KEY = '0123456789abcdef0123456789abcdef';
	const OTHER = 'fedcba9876543210fedcba9876543210';
	const keyScript = ( text: string ) =>
		`<script type="application/json" class="wp-block-cairn-map__key">${ text }</script>`;
	const wrapper = ( key: string, inside: string ) =>
		`<div class="wp-block-cairn-map" data-cairn-key="${ key }" data-cairn-config="{}">${ inside }</div>`;

	/** The key scripts of each wrapper after sanitising, as [ data-cairn-key, script text ]. */
	function keysAfter( html: string ): Array< [ string, string[] ] > {
		const root = document.createElement( 'div' );
		root.innerHTML = sanitizeContent( html );
		return Array.from(
			root.querySelectorAll< HTMLElement >( '.wp-block-cairn-map' )
		).map( ( host ) => [
			host.dataset.cairnKey ?? '',
			Array.from(
				host.querySelectorAll(
					'script[type="application/json"].wp-block-cairn-map__key'
				)
			).map( ( script ) => script.textContent ?? '' ),
		] );
	}

	it( 'puts back the key of a map the server rendered, and only there', () => {
		expect(
			keysAfter(
				wrapper( KEY, `<div>map</div>${ keyScript( `"${ KEY }"` ) }` ) +
					// Look-alikes: no script, another key, the script deeper, not JSON.
					wrapper( OTHER, '' ) +
					wrapper( OTHER, keyScript( `"${ KEY }"` ) ) +
					wrapper(
						OTHER,
						`<p>${ keyScript( `"${ OTHER }"` ) }</p>`
					) +
					wrapper( OTHER, keyScript( OTHER ) )
			)
		).toEqual( [
			[ KEY, [ `"${ KEY }"` ] ],
			[ OTHER, [] ],
			[ OTHER, [] ],
			[ OTHER, [] ],
			[ OTHER, [] ],
		] );
	} );

	it( 'a script dressed as a key, with code in it, is removed', () => {
		const html = sanitizeContent(
			wrapper(
				KEY,
				`<script type="application/json" class="wp-block-cairn-map__key">"${ KEY }";window.flags={}</script>`
			)
		);
		expect( html ).not.toContain( '<script' );
	} );
} );

describe( 'hrefFor', () => {
	it( 'keeps the site (and in a development build the token) of the current address, and nothing else', () => {
		const current =
			'?page=3&way=components&site=https%3A%2F%2Fa.example&token=pk.t&extra=1';
		expect(
			hrefFor( { view: 'page', id: 4, way: 'html' }, current, true )
		).toBe( '?page=4&way=html&site=https%3A%2F%2Fa.example&token=pk.t' );
		expect(
			hrefFor( { view: 'page', id: 4, way: 'html' }, current, false )
		).toBe( '?page=4&way=html&site=https%3A%2F%2Fa.example' );
		expect( hrefFor( { view: 'post', id: 9 }, '' ) ).toBe( '?post=9' );
		expect(
			hrefFor( { view: 'home' }, '?site=https%3A%2F%2Fa.example' )
		).toBe( '?site=https%3A%2F%2Fa.example' );
	} );
} );

describe( 'reading the site', () => {
	it( 'lists the pages that have maps, anonymously, with plain-text titles', async () => {
		const calls = answerWith( 200, [
			{
				id: 1,
				title: { rendered: 'Huts &#8217;n <em>lakes</em>' },
				link: 'https://a.example/huts/',
				cairn_maps: [ MAP, MAP ],
			},
			{ id: 2, title: { rendered: 'No map' }, link: '', cairn_maps: [] },
		] );
		await expect(
			fetchPagesWithMaps(
				'https://a.example/',
				new AbortController().signal
			)
		).resolves.toEqual( {
			hasMapsField: true,
			pages: [
				{
					id: 1,
					title: 'Huts ’n lakes',
					link: 'https://a.example/huts/',
					mapCount: 2,
				},
			],
		} );
		const url = new URL( calls[ 0 ]!.url );
		expect( Object.fromEntries( url.searchParams ) ).toEqual( {
			rest_route: '/wp/v2/pages',
			per_page: '100',
			_fields: 'id,title,link,cairn_maps',
		} );
		expect( calls[ 0 ]!.init.credentials ).toBe( 'omit' );
	} );

	it( 'says when the site gives no cairn_maps field', async () => {
		answerWith( 200, [ { id: 1, title: { rendered: 'A page' } } ] );
		await expect(
			fetchPagesWithMaps(
				'https://a.example/',
				new AbortController().signal
			)
		).resolves.toEqual( { hasMapsField: false, pages: [] } );
	} );

	it( 'reads a page with its content and maps, checked by the package', async () => {
		answerWith( 200, {
			id: 5,
			title: { rendered: 'Lakes' },
			content: { rendered: '<p>Hello</p>' },
			cairn_maps: [ MAP, { id: 'broken' } ],
		} );
		const page = await fetchPage(
			'https://a.example/',
			5,
			new AbortController().signal
		);
		expect( page ).toEqual( {
			id: 5,
			title: 'Lakes',
			contentHtml: '<p>Hello</p>',
			// A map without places (a site before 0.3) gets none from the package's parser.
			maps: [
				{
					...MAP,
					places: { items: [], total: 0, page: 1, perPage: 50 },
				},
			],
		} );
	} );

	it( 'turns an error answer into a SiteError with its status', async () => {
		answerWith( 401, { code: 'rest_forbidden', message: 'Sorry' } );
		await expect(
			fetchPage( 'https://a.example/', 5, new AbortController().signal )
		).rejects.toEqual( expect.objectContaining( { status: 401 } ) );
	} );

	it( 'decodes titles without running anything in them', () => {
		expect(
			htmlToText( '<img src=x onerror="window.ran=1">A &amp; B' )
		).toBe( 'A & B' );
		expect( ( window as unknown as { ran?: number } ).ran ).toBeUndefined();
	} );
} );

describe( 'failureMessage', () => {
	it.each( [
		[
			'a draft',
			new PostMapsError( 401, 'rest_forbidden', 'x' ),
			'maps',
			'These maps are not public (401).',
		],
		[
			'a private post',
			new PostMapsError( 403, 'rest_forbidden', 'x' ),
			'maps',
			'These maps are not public (403).',
		],
		[
			'no such post',
			new PostMapsError( 404, 'rest_post_invalid_id', 'x' ),
			'maps',
			'There is no such post (404).',
		],
		[
			'no such page',
			new SiteError( 404, 'x' ),
			'page',
			'There is no such page (404).',
		],
		[
			'a server error',
			new SiteError( 500, 'x' ),
			'page',
			'The site could not answer (500).',
		],
		[
			'not WordPress',
			new PostMapsError( 0, 'cairn_invalid_response', 'x' ),
			'maps',
			'The site did not answer as a WordPress site with Cairn Maps would. Check its address.',
		],
	] as const )( '%s', ( _label, error, what, message ) => {
		expect( failureMessage( error, what ) ).toBe( message );
	} );

	it( 'a site that cannot be read (fetch rejects) is named as such', () => {
		expect(
			failureMessage( new TypeError( 'Failed to fetch' ), 'pages' )
		).toMatch( /^The site could not be reached/ );
	} );
} );
