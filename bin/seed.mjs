#!/usr/bin/env node
/**
 * Seeds demo content into a running site through its REST API (no WP-CLI: the Playground
 * runtime has none). Idempotent: groups, markers and the page are matched by slug, so running it
 * again adds only what is missing.
 *
 *   node bin/seed.mjs [--url=http://localhost:8888] [--demo-size=N]   (or WP_BASE_URL / WP_ENV_PORT, CAIRN_DEMO_SIZE)
 *
 * Seeds
 * - MAPBOX_ACCESS_TOKEN, when set, as the `cairn_maps_access_token` setting;
 * - the marker groups and ~200 markers of bin/demo-markers.json (real places);
 * - a published page "Cairn Maps demo" holding the map block;
 * - the routes and areas of bin/demo-shapes.json (three trails with elevation and a park, written
 *   by bin/demo-shapes.mjs) in a group with line looks, and a page "Trails and parks" showing
 *   them (markers with a shape: `meta.cairn_geometry`, their anchor set by the site);
 * - six blog posts with public locations (WordPress's geodata meta) in two categories, and a
 *   published page "Stories on the map" whose map shows those posts (a map of posts, no markers);
 * - with --demo-size=N (or CAIRN_DEMO_SIZE=N), N generated places (1–200,000) in a group "Demo
 *   places" and a page "A map of many places" showing them, written in bulk by the development
 *   site's route /cairn-dev/v1/demo-places (bin/site-mu-plugins/cairn-dev-demo-places.php: 12,000
 *   in a few seconds on Playground, where REST one by one or the import would take minutes); then
 *   the place index is built by loading admin pages (Playground runs no WP-Cron: each admin page
 *   load carries the rebuild on for a few seconds) until the page is served as map tiles (from
 *   10,000 places);
 * - without MAPBOX_ACCESS_TOKEN, the self-hosted world basemap: .cache/basemap/world.pmtiles
 *   (bin/build-basemap.mjs builds it when needed) uploaded to the media library, and the setting
 *   `cairn_maps_basemap` = `pmtiles://<its URL>` — the file's own URL when the server answers
 *   HTTP Range requests on it, else the plugin's byte-range route /cairn/v1/basemaps/<id>
 *   (WordPress Playground answers ranges of static files with the whole file). With the token
 *   the setting is left alone (automatic: Mapbox).
 *
 * Authentication: logs in through wp-login.php (admin / password, override with
 * WP_USERNAME / WP_PASSWORD) and asks admin-ajax for a REST nonce. The log-in request carries the
 * `playground_auto_login_already_happened` cookie so the Playground runtime's auto-login does not
 * get in the way; the same code works on a Docker wp-env site.
 *
 * Markers go in /batch/v1 requests of 25 (core's limit): Playground runs one PHP worker, so the
 * number of HTTP round trips is what costs.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const HERE = path.dirname( fileURLToPath( import.meta.url ) );
/** The demo archive's media library slug (its file is `<slug>-<hash>.pmtiles`). */
export const BASEMAP_SLUG = 'cairn-demo-world';
const BATCH_SIZE = 25;
export const PAGE_SLUG = 'cairn-maps-demo';
export const PAGE_TITLE = 'Cairn Maps demo';
const REQUEST_TIMEOUT_MS = 120000;
/** The big demo: its group, its page, the most places it takes, the wait for its index. */
export const BIG_DEMO = {
	group: 'demo-places',
	slug: 'a-map-of-many-places',
	max: 200000,
	indexTimeoutMs: 15 * 60 * 1000,
	/** The plugin's default `tiles.threshold`: maps of this many places are served as tiles. */
	tiled: 10000,
};

/**
 * The big demo's size from a flag or CAIRN_DEMO_SIZE: 0 for none.
 *
 * @param {string|undefined} value The text given.
 * @return {number} Places.
 */
export function demoSize( value ) {
	if ( value === undefined || value === '' ) {
		return 0;
	}
	const size = Number( value );
	if ( ! Number.isInteger( size ) || size < 0 || size > BIG_DEMO.max ) {
		throw new Error(
			`the demo size must be a whole number of places from 1 to ${ BIG_DEMO.max } (got "${ value }")`
		);
	}
	return size;
}

/**
 * ASCII slug, stable under WordPress' sanitize_title().
 *
 * @param {string} text A title.
 * @return {string} Its slug.
 */
export function slugify( text ) {
	return text
		.replace( /[øØ]/g, 'o' )
		.replace( /[æÆ]/g, 'ae' )
		.replace( /ß/g, 'ss' )
		.replace( /[łŁ]/g, 'l' )
		.normalize( 'NFKD' )
		.replace( /[\u0300-\u036f]/g, '' )
		.toLowerCase()
		.replace( /[^a-z0-9]+/g, '-' )
		.replace( /^-+|-+$/g, '' );
}

/** A minimal cookie-and-nonce REST client for one site. */
class Site {
	constructor( siteUrl ) {
		this.siteUrl = siteUrl.replace( /\/+$/, '' );
		this.cookies = new Map( [
			// Stops Playground's auto-login redirect; harmless elsewhere.
			[ 'playground_auto_login_already_happened', '1' ],
			[ 'wordpress_test_cookie', 'WP%20Cookie%20check' ],
		] );
		this.nonce = null;
	}

