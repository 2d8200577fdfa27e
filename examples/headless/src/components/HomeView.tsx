/**
 * The home: the site's pages that have maps, a link to each, and a way to open a post's maps by id.
 */
import { useCallback, useState, type FormEvent } from 'react';

import { hrefFor, navigate } from '../address';
import { useRemote } from '../use-remote';
import { fetchPagesWithMaps } from '../wordpress';
import { Failure } from './Failure';
import { Link } from './Link';

export interface HomeViewProps {
	site: string;
}

function PostForm() {
	const [ id, setId ] = useState( '' );
	const onSubmit = ( event: FormEvent ) => {
		event.preventDefault();
		const value = Number( id );
		if ( Number.isInteger( value ) && value > 0 ) {
			navigate(
				hrefFor(
					{ view: 'post', id: value },
					window.location.search,
					import.meta.env.DEV
				)
			);
		}
	};
	return (
		<form className="app-post-form" onSubmit={ onSubmit }>
			<label htmlFor="app-post-id">
				Any post’s maps, by id (through <code>fetchPostMaps()</code>)
			</label>
			<input
				id="app-post-id"
				type="number"
				min={ 1 }
				step={ 1 }
				required
				value={ id }
				onChange={ ( event ) => setId( event.target.value ) }
			/>
			<button type="submit">Show its maps</button>
		</form>
	);
}

export function HomeView( { site }: HomeViewProps ) {
	const load = useCallback(
		( signal: AbortSignal ) => fetchPagesWithMaps( site, signal ),
		[ site ]
	);
	const remote = useRemote( load );

	return (
		<>
			<h1>Pages with maps</h1>
			{ remote.state === 'loading' && (
				<p role="status">Reading the site’s pages…</p>
			) }
			{ remote.state === 'error' && (
				<Failure error={ remote.error } what="pages" />
			) }
			{ remote.state === 'done' && ! remote.value.hasMapsField && (
				<p role="alert">
					The site’s pages carry no <code>cairn_maps</code> field: is
					Cairn Maps 0.2 or later active there?
				</p>
			) }
			{ remote.state === 'done' &&
				remote.value.hasMapsField &&
				remote.value.pages.length === 0 && (
					<p>No published page of this site has a map.</p>
				) }
			{ remote.state === 'done' && remote.value.pages.length > 0 && (
				<ul className="app-pages">
					{ remote.value.pages.map( ( page ) => (
						<li key={ page.id }>
							<Link
								to={ {
									view: 'page',
									id: page.id,
									way: 'components',
								} }
							>
								{ page.title || `Page ${ page.id }` }
							</Link>{ ' ' }
							<span className="app-muted">
								({ page.mapCount }{ ' ' }
								{ page.mapCount === 1 ? 'map' : 'maps' })
							</span>
						</li>
					) ) }
				</ul>
			) }
			<PostForm />
		</>
	);
}
