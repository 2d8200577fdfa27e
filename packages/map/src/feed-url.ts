/**
 * The feed addresses of a map's selections: the one rule, shared with the server's Feed_Url (PHP)
 * through the test vectors in tests/fixtures/feed-urls.json.
 */
import type { ContentSelection, MarkerSelection } from './types';

/**
 * The feed's address with these query parameters, in order; '' without an address or parameters.
 *
 * @param base  The feed's address (`…/cairn/v1/markers`), absolute or relative to the page.
 * @param query The parameters, or null for no URL.
 */
export function feedUrl(
	base: string,
	query: Record< string, string > | null
): string {
	if ( ! base || ! query ) {
		return '';
	}
	const url = new URL( base, globalThis.location?.href );
	for ( const [ key, value ] of Object.entries( query ) ) {
		url.searchParams.set( key, value );
	}
	return url.toString();
}

/**
 * The feed URL for a marker selection: `group` or `include` as the source says, nothing for all
 * markers; '' when the selection shows no markers.
 *
 * @param base      The feed's address.
 * @param selection The map's `markers` attribute.
 */
export function markersFeedUrl(
	base: string,
	selection: Pick< MarkerSelection, 'groups' | 'ids' > & { source: string }
): string {
	const { source } = selection;
	let query: Record< string, string > | null = source === 'none' ? null : {};
	if ( source === 'groups' || source === 'ids' ) {
		const list = source === 'groups' ? selection.groups : selection.ids;
		query = list.length
			? {
					[ source === 'groups' ? 'group' : 'include' ]:
						list.join( ',' ),
				}
			: null;
	}
	return feedUrl( base, query );
}

/**
 * The posts feed URL for a map's post selection: `post_type` and `terms` (`taxonomy:slug`), each
 * sorted, or for "this post" its type and id; '' when the map shows no posts.
 *
 * @param base             The feed's address.
 * @param content          The map's post selection.
 * @param context          Block context: the post "this post" means.
 * @param context.postId   Its id.
 * @param context.postType Its type.
 */
export function postsFeedUrl(
	base: string,
	content: ContentSelection,
	context: { postId?: number; postType?: string }
): string {
	if ( content.current ) {
		return feedUrl(
			base,
			context.postId && context.postType
				? {
						post_type: context.postType,
						include: `${ context.postId }`,
					}
				: null
		);
	}
	const terms = Object.entries( content.terms )
		.flatMap( ( [ taxonomy, slugs ] ) =>
			slugs.map( ( slug ) => `${ taxonomy }:${ slug }` )
		)
		.sort()
		.join( ',' );
	return feedUrl(
		base,
		content.postTypes.length
			? {
					post_type: [ ...content.postTypes ].sort().join( ',' ),
					...( terms && { terms } ),
				}
			: null
	);
}

/**
 * The shapes feed URL for a marker selection: the markers feed's query on the shapes route
 * (`…/cairn/v1/shapes`); '' when the selection shows no markers. Mirrors the server's
 * `Feed_Url::shapes()`; the server's `config.shapesUrl` is also '' when the selection holds no
 * shape, which only the server knows.
 *
 * @param base      The shapes feed's address.
 * @param selection The map's `markers` attribute.
 */
export function shapesFeedUrl(
	base: string,
	selection: Pick< MarkerSelection, 'groups' | 'ids' > & { source: string }
): string {
	return markersFeedUrl( base, selection );
}
