/**
 * The HTML this app puts in its page, through DOMPurify: `content.rendered` is the site's own HTML,
 * but a site's authors may hold `unfiltered_html` (administrators and editors do), a plugin may add
 * markup, and this app's origin is not the site's. Scripts, event handlers, `javascript:` links,
 * frames and the like are removed; what the maps need stays: the map blocks' wrappers with their
 * `data-*` attributes (`data-cairn-config`, `data-cairn-state`, `data-cairn-key`,
 * `data-cairn-marker-id`, …), `role`/`aria-*`, ids, the places list and its links, the consent
 * button, and each rendered map's key script.
 *
 * The key: the server renders each map with a fresh key in `data-cairn-key` and in a
 * `<script type="application/json" class="wp-block-cairn-map__key">` child, and `hydrate()` starts
 * only wrappers whose two keys agree (an author's look-alike wrapper has no such script). DOMPurify
 * removes every script, so the key scripts found in the site's HTML are put back, as inert JSON
 * text made here, into the same wrappers of the sanitised HTML. Nothing else is added.
 */
import DOMPurify from 'dompurify';

const WRAPPER = 'wp-block-cairn-map';
const KEY_CLASS = 'wp-block-cairn-map__key';
const KEY = /^[0-9a-f]{32}$/;

/**
 * The keys of the wrappers the server rendered: a 32-hex-digit `data-cairn-key` and, among the
 * wrapper's own children, a key script holding the same key as a JSON string.
 *
 * @param root Parsed HTML (inert).
 */
function renderedKeys( root: ParentNode ): Set< string > {
	const keys = new Set< string >();
	for ( const host of root.querySelectorAll< HTMLElement >(
		`.${ WRAPPER }`
	) ) {
		const key = host.dataset.cairnKey ?? '';
		const script = Array.from( host.children ).find(
			( child ) =>
				child.localName === 'script' &&
				child.classList.contains( KEY_CLASS ) &&
				child.getAttribute( 'type' ) === 'application/json'
		);
		if (
			KEY.test( key ) &&
			script?.textContent === JSON.stringify( key )
		) {
			keys.add( key );
		}
	}
	return keys;
}

/**
 * A site's HTML, safe to insert into this app's page.
 *
 * @param html HTML from the site (`content.rendered`).
 */
export function sanitizeContent( html: string ): string {
	const keys = renderedKeys(
		new DOMParser().parseFromString( html, 'text/html' ).body
	);
	// DOMPurify's defaults: HTML, SVG and MathML without anything that runs; `data-*` and
	// `aria-*` attributes kept. The result is a body in an inert document of DOMPurify's.
	// DOMPurify types RETURN_DOM's result as a Node; it is the <body> element holding the HTML.
	const body = DOMPurify.sanitize( html, {
		RETURN_DOM: true,
	} ) as HTMLElement;
	for ( const host of body.querySelectorAll< HTMLElement >(
		`.${ WRAPPER }`
	) ) {
		const key = host.dataset.cairnKey ?? '';
		if ( keys.has( key ) ) {
			const script = host.ownerDocument.createElement( 'script' );
			script.type = 'application/json';
			script.className = KEY_CLASS;
			script.textContent = JSON.stringify( key );
			host.append( script );
		}
	}
	return body.innerHTML;
}
