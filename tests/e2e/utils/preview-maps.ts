/**
 * The editor's preview maps, as a test reads them: the runtime announces each map it (re)builds
 * with `cairn:map-ready`, in the editor as on the front end.
 */
import type { Editor } from '@wordpress/e2e-test-utils-playwright';

/**
 * From now on, every map the preview (re)builds is `window.cairnPreview` inside the editor canvas.
 * @param editor
 */
export async function watchPreviewMaps( editor: Editor ): Promise< void > {
	await editor.canvas.locator( 'body' ).evaluate( ( body ) => {
		const view = body.ownerDocument.defaultView as unknown as {
			cairnPreview?: unknown;
		};
		body.ownerDocument.addEventListener( 'cairn:map-ready', ( event ) => {
			view.cairnPreview = ( event as CustomEvent ).detail.map;
		} );
	} );
}
