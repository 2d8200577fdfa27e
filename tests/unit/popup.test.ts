/**
 * Marker popups: what a visitor sees in one (title, image, excerpt, the server's content, its
 * links) and what they can do with it (copy its link, close it and find their place again).
 * Marker text is hostile here on purpose: it must stay text, whatever it holds.
 *
 * mapbox-gl's Popup is stood in for by a class that does what the library does with the DOM and
 * focus (stand-in-popup.ts); the e2e specs run the real one.
 */
import { waitFor } from '@testing-library/dom';
import { resetLocaleData, setLocaleData } from '@wordpress/i18n';
import userEvent from '@testing-library/user-event';
import type { Map as MapboxMap } from 'mapbox-gl';

import {
	PopupController,
	buildPopupContent,
	parseImage,
	parseMarkerDetails,
	placeLink,
	type MarkerDetails,
} from '../../packages/map/src/popup';
import type { MapLib } from '../../packages/map/src/types';
import { StandInPopup } from './stand-in-popup';

const HOSTILE =
	'<img src=x onerror="window.pwned=1"><script>window.pwned=2</script>';

const MARKER: MarkerDetails = {
	id: 7,
	title: 'Refuge du Goûter',
	content: '<p>A hut at <strong>3,835 m</strong>.</p>',
	link: 'https://example.test/huts/gouter/',
	lng: 6.8,
	lat: 45.85,
};

/** Every way to turn a string into markup, watched while popups are built. */
const HTML_SINKS: Array< [ object, string ] > = [
	[ Element.prototype, 'innerHTML' ],
	[ Element.prototype, 'outerHTML' ],
];
let sinkWrites: string[] = [];
const restores: Array< () => void > = [];
let insertAdjacent: jest.SpyInstance;

beforeEach( () => {
	sinkWrites = [];
	for ( const [ proto, name ] of HTML_SINKS ) {
		const descriptor = Object.getOwnPropertyDescriptor( proto, name )!;
		Object.defineProperty( proto, name, {
			...descriptor,
			set( value: string ) {
				sinkWrites.push( `${ name }: ${ value }` );
				descriptor.set!.call( this, value );
			},
		} );
		restores.push( () => Object.defineProperty( proto, name, descriptor ) );
	}
	insertAdjacent = jest.spyOn( Element.prototype, 'insertAdjacentHTML' );
} );

afterEach( () => {
	restores.splice( 0 ).forEach( ( restore ) => restore() );
	insertAdjacent.mockRestore();
	delete ( window as { pwned?: unknown } ).pwned;
	document.body.replaceChildren();
} );

/** The element that has focus. */
const focused = () => document.body.ownerDocument.activeElement;

/** The markup sinks were never written to (the test's own set-up aside). */
function expectNoMarkupWritten() {
	expect( sinkWrites ).toEqual( [] );
	expect( insertAdjacent ).not.toHaveBeenCalled();
	expect( ( window as { pwned?: unknown } ).pwned ).toBeUndefined();
}

