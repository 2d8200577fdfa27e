/**
 * Maps of posts (issue 24): posts with a public place on a map block, beside or instead of
 * markers. Seeded over REST (posts with `meta.geo_*`, categories, a featured image), then seen as
 * a visitor: exactly the public posts are drawn, listed (with and without JavaScript) and served
 * by the posts feed; a post's popup shows its image, excerpt and a link; a draft, a post whose
 * place is not public and a password-protected post appear nowhere. A map narrowed to a category
 * shows only its posts, and a single-post template's map shows the post being viewed.
 *
 * Contract: DESIGN.md "Places from content" (attribute `content`, `markers.source: 'none'`,
 * config `postsUrl`, popup `excerpt` + `image`).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Page } from '@playwright/test';

import { VISITOR_STATE } from './global-setup';
import { expect, test } from './fixtures/maps-service';
import {
	FAKE_PUBLIC_TOKEN,
	dismissWelcomeGuide,
	mapBlock,
	setToken,
} from './utils/map-page';
import {
	guardVisitorPages,
	publishFrontPage,
	solidPng,
	uploadImage,
	waitForIdle,
} from './utils/front-map';
import { drawnMarkers, idsInHtml, listedIds } from './utils/places';

/** Every place in view at the maps' first view; no clusters, so each post is its own point. */
const VIEW = {
	center: { lng: 5.3, lat: 46.2 },
	zoom: 5.5,
	cluster: { enabled: false, radius: 80 },
};

interface SeedPost {
	title: string;
	lng: number;
	lat: number;
	status?: string;
	password?: string;
	public?: boolean;
	category?: 'travel' | 'food';
	excerpt?: string;
	image?: boolean;
}

type Key = 'lyon' | 'geneva' | 'dijon' | 'draft' | 'hidden' | 'locked';

const POSTS: Record< Key, SeedPost > = {
	lyon: {
		title: 'Posts spec: a morning in Lyon',
		lng: 4.83,
		lat: 45.76,
		category: 'travel',
		excerpt: 'Along the Rhône at dawn, before the markets open.',
		image: true,
	},
	geneva: {
		title: 'Posts spec: Geneva by the lake',
		lng: 6.14,
		lat: 46.2,
		category: 'travel',
	},
	dijon: {
		title: 'Posts spec: mustard in Dijon',
		lng: 5.04,
		lat: 47.32,
		category: 'food',
	},
	draft: {
		title: 'Posts spec: a draft with a place',
		lng: 4.5,
		lat: 46.6,
		status: 'draft',
		category: 'travel',
	},
	hidden: {
		title: 'Posts spec: a place that is not public',
		lng: 5.6,
		lat: 46.9,
		public: false,
		category: 'travel',
	},
	locked: {
		title: 'Posts spec: behind a password',
		lng: 6.4,
		lat: 45.5,
		password: 'secret',
		category: 'travel',
	},
};
const PUBLIC: Key[] = [ 'lyon', 'geneva', 'dijon' ];
const NOT_SHOWN: Key[] = [ 'draft', 'hidden', 'locked' ];

const ids = {} as Record< Key, number >;
const links = {} as Record< Key, string >;
const urls = { all: '', travel: '', post: '' };
const categories = { travel: 0, food: 0 };
const SLUGS = { travel: 'posts-spec-travel', food: 'posts-spec-food' };
let imageId = 0;
let templateId = '';

/** The map's posts feed address (`config.postsUrl`), as the page carries it. */
async function postsUrl( page: Page ): Promise< string > {
	const config = await page
		.locator( '.wp-block-cairn-map' )
		.first()
		.getAttribute( 'data-cairn-config' );
	return String(
		( JSON.parse( config ?? '{}' ) as { postsUrl?: string } ).postsUrl
	);
}

async function openMap( page: Page, url: string ) {
	await page.goto( url );
	await waitForIdle( page );
}

