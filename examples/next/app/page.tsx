/**
 * The home: what this front end reads, and a form that opens a post's maps by id (a plain GET
 * form, so it works without JavaScript too).
 */
import { siteUrl } from '../site';

export default function Home() {
	return (
		<>
			<h1>A WordPress site’s maps, in Next.js</h1>
			<p>
				This front end reads <code>{ siteUrl() }</code> (
				<code>CAIRN_SITE</code>) and shows any post’s maps with{ ' ' }
				<code>fetchPostMaps()</code> and <code>&lt;CairnMap&gt;</code>.
			</p>
			<form action="/posts" method="get">
				<label htmlFor="post-id">A post or page id</label>{ ' ' }
				<input
					id="post-id"
					name="id"
					type="number"
					min={ 1 }
					step={ 1 }
					required
				/>{ ' ' }
				<button type="submit">Show its maps</button>
			</form>
		</>
	);
}

// The site comes from the server's environment when the page is asked for, not at build time.
export const dynamic = 'force-dynamic';