	cookieHeader() {
		return [ ...this.cookies ]
			.map( ( [ k, v ] ) => `${ k }=${ v }` )
			.join( '; ' );
	}

	remember( response ) {
		for ( const line of response.headers.getSetCookie() ) {
			const [ pair ] = line.split( ';' );
			const eq = pair.indexOf( '=' );
			const name = pair.slice( 0, eq ).trim();
			const value = pair.slice( eq + 1 ).trim();
			if (
				/expires=Thu, 01[- ]Jan[- ]1970/i.test( line ) ||
				value === 'deleted'
			) {
				this.cookies.delete( name );
			} else {
				this.cookies.set( name, value );
			}
		}
	}

	async http( url, init = {} ) {
		const response = await fetch( url, {
			redirect: 'manual',
			...init,
			headers: { Cookie: this.cookieHeader(), ...( init.headers || {} ) },
			signal: AbortSignal.timeout( REQUEST_TIMEOUT_MS ),
		} );
		this.remember( response );
		return response;
	}

	/**
	 * Logs in and fetches a REST nonce, then proves both with /wp/v2/users/me. On a fresh
	 * Playground site the first log-in can hand out a cookie or nonce that the next request
	 * rejects (the site has no salts in wp-config.php, so WordPress generates and stores them on
	 * first use); a second attempt works, so try up to three times.
	 *
	 * @param {string} username Log-in name.
	 * @param {string} password Password.
	 */
	async login( username, password ) {
		let problem = '';
		for ( let attempt = 1; attempt <= 3; attempt++ ) {
			for ( const name of [ ...this.cookies.keys() ] ) {
				if (
					name.startsWith( 'wordpress_' ) &&
					name !== 'wordpress_test_cookie'
				) {
					this.cookies.delete( name );
				}
			}
			const response = await this.http(
				`${ this.siteUrl }/wp-login.php`,
				{
					method: 'POST',
					headers: {
						'Content-Type': 'application/x-www-form-urlencoded',
					},
					body: new URLSearchParams( {
						log: username,
						pwd: password,
						rememberme: 'forever',
						redirect_to: `${ this.siteUrl }/wp-admin/`,
						testcookie: '1',
					} ),
				}
			);
			const loggedIn = [ ...this.cookies.keys() ].some( ( name ) =>
				name.startsWith( 'wordpress_logged_in_' )
			);
			if ( ! loggedIn ) {
				throw new Error(
					`could not log in to ${ this.siteUrl } as ${ username } (HTTP ${ response.status }): check WP_USERNAME / WP_PASSWORD`
				);
			}
			const nonceResponse = await this.http(
				`${ this.siteUrl }/wp-admin/admin-ajax.php?action=rest-nonce`
			);
			const nonce = ( await nonceResponse.text() ).trim();
			if ( ! nonceResponse.ok || ! /^[a-f0-9]{6,}$/i.test( nonce ) ) {
				problem = `admin-ajax.php gave no REST nonce (HTTP ${ nonceResponse.status })`;
				continue;
			}
			this.nonce = nonce;
			const me = await this.rest( 'GET', '/wp/v2/users/me', {
				query: { _fields: 'id' },
			} );
			if ( me.status === 200 ) {
				return;
			}
			problem = `the REST nonce was refused (HTTP ${ me.status } ${ me.body?.code ?? '' })`;
		}
		throw new Error(
			`could not open a REST session on ${ this.siteUrl }: ${ problem }`
		);
	}

	/**
	 * A REST request through ?rest_route= (works with plain permalinks).
	 *
	 * @param {string} method        HTTP method.
	 * @param {string} route         REST route, e.g. /wp/v2/pages.
	 * @param {Object} options       Options.
	 * @param {Object} options.query Query arguments.
	 * @param {Object} options.body  JSON body.
	 * @return {Promise<{status: number, headers: Headers, body: any}>} The response.
	 */
	async rest( method, route, { query = {}, body } = {} ) {
		const url = new URL( `${ this.siteUrl }/` );
		url.searchParams.set( 'rest_route', route );
		for ( const [ key, value ] of Object.entries( query ) ) {
			url.searchParams.set( key, String( value ) );
		}
		const response = await this.http( url, {
			method,
			headers: {
				'X-WP-Nonce': this.nonce,
				...( body ? { 'Content-Type': 'application/json' } : {} ),
			},
			body: body ? JSON.stringify( body ) : undefined,
		} );
		const text = await response.text();
		let parsed;
		try {
			parsed = JSON.parse( text );
		} catch {
			throw new Error(
				`${ method } ${ route }: HTTP ${ response.status }, not JSON: ${ text.slice( 0, 300 ) }`
			);
		}
		return {
			status: response.status,
			headers: response.headers,
			body: parsed,
		};
	}

