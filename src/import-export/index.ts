/**
 * Tools → Import/export markers: the import form first previews the file (`POST
 * /cairn/v1/markers/import?dry_run=1`: counts by kind, rows refused and why, notices, a small map
 * of what will be imported on the site's basemap, or its sketch where no map can be drawn), then
 * imports it or cancels; and the page keeps the progress of the
 * background geocoding up to date (polling `GET /cairn/v1/markers/import/geocoding` while it
 * runs) and cancels it with `DELETE` on the same route. Without this script the form imports
 * at once and the page renders the same boxes on the server; nothing here waits for geocoding.
 */
import apiFetch from '@wordpress/api-fetch';
import { __ } from '@wordpress/i18n';
import './preview.scss';

import { getEditorData } from '../blocks/map/editor-data';
import { parseReport, renderReport } from './preview';
import { createPreviewMap, type PreviewMap } from './preview-map';
import {
	parseGeocodingState,
	renderGeocodingState,
	type GeocodingState,
} from './progress';

const PATH = '/cairn/v1/markers/import/geocoding';
const POLL_MS = 3000;

function start( box: HTMLElement ): void {
	const view = box.ownerDocument.defaultView;
	if ( ! view ) {
		return;
	}
	const canCancel =
		box.querySelector( '.cairn-maps-geocoding-stop' ) !== null;
	let timer: number | undefined;
	let busy = false;

	const show = ( state: GeocodingState ): void => {
		renderGeocodingState( box, state, canCancel );
		view.clearTimeout( timer );
		if ( state.state === 'running' ) {
			timer = view.setTimeout( refresh, POLL_MS );
		}
	};

	const showError = ( error: unknown ): void => {
		const message =
			typeof error === 'object' &&
			error !== null &&
			typeof ( error as { message?: unknown } ).message === 'string'
				? ( error as { message: string } ).message
				: __( 'The progress could not be loaded.', 'cairn-maps' );
		let note = box.querySelector< HTMLElement >(
			'.cairn-maps-geocoding-error'
		);
		if ( ! note ) {
			note = box.ownerDocument.createElement( 'p' );
			note.className = 'cairn-maps-geocoding-error';
			note.setAttribute( 'role', 'alert' );
			box.append( note );
		}
		note.textContent = message;
	};

	// A GET that started before a DELETE must not draw the state the DELETE replaced.
	let latest = 0;
	const request = async ( method: 'GET' | 'DELETE' ): Promise< void > => {
		if ( method === 'GET' && busy ) {
			return;
		}
		const mine = ++latest;
		busy = true;
		try {
			const state = parseGeocodingState(
				await apiFetch( { path: PATH, method } )
			);
			if ( state && mine === latest ) {
				show( state );
			}
		} catch ( error ) {
			if ( mine === latest ) {
				showError( error );
				view.clearTimeout( timer );
				timer = view.setTimeout( refresh, POLL_MS * 3 );
			}
		} finally {
			if ( mine === latest ) {
				busy = false;
			}
		}
	};

	function refresh(): void {
		void request( 'GET' );
	}

	// The cancel/dismiss button: the REST route instead of the page's form.
	box.addEventListener( 'click', ( event ) => {
		const target = event.target;
		if (
			target instanceof view.HTMLElement &&
			target.closest( '.cairn-maps-geocoding-stop' )
		) {
			event.preventDefault();
			void request( 'DELETE' );
		}
	} );
	box.addEventListener( 'submit', ( event ) => {
		event.preventDefault();
		void request( 'DELETE' );
	} );

	refresh();
}

const IMPORT_PATH = '/cairn/v1/markers/import';

/**
 * The import form's fields as the REST route reads them.
 *
 * @param form The form.
 * @return The body, or null without a file.
 */
