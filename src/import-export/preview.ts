/**
 * The import preview of Tools → Import/export markers: the report of `POST
 * /cairn/v1/markers/import?dry_run=1` (and of the import itself) read defensively, and drawn
 * with DOM nodes and textContent (titles and messages come from imported files): counts by kind,
 * the rows refused and why, the notices, and what will be imported: a small map on the site's
 * basemap (preview-map.ts, drawn by the page's script), or, where no map can be drawn, a sketch of
 * the preview's GeoJSON in Web Mercator as SVG (no basemap, no request).
 */
import { __, _n, sprintf } from '@wordpress/i18n';

export interface ReportLine {
	text: string;
}

export interface ImportReport {
	ok: boolean;
	dryRun: boolean;
	message: string;
	total: number;
	/** Rows that will be (or were) imported; the preview draws at most the server's first 2,000. */
	imported: number;
	kinds: { markers: number; routes: number; areas: number; posts: number };
	geocoding: number;
	groupsNew: string[];
	groupsCreated: string[];
	skipped: string[];
	skippedCount: number;
	notices: string[];
	noticesCount: number;
	features: PreviewFeature[];
}

export interface PreviewFeature {
	type:
		'Point' | 'LineString' | 'MultiLineString' | 'Polygon' | 'MultiPolygon';
	coordinates: unknown;
	title: string;
}

const count = ( value: unknown ): number =>
	typeof value === 'number' && Number.isFinite( value ) && value >= 0
		? Math.floor( value )
		: 0;

const text = ( value: unknown ): string =>
	typeof value === 'string' ? value : '';

const record = ( value: unknown ): Record< string, unknown > =>
	typeof value === 'object' && value !== null
		? ( value as Record< string, unknown > )
		: {};

/**
 * One report line, as the Tools page's server report writes it: "Line 4: …", "Feature 2: …"
 * or "Row 3 (track "Ridge loop"): …".
 *
 * @param value A refused row or a notice: `line`, `feature` or `row` and `label`, and `message`.
 * @return The line.
 */
export function problemText( value: unknown ): string {
	const problem = record( value );
	const message = text( problem.message );
	if ( typeof problem.row === 'number' ) {
		return sprintf(
			/* translators: 1: place of the track, route, waypoint or placemark in the GPX or KML file (from 1), 2: what it is, e.g. track "Ridge loop", 3: what is wrong. */
			__( 'Row %1$d (%2$s): %3$s', 'cairn-maps' ),
			problem.row,
			text( problem.label ),
			message
		);
	}
	if ( typeof problem.line === 'number' ) {
		return sprintf(
			/* translators: 1: line number in the CSV file, 2: what is wrong. */
			__( 'Line %1$d: %2$s', 'cairn-maps' ),
			problem.line,
			message
		);
	}
	if ( typeof problem.feature === 'number' ) {
		return sprintf(
			/* translators: 1: index of the feature in the GeoJSON file (from 0), 2: what is wrong. */
			__( 'Feature %1$d: %2$s', 'cairn-maps' ),
			problem.feature,
			message
		);
	}
	return message;
}

const TYPES = [
	'Point',
	'LineString',
	'MultiLineString',
	'Polygon',
	'MultiPolygon',
] as const;

/**
 * Reads an import answer: the report of a (dry) run, or the error of a file nothing of which
 * can be imported (`data.errors`).
 *
 * @param data The JSON answer (or the error apiFetch threw).
 * @return The report.
 */
export function parseReport( data: unknown ): ImportReport {
	const answer = record( data );
	const isError = typeof answer.code === 'string';
	const body = isError ? record( answer.data ) : answer;
	const kinds = record( body.kinds );
	const list = ( value: unknown ): unknown[] =>
		Array.isArray( value ) ? value : [];
	const skipped = list( isError ? body.errors : body.skipped );
	const notices = list( body.notices );
	const features: PreviewFeature[] = [];
	for ( const item of list( record( body.preview ).features ) ) {
		const geometry = record( record( item ).geometry );
		const type = TYPES.find( ( name ) => name === geometry.type );
		if ( type && Array.isArray( geometry.coordinates ) ) {
			features.push( {
				type,
				coordinates: geometry.coordinates,
				title: text( record( record( item ).properties ).title ),
			} );
		}
	}
	return {
		ok: ! isError,
		dryRun: body.dry_run === true,
		message: isError
			? text( answer.message ) ||
				__( 'The file could not be imported.', 'cairn-maps' )
			: '',
		total: count( body.total ),
		imported: count( body.imported ),
		kinds: {
			markers: count( kinds.markers ),
			routes: count( kinds.routes ),
			areas: count( kinds.areas ),
			posts: count( kinds.posts ),
		},
		geocoding: count( body.geocoding ),
		groupsNew: list( body.groups_new ).map( text ).filter( Boolean ),
		groupsCreated: list( body.groups_created )
			.map( text )
			.filter( Boolean ),
		skipped: skipped.map( problemText ),
		skippedCount: Math.max( skipped.length, count( body.skipped_count ) ),
		notices: notices.map( problemText ),
		noticesCount: Math.max( notices.length, count( body.notices_count ) ),
		features,
	};
}