describe( 'popup content: text and markup', () => {
	it( 'keeps a hostile title and excerpt as text', () => {
		const root = buildPopupContent( document, {
			...MARKER,
			title: HOSTILE,
			excerpt: HOSTILE,
			content: '',
		} );
		document.body.append( root );
		expect(
			root.querySelector( '.cairn-map-popup__title' )!.textContent
		).toBe( HOSTILE );
		expect(
			root.querySelector( '.cairn-map-popup__excerpt' )!.textContent
		).toBe( HOSTILE );
		expect( root.querySelectorAll( 'img, script' ) ).toHaveLength( 0 );
		expect( root.className ).toBe( 'cairn-map-popup' );
		// No content: no empty block for it.
		expect( root.querySelector( '.cairn-map-popup__content' ) ).toBeNull();
		expectNoMarkupWritten();
	} );

	it( "keeps the content's harmless markup and drops the rest, its text kept", () => {
		const root = buildPopupContent( document, {
			...MARKER,
			content: [
				'<p>Safe <strong>text</strong> <em>here</em>.</p>',
				'<script>window.pwned = 3</script>',
				'<img src="x" onerror="window.pwned = 4">',
				'<iframe src="https://evil.test/"></iframe>',
				'<div class="wrapper" onclick="window.pwned = 5"><span style="color:red">Inside</span></div>',
				'<!-- a comment -->',
				'<ul><li>One</li><li>Two</li></ul>',
				'<h3 id="x" onmouseover="window.pwned = 6">Heading</h3>',
				'<a href="javascript:window.pwned = 7">Bad link</a>',
				'<a href="data:text/html,<b>x</b>">Data link</a>',
				'<a href="https://example.test/a" target="_blank" onclick="x()">Good link</a>',
				'<a href="mailto:hut@example.test">Mail</a>',
				'<a href="http://example.test/plain">Plain</a>',
				'<em href="https://example.test/em">Not a link</em>',
				'<a href="/relative/page/">Relative</a>',
			].join( '' ),
		} );
		document.body.append( root );
		const body = root.querySelector( '.cairn-map-popup__content' )!;
		expect(
			[ ...body.querySelectorAll( '*' ) ].map(
				( element ) => element.tagName
			)
		).toEqual( [
			'P',
			'STRONG',
			'EM',
			'UL',
			'LI',
			'LI',
			'H3',
			'A',
			'A',
			'A',
			'A',
			'A',
			'EM',
			'A',
		] );
		// No attribute of the source survives: only the safe links' own.
		expect(
			[ ...body.querySelectorAll( '*' ) ].flatMap( ( element ) =>
				element
					.getAttributeNames()
					.map(
						( name ) =>
							`${ element.tagName } ${ name }=${ element.getAttribute(
								name
							) }`
					)
			)
		).toEqual( [
			'A href=https://example.test/a',
			'A rel=noopener noreferrer',
			'A href=mailto:hut@example.test',
			'A rel=noopener noreferrer',
			'A href=http://example.test/plain',
			'A rel=noopener noreferrer',
			'A href=/relative/page/',
			'A rel=noopener noreferrer',
		] );
		// The text of what was dropped stays (a wrapper's), a script's does not run.
		expect( body.textContent ).toContain( 'Inside' );
		expect( body.textContent ).toContain( 'Bad link' );
		expect( body.querySelector( 'strong' )!.textContent ).toBe( 'text' );
		expectNoMarkupWritten();
	} );

	it( 'keeps line breaks, bold, italics, ordered lists, small headings and quotes; other elements become their text', () => {
		const root = buildPopupContent( document, {
			...MARKER,
			content:
				'<b>B</b><i>I</i><br><ol><li>1</li></ol><h4>4</h4><h5>5</h5><h6>6</h6>' +
				'<blockquote>Q</blockquote><h1>One</h1><h2>Two</h2><table><tr><td>Cell</td></tr></table>' +
				'<svg><a href="https://example.test/"><text>T</text></a></svg><form><button>Go</button></form>',
		} );
		expect(
			root.querySelector( '.cairn-map-popup__content' )!.innerHTML
		).toBe(
			'<b>B</b><i>I</i><br><ol><li>1</li></ol><h4>4</h4><h5>5</h5><h6>6</h6>' +
				'<blockquote>Q</blockquote>OneTwoCellTGo'
		);
		expectNoMarkupWritten();
	} );
} );

describe( 'popup content: a link the browser cannot read', () => {
	it( 'keeps its text and drops the address', () => {
		const root = buildPopupContent( document, {
			...MARKER,
			content:
				'<p><a href="http://[oops/">Broken</a> and <a href="https://example.test/ok">fine</a></p>',
		} );
		const links = [
			...root.querySelectorAll( '.cairn-map-popup__content a' ),
		];
		expect(
			links.map( ( link ) => [
				link.textContent,
				link.getAttribute( 'href' ),
			] )
		).toEqual( [
			[ 'Broken', null ],
			[ 'fine', 'https://example.test/ok' ],
		] );
		expectNoMarkupWritten();
	} );
} );

