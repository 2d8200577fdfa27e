/**
 * `/posts/<id>`: a post's maps. A Server Component reads them with `fetchPostMaps()` on every
 * request (no copy frozen at build time), and `<CairnMap>` renders each, on the server first (the
 * wrapper, the places list, the messages) and then in the browser (the map).
 */
import { fetchPostMaps, PostMapsError } from '@cairn-maps/map';
import type { PostMaps } from '@cairn-maps/map';
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';

import { PostMapList } from '../../../components/post-maps';
import { mapboxToken, siteUrl } from '../../../site';

// Every request reads the site afresh. To cache instead, replace this line with
// `export const revalidate = 60;` (seconds): Next.js then serves a rendered copy and renders it
// again in the background once it is older than that.
export const dynamic = 'force-dynamic';

interface PostPageProps {
	params: Promise< { id: string } >;
}

/** A post id from the address, or null. */
function postId( value: string ): number | null {
	return /^[1-9]\d{0,9}$/.test( value ) ? Number( value ) : null;
}

/**
 * What a visitor is told when the site does not give the maps. Never the site's own message: it
 * is not written for this front end's visitors.
 *
 * @param error What `fetchPostMaps()` threw.
 */
function failureMessage( error: unknown ): string {
	if ( error instanceof PostMapsError ) {
		if ( error.status === 401 || error.status === 403 ) {
			return `These maps are not public (${ error.status }).`;
		}
		if ( error.status > 0 ) {
			return `The site could not answer (${ error.status }).`;
		}
		return 'The site did not answer as a WordPress site with Cairn Maps would.';
	}
	return 'The site could not be reached.';
}

export async function generateMetadata( {
	params,
}: PostPageProps ): Promise< Metadata > {
	const { id } = await params;
	return { title: `Maps of post ${ id } — Cairn Maps, Next.js` };
}

export default async function PostPage( { params }: PostPageProps ) {
	const { id: value } = await params;
	const id = postId( value );
	if ( id === null ) {
		notFound();
	}
	let result: PostMaps | null = null;
	let failure: unknown = null;
	try {
		result = await fetchPostMaps( siteUrl(), id );
	} catch ( error ) {
		failure = error;
	}
	if ( failure instanceof PostMapsError && failure.status === 404 ) {
		notFound();
	}
	return (
		<article>
			<h1>Maps of post { id }</h1>
			{ result === null && (
				<p className="app-failure" role="alert">
					{ failureMessage( failure ) }
				</p>
			) }
			{ result?.maps.length === 0 && (
				<p>This post has no maps (or they need its password).</p>
			) }
			{ result && result.maps.length > 0 && (
				<PostMapList
					maps={ result.maps }
					accessToken={ mapboxToken() }
				/>
			) }
		</article>
	);
}
