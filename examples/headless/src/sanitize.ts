/**
 * The HTML this app puts in its page, through DOMPurify: `content.rendered` is the site's own HTML,
 * but a site's authors may hold `unfiltered_html` (administrators and editors do), a plugin may add
 * markup, and this app's origin is not the site's. Scripts, event handlers, `javascript:` links,
 * frames and the like are removed; what the maps need stays: the map blocks' wrappers with their
 * `data-*` attributes (`data-cairn-config`, `data-cairn-state`, `data-cairn-marker-id`, …),
 * `role`/`aria-*`, ids, the places list and its links, the consent button.
 */
import DOMPurify from 'dompurify';

/**
 * A site's HTML, safe to insert into this app's page.
 *
 * @param html HTML from the site (`content.rendered`).
 */
export function sanitizeContent( html: string ): string {
	// DOMPurify's defaults: HTML, SVG and MathML without anything that runs; `data-*` and
	// `aria-*` attributes kept.
	return DOMPurify.sanitize( html );
}