describe( 'popup content: links and the image', () => {
	it.each( [
		[ 'a marker', {}, 'More about this place' ],
		[ 'a post', { excerpt: 'An old hut.', image: null }, 'Read more' ],
		[ 'a post without an excerpt', { excerpt: '' }, 'Read more' ],
	] )(
		'links to the page of %s',
		( _label, extra: Partial< MarkerDetails >, text ) => {
			const root = buildPopupContent( document, {
				...MARKER,
				...extra,
			} );
			const link = root.querySelector< HTMLAnchorElement >(
				'a.cairn-map-popup__link'
			)!;
			expect( link.textContent ).toBe( text );
			expect( link.getAttribute( 'href' ) ).toBe( MARKER.link );
			// An empty excerpt is no paragraph.
			expect(
				root.querySelectorAll( '.cairn-map-popup__excerpt' )
			).toHaveLength( extra.excerpt ? 1 : 0 );
		}
	);

	it.each( [
		'javascript:alert(1)',
		'JaVaScRiPt:alert(1)',
		'data:text/html,x',
		'',
	] )( 'leaves out a link to %j', ( link ) => {
		const root = buildPopupContent( document, { ...MARKER, link } );
		expect( root.querySelector( '.cairn-map-popup__link' ) ).toBeNull();
		// The rest of the popup is there.
		expect(
			root.querySelector( '.cairn-map-popup__title' )!.textContent
		).toBe( MARKER.title );
		expect( root.querySelector( '.cairn-map-popup__copy' ) ).not.toBeNull();
	} );

	it( 'puts the image after the title, sized, lazy, responsive only with a srcset', () => {
		const image = {
			src: 'https://example.test/hut.jpg',
			srcset: '',
			alt: HOSTILE,
			width: 0,
			height: 200,
		};
		const root = buildPopupContent( document, {
			...MARKER,
			excerpt: 'An old hut.',
			image,
		} );
		expect(
			[ ...root.children ].map( ( child ) => child.className )
		).toEqual( [
			'cairn-map-popup__title',
			'cairn-map-popup__image',
			'cairn-map-popup__excerpt',
			'cairn-map-popup__content',
			'cairn-map-popup__link',
			'cairn-map-popup__share',
		] );
		const img = root.querySelector( 'img' )!;
		expect( img.getAttribute( 'src' ) ).toBe( image.src );
		expect( img.getAttribute( 'alt' ) ).toBe( HOSTILE );
		expect( img.hasAttribute( 'srcset' ) ).toBe( false );
		expect( img.hasAttribute( 'sizes' ) ).toBe( false );
		// One size unknown: no size reserved (a wrong ratio would stretch it).
		expect( img.hasAttribute( 'width' ) ).toBe( false );
		expect( img.hasAttribute( 'height' ) ).toBe( false );
		expect( img.getAttribute( 'loading' ) ).toBe( 'lazy' );
		expect( img.getAttribute( 'decoding' ) ).toBe( 'async' );
		// Within the popup's width, its proportions kept.
		expect( img.style.maxWidth ).toBe( '100%' );
		expect( img.style.height ).toBe( 'auto' );
		expect( img.style.display ).toBe( 'block' );

		const sized = buildPopupContent( document, {
			...MARKER,
			image: {
				...image,
				srcset: 'https://example.test/hut-300.jpg 300w',
				width: 300,
				height: 200,
			},
		} ).querySelector( 'img' )!;
		expect( sized.getAttribute( 'srcset' ) ).toBe(
			'https://example.test/hut-300.jpg 300w'
		);
		expect( sized.getAttribute( 'sizes' ) ).toBe(
			'(max-width: 360px) 100vw, 320px'
		);
		expect( sized.getAttribute( 'width' ) ).toBe( '300' );
		expect( sized.getAttribute( 'height' ) ).toBe( '200' );
		// The other size unknown: none reserved either.
		const flat = buildPopupContent( document, {
			...MARKER,
			image: { ...image, width: 300, height: 0 },
		} ).querySelector( 'img' )!;
		expect( flat.hasAttribute( 'width' ) ).toBe( false );
		expect( flat.hasAttribute( 'height' ) ).toBe( false );
	} );
} );

