/**
 * The headless example's own logic (examples/headless/src): what its address means, the links
 * that keep the site and token, how it reads the site's pages, and what a visitor is told when the
 * site refuses.
 */
import { PostMapsError } from '../../packages/map/src/fetch-post-maps';
import {
	DEFAULT_SITE,
	hrefFor,
	readAddress,
} from '../../examples/headless/src/address';
import { failureMessage } from '../../examples/headless/src/components/Failure';
import {
	SiteError,
	fetchPage,
	fetchPagesWithMaps,
	htmlToText,
} from '../../examples/headless/src/wordpress';

// The app imports the package by name, as from npm; here that name is its sources.
jest.mock(
	'@cairn-maps/map',
	() => jest.requireActual( '../../packages/map/src/index' ),
	{ virtual: true }
);

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
			{},
			'https://example.com/blog/',
			undefined,
			{ view: 'page', id: 12, way: 'components' },
		],
		[
			'?page=12&way=html&token=pk.app',
			{
				VITE_CAIRN_SITE: 'https://built.example',
				VITE_MAPBOX_TOKEN: 'pk.built',
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

describe( 'hrefFor', () => {
	it( 'keeps the site and token of the current address, and nothing else', () => {
		expect(
			hrefFor(
				{ view: 'page', id: 4, way: 'html' },
				'?page=3&way=components&site=https%3A%2F%2Fa.example&token=pk.t&extra=1'
			)
		).toBe( '?page=4&way=html&site=https%3A%2F%2Fa.example&token=pk.t' );
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