function importBody( form: HTMLFormElement ): FormData | null {
	const input =
		form.querySelector< HTMLInputElement >( 'input[type="file"]' );
	const file = input?.files?.[ 0 ];
	if ( ! file ) {
		return null;
	}
	const fields = new FormData( form );
	const body = new FormData();
	body.append( 'file', file, file.name );
	const folders = String( fields.get( 'folders' ) ?? 'file' );
	if ( folders === 'folders' ) {
		body.append( 'folder_groups', '1' );
	}
	const group = String( fields.get( 'group' ) ?? '' ).trim();
	if ( folders === 'one' && group !== '' ) {
		body.append( 'group', group );
	}
	const title = String( fields.get( 'title_property' ) ?? '' ).trim();
	if ( title !== '' ) {
		body.append( 'title_property', title );
	}
	return body;
}

function button(
	doc: Document,
	label: string,
	className: string,
	onClick: () => void
): HTMLButtonElement {
	const element = doc.createElement( 'button' );
	element.type = 'button';
	element.className = className;
	element.textContent = label;
	element.addEventListener( 'click', onClick );
	return element;
}

function startImport( form: HTMLFormElement, box: HTMLElement ): void {
	const doc = form.ownerDocument;
	const submit = form.querySelector< HTMLButtonElement >( '[type="submit"]' );

	const send = async ( body: FormData ) => {
		try {
			return parseReport(
				await apiFetch( {
					path: `${ IMPORT_PATH }?dry_run=1`,
					method: 'POST',
					body,
				} )
			);
		} catch ( error ) {
			return parseReport( error );
		}
	};

	// The preview's map, while it shows: a preview replaced or cancelled takes its map with it.
	let previewMap: PreviewMap | null = null;
	const removeMap = (): void => {
		previewMap?.destroy();
		previewMap = null;
	};

	const reset = (): void => {
		removeMap();
		box.hidden = true;
		box.replaceChildren();
		form.hidden = false;
		form.reset();
		if ( submit ) {
			submit.disabled = false;
		}
	};

	const busy = ( message: string ): void => {
		removeMap();
		box.hidden = false;
		box.replaceChildren();
		const note = doc.createElement( 'p' );
		note.className = 'cairn-maps-import-busy';
		note.setAttribute( 'role', 'status' );
		note.textContent = message;
		box.append( note );
	};

	form.addEventListener( 'submit', ( event ) => {
		const body = importBody( form );
		if ( ! body ) {
			return; // The browser's own "required" message.
		}
		event.preventDefault();
		if ( submit ) {
			submit.disabled = true;
		}
		busy( __( 'Reading the file…', 'cairn-maps' ) );
		void send( body ).then( ( preview ) => {
			form.hidden = true;
			removeMap();
			renderReport( box, preview, ( _doc, features, report ) => {
				previewMap = createPreviewMap(
					doc,
					features,
					report.imported,
					getEditorData()
				);
				return previewMap.element;
			} );
			const actions = doc.createElement( 'p' );
			actions.className = 'cairn-maps-import-actions';
			if ( preview.ok ) {
				actions.append(
					button(
						doc,
						__( 'Import', 'cairn-maps' ),
						'button button-primary cairn-maps-import-confirm',
						() => {
							// The page's own form imports the file it previewed (the same
							// file and options): the server's report, and the geocoding
							// progress when rows wait for their address.
							busy( __( 'Importing…', 'cairn-maps' ) );
							HTMLFormElement.prototype.submit.call( form );
						}
					),
					' '
				);
			}
			actions.append(
				button(
					doc,
					preview.ok
						? __( 'Cancel', 'cairn-maps' )
						: __( 'Choose another file', 'cairn-maps' ),
					'button cairn-maps-import-cancel',
					reset
				)
			);
			box.append( actions );
		} );
	} );
}

const box = document.querySelector< HTMLElement >( '.cairn-maps-geocoding' );
if ( box ) {
	start( box );
}
const importForm = document.querySelector< HTMLFormElement >(
	'form.cairn-maps-import-form'
);
const previewBox = document.querySelector< HTMLElement >(
	'.cairn-maps-import-preview'
);
if ( importForm && previewBox ) {
	startImport( importForm, previewBox );
}
