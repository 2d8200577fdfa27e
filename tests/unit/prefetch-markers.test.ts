/**
 * The loader's prefetch of the marker feed: same-origin only, a Blob URL on success, null
 * (so the runtime falls back to the feed's address) on any failure.
 */
import { prefetchMarkers } from '../../packages/map/src/prefetch-markers';

const created: Blob[] = [];
const revoked: string[] = [];

beforeEach( () => {
	created.length = 0;
	revoked.length = 0;
	// jsdom implements neither fetch nor object URLs.
	Object.assign( URL, {
		createObjectURL: ( blob: Blob ) => {
			created.push( blob );
			return `blob:${ window.location.origin }/${ created.length }`;
		},
		revokeObjectURL: ( url: string ) => revoked.push( url ),
	} );
} );

afterEach( () => {
	delete ( window as { fetch?: unknown } ).fetch;
} );

function serve( response: { ok: boolean; body?: string } | Error ) {
	const fetch = jest.fn( () =>
		response instanceof Error
			? Promise.reject( response )
			: Promise.resolve( {
					ok: response.ok,
					blob: () =>
						Promise.resolve( new Blob( [ response.body ?? '' ] ) ),
				} )
	);
	Object.assign( window, { fetch } );
	return fetch;
}

describe( 'prefetchMarkers', () => {
	it( 'fetches a same-origin feed with the visitor’s cookies and hands back a blob URL', async () => {
		const fetch = serve( {
			ok: true,
			body: '{"type":"FeatureCollection"}',
		} );
		const feed = await prefetchMarkers(
			'/wp-json/cairn/v1/markers?group=a'
		);
		expect( fetch ).toHaveBeenCalledWith(
			`${ window.location.origin }/wp-json/cairn/v1/markers?group=a`,
			{ credentials: 'same-origin' }
		);
		expect( feed?.url ).toBe( `blob:${ window.location.origin }/1` );
		expect( created[ 0 ]!.size ).toBe( 28 );
		feed?.release();
		expect( revoked ).toEqual( [ feed?.url ] );
	} );

	it.each( [
		[
			'another origin',
			'https://elsewhere.example/wp-json/cairn/v1/markers',
		],
		[ 'no address', '' ],
		[ 'not a string', 42 ],
		[ 'a broken address', 'http://[::1' ],
	] )( 'leaves %s to mapbox-gl', async ( _label, address ) => {
		const fetch = serve( { ok: true } );
		await expect( prefetchMarkers( address ) ).resolves.toBeNull();
		expect( fetch ).not.toHaveBeenCalled();
	} );

	it.each( [
		[ 'an HTTP error', { ok: false } ],
		[ 'a network failure', new TypeError( 'Failed to fetch' ) ],
	] )( 'resolves to null on %s', async ( _label, response ) => {
		serve( response );
		await expect(
			prefetchMarkers( '/wp-json/cairn/v1/markers' )
		).resolves.toBeNull();
		expect( created ).toHaveLength( 0 );
	} );
} );