	async restOk( method, route, options ) {
		const result = await this.rest( method, route, options );
		if ( result.status >= 300 ) {
			throw new Error(
				`${ method } ${ route }: HTTP ${ result.status } ${ result.body?.code ?? '' } ${
					result.body?.message ?? ''
				}`.trim()
			);
		}
		return result;
	}

	/**
	 * Every item of a collection route (follows X-WP-TotalPages).
	 *
	 * @param {string} route Collection route, e.g. /wp/v2/pages.
	 * @param {Object} query Query arguments.
	 * @return {Promise<Object[]>} Every item.
	 */
	async all( route, query = {} ) {
		const items = [];
		for ( let page = 1; ; page++ ) {
			const { headers, body } = await this.restOk( 'GET', route, {
				query: { per_page: 100, page, ...query },
			} );
			items.push( ...body );
			if ( page >= Number( headers.get( 'x-wp-totalpages' ) || 1 ) ) {
				return items;
			}
		}
	}

	/**
	 * Runs requests through /batch/v1 in chunks; throws on the first failed sub-request.
	 *
	 * @param {Object[]} requests Batch sub-requests ({ method, path, body }).
	 * @return {Promise<Object[]>} The sub-responses' bodies, in order.
	 */
	async batch( requests ) {
		const results = [];
		for ( let i = 0; i < requests.length; i += BATCH_SIZE ) {
			const chunk = requests.slice( i, i + BATCH_SIZE );
			const { body } = await this.restOk( 'POST', '/batch/v1', {
				body: { validation: 'normal', requests: chunk },
			} );
			const responses = body.responses ?? [];
			responses.forEach( ( response, index ) => {
				if ( response.status >= 300 ) {
					const failed = response.body;
					throw new Error(
						`${ chunk[ index ].method } ${ chunk[ index ].path } (${
							chunk[ index ].body?.slug ?? ''
						}): HTTP ${ response.status } ${ failed?.code ?? '' } ${ failed?.message ?? '' }`
					);
				}
			} );
			if ( responses.length !== chunk.length ) {
				// validation: 'normal' answers with the validation failures only.
				throw new Error(
					`batch request rejected: ${ JSON.stringify( body ).slice( 0, 500 ) }`
				);
			}
			results.push( ...responses.map( ( response ) => response.body ) );
		}
		return results;
	}
}

/**
 * Opens (and proves) one admin REST session, which also makes a fresh site generate and store
 * its salts; afterwards every log-in works the first time (tests log in once, in global setup).
 *
 * @param {Object} options         Options.
 * @param {string} options.siteUrl Site address, e.g. http://localhost:8888.
 */
export async function warmUp( { siteUrl } ) {
	const site = new Site( siteUrl );
	await site.login(
		process.env.WP_USERNAME || 'admin',
		process.env.WP_PASSWORD || 'password'
	);
}

export const PAGE_CONTENT = `<!-- wp:paragraph -->
<p>Two hundred real places — lighthouses, mountain summits, museums and railway stations — served as GeoJSON by the Cairn Maps REST API and clustered on the map below. Zoom in to open the clusters; select a marker for its details.</p>
<!-- /wp:paragraph -->

<!-- wp:cairn/map {"center":{"lng":8,"lat":47},"zoom":3.5,"controls":{"zoom":true,"compass":true,"scale":true,"fullscreen":true,"geolocate":true},"align":"wide"} /-->
`;

export const STORIES_SLUG = 'stories-on-the-map';
export const STORIES_TITLE = 'Stories on the map';

export const TRAILS_SLUG = 'trails-and-parks';
export const TRAILS_TITLE = 'Trails and parks';

/**
 * The page of routes and areas: an overview of the trails and the park, and a closer look at one
 * trail beside the summits.
 *
 * @param {string} group The shapes' group slug.
 * @return {string} Block markup.
 */
export function trailsPageContent( group ) {
	const overview = {
		center: { lng: 1.2, lat: 51.3 },
		zoom: 3.8,
		markers: { source: 'groups', groups: [ group ], ids: [] },
		// Four places far apart: clusters would only hide two of them.
		cluster: { enabled: false, radius: 80 },
		align: 'wide',
	};
	const closer = {
		center: { lng: -4.0964, lat: 53.0931 },
		zoom: 11.7,
		height: '520px',
		markers: { source: 'groups', groups: [ group, 'summits' ], ids: [] },
		align: 'wide',
	};
	return `<!-- wp:paragraph -->
<p>Three mountain trails with their elevation — to the Hörnli Hut under the Matterhorn, up Ben Nevis and up Yr Wyddfa — and a London park. Select a trail for its length, ascent and elevation profile.</p>
<!-- /wp:paragraph -->

<!-- wp:cairn/map ${ JSON.stringify( overview ) } /-->

<!-- wp:heading -->
<h2 class="wp-block-heading">Up Yr Wyddfa by the Llanberis Path</h2>
<!-- /wp:heading -->

<!-- wp:cairn/map ${ JSON.stringify( closer ) } /-->
`;
}