describe( 'copy link', () => {
	const clipboard = navigator as unknown as { clipboard?: unknown };
	afterEach( () => {
		delete clipboard.clipboard;
	} );

	function popupInPage() {
		const root = buildPopupContent( document, MARKER );
		document.body.append( root );
		return {
			button: root.querySelector< HTMLButtonElement >(
				'.cairn-map-popup__copy'
			)!,
			status: root.querySelector( '.cairn-map-popup__copied' )!,
		};
	}

	it( "copies this page's address that opens the place, and says so", async () => {
		// user-event puts a clipboard of its own on the page: the test's goes after it.
		const user = userEvent.setup();
		const writeText = jest.fn( async () => undefined );
		Object.defineProperty( navigator, 'clipboard', {
			value: { writeText },
			configurable: true,
		} );
		const { button, status } = popupInPage();
		expect( button.textContent ).toBe( 'Copy link' );
		// Not a submit button, whatever form the map sits in.
		expect( button.type ).toBe( 'button' );
		expect( button.parentElement!.textContent ).toBe( 'Copy link ' );
		expect( status.getAttribute( 'role' ) ).toBe( 'status' );
		expect( status.textContent ).toBe( '' );
		await user.click( button );
		expect( writeText ).toHaveBeenCalledWith(
			placeLink( window.location.href, MARKER.id )
		);
		await waitFor( () =>
			expect( status.textContent ).toBe( 'Link copied.' )
		);
	} );

	it.each( [
		[
			'refuses',
			() => ( {
				writeText: jest.fn( async () => {
					throw new DOMException( 'Denied', 'NotAllowedError' );
				} ),
			} ),
		],
		[ 'is missing', () => undefined ],
		[ 'cannot write text', () => ( {} ) ],
	] )(
		'shows the link, selected, where the clipboard %s',
		async ( _label, make ) => {
			const user = userEvent.setup();
			Object.defineProperty( navigator, 'clipboard', {
				value: make(),
				configurable: true,
			} );
			const { button, status } = popupInPage();
			await user.click( button );
			const field = await waitFor( () => {
				const found = status.querySelector( 'input' );
				expect( found ).not.toBeNull();
				return found!;
			} );
			expect( field.value ).toBe(
				placeLink( window.location.href, MARKER.id )
			);
			expect( field.readOnly ).toBe( true );
			expect( field.getAttribute( 'aria-label' ) ).toBe(
				'Link to this place'
			);
			expect( focused() ).toBe( field );
			expect( [ field.selectionStart, field.selectionEnd ] ).toEqual( [
				0,
				field.value.length,
			] );
			expect( field.className ).toBe( 'cairn-map-popup__link-field' );
			expect( status.textContent ).not.toContain( 'Link copied.' );
		}
	);
} );

describe( 'popup text', () => {
	it( "speaks the site's language", async () => {
		setLocaleData(
			{
				'': { domain: 'cairn-maps' },
				'Copy link': [ 'Copier le lien' ],
				'Read more': [ 'Lire la suite' ],
				'More about this place': [ 'En savoir plus sur ce lieu' ],
				'Link to this place': [ 'Lien vers ce lieu' ],
				'Link copied.': [ 'Lien copié.' ],
				'The details of this place could not be loaded.': [
					'Les détails de ce lieu n’ont pas pu être chargés.',
				],
			},
			'cairn-maps'
		);
		try {
			const user = userEvent.setup();
			Object.defineProperty( navigator, 'clipboard', {
				value: undefined,
				configurable: true,
			} );
			const marker = buildPopupContent( document, MARKER );
			const post = buildPopupContent( document, {
				...MARKER,
				excerpt: 'x',
			} );
			document.body.append( marker );
			expect(
				marker.querySelector( '.cairn-map-popup__link' )!.textContent
			).toBe( 'En savoir plus sur ce lieu' );
			expect(
				post.querySelector( '.cairn-map-popup__link' )!.textContent
			).toBe( 'Lire la suite' );
			const button = marker.querySelector< HTMLButtonElement >(
				'.cairn-map-popup__copy'
			)!;
			expect( button.textContent ).toBe( 'Copier le lien' );
			await user.click( button );
			expect(
				marker
					.querySelector( '.cairn-map-popup__link-field' )!
					.getAttribute( 'aria-label' )
			).toBe( 'Lien vers ce lieu' );
			// Copied, where the clipboard takes it.
			Object.defineProperty( navigator, 'clipboard', {
				value: { writeText: async () => undefined },
				configurable: true,
			} );
			await user.click(
				post.ownerDocument.body
					.appendChild( post )
					.querySelector( '.cairn-map-popup__copy' )!
			);
			await waitFor( () =>
				expect(
					post.querySelector( '.cairn-map-popup__copied' )!
						.textContent
				).toBe( 'Lien copié.' )
			);
			// A popup whose details could not be read.
			const { popups, pending, shown } = setUp();
			const opened = popups.open( 7, { lng: 1, lat: 2 } );
			pending[ 0 ]!.answer( { ok: false } );
			await opened;
			expect( shown()[ 0 ]!.textContent ).toContain(
				'Les détails de ce lieu n’ont pas pu être chargés.'
			);
		} finally {
			resetLocaleData( undefined, 'cairn-maps' );
			delete ( navigator as unknown as { clipboard?: unknown } )
				.clipboard;
		}
	} );
} );

