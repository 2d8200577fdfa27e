/**
 * The app: a header naming the site it reads, and the view the address asks for.
 */
import { useAddress } from './address';
import { HomeView } from './components/HomeView';
import { Link } from './components/Link';
import { PageView } from './components/PageView';
import { PostView } from './components/PostView';

export function App() {
	const { site, invalidSite, refusedSite, sites, token, route } = useAddress(
		import.meta.env
	);

	let view;
	if ( refusedSite ) {
		// Nothing is asked of that site: the app shows the HTML of the sites it reads.
		view = (
			<div role="alert">
				<p>
					This app does not read “{ refusedSite }”: it was built for{ ' ' }
					{ sites.length === 1
						? 'this site only'
						: 'these sites only' }
					.
				</p>
				<ul>
					{ sites.map( ( allowed ) => (
						<li key={ allowed }>
							<code>{ allowed }</code>
						</li>
					) ) }
				</ul>
				<p>
					Its owner adds sites with <code>VITE_CAIRN_SITES</code> when
					building it.
				</p>
			</div>
		);
	} else if ( ! site ) {
		view = (
			<p role="alert">
				“{ invalidSite }” is not a site address. Give one as{ ' ' }
				<code>?site=https://example.com</code>.
			</p>
		);
	} else if ( route.view === 'page' ) {
		view = (
			<PageView
				site={ site }
				id={ route.id }
				way={ route.way }
				token={ token }
			/>
		);
	} else if ( route.view === 'post' ) {
		view = <PostView site={ site } id={ route.id } token={ token } />;
	} else if ( route.view === 'unknown' ) {
		view = (
			<p role="alert">
				This address asks for nothing this app knows. Page and post ids
				are positive whole numbers.
			</p>
		);
	} else {
		view = <HomeView site={ site } />;
	}

	return (
		<>
			<header className="app-header">
				<Link to={ { view: 'home' } }>Cairn Maps, headless</Link>
				{ site && (
					<span className="app-muted">
						reading <a href={ site }>{ site }</a>
						{ token ? ' with this app’s own Mapbox token' : '' }
					</span>
				) }
			</header>
			<main className="app-main">{ view }</main>
		</>
	);
}
