/**
 * The geocoding progress of the Tools → Import/export markers page: what the progress route
 * answers, read defensively, and drawn into the page's `.cairn-maps-geocoding` box with DOM
 * nodes and textContent (addresses and titles come from imported files).
 */
import { __, sprintf } from '@wordpress/i18n';

export interface GeocodingRow {
	line: number;
	address: string;
	message: string;
	editLink: string;
}

export interface GeocodingState {
	state: 'none' | 'running' | 'done' | 'cancelled';
	total: number;
	done: number;
	summary: string;
	report: GeocodingRow[];
	more: number;
}

const STATES = [ 'none', 'running', 'done', 'cancelled' ] as const;

const count = ( value: unknown ): number =>
	typeof value === 'number' && Number.isFinite( value ) && value >= 0
		? Math.floor( value )
		: 0;

const text = ( value: unknown ): string =>
	typeof value === 'string' ? value : '';

/**
 * Reads an answer of `GET /cairn/v1/markers/import/geocoding`.
 *
 * @param data The JSON answer.
 * @return The state, or null when the answer is not one.
 */
export function parseGeocodingState( data: unknown ): GeocodingState | null {
	if ( typeof data !== 'object' || data === null ) {
		return null;
	}
	const record = data as Record< string, unknown >;
	const state = STATES.find( ( name ) => name === record.state );
	if ( ! state ) {
		return null;
	}
	const rows = Array.isArray( record.report ) ? record.report : [];
	return {
		state,
		total: count( record.total ),
		done: count( record.done ),
		summary: text( record.summary ),
		more: count( record.more ),
		report: rows
			.filter(
				( row ): row is Record< string, unknown > =>
					typeof row === 'object' && row !== null
			)
			.map( ( row ) => ( {
				line: count( row.line ),
				address: text( row.address ),
				message: text( row.message ),
				editLink: text( row.edit_link ),
			} ) ),
	};
}

/**
 * Draws the state into the box.
 *
 * @param box       The `.cairn-maps-geocoding` element.
 * @param state     The state.
 * @param canCancel Whether the page offered the cancel/dismiss form.
 */
export function renderGeocodingState(
	box: HTMLElement,
	state: GeocodingState,
	canCancel: boolean
): void {
	const doc = box.ownerDocument;
	box.dataset.cairnGeocodingState = state.state;
	if ( state.state === 'none' ) {
		box.hidden = true;
		box.replaceChildren();
		return;
	}
	box.hidden = false;
	const heading = doc.createElement( 'h2' );
	heading.textContent = __( 'Geocoding addresses', 'cairn-maps' );

	// The status region keeps its node, so screen readers announce each change of its text.
	const summary =
		box.querySelector< HTMLElement >( '.cairn-maps-geocoding-summary' ) ??
		doc.createElement( 'p' );
	summary.className = 'cairn-maps-geocoding-summary';
	summary.setAttribute( 'role', 'status' );
	summary.textContent = state.summary;

	const bar = doc.createElement( 'progress' );
	bar.className = 'cairn-maps-geocoding-progress';
	bar.max = Math.max( 1, state.total );
	bar.value = state.done;
	bar.setAttribute( 'aria-label', __( 'Geocoding progress', 'cairn-maps' ) );
	const barLine = doc.createElement( 'p' );
	barLine.append( bar );

	const list = doc.createElement( 'ul' );
	list.className = 'cairn-maps-geocoding-report';
	for ( const row of state.report ) {
		const item = doc.createElement( 'li' );
		item.textContent = sprintf(
			/* translators: 1: line number in the CSV file, 2: the address, 3: what happened. */
			__( 'Line %1$d: "%2$s": %3$s', 'cairn-maps' ),
			row.line,
			row.address,
			row.message
		);
		if ( row.editLink ) {
			const link = doc.createElement( 'a' );
			link.href = row.editLink;
			link.textContent = __( 'Edit the marker', 'cairn-maps' );
			item.append( ' ', link );
		}
		list.append( item );
	}
	const children: Node[] = [ heading, summary, barLine, list ];
	if ( state.more > 0 ) {
		const more = doc.createElement( 'p' );
		more.className = 'cairn-maps-geocoding-more';
		more.textContent = sprintf(
			/* translators: %s: number of further rows. */
			__( 'and %s more.', 'cairn-maps' ),
			state.more.toLocaleString()
		);
		children.push( more );
	}
	if ( canCancel ) {
		const button = doc.createElement( 'button' );
		button.type = 'button';
		button.className = 'button cairn-maps-geocoding-stop';
		button.textContent =
			state.state === 'running'
				? __( 'Cancel geocoding', 'cairn-maps' )
				: __( 'Dismiss this report', 'cairn-maps' );
		const line = doc.createElement( 'p' );
		line.append( button );
		children.push( line );
	}
	box.replaceChildren( ...children );
}