describe( 'placeLink', () => {
	it.each( [
		[
			'https://example.test/map/',
			'https://example.test/map/?cairn-place=7',
		],
		[
			'https://example.test/map/?cairn-place=3&lang=fr#top',
			'https://example.test/map/?cairn-place=7&lang=fr#top',
		],
		[
			'https://example.test/?p=2&cairn-place=x',
			'https://example.test/?p=2&cairn-place=7',
		],
	] )( '%s → %s', ( href, expected ) => {
		expect( placeLink( href, 7 ) ).toBe( expected );
	} );
} );

describe( 'parsing the details the server sends', () => {
	const VALID_IMAGE = {
		src: 'https://example.test/a.jpg',
		srcset: 'https://example.test/a-150.jpg 150w, https://example.test/a.jpg 2x',
		alt: 'A hut',
		width: 640,
		height: 480,
	};

	it.each( [
		[ 'null', null ],
		[ 'a string', 'https://example.test/a.jpg' ],
		[ 'a relative source', { ...VALID_IMAGE, src: '/a.jpg' } ],
		[
			'a relative source holding an address',
			{ ...VALID_IMAGE, src: 'a.jpg?from=https://example.test/' },
		],
		[
			'a source that is not text',
			{ ...VALID_IMAGE, src: [ 'https://example.test/a.jpg' ] },
		],
		[ 'a script source', { ...VALID_IMAGE, src: 'javascript:alert(1)' } ],
		[
			'a data source',
			{ ...VALID_IMAGE, src: 'data:image/png;base64,AA' },
		],
		[ 'no source', { ...VALID_IMAGE, src: undefined } ],
	] )( 'refuses an image with %s', ( _label, value ) => {
		expect( parseImage( value ) ).toBeNull();
	} );

	it( 'keeps a valid image as it is', () => {
		expect( parseImage( VALID_IMAGE ) ).toEqual( VALID_IMAGE );
		// http too, and each way of writing a srcset candidate.
		const plain = {
			...VALID_IMAGE,
			src: 'http://example.test/a.jpg',
			srcset: 'http://example.test/a.jpg,https://example.test/b.jpg  1.25x , https://example.test/c.jpg 300W ',
		};
		expect( parseImage( plain ) ).toEqual( plain );
	} );

	it.each( [
		[
			'a script candidate',
			'https://example.test/a.jpg 1x, javascript:alert(1) 2x',
		],
		[ 'a relative candidate', '/a-150.jpg 150w' ],
		[
			'a script before an address',
			'javascript:https://example.test/a.jpg 1x',
		],
		[ 'a bad descriptor', 'https://example.test/a.jpg 150q' ],
		[ 'not a string', 42 ],
	] )( 'drops a srcset with %s, keeping the image', ( _label, srcset ) => {
		expect( parseImage( { ...VALID_IMAGE, srcset } ) ).toEqual( {
			...VALID_IMAGE,
			srcset: '',
		} );
	} );

	it.each( [ 0, -5, 1.5, 100000, '640', null ] )(
		'gives an image of size %j no size, and a non-text alt no alt',
		( size ) => {
			expect(
				parseImage( {
					...VALID_IMAGE,
					width: size,
					height: size,
					alt: 12,
				} )
			).toEqual( { ...VALID_IMAGE, width: 0, height: 0, alt: '' } );
		}
	);

	it.each( [
		[ 'null', null ],
		[ 'a list', [ 1, 2 ] ],
		[ 'an id as text', { ...MARKER, id: '7' } ],
		[ 'no longitude', { ...MARKER, lng: undefined } ],
		[ 'a latitude as text', { ...MARKER, lat: '45.8' } ],
	] )( 'refuses details with %s', ( _label, body ) => {
		expect( parseMarkerDetails( body ) ).toBeNull();
	} );

	it( "reads a marker's details, other fields of the wrong type as empty", () => {
		expect(
			parseMarkerDetails( {
				...MARKER,
				title: 5,
				content: { html: 'x' },
				link: null,
				extra: 'ignored',
			} )
		).toEqual( {
			id: MARKER.id,
			title: '',
			content: '',
			link: '',
			lng: MARKER.lng,
			lat: MARKER.lat,
		} );
	} );

	it.each( [
		[ 'an excerpt', { excerpt: 'Old.' }, { excerpt: 'Old.', image: null } ],
		[
			'an image',
			{ image: VALID_IMAGE },
			{ excerpt: '', image: VALID_IMAGE },
		],
		[ 'an image of null', { image: null }, { excerpt: '', image: null } ],
	] )( "reads a post's details with %s", ( _label, extra, expected ) => {
		expect( parseMarkerDetails( { ...MARKER, ...extra } ) ).toEqual( {
			...MARKER,
			...expected,
		} );
	} );

	it( "carries a route's profile as the answer gives it, for the shapes chunk to read", () => {
		const profile = [
			[ 0, 1200 ],
			[ 12400, 1250 ],
		];
		expect( parseMarkerDetails( { ...MARKER, profile } ) ).toEqual( {
			...MARKER,
			profile,
		} );
		expect( parseMarkerDetails( MARKER ) ).not.toHaveProperty( 'profile' );
	} );
} );

