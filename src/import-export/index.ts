/**
 * Tools → Import/export markers: keeps the progress of the background geocoding up to date
 * (polling `GET /cairn/v1/markers/import/geocoding` while it runs) and cancels it with
 * `DELETE` on the same route. The page renders the same box on the server, so it works
 * without this script; nothing here ever waits for geocoding itself.
 */
import apiFetch from '@wordpress/api-fetch';
import { __ } from '@wordpress/i18n';

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

const box = document.querySelector< HTMLElement >( '.cairn-maps-geocoding' );
if ( box ) {
	start( box );
}