/** Demo posts with places: [ title, category, lat, lng, address, text ]. */
export const STORIES = [
	[
		'A morning on the Royal Mile',
		'Journeys',
		55.9502,
		-3.1875,
		'Royal Mile, Edinburgh',
		'Closes, wynds and the castle at the top of the hill.',
	],
	[
		'Along the Rhine by bicycle',
		'Journeys',
		50.9413,
		6.9583,
		'Cologne, Germany',
		'Three days from Cologne to Koblenz, one vineyard at a time.',
	],
	[
		'Night train to Vienna',
		'Journeys',
		48.1852,
		16.3767,
		'Wien Hauptbahnhof, Vienna',
		'A sleeper berth, a sunrise over the Danube, and coffee at the station.',
	],
	[
		'Pastéis de nata in Belém',
		'Food',
		38.6975,
		-9.2031,
		'Belém, Lisbon',
		'Where the custard tarts are still warm at eight in the morning.',
	],
	[
		'A market lunch in Lyon',
		'Food',
		45.7634,
		4.8508,
		'Les Halles Paul Bocuse, Lyon',
		'Cheese, quenelles and a glass of Beaujolais under one roof.',
	],
	[
		'Smørrebrød in Copenhagen',
		'Food',
		55.6838,
		12.5718,
		'Torvehallerne, Copenhagen',
		'Open sandwiches, rye bread and the art of stacking.',
	],
];

export const STORIES_PAGE_CONTENT = `<!-- wp:paragraph -->
<p>Every blog post with a public location appears on this map: give a post a place in the editor's Location panel and it joins. The legend filters by category.</p>
<!-- /wp:paragraph -->

<!-- wp:cairn/map {"center":{"lng":4,"lat":49},"zoom":3.6,"markers":{"source":"none","groups":[],"ids":[]},"content":{"postTypes":["post"],"terms":{},"current":false},"align":"wide"} /-->
`;

/**
 * The REST body that creates a marker group (`/wp/v2/cairn-marker-groups`): a group of
 * bin/demo-markers.json, or the shapes' group of bin/demo-shapes.json with its line looks (`meta`).
 *
 * @param {{name: string, slug: string, description?: string, meta?: Object}} group The group.
 * @return {Object} The body.
 */
export function groupBody( group ) {
	return {
		name: group.name,
		slug: group.slug,
		description: group.description ?? '',
		...( group.meta ? { meta: group.meta } : {} ),
	};
}

/**
 * The REST body that creates a demo marker (`/wp/v2/cairn-markers`).
 *
 * @param {{title: string, place: string, lat: number, lng: number}} marker    A marker of bin/demo-markers.json.
 * @param {string}                                                   groupName Its group's name.
 * @param {*}                                                        groupId   Its group's term id.
 * @return {Object} The body.
 */
export function markerBody( marker, groupName, groupId ) {
	return {
		title: marker.title,
		slug: slugify( marker.title ),
		status: 'publish',
		content: `<!-- wp:paragraph -->\n<p>${ escapeHtml(
			`${ groupName } · ${ marker.place }`
		) }</p>\n<!-- /wp:paragraph -->`,
		meta: { cairn_lat: marker.lat, cairn_lng: marker.lng },
		'cairn-marker-groups': [ groupId ],
	};
}

/**
 * The REST body that creates a route or an area (`/wp/v2/cairn-markers` with a shape).
 *
 * @param {{title: string, text: string, place: string, geometry: Object}} shape   A shape of bin/demo-shapes.json.
 * @param {*}                                                              groupId Its group's term id.
 * @return {Object} The body.
 */
export function shapeBody( shape, groupId ) {
	return {
		title: shape.title,
		slug: slugify( shape.title ),
		status: 'publish',
		content: `<!-- wp:paragraph -->\n<p>${ escapeHtml(
			`${ shape.text } (${ shape.place })`
		) }</p>\n<!-- /wp:paragraph -->`,
		// The site checks the shape and sets the anchor (cairn_lat/cairn_lng) from it.
		meta: { cairn_geometry: shape.geometry },
		'cairn-marker-groups': [ groupId ],
	};
}

/**
 * The REST body that creates a blog post with a public place (`/wp/v2/posts`).
 *
 * @param {Array} story      An entry of STORIES.
 * @param {*}     categoryId Its category's term id.
 * @return {Object} The body.
 */
export function storyBody( story, categoryId ) {
	const [ title, , lat, lng, address, text ] = story;
	return {
		title,
		slug: slugify( title ),
		status: 'publish',
		excerpt: text,
		content: `<!-- wp:paragraph -->\n<p>${ escapeHtml( text ) }</p>\n<!-- /wp:paragraph -->`,
		categories: [ categoryId ],
		meta: {
			geo_latitude: lat,
			geo_longitude: lng,
			geo_address: address,
			geo_public: true,
		},
	};
}

/**
 * Seeds the site; returns { pageUrl, created } .
 *
 * @param {Object}   options
 * @param {string}   options.siteUrl      Site address, e.g. http://localhost:8888.
 * @param {string}   [options.dataFile]   Marker data (default bin/demo-markers.json).
 * @param {string}   [options.shapesFile] Routes and areas (default bin/demo-shapes.json).
 * @param {number}   [options.size]       Generated places of the big demo (default CAIRN_DEMO_SIZE, else none).
 * @param {Function} [options.log]        Progress logger.
 */