/**
 * Resolves once the tasks queued before it have run (the popup gives focus back in a task of its
 * own, after mapbox-gl removed its elements): an order, not a wait for time to pass.
 */
const queuedTasksRun = () =>
	new Promise< void >( ( done ) => window.setTimeout( done, 0 ) );

const realFetch = window.fetch;
afterEach( () => {
	window.fetch = realFetch;
} );

// --- PopupController -------------------------------------------------------------------------

class StandInMap {
	readonly container = document.createElement( 'div' );
	readonly canvasContainer = document.createElement( 'div' );
	readonly canvas = document.createElement( 'canvas' );
	constructor() {
		this.canvas.tabIndex = 0;
		this.canvasContainer.append( this.canvas );
		this.container.append( this.canvasContainer );
		document.body.append( this.container );
	}
	getContainer() {
		return this.container;
	}
	getCanvasContainer() {
		return this.canvasContainer;
	}
}

interface Answer {
	ok: boolean;
	body?: unknown;
	/** Rejects: the request failed or timed out. */
	fail?: boolean;
}

/** The popup route, answering each request when the test says so. */
function route() {
	const pending: Array< {
		url: string;
		init: RequestInit;
		answer: ( answer: Answer ) => void;
	} > = [];
	window.fetch = jest.fn(
		( url: string, init: RequestInit ) =>
			new Promise( ( resolve, reject ) => {
				pending.push( {
					url,
					init,
					answer: ( answer ) => {
						if ( answer.fail ) {
							reject(
								new DOMException( 'Timeout', 'TimeoutError' )
							);
						} else {
							resolve( {
								ok: answer.ok,
								status: answer.ok ? 200 : 404,
								json: async () => answer.body,
							} );
						}
					},
				} );
			} )
	) as unknown as typeof window.fetch;
	return pending;
}

function setUp() {
	StandInPopup.made = [];
	const map = new StandInMap();
	const lib = { Popup: StandInPopup } as unknown as MapLib;
	const popups = new PopupController(
		lib,
		map as unknown as MapboxMap,
		'https://example.test/wp-json/cairn/v1/markers/'
	);
	const pending = route();
	/** The list entry that opened the popup. */
	const entry = document.createElement( 'button' );
	entry.textContent = 'Show Refuge du Goûter on the map';
	document.body.append( entry );
	const shown = () => [
		...map.container.querySelectorAll( '.mapboxgl-popup' ),
	];
	return { map, popups, pending, entry, shown };
}

