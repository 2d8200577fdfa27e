/**
 * Maps of posts in the runtime and the editor: two feeds drawn as one, a post's popup (image,
 * excerpt, "Read more"), and the posts feed address the editor builds like the server.
 */
import {
	groupStyles,
	parseContentSelection,
	parseMapConfig,
} from '../../packages/map/src/config';
import { feedSources } from '../../packages/map/src/create-map';
import { createAnswerer } from '../../packages/map/src/places/protocol';
import {
	buildPopupContent,
	parseMarkerDetails,
} from '../../packages/map/src/popup';
import { LIMITS } from '../../packages/map/src/limits';
import {
	crc32,
	postsFeedUrl,
	termStyle,
} from '../../src/blocks/map/editor-data';

const feature = ( id: number, title: string, groups: string[] = [] ) => ( {
	type: 'Feature',
	id,
	geometry: { type: 'Point', coordinates: [ 2 + id / 100, 48 ] },
	properties: { title, groups },
} );

const FEEDS: Record< string, unknown > = {
	'https://example.test/markers': {
		type: 'FeatureCollection',
		features: [ feature( 1, 'Hut' ), feature( 2, 'Bridge' ) ],
	},
	'https://example.test/posts': {
		type: 'FeatureCollection',
		features: [
			feature( 10, 'A walk in Lyon', [ 'category:travel' ] ),
			feature( 11, 'Market day', [ 'category:food' ] ),
			feature( 12, 'Old harbour', [ 'category:travel' ] ),
		],
	},
};

const OPTIONS = {
	clusterEnabled: false,
	clusterRadius: 80,
	clusterMaxZoom: 16,
	groups: [],
};

beforeEach( () => {
	( globalThis as unknown as { fetch: unknown } ).fetch = jest.fn(
		async ( url: string ) =>
			url in FEEDS
				? { ok: true, status: 200, json: async () => FEEDS[ url ] }
				: { ok: false, status: 500, json: async () => ( {} ) }
	);
} );

describe( 'a map with markers and posts', () => {
	it( 'loads both feeds as one set of places, groups of both counted', async () => {
		const answer = createAnswerer();
		expect(
			await answer( {
				id: 1,
				type: 'load',
				source: [
					'https://example.test/markers',
					'https://example.test/posts',
				],
				options: OPTIONS,
			} )
		).toEqual( {
			id: 1,
			ok: true,
			result: {
				total: 5,
				groups: { 'category:travel': 2, 'category:food': 1 },
			},
		} );
	} );

	it( 'fails the load when one of the feeds cannot be read (the map reports `markers`)', async () => {
		const answer = createAnswerer();
		const reply = await answer( {
			id: 2,
			type: 'load',
			source: [
				'https://example.test/markers',
				'https://example.test/broken',
			],
			options: OPTIONS,
		} );
		expect( reply.ok ).toBe( false );
	} );

	it( 'reads a prefetched body in place of its address, and leaves out a feed the map has not', () => {
		const blob = new Blob( [ '{}' ] );
		expect(
			feedSources( { markersUrl: '/m', postsUrl: '/p' }, [
				null,
				{ blob, url: 'blob:x', release: () => undefined },
			] )
		).toEqual( [ '/m', blob ] );
		expect( feedSources( { markersUrl: '', postsUrl: '/p' } ) ).toEqual( [
			'/p',
		] );
		expect( feedSources( { markersUrl: '/m', postsUrl: '' } ) ).toEqual( [
			'/m',
		] );
	} );

	it( 'takes `postsUrl` from the configuration, and term keys as legend entries', () => {
		expect(
			parseMapConfig( { postsUrl: '/feed?post_type=post' } ).postsUrl
		).toBe( '/feed?post_type=post' );
		expect( parseMapConfig( {} ).postsUrl ).toBe( '' );
		expect(
			groupStyles( [
				{ slug: 'category:travel', name: 'Travel', color: '#0072b2' },
				{ slug: 'category:<b>', name: 'Bad' },
				{ slug: 'huts', name: 'Huts' },
			] ).map( ( style ) => style.slug )
		).toEqual( [ 'category:travel', 'huts' ] );
	} );
} );