export async function seed( {
	siteUrl,
	dataFile = path.join( HERE, 'demo-markers.json' ),
	shapesFile = path.join( HERE, 'demo-shapes.json' ),
	size = demoSize( process.env.CAIRN_DEMO_SIZE ),
	log = ( message ) => process.stderr.write( `[seed] ${ message }\n` ),
} ) {
	const started = Date.now();
	const data = JSON.parse( fs.readFileSync( dataFile, 'utf8' ) );
	const site = new Site( siteUrl );
	await site.login(
		process.env.WP_USERNAME || 'admin',
		process.env.WP_PASSWORD || 'password'
	);
	const created = { groups: 0, markers: 0, shapes: 0, stories: 0, page: 0 };

	const token = process.env.MAPBOX_ACCESS_TOKEN;
	if ( token ) {
		const result = await site.rest( 'POST', '/wp/v2/settings', {
			body: { cairn_maps_access_token: token },
		} );
		if ( result.status >= 300 ) {
			// The site refuses secret or malformed tokens; say so without echoing the token.
			throw new Error(
				`the site refused MAPBOX_ACCESS_TOKEN (HTTP ${ result.status }: ${ result.body?.message ?? '' }). Use a public pk. token.`
			);
		}
		log( 'stored MAPBOX_ACCESS_TOKEN as the access token' );
	}

	// Marker groups.
	const groupIds = new Map(
		(
			await site.all( '/wp/v2/cairn-marker-groups', {
				_fields: 'id,slug',
				hide_empty: false,
			} )
		).map( ( term ) => [ term.slug, term.id ] )
	);
	const missingGroups = data.groups.filter(
		( group ) => ! groupIds.has( group.slug )
	);
	if ( missingGroups.length ) {
		const terms = await site.batch(
			missingGroups.map( ( group ) => ( {
				method: 'POST',
				path: '/wp/v2/cairn-marker-groups',
				body: groupBody( group ),
			} ) )
		);
		for ( const term of terms ) {
			groupIds.set( term.slug, term.id );
		}
		created.groups = terms.length;
	}

	// Markers, matched by slug.
	const existing = new Set(
		(
			await site.all( '/wp/v2/cairn-markers', {
				status: 'any',
				_fields: 'slug',
				context: 'edit',
			} )
		).map( ( post ) => post.slug )
	);
	const missingMarkers = data.markers.filter(
		( marker ) => ! existing.has( slugify( marker.title ) )
	);
	if ( missingMarkers.length ) {
		const groupName = new Map(
			data.groups.map( ( group ) => [ group.slug, group.name ] )
		);
		const posts = await site.batch(
			missingMarkers.map( ( marker ) => {
				if ( ! groupIds.has( marker.group ) ) {
					throw new Error(
						`marker "${ marker.title }" names an unknown group "${ marker.group }"`
					);
				}
				return {
					method: 'POST',
					path: '/wp/v2/cairn-markers',
					body: markerBody(
						marker,
						groupName.get( marker.group ),
						groupIds.get( marker.group )
					),
				};
			} )
		);
		created.markers = posts.length;
	}

	if ( ! token ) {
		await seedBasemap( site, { setSetting: true, log } );
	}

	const shapes = await seedShapes( site, shapesFile, groupIds, existing );
	created.groups += shapes.groups;
	created.shapes = shapes.shapes;
	created.page += await ensurePage(
		site,
		TRAILS_SLUG,
		TRAILS_TITLE,
		trailsPageContent(
			JSON.parse( fs.readFileSync( shapesFile, 'utf8' ) ).group.slug
		)
	);

	// The demo page.
	const pages = await site.all( '/wp/v2/pages', {
		slug: PAGE_SLUG,
		status: 'any',
		context: 'edit',
		_fields: 'id,link,status',
	} );
	let page = pages[ 0 ];
	if ( ! page ) {
		( { body: page } = await site.restOk( 'POST', '/wp/v2/pages', {
			body: {
				title: PAGE_TITLE,
				slug: PAGE_SLUG,
				status: 'publish',
				content: PAGE_CONTENT,
			},
		} ) );
		created.page += 1;
	}

	// Blog posts with places, and the page of them.
	const categoryIds = new Map();
	for ( const name of new Set( STORIES.map( ( story ) => story[ 1 ] ) ) ) {
		const slug = slugify( name );
		const found = await site.all( '/wp/v2/categories', {
			slug,
			_fields: 'id',
		} );
		categoryIds.set(
			name,
			found[ 0 ]?.id ??
				(
					await site.restOk( 'POST', '/wp/v2/categories', {
						body: { name, slug },
					} )
				).body.id
		);
	}
	const storySlugs = new Set(
		(
			await site.all( '/wp/v2/posts', {
				status: 'any',
				context: 'edit',
				_fields: 'slug',
			} )
		).map( ( post ) => post.slug )
	);
	const missingStories = STORIES.filter(
		( [ title ] ) => ! storySlugs.has( slugify( title ) )
	);
	if ( missingStories.length ) {
		await site.batch(
			missingStories.map( ( story ) => ( {
				method: 'POST',
				path: '/wp/v2/posts',
				body: storyBody( story, categoryIds.get( story[ 1 ] ) ),
			} ) )
		);
	}
	created.stories = missingStories.length;
	const storiesPages = await site.all( '/wp/v2/pages', {
		slug: STORIES_SLUG,
		status: 'any',
		context: 'edit',
		_fields: 'id',
	} );
	if ( ! storiesPages.length ) {
		await site.restOk( 'POST', '/wp/v2/pages', {
			body: {
				title: STORIES_TITLE,
				slug: STORIES_SLUG,
				status: 'publish',
				content: STORIES_PAGE_CONTENT,
			},
		} );
		created.page += 1;
	}

	log(
		`created ${ created.groups } groups, ${ created.markers } markers, ${ created.shapes } routes and areas, ${ created.stories } posts with places, ${ created.page } pages ` +
			`(${ data.markers.length - missingMarkers.length } markers were already there) in ${ (
				( Date.now() - started ) /
				1000
			).toFixed( 1 ) } s`
	);
	const big = size > 0 ? await seedBigDemo( site, { size, log } ) : null;
	return { pageUrl: page.link, created, big };
}