describe( 'the popup of a place: opening it', () => {
	it( 'reads the details of the place and opens at it, its first control focused', async () => {
		const { popups, pending, shown, entry } = setUp();
		entry.focus();
		const opened = popups.open( MARKER.id, { lng: 1, lat: 2 } );
		expect( pending ).toHaveLength( 1 );
		expect( pending[ 0 ]!.url ).toBe(
			'https://example.test/wp-json/cairn/v1/markers/7'
		);
		expect( pending[ 0 ]!.init ).toMatchObject( {
			credentials: 'same-origin',
			headers: { Accept: 'application/json' },
		} );
		// A request that hangs is cut short.
		expect( pending[ 0 ]!.init.signal ).toBeInstanceOf( AbortSignal );
		expect( shown() ).toHaveLength( 0 );
		await pending[ 0 ]!.answer( { ok: true, body: MARKER } );
		await opened;
		expect( shown() ).toHaveLength( 1 );
		const [ popup ] = StandInPopup.made;
		expect( popup!.lngLat ).toEqual( [ MARKER.lng, MARKER.lat ] );
		expect( popup!.options ).toMatchObject( {
			maxWidth: '320px',
			focusAfterOpen: true,
		} );
		expect(
			shown()[ 0 ]!.querySelector( '.cairn-map-popup__title' )!
				.textContent
		).toBe( MARKER.title );
		expect( focused() ).toBe(
			shown()[ 0 ]!.querySelector( '.cairn-map-popup__link' )
		);
	} );

	it.each< [ string, Answer ] >( [
		[ 'the route answers an error', { ok: false, body: { code: 'x' } } ],
		[ 'the request fails or times out', { ok: true, fail: true } ],
		[ 'the answer is not details', { ok: true, body: { id: 'seven' } } ],
	] )(
		'says the details could not be loaded, where it was asked, when %s',
		async ( _label, answer ) => {
			const { popups, pending, shown } = setUp();
			const opened = popups.open( 7, { lng: 1, lat: 2 } );
			await pending[ 0 ]!.answer( answer );
			await opened;
			expect( shown() ).toHaveLength( 1 );
			expect( shown()[ 0 ]!.textContent ).toContain(
				'The details of this place could not be loaded.'
			);
			expect( StandInPopup.made[ 0 ]!.lngLat ).toEqual( [ 1, 2 ] );
		}
	);

	it( 'keeps a route’s facts below “could not be loaded” when its details fail', async () => {
		const { popups, pending, shown } = setUp();
		const facts = document.createElement( 'dl' );
		facts.textContent = 'Length12.4 km';
		const opened = popups.open(
			101,
			{ lng: 1, lat: 2 },
			{ extra: () => facts }
		);
		await pending[ 0 ]!.answer( { ok: false } );
		await opened;
		const [ popup ] = shown();
		expect( popup!.querySelector( 'p' )?.textContent ).toBe(
			'The details of this place could not be loaded.'
		);
		expect( popup!.querySelector( 'dl' ) ).toBe( facts );
		// The message first, then the facts, in one block.
		const message = popup!.querySelector( 'p' )!;
		expect( facts.parentElement ).toBe( message.parentElement );
		expect( [ ...message.parentElement!.children ] ).toEqual( [
			message,
			facts,
		] );
	} );

	it( 'gives what follows the details those details (a route’s profile from the answer)', async () => {
		const { popups, pending, shown } = setUp();
		const given: unknown[] = [];
		const opened = popups.open(
			101,
			{ lng: 1, lat: 2 },
			{
				extra: ( doc, details ) => {
					given.push( details?.profile );
					return doc.createElement( 'figure' );
				},
			}
		);
		await pending[ 0 ]!.answer( {
			ok: true,
			body: { ...MARKER, id: 101, profile: [ [ 0, 1 ] ] },
		} );
		await opened;
		expect( given ).toEqual( [ [ [ 0, 1 ] ] ] );
		expect( shown()[ 0 ]!.querySelector( 'figure' ) ).not.toBeNull();
	} );

	it( 'opens nothing when the details fail and it was given no place to open at', async () => {
		const { popups, pending, shown } = setUp();
		const opened = popups.open( 7 );
		await pending[ 0 ]!.answer( { ok: false } );
		await opened;
		expect( shown() ).toHaveLength( 0 );
		expect( StandInPopup.made ).toHaveLength( 0 );
	} );

	it( 'shows only the place asked for last, whichever answer comes first', async () => {
		const { popups, pending, shown } = setUp();
		const first = popups.open( 7 );
		const second = popups.open( 8 );
		await pending[ 1 ]!.answer( {
			ok: true,
			body: { ...MARKER, id: 8, title: 'Second' },
		} );
		await pending[ 0 ]!.answer( { ok: true, body: MARKER } );
		await Promise.all( [ first, second ] );
		expect( shown() ).toHaveLength( 1 );
		expect( shown()[ 0 ]!.textContent ).toContain( 'Second' );
		expect( StandInPopup.made ).toHaveLength( 1 );
	} );

	it( 'replaces the open popup with the next one, focus going to the new one', async () => {
		const { popups, pending, shown, entry } = setUp();
		const first = popups.open( 7, undefined, { returnFocus: () => entry } );
		await pending[ 0 ]!.answer( { ok: true, body: MARKER } );
		await first;
		const second = popups.open( 8 );
		await pending[ 1 ]!.answer( {
			ok: true,
			body: { ...MARKER, id: 8, title: 'Second', link: '' },
		} );
		await second;
		expect( shown() ).toHaveLength( 1 );
		expect( shown()[ 0 ]!.textContent ).toContain( 'Second' );
		// The first popup's close did not send focus back to its entry.
		expect( focused() ).toBe(
			shown()[ 0 ]!.querySelector( '.cairn-map-popup__copy' )
		);
		await queuedTasksRun();
		expect( focused() ).not.toBe( entry );
	} );
} );