describe( "a post's popup", () => {
	const answer = {
		id: 10,
		title: 'A walk in Lyon',
		content: '',
		link: 'https://example.test/?p=10',
		lng: 4.83,
		lat: 45.76,
		excerpt: 'Along the <b>Saône</b> at dawn.',
		image: {
			src: 'https://example.test/lyon-300x200.jpg',
			srcset: 'https://example.test/lyon-300x200.jpg 300w, https://example.test/lyon.jpg 1200w',
			alt: 'The river at dawn',
			width: 300,
			height: 200,
		},
	};

	it( 'shows the featured image (responsive, lazy, sized), the excerpt as text and "Read more"', () => {
		const details = parseMarkerDetails( answer );
		expect( details ).not.toBeNull();
		const root = buildPopupContent( document, details! );
		const img = root.querySelector( 'img' )!;
		expect( img.getAttribute( 'src' ) ).toBe( answer.image.src );
		expect( img.getAttribute( 'srcset' ) ).toBe( answer.image.srcset );
		expect( img.getAttribute( 'sizes' ) ).toBeTruthy();
		expect( img.getAttribute( 'alt' ) ).toBe( 'The river at dawn' );
		expect( img.getAttribute( 'width' ) ).toBe( '300' );
		expect( img.getAttribute( 'height' ) ).toBe( '200' );
		expect( img.getAttribute( 'loading' ) ).toBe( 'lazy' );
		const excerpt = root.querySelector( '.cairn-map-popup__excerpt' )!;
		// Text, never markup.
		expect( excerpt.textContent ).toBe( 'Along the <b>Saône</b> at dawn.' );
		expect( excerpt.querySelector( 'b' ) ).toBeNull();
		const link = root.querySelector< HTMLAnchorElement >(
			'a.cairn-map-popup__link'
		)!;
		expect( link.textContent ).toBe( 'Read more' );
		expect( link.href ).toBe( answer.link );
	} );

	it.each( [
		[ 'no image', null ],
		[ 'a script URL', { ...answer.image, src: 'javascript:alert(1)' } ],
		[ 'a data URL', { ...answer.image, src: 'data:image/png;base64,AA' } ],
		[ 'not an object', 'lyon.jpg' ],
	] )( 'shows no image for %s', ( _label, image ) => {
		const root = buildPopupContent(
			document,
			parseMarkerDetails( { ...answer, image } )!
		);
		expect( root.querySelector( 'img' ) ).toBeNull();
		expect(
			root.querySelector( '.cairn-map-popup__excerpt' )
		).not.toBeNull();
	} );

	it( 'drops a srcset with a script candidate but keeps the image', () => {
		const root = buildPopupContent(
			document,
			parseMarkerDetails( {
				...answer,
				image: {
					...answer.image,
					srcset: 'javascript:alert(1) 300w',
				},
			} )!
		);
		expect( root.querySelector( 'img' )?.hasAttribute( 'srcset' ) ).toBe(
			false
		);
	} );

	it( 'keeps a marker\'s popup as it was ("More about this place", no image)', () => {
		const { excerpt, image, ...marker } = answer;
		void excerpt;
		void image;
		const root = buildPopupContent(
			document,
			parseMarkerDetails( marker )!
		);
		expect( root.querySelector( 'img' ) ).toBeNull();
		expect(
			root.querySelector( 'a.cairn-map-popup__link' )?.textContent
		).toBe( 'More about this place' );
	} );
} );

describe( 'postsFeedUrl', () => {
	const base = 'https://example.com/wp-json/cairn/v1/markers';

	it( 'names the chosen types and terms, sorted, as the server does', () => {
		const url = new URL(
			postsFeedUrl(
				base,
				{
					postTypes: [ 'post', 'event' ],
					terms: { category: [ 'travel', 'food' ] },
					current: false,
				},
				{}
			)
		);
		expect( url.searchParams.get( 'post_type' ) ).toBe( 'event,post' );
		expect( url.searchParams.get( 'terms' ) ).toBe(
			'category:food,category:travel'
		);
	} );

	it( 'shows the post from context for "this post", and nothing without one', () => {
		const content = { postTypes: [], terms: {}, current: true };
		const url = new URL(
			postsFeedUrl( base, content, { postId: 42, postType: 'post' } )
		);
		expect( url.searchParams.get( 'post_type' ) ).toBe( 'post' );
		expect( url.searchParams.get( 'include' ) ).toBe( '42' );
		expect( postsFeedUrl( base, content, {} ) ).toBe( '' );
		expect(
			postsFeedUrl(
				base,
				{ postTypes: [], terms: {}, current: false },
				{ postId: 42, postType: 'post' }
			)
		).toBe( '' );
	} );
} );

describe( 'parseContentSelection', () => {
	it.each( [
		[ undefined, { postTypes: [], terms: {}, current: false } ],
		[ 'post', { postTypes: [], terms: {}, current: false } ],
		[
			{ postTypes: [ 'post' ] },
			{ postTypes: [ 'post' ], terms: {}, current: false },
		],
		[
			{
				postTypes: [ 'post', 'post', 'Bad Type', 3 ],
				terms: { category: [ 'travel', '<b>' ], 'bad tax': [ 'x' ] },
				current: 'yes',
			},
			{
				postTypes: [ 'post' ],
				terms: { category: [ 'travel' ] },
				current: false,
			},
		],
		[
			{ postTypes: [], terms: [], current: true },
			{ postTypes: [], terms: {}, current: true },
		],
	] )( 'reads %p as a whole selection', ( input, expected ) => {
		expect( parseContentSelection( input ) ).toEqual( expected );
	} );
} );

describe( 'termStyle', () => {
	it.each( [
		// PHP: crc32( 'category:travel' ) = 4218274551, % 8 = 7; 'category:food': 242330509, % 8 = 5.
		[ 'travel', 4218274551, 7 ],
		[ 'food', 242330509, 5 ],
	] )(
		'picks the colour of category:%s as the server does',
		( slug, checksum, index ) => {
			expect( crc32( `category:${ slug }` ) ).toBe( checksum );
			expect( termStyle( 'category', slug, 'Name' ) ).toEqual( {
				slug: `category:${ slug }`,
				name: 'Name',
				color: LIMITS.content.termPalette[ index ],
				icon: '',
				// A term's shapes take the default line looks (parseMapConfig gives the same).
				lineColor: '',
				lineWidth: LIMITS.groupLine.width,
				fillOpacity: LIMITS.groupLine.fillOpacity,
			} );
		}
	);
} );