test.describe( 'maps of posts', () => {
	test.use( { storageState: VISITOR_STATE } );
	guardVisitorPages();

	test.beforeAll( async ( { requestUtils }, testInfo ) => {
		// "Exactly the public posts": no post left by another spec on the shared site may have a
		// place (post-location.spec publishes some).
		await requestUtils.deleteAllPosts();
		await setToken( requestUtils, FAKE_PUBLIC_TOKEN );
		for ( const key of [ 'travel', 'food' ] as const ) {
			const found = ( await requestUtils.rest( {
				path: '/wp/v2/categories',
				params: { slug: SLUGS[ key ] },
			} ) ) as Array< { id: number } >;
			categories[ key ] =
				found[ 0 ]?.id ??
				(
					( await requestUtils.rest( {
						method: 'POST',
						path: '/wp/v2/categories',
						data: {
							name: `Posts spec ${ key }`,
							slug: SLUGS[ key ],
						},
					} ) ) as { id: number }
				 ).id;
		}
		const file = path.join( testInfo.outputDir, 'posts-spec-lyon.png' );
		await fs.mkdir( testInfo.outputDir, { recursive: true } );
		await fs.writeFile( file, solidPng( 400, '#2a7ab0' ) );
		imageId = await uploadImage( requestUtils, file );
		await requestUtils.rest( {
			method: 'POST',
			path: `/wp/v2/media/${ imageId }`,
			data: { alt_text: 'The river at dawn' },
		} );

		for ( const key of Object.keys( POSTS ) as Key[] ) {
			const post = POSTS[ key ]!;
			const created = ( await requestUtils.rest( {
				method: 'POST',
				path: '/wp/v2/posts',
				data: {
					title: post.title,
					content: `<!-- wp:paragraph --><p>${ post.title }.</p><!-- /wp:paragraph -->`,
					excerpt: post.excerpt ?? '',
					status: post.status ?? 'publish',
					password: post.password ?? '',
					categories: post.category
						? [ categories[ post.category ] ]
						: [],
					featured_media: post.image ? imageId : 0,
					meta: {
						geo_latitude: post.lat,
						geo_longitude: post.lng,
						geo_public: post.public ?? true,
					},
				},
			} ) ) as { id: number; link: string };
			ids[ key ] = created.id;
			links[ key ] = created.link;
		}

		urls.all = await publishFrontPage(
			requestUtils,
			'Posts spec: all posts',
			mapBlock( {
				...VIEW,
				markers: { source: 'none', groups: [], ids: [] },
				content: { postTypes: [ 'post' ], terms: {}, current: false },
			} )
		);
		urls.travel = await publishFrontPage(
			requestUtils,
			'Posts spec: travel only',
			mapBlock( {
				...VIEW,
				markers: { source: 'none', groups: [], ids: [] },
				content: {
					postTypes: [ 'post' ],
					terms: { category: [ SLUGS.travel ] },
					current: false,
				},
			} )
		);

		// The single-post template of the block theme gains a map of "this post".
		const template = ( await requestUtils.rest( {
			method: 'POST',
			path: '/wp/v2/templates',
			data: {
				slug: 'single',
				title: 'Single with a map',
				content:
					'<!-- wp:post-title /-->' +
					mapBlock( {
						...VIEW,
						markers: { source: 'none', groups: [], ids: [] },
						content: { postTypes: [], terms: {}, current: true },
					} ) +
					'<!-- wp:post-content /-->',
			},
		} ) ) as { id: string };
		templateId = template.id;
		urls.post = links.geneva;
	} );

	test.afterAll( async ( { requestUtils } ) => {
		if ( templateId ) {
			await requestUtils.rest( {
				method: 'DELETE',
				path: `/wp/v2/templates/${ templateId }`,
				params: { force: true },
			} );
		}
		await requestUtils.batchRest(
			Object.values( ids ).map( ( id ) => ( {
				method: 'DELETE',
				path: `/wp/v2/posts/${ id }?force=true`,
			} ) )
		);
	} );

	test( 'a visitor sees exactly the public posts: drawn, listed, in the feed and without JavaScript', async ( {
		page,
		request,
	} ) => {
		const publicIds = PUBLIC.map( ( key ) => ids[ key ] ).sort();
		const hiddenIds = NOT_SHOWN.map( ( key ) => ids[ key ] );

		// Without JavaScript: the server's list names the public posts, each a link to its page.
		const html = await ( await request.get( urls.all ) ).text();
		expect( idsInHtml( html ).sort() ).toEqual( publicIds );
		for ( const key of NOT_SHOWN ) {
			expect( html ).not.toContain( POSTS[ key ]!.title );
		}

		await openMap( page, urls.all );
		const drawn = await drawnMarkers( page );
		expect( drawn.points.sort() ).toEqual( publicIds );
		expect( drawn.total ).toBe( PUBLIC.length );
		expect( ( await listedIds( page ) ).sort() ).toEqual( publicIds );

		// The map loads no markers, and its posts feed holds only the public posts.
		const config = JSON.parse(
			( await page
				.locator( '.wp-block-cairn-map' )
				.first()
				.getAttribute( 'data-cairn-config' ) ) ?? '{}'
		) as { markersUrl: string; postsUrl: string; markerUrl: string };
		expect( config.markersUrl ).toBe( '' );
		const feed = ( await (
			await request.get( config.postsUrl )
		).json() ) as {
			features: Array< {
				id: number;
				properties: { type?: string; groups: string[] };
			} >;
		};
		expect( feed.features.map( ( f ) => f.id ).sort() ).toEqual(
			publicIds
		);
		for ( const id of hiddenIds ) {
			expect( feed.features.map( ( f ) => f.id ) ).not.toContain( id );
			// Nor does the popup route answer for them.
			expect(
				( await request.get( `${ config.markerUrl }${ id }` ) ).status()
			).toBe( 404 );
		}
		expect(
			feed.features.find( ( f ) => f.id === ids.lyon )?.properties.groups
		).toContain( `category:${ SLUGS.travel }` );

		// The legend names the categories of the map's posts.
		await expect(
			page.locator(
				`button[data-cairn-group="category:${ SLUGS.travel }"]`
			)
		).toBeVisible();
	} );

	test( "a post's popup shows its featured image, its excerpt and a link to it", async ( {
		page,
	} ) => {
		await openMap( page, urls.all );
		await page
			.locator( `li[data-cairn-marker-id="${ ids.lyon }"] button` )
			.first()
			.click();
		const popup = page.locator( '.cairn-map-popup' );
		await expect( popup.locator( 'h2' ) ).toHaveText( POSTS.lyon!.title );
		const image = popup.locator( 'img' );
		await expect( image ).toHaveAttribute( 'alt', 'The river at dawn' );
		await expect( image ).toHaveAttribute( 'loading', 'lazy' );
		await expect( image ).toHaveAttribute( 'srcset', /\d+w/ );
		await expect( image ).toHaveAttribute( 'width', /^\d+$/ );
		await expect( image ).toHaveAttribute( 'height', /^\d+$/ );
		await expect( popup.locator( '.cairn-map-popup__excerpt' ) ).toHaveText(
			POSTS.lyon!.excerpt!
		);
		const link = popup.getByRole( 'link', { name: 'Read more' } );
		await expect( link ).toHaveAttribute( 'href', links.lyon );
	} );

	test( 'a map narrowed to a category shows only its posts', async ( {
		page,
		request,
	} ) => {
		const travel = [ ids.lyon, ids.geneva ].sort();
		const html = await ( await request.get( urls.travel ) ).text();
		expect( idsInHtml( html ).sort() ).toEqual( travel );
		await openMap( page, urls.travel );
		expect( ( await drawnMarkers( page ) ).points.sort() ).toEqual(
			travel
		);
		expect( await postsUrl( page ) ).toContain(
			`terms=category%3A${ SLUGS.travel }`
		);
	} );

	test( "the single-post template's map shows the place of the post being viewed", async ( {
		page,
	} ) => {
		await openMap( page, urls.post );
		expect( await postsUrl( page ) ).toContain( `include=${ ids.geneva }` );
		const drawn = await drawnMarkers( page );
		expect( drawn.points ).toEqual( [ ids.geneva ] );
		expect( await listedIds( page ) ).toEqual( [ ids.geneva ] );

		// A post whose place is not public shows none on its page, with or without JavaScript.
		await page.goto( links.hidden );
		await expect( page.locator( '.wp-block-cairn-map' ) ).toHaveCount( 1 );
		expect( await postsUrl( page ) ).toBe( '' );
		expect( await listedIds( page ) ).toEqual( [] );
	} );

	test.describe( 'in the editor', () => {
		// The editor is an administrator's (the storage state of the run).
		test.use( { storageState: process.env.STORAGE_STATE_PATH } );

		test( 'an editor chooses posts and terms in "Posts on the map", and the preview lists those posts', async ( {
			admin,
			editor,
			page,
		} ) => {
			await admin.createNewPost( {
				postType: 'page',
				title: 'Posts spec: editor',
			} );
			await dismissWelcomeGuide( page );
			await editor.insertBlock( {
				name: 'cairn/map',
				attributes: { ...VIEW },
			} );
			const preview = editor.canvas.locator(
				'.wp-block-cairn-map__preview'
			);
			await expect( preview ).toHaveAttribute(
				'data-cairn-state',
				'ready',
				{ timeout: 60_000 }
			);
			const settings = page.getByRole( 'region', {
				name: 'Editor settings',
			} );
			const open = async ( title: string ) => {
				const button = settings.getByRole( 'button', {
					name: title,
					exact: true,
				} );
				if (
					( await button.getAttribute( 'aria-expanded' ) ) === 'false'
				) {
					await button.click();
				}
			};
			await open( 'Markers' );
			await settings
				.getByRole( 'radio', { name: 'None (posts only)' } )
				.check();
			await open( 'Posts on the map' );
			await settings.getByRole( 'checkbox', { name: 'Posts' } ).check();

			const listed = () =>
				preview
					.locator( 'li[data-cairn-marker-id]' )
					.evaluateAll( ( items ) =>
						items
							.map( ( item ) =>
								Number(
									item.getAttribute( 'data-cairn-marker-id' )
								)
							)
							.sort( ( a, b ) => a - b )
					);
			const sorted = ( keys: Key[] ) =>
				keys.map( ( key ) => ids[ key ] ).sort( ( a, b ) => a - b );
			await expect
				.poll( listed, { timeout: 60_000 } )
				.toEqual( sorted( PUBLIC ) );

			const categoriesField = settings.getByRole( 'combobox', {
				name: 'Categories',
			} );
			await categoriesField.fill( 'Posts spec travel' );
			await page
				.getByRole( 'option', { name: 'Posts spec travel' } )
				.click();
			await expect
				.poll( listed, { timeout: 60_000 } )
				.toEqual( sorted( [ 'lyon', 'geneva' ] ) );

			const [ block ] = await editor.getBlocks();
			expect( block?.attributes.markers ).toMatchObject( {
				source: 'none',
			} );
			expect( block?.attributes.content ).toEqual( {
				postTypes: [ 'post' ],
				terms: { category: [ SLUGS.travel ] },
				current: false,
			} );
		} );
	} );
} );