/**
 * The big demo: `size` generated places (added in bulk through the development site's route) and
 * a page of them, then the place index built by admin page loads until that page is served as
 * tiles (when it holds enough places to be).
 *
 * @param {Site}     site         The site, logged in as an administrator.
 * @param {Object}   options      Options.
 * @param {number}   options.size Places.
 * @param {Function} options.log  Progress logger.
 * @return {Promise<{pageUrl: string, places: number, tiled: boolean, seconds: number}>} The page.
 */
export async function seedBigDemo( site, { size, log } ) {
	const started = Date.now();
	const added = await addDemoPlaces( site, size, {} );
	log(
		`${ added.added } generated places added in ${ added.seconds } s (the group "${ BIG_DEMO.group }" holds ${ added.total })`
	);
	const content = `<!-- wp:paragraph -->
<p>Generated places, as many as <code>npm start -- --demo-size=N</code> asked for. From 10,000 places a map is served as server-clustered tiles: the first view downloads a few kilobytes, whatever the number of places.</p>
<!-- /wp:paragraph -->

<!-- wp:cairn/map ${ JSON.stringify( {
		center: { lng: 10, lat: 48 },
		zoom: 3.3,
		markers: { source: 'groups', groups: [ BIG_DEMO.group ], ids: [] },
		align: 'wide',
		height: '560px',
	} ) } /-->
`;
	await ensurePage( site, BIG_DEMO.slug, 'A map of many places', content );
	const [ page ] = await site.all( '/wp/v2/pages', {
		slug: BIG_DEMO.slug,
		_fields: 'link',
	} );
	const tiled =
		added.total >= BIG_DEMO.tiled
			? await buildIndexByAdminPages( site, page.link, log )
			: false;
	return {
		pageUrl: page.link,
		places: added.total,
		tiled,
		seconds: ( Date.now() - started ) / 1000,
	};
}

/**
 * Brings a group of generated places to a size (bin/site-mu-plugins/cairn-dev-demo-places.php).
 *
 * @param {Site}   site    The site, logged in as an administrator.
 * @param {number} size    Places the group should hold.
 * @param {Object} options `group`, `name`, `box` (west,south,east,north) of the route.
 * @return {Promise<{group: string, added: number, total: number, seconds: number}>} What it did.
 */
export async function addDemoPlaces( site, size, options ) {
	const result = await site.rest( 'POST', '/cairn-dev/v1/demo-places', {
		body: {
			count: size,
			group: BIG_DEMO.group,
			name: 'Demo places',
			...options,
		},
	} );
	if ( result.status === 404 ) {
		throw new Error(
			'the site has no /cairn-dev/v1/demo-places route: the big demo needs a site started by npm start (it copies bin/site-mu-plugins/ into the site)'
		);
	}
	if ( result.status >= 300 ) {
		throw new Error(
			`POST /cairn-dev/v1/demo-places: HTTP ${ result.status } ${ result.body?.message ?? '' }`
		);
	}
	return result.body;
}

/**
 * Loads admin pages until a map page is served as tiles: on a site where WP-Cron does not run
 * (Playground) each admin page load carries the place index's rebuild on.
 *
 * @param {Site}     site    The site, logged in as an administrator.
 * @param {string}   pageUrl The map's page.
 * @param {Function} log     Progress logger.
 * @return {Promise<boolean>} Whether the page is tiled (false: gave up after BIG_DEMO.indexTimeoutMs).
 */
