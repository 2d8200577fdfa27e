/**
 * The classic editor's "Add map" button (plugin/Blocks/Shortcode_Button.php): opens the dialog the
 * server rendered (the site's patterns with a map, each title escaped there) and, when the author
 * chooses "Insert map", puts `[cairn_map pattern="<id>"]` into the editor the button belongs to,
 * visual or text, through core's `send_to_editor()`. Nothing here writes HTML.
 */
import './add-map.scss';

declare global {
	interface Window {
		/** Core's media-upload script: inserts HTML into the active editor. */
		send_to_editor?: ( html: string ) => void;
		/** The editor `send_to_editor()` writes into. */
		wpActiveEditor?: string;
	}
}

const BUTTON = '.cairn-maps-add-map-button';
const DIALOG_ID = 'cairn-maps-add-map';

/**
 * The shortcode for a chosen pattern: its ID must be a whole number from 1, else nothing.
 *
 * @param value The chosen radio button's value.
 */
export function patternShortcode( value: string | undefined ): string {
	return value && /^[1-9][0-9]{0,18}$/.test( value )
		? `[cairn_map pattern="${ value }"]`
		: '';
}

function init( doc: Document ): void {
	const dialog = doc.getElementById( DIALOG_ID );
	if ( ! ( dialog instanceof HTMLDialogElement ) ) {
		return;
	}
	const view = doc.defaultView;
	let editor = 'content';
	doc.addEventListener( 'click', ( event ) => {
		const target = event.target instanceof Element ? event.target : null;
		const button = target?.closest< HTMLElement >( BUTTON );
		if ( ! button ) {
			return;
		}
		event.preventDefault();
		editor = button.dataset.editor || 'content';
		dialog.returnValue = '';
		dialog.showModal();
	} );
	dialog.addEventListener( 'click', ( event ) => {
		const target = event.target instanceof Element ? event.target : null;
		const action =
			target?.closest< HTMLElement >( '[data-cairn-close]' )?.dataset
				.cairnClose;
		if ( action ) {
			dialog.close( action );
		}
	} );
	dialog.addEventListener( 'close', () => {
		if ( dialog.returnValue !== 'insert' || ! view?.send_to_editor ) {
			return;
		}
		const chosen = dialog.querySelector< HTMLInputElement >(
			'input[name="cairn-maps-pattern"]:checked'
		);
		const shortcode = patternShortcode( chosen?.value );
		if ( shortcode ) {
			view.wpActiveEditor = editor;
			view.send_to_editor( shortcode );
		}
	} );
}

if ( document.readyState === 'loading' ) {
	document.addEventListener( 'DOMContentLoaded', () => init( document ) );
} else {
	init( document );
}