/**
 * The counts by kind, as one sentence.
 *
 * @param report The report.
 * @return E.g. "Will be imported: 3 markers, 1 route, 0 areas."
 */
export function kindsText( report: ImportReport ): string {
	const { markers, routes, areas, posts } = report.kinds;
	const parts: string[] = [
		sprintf(
			/* translators: %s: number of markers (points). */
			_n( '%s marker', '%s markers', markers, 'cairn-maps' ),
			markers.toLocaleString()
		),
		sprintf(
			/* translators: %s: number of routes (lines). */
			_n( '%s route', '%s routes', routes, 'cairn-maps' ),
			routes.toLocaleString()
		),
		sprintf(
			/* translators: %s: number of areas. */
			_n( '%s area', '%s areas', areas, 'cairn-maps' ),
			areas.toLocaleString()
		),
	];
	if ( posts > 0 ) {
		parts.push(
			sprintf(
				/* translators: %s: number of posts with a place. */
				_n( '%s post', '%s posts', posts, 'cairn-maps' ),
				posts.toLocaleString()
			)
		);
	}
	const counts = parts.join( ', ' );
	return report.dryRun
		? sprintf(
				/* translators: %s: list of counts, e.g. "3 markers, 1 route, 0 areas". */
				__( 'Will be imported: %s.', 'cairn-maps' ),
				counts
			)
		: sprintf(
				/* translators: %s: list of counts, e.g. "3 markers, 1 route, 0 areas". */
				__( 'Imported: %s.', 'cairn-maps' ),
				counts
			);
}

type Position = [ number, number ];

function positions( value: unknown, out: Position[][] ): void {
	// Collects the innermost position lists (a point is a list of one).
	if ( ! Array.isArray( value ) || value.length === 0 ) {
		return;
	}
	if ( typeof value[ 0 ] === 'number' ) {
		out.push( [ [ Number( value[ 0 ] ), Number( value[ 1 ] ) ] ] );
		return;
	}
	if (
		Array.isArray( value[ 0 ] ) &&
		typeof ( value[ 0 ] as unknown[] )[ 0 ] === 'number'
	) {
		out.push(
			( value as unknown[][] ).map(
				( p ) => [ Number( p[ 0 ] ), Number( p[ 1 ] ) ] as Position
			)
		);
		return;
	}
	for ( const part of value ) {
		positions( part, out );
	}
}

const mercator = ( [ lng, lat ]: Position ): Position => {
	const clamped = Math.max( -85, Math.min( 85, lat ) );
	const y = Math.log( Math.tan( Math.PI / 4 + ( clamped * Math.PI ) / 360 ) );
	return [ lng / 360, -y / ( 2 * Math.PI ) ];
};

/** West, south, east, north (degrees). */
export type Bounds = [ number, number, number, number ];

/**
 * The extent of the features.
 *
 * @param features The preview's features.
 * @return West, south, east, north; null when none has a place.
 */
export function featureBounds( features: PreviewFeature[] ): Bounds | null {
	const lists: Position[][] = [];
	for ( const feature of features ) {
		positions( feature.coordinates, lists );
	}
	const all = lists
		.flat()
		.filter(
			( p ) => Number.isFinite( p[ 0 ] ) && Number.isFinite( p[ 1 ] )
		);
	if ( all.length === 0 ) {
		return null;
	}
	const lngs = all.map( ( p ) => p[ 0 ] );
	const lats = all.map( ( p ) => p[ 1 ] );
	return [
		Math.min( ...lngs ),
		Math.min( ...lats ),
		Math.max( ...lngs ),
		Math.max( ...lats ),
	];
}

/** The closest a preview map comes: one marker is shown in its streets, not its house. */
export const PREVIEW_MAX_ZOOM = 14;

/**
 * The view that shows the whole extent in a box of that size (512 px tiles, as both map
 * libraries draw them), so the map's first tiles are the ones it shows.
 *
 * @param bounds  The extent.
 * @param width   Width of the map, in px.
 * @param height  Height of the map, in px.
 * @param padding Room kept free on each side, in px.
 * @return The centre and the zoom (0 to PREVIEW_MAX_ZOOM).
 */