async function buildIndexByAdminPages( site, pageUrl, log ) {
	const started = Date.now();
	let loads = 0;
	let said = 0;
	while ( Date.now() - started < BIG_DEMO.indexTimeoutMs ) {
		const html = await ( await site.http( pageUrl ) ).text();
		if ( /tilesUrl&quot;:&quot;http|"tilesUrl":"http/.test( html ) ) {
			log(
				`the place index is complete after ${ loads } admin page loads (${ (
					( Date.now() - started ) /
					1000
				).toFixed( 1 ) } s): the map is served as tiles`
			);
			return true;
		}
		await (
			await site.http( `${ site.siteUrl }/wp-admin/index.php` )
		).text();
		loads++;
		if ( Date.now() - said > 10000 ) {
			said = Date.now();
			const { body } = await site.rest(
				'GET',
				'/cairn-dev/v1/demo-places',
				{
					query: { group: BIG_DEMO.group },
				}
			);
			const index = body?.index ?? {};
			log(
				`building the place index by admin page loads (${ loads } so far): ${
					index.phase === 'cells'
						? `counting clusters, level ${ index.level } of ${ index.levels }`
						: `${ index.done ?? 0 } of ${ index.total ?? '?' } places written`
				}`
			);
		}
	}
	log(
		'WARNING: the place index is not complete yet; it goes on as you load admin pages (Tools → Site Health says where it stands)'
	);
	return false;
}

/**
 * Uploads the demo world archive unless the site has it (for test set-ups: the site's basemap
 * setting is left alone).
 *
 * @param {Object}   options         Options.
 * @param {string}   options.siteUrl Site address.
 * @param {Function} [options.log]   Progress logger.
 * @return {ReturnType<typeof seedBasemap>} See seedBasemap().
 */
export async function uploadBasemap( {
	siteUrl,
	log = ( message ) => process.stderr.write( `[seed] ${ message }\n` ),
} ) {
	const site = new Site( siteUrl );
	await site.login(
		process.env.WP_USERNAME || 'admin',
		process.env.WP_PASSWORD || 'password'
	);
	return seedBasemap( site, { setSetting: false, log } );
}

/**
 * Whether an archive URL answers a Range request with 206 and the PMTiles magic.
 *
 * @param {Site}   site The site (its cookies).
 * @param {string} url  Archive URL.
 * @return {Promise<boolean>} True when it does.
 */
async function servesRanges( site, url ) {
	try {
		const response = await site.http( url, {
			headers: { Range: 'bytes=0-126' },
		} );
		const body = Buffer.from( await response.arrayBuffer() );
		return (
			response.status === 206 &&
			body.length === 127 &&
			body.subarray( 0, 7 ).toString( 'latin1' ) === 'PMTiles'
		);
	} catch {
		return false;
	}
}

/**
 * The demo world archive in the media library (uploaded when the site has no copy of this
 * build) and the URL a `pmtiles://` reference should use for it.
 *
 * @param {Site}     site               The site, logged in as an administrator.
 * @param {Object}   options            Options.
 * @param {boolean}  options.setSetting Also make it the site's basemap (`cairn_maps_basemap`).
 * @param {Function} options.log        Progress logger.
 * @return {Promise<{id: number, fileUrl: string, url: string, style: string, ranges: boolean}|null>}
 *     The attachment, its file URL, the URL that answers ranges and the style reference; null when
 *     the site refused the upload (the reason is logged).
 */
export async function seedBasemap( site, { setSetting, log } ) {
	const { buildBasemap } = await import(
		pathToFileURL( path.join( HERE, 'build-basemap.mjs' ) ).href
	);
	const manifest = await buildBasemap( { log } );
	const slug = `${ BASEMAP_SLUG }-${ manifest.hash.slice( 0, 8 ) }`;
	const found = await site.all( '/wp/v2/media', {
		slug,
		_fields: 'id,source_url',
	} );
	let media = found[ 0 ];
	if ( ! media ) {
		const url = new URL( `${ site.siteUrl }/` );
		url.searchParams.set( 'rest_route', '/wp/v2/media' );
		const response = await site.http( url, {
			method: 'POST',
			headers: {
				'X-WP-Nonce': site.nonce,
				'Content-Type': 'application/vnd.pmtiles',
				'Content-Disposition': `attachment; filename="${ slug }.pmtiles"`,
			},
			body: fs.readFileSync(
				path.join( HERE, '..', '.cache', 'basemap', 'world.pmtiles' )
			),
		} );
		const text = await response.text();
		let body = null;
		try {
			body = JSON.parse( text );
		} catch {
			// Reported below.
		}
		if ( response.status >= 300 || ! body?.id ) {
			log(
				`WARNING: the site refused the demo basemap upload (HTTP ${ response.status } ${ body?.code ?? '' } ${
					body?.message ?? text.slice( 0, 200 )
				}); the demo keeps the automatic basemap`
			);
			return null;
		}
		media = body;
		log(
			`uploaded the world basemap (${ ( manifest.bytes / 1024 / 1024 ).toFixed( 2 ) } MiB) as media ${ media.id }`
		);
	}
	const fileUrl = media.source_url;
	// Where the archive can be read in ranges, best first: its own URL (any real web server);
	// the development site's cairn-byte-range.php (bin/site-root/, ~15 ms in Playground, which
	// answers ranges of static files with the whole file); the plugin's route (boots WordPress
	// for every range: 1–2 s each in Playground).
	const uploads = fileUrl.match( /\/wp-content\/uploads\/(.+\.pmtiles)$/ );
	const candidates = [
		[ fileUrl, 'its own URL' ],
		uploads
			? [
					`${ site.siteUrl }/cairn-byte-range.php?file=${ uploads[ 1 ] }`,
					"the development site's cairn-byte-range.php (the server answers no Range requests on uploads)",
				]
			: null,
		[
			`${ site.siteUrl }/?rest_route=/cairn/v1/basemaps/${ media.id }`,
			"the plugin's route /cairn/v1/basemaps (the server answers no Range requests on uploads)",
		],
	].filter( Boolean );
	let archiveUrl = null;
	for ( const [ url, how ] of candidates ) {
		if ( await servesRanges( site, url ) ) {
			archiveUrl = url;
			log( `the world basemap is read through ${ how }` );
			break;
		}
	}
	const ranges = archiveUrl !== null;
	if ( ! ranges ) {
		archiveUrl = fileUrl;
		log(
			'WARNING: nothing on the site answers Range requests for the world basemap'
		);
	}
	const style = `pmtiles://${ archiveUrl }`;
	if ( setSetting && ranges ) {
		const result = await site.rest( 'POST', '/wp/v2/settings', {
			body: { cairn_maps_basemap: style },
		} );
		if ( result.status >= 300 ) {
			log(
				`WARNING: the site refused cairn_maps_basemap (HTTP ${ result.status } ${ result.body?.message ?? '' })`
			);
		} else if ( result.body?.cairn_maps_basemap !== style ) {
			log(
				'WARNING: the site has no cairn_maps_basemap setting; the demo keeps its default basemap'
			);
		} else {
			log( `the site's basemap is ${ style }` );
		}
	}
	return { id: media.id, fileUrl, url: archiveUrl, style, ranges };
}