describe( 'the popup of a place: closing it', () => {
	it( 'closes on Escape and gives focus back to the entry that opened it; the page does not see that Escape', async () => {
		const { popups, pending, shown, entry, map } = setUp();
		const escapes = jest.fn();
		map.container.addEventListener( 'keydown', escapes );
		const opened = popups.open( 7, undefined, {
			returnFocus: () => entry,
		} );
		await pending[ 0 ]!.answer( { ok: true, body: MARKER } );
		await opened;
		const user = userEvent.setup();
		// Another key does nothing.
		await user.keyboard( 'a' );
		expect( shown() ).toHaveLength( 1 );
		expect( escapes ).toHaveBeenCalledTimes( 1 );
		await user.keyboard( '{Escape}' );
		expect( shown() ).toHaveLength( 0 );
		expect( escapes ).toHaveBeenCalledTimes( 1 );
		await waitFor( () => expect( focused() ).toBe( entry ) );
	} );

	it( "gives focus to the map's canvas when no entry opened it", async () => {
		const { popups, pending, map } = setUp();
		const opened = popups.open( 7 );
		await pending[ 0 ]!.answer( { ok: true, body: MARKER } );
		await opened;
		await userEvent
			.setup()
			.click(
				map.container.querySelector( '.mapboxgl-popup-close-button' )!
			);
		await waitFor( () => expect( focused() ).toBe( map.canvas ) );
	} );

	it( 'leaves focus where the visitor took it when the popup closes', async () => {
		const { popups, pending, entry, shown } = setUp();
		const field = document.createElement( 'input' );
		document.body.append( field );
		const opened = popups.open( 7, undefined, {
			returnFocus: () => entry,
		} );
		await pending[ 0 ]!.answer( { ok: true, body: MARKER } );
		await opened;
		field.focus();
		popups.close();
		expect( shown() ).toHaveLength( 0 );
		await queuedTasksRun();
		expect( focused() ).toBe( field );
	} );

	it( 'close() also drops a popup still on its way', async () => {
		const { popups, pending, shown } = setUp();
		const opened = popups.open( 7, { lng: 1, lat: 2 } );
		popups.close();
		// And it can open again; the popup closed before stays closed.
		const again = popups.open( 8 );
		await pending[ 0 ]!.answer( { ok: true, body: MARKER } );
		await opened;
		expect( shown() ).toHaveLength( 0 );
		await pending[ 1 ]!.answer( {
			ok: true,
			body: { ...MARKER, id: 8, title: 'Again' },
		} );
		await again;
		expect( shown() ).toHaveLength( 1 );
		expect( shown()[ 0 ]!.textContent ).toContain( 'Again' );
	} );

	it( 'keeps hostile details as text in the page', async () => {
		const { popups, pending, shown } = setUp();
		const opened = popups.open( 7 );
		await pending[ 0 ]!.answer( {
			ok: true,
			body: {
				...MARKER,
				title: HOSTILE,
				excerpt: HOSTILE,
				content: HOSTILE,
				image: { src: 'javascript:alert(1)' },
			},
		} );
		await opened;
		const [ popup ] = shown();
		expect(
			popup!.querySelector( '.cairn-map-popup__title' )!.textContent
		).toBe( HOSTILE );
		expect( popup!.querySelectorAll( 'img, script' ) ).toHaveLength( 0 );
		expectNoMarkupWritten();
	} );
} );