export function previewCamera(
	bounds: Bounds,
	width: number,
	height: number,
	padding = 24
): { center: { lng: number; lat: number }; zoom: number } {
	const [ west, south, east, north ] = bounds;
	const [ x0, y0 ] = mercator( [ west, north ] );
	const [ x1, y1 ] = mercator( [ east, south ] );
	const room = ( size: number ) => Math.max( 1, size - 2 * padding );
	const fits = Math.min(
		room( width ) / Math.max( ( x1 - x0 ) * 512, 1e-9 ),
		room( height ) / Math.max( ( y1 - y0 ) * 512, 1e-9 )
	);
	const y = -( y0 + y1 ) / 2;
	return {
		center: {
			lng: ( west + east ) / 2,
			lat:
				( ( 2 * Math.atan( Math.exp( 2 * Math.PI * y ) ) -
					Math.PI / 2 ) *
					180 ) /
				Math.PI,
		},
		zoom: Math.max( 0, Math.min( PREVIEW_MAX_ZOOM, Math.log2( fits ) ) ),
	};
}

const SVG = 'http://www.w3.org/2000/svg';

/**
 * A small sketch of the features: areas filled, routes stroked, markers as dots, fitted to their
 * extent (Web Mercator), each with its title as a tooltip.
 *
 * @param doc      The document.
 * @param features The preview's features.
 * @param size     Width and height, in px.
 * @return The SVG element (empty when nothing has a place).
 */
export function sketch(
	doc: Document,
	features: PreviewFeature[],
	size = 320
): SVGSVGElement {
	const svg = doc.createElementNS( SVG, 'svg' );
	svg.setAttribute( 'class', 'cairn-maps-import-map' );
	svg.setAttribute( 'width', String( size ) );
	svg.setAttribute( 'height', String( size ) );
	svg.setAttribute( 'viewBox', `0 0 ${ size } ${ size }` );
	svg.setAttribute( 'role', 'img' );
	svg.setAttribute(
		'aria-label',
		__( 'Sketch of the places that will be imported', 'cairn-maps' )
	);
	const projected = features.map( ( feature ) => {
		const lists: Position[][] = [];
		positions( feature.coordinates, lists );
		return lists.map( ( list ) => list.map( mercator ) );
	} );
	const all = projected.flat( 2 );
	if ( all.length === 0 ) {
		return svg;
	}
	const xs = all.map( ( p ) => p[ 0 ] );
	const ys = all.map( ( p ) => p[ 1 ] );
	const [ minX, maxX, minY, maxY ] = [
		Math.min( ...xs ),
		Math.max( ...xs ),
		Math.min( ...ys ),
		Math.max( ...ys ),
	];
	const pad = 12;
	const span = Math.max( maxX - minX, maxY - minY, 1e-9 );
	const scale = ( size - 2 * pad ) / span;
	const offX = pad + ( size - 2 * pad - ( maxX - minX ) * scale ) / 2;
	const offY = pad + ( size - 2 * pad - ( maxY - minY ) * scale ) / 2;
	const xy = ( p: Position ): string =>
		`${ ( offX + ( p[ 0 ] - minX ) * scale ).toFixed( 1 ) },${ (
			offY +
			( p[ 1 ] - minY ) * scale
		).toFixed( 1 ) }`;
	const background = doc.createElementNS( SVG, 'rect' );
	background.setAttribute( 'width', String( size ) );
	background.setAttribute( 'height', String( size ) );
	background.setAttribute( 'fill', '#f0f4f8' );
	svg.append( background );
	features.forEach( ( feature, index ) => {
		const title = doc.createElementNS( SVG, 'title' );
		title.textContent = feature.title;
		const parts = projected[ index ] ?? [];
		let shape: SVGElement;
		const point = parts[ 0 ]?.[ 0 ];
		if ( feature.type === 'Point' ) {
			if ( ! point ) {
				return;
			}
			const [ x = '0', y = '0' ] = xy( point ).split( ',' );
			shape = doc.createElementNS( SVG, 'circle' );
			shape.setAttribute( 'cx', x );
			shape.setAttribute( 'cy', y );
			shape.setAttribute( 'r', '4' );
			shape.setAttribute( 'fill', '#d63638' );
		} else {
			const area = feature.type.endsWith( 'Polygon' );
			shape = doc.createElementNS( SVG, 'path' );
			shape.setAttribute(
				'd',
				parts
					.map(
						( part ) =>
							'M' +
							part.map( xy ).join( 'L' ) +
							( area ? 'Z' : '' )
					)
					.join( ' ' )
			);
			shape.setAttribute(
				'fill',
				area ? 'rgba(34,113,177,0.3)' : 'none'
			);
			shape.setAttribute( 'stroke', area ? '#2271b1' : '#008a20' );
			shape.setAttribute( 'stroke-width', '2' );
		}
		shape.setAttribute( 'data-kind', feature.type );
		shape.append( title );
		svg.append( shape );
	} );
	return svg;
}