/**
 * Seeds the routes and areas: their group with its line looks (when the site has no group of that
 * slug), and a marker with a shape for each (matched by slug, like the markers).
 *
 * @param {Site}                site       The site.
 * @param {string}              shapesFile bin/demo-shapes.json or another file of that form.
 * @param {Map<string, number>} groupIds   Group ids by slug (the new group is added).
 * @param {Set<string>}         existing   Slugs of the site's markers.
 * @return {Promise<{groups: number, shapes: number}>} How many groups (0 or 1) and shapes were added.
 */
async function seedShapes( site, shapesFile, groupIds, existing ) {
	const { group, shapes } = JSON.parse(
		fs.readFileSync( shapesFile, 'utf8' )
	);
	const added = { groups: 0, shapes: 0 };
	if ( ! groupIds.has( group.slug ) ) {
		const { body } = await site.restOk(
			'POST',
			'/wp/v2/cairn-marker-groups',
			{ body: groupBody( group ) }
		);
		groupIds.set( group.slug, body.id );
		added.groups = 1;
	}
	const missing = shapes.filter(
		( shape ) => ! existing.has( slugify( shape.title ) )
	);
	if ( missing.length ) {
		await site.batch(
			missing.map( ( shape ) => ( {
				method: 'POST',
				path: '/wp/v2/cairn-markers',
				body: shapeBody( shape, groupIds.get( group.slug ) ),
			} ) )
		);
	}
	added.shapes = missing.length;
	return added;
}

/**
 * Publishes a page unless one with the slug exists (in any status).
 *
 * @param {Site}   site    The site.
 * @param {string} slug    Slug.
 * @param {string} title   Title.
 * @param {string} content Block markup.
 * @return {Promise<number>} 1 when the page was created, else 0.
 */
async function ensurePage( site, slug, title, content ) {
	const found = await site.all( '/wp/v2/pages', {
		slug,
		status: 'any',
		context: 'edit',
		_fields: 'id',
	} );
	if ( found.length ) {
		return 0;
	}
	await site.restOk( 'POST', '/wp/v2/pages', {
		body: { title, slug, status: 'publish', content },
	} );
	return 1;
}

function escapeHtml( text ) {
	return text.replace( /[&<>"']/g, ( c ) => `&#${ c.charCodeAt( 0 ) };` );
}

if ( import.meta.url === pathToFileURL( process.argv[ 1 ] ).href ) {
	const args = process.argv.slice( 2 );
	const urlArg = args.find( ( arg ) => arg.startsWith( '--url=' ) );
	const sizeArg = args.find( ( arg ) => arg.startsWith( '--demo-size=' ) );
	const siteUrl =
		urlArg?.slice( 6 ) ||
		process.env.WP_BASE_URL ||
		`http://localhost:${ process.env.WP_ENV_PORT || 8888 }`;
	Promise.resolve()
		.then( () =>
			seed( {
				siteUrl,
				size: demoSize(
					sizeArg?.slice( 12 ) ?? process.env.CAIRN_DEMO_SIZE
				),
			} )
		)
		.then( ( { pageUrl, big } ) =>
			process.stdout.write(
				`${ pageUrl }\n${ big ? `${ big.pageUrl }\n` : '' }`
			)
		)
		.catch( ( error ) => {
			process.stderr.write( `[seed] ERROR: ${ error.message }\n` );
			process.exit( 1 );
		} );
}