function listOf(
	doc: Document,
	className: string,
	lines: string[]
): HTMLElement {
	const ul = doc.createElement( 'ul' );
	ul.className = className;
	for ( const line of lines ) {
		const li = doc.createElement( 'li' );
		li.textContent = line;
		ul.append( li );
	}
	return ul;
}

function paragraph(
	doc: Document,
	value: string,
	className = ''
): HTMLElement {
	const p = doc.createElement( 'p' );
	p.textContent = value;
	if ( className ) {
		p.className = className;
	}
	return p;
}

/** Draws what a dry run will import; the sketch by default. */
export type DrawPreview = (
	doc: Document,
	features: PreviewFeature[],
	report: ImportReport
) => Element;

/**
 * Draws a report into the preview box (its previous content replaced).
 *
 * @param box    The box.
 * @param report The report.
 * @param draw   Draws the features of a dry run (the page's script: a map, else the sketch).
 */
export function renderReport(
	box: HTMLElement,
	report: ImportReport,
	draw: DrawPreview = ( doc, features ) => sketch( doc, features )
): void {
	const doc = box.ownerDocument;
	box.replaceChildren();
	const notice = doc.createElement( 'div' );
	notice.className = `notice ${
		report.ok ? 'notice-success' : 'notice-error'
	} inline cairn-maps-import-report`;
	notice.setAttribute( 'role', report.ok ? 'status' : 'alert' );
	if ( ! report.ok ) {
		notice.append( paragraph( doc, report.message ) );
	} else {
		notice.append(
			paragraph( doc, kindsText( report ), 'cairn-maps-import-kinds' )
		);
		if ( report.geocoding > 0 ) {
			notice.append(
				paragraph(
					doc,
					sprintf(
						/* translators: %s: number of markers. */
						_n(
							'%s of them has an address and no coordinates: it is saved as a draft and published once its address is found.',
							'%s of them have an address and no coordinates: they are saved as drafts and published once their address is found.',
							report.geocoding,
							'cairn-maps'
						),
						report.geocoding.toLocaleString()
					)
				)
			);
		}
		const groups = report.dryRun ? report.groupsNew : report.groupsCreated;
		if ( groups.length > 0 ) {
			notice.append(
				paragraph(
					doc,
					report.dryRun
						? sprintf(
								/* translators: %s: comma-separated group names. */
								__( 'New groups: %s.', 'cairn-maps' ),
								groups.join( ', ' )
							)
						: sprintf(
								/* translators: %s: comma-separated group slugs. */
								__( 'Groups created: %s.', 'cairn-maps' ),
								groups.join( ', ' )
							)
				)
			);
		}
	}
	if ( report.skippedCount > 0 ) {
		const rows = report.skippedCount.toLocaleString();
		notice.append(
			paragraph(
				doc,
				report.dryRun
					? sprintf(
							/* translators: %s: number of rows. */
							_n(
								'%s row will not be imported:',
								'%s rows will not be imported:',
								report.skippedCount,
								'cairn-maps'
							),
							rows
						)
					: sprintf(
							/* translators: %s: number of rows. */
							_n(
								'%s row was not imported:',
								'%s rows were not imported:',
								report.skippedCount,
								'cairn-maps'
							),
							rows
						)
			),
			listOf( doc, 'cairn-maps-import-problems', report.skipped )
		);
		if ( report.skippedCount > report.skipped.length ) {
			notice.append(
				paragraph(
					doc,
					sprintf(
						/* translators: %s: number of further rows. */
						__( 'and %s more.', 'cairn-maps' ),
						(
							report.skippedCount - report.skipped.length
						).toLocaleString()
					)
				)
			);
		}
	}
	if ( report.notices.length > 0 ) {
		notice.append(
			paragraph( doc, __( 'Notes:', 'cairn-maps' ) ),
			listOf( doc, 'cairn-maps-import-notices', report.notices )
		);
	}
	box.append( notice );
	if ( report.dryRun && report.features.length > 0 ) {
		box.append( draw( doc, report.features, report ) );
	}
}
