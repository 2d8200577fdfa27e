/**
 * `window.cairnMapsEditor` as the block's editor reads it: untrusted values become safe defaults.
 */
import { getEditorData } from '../../src/blocks/map/editor-data';

afterEach( () => {
	delete ( window as { cairnMapsEditor?: unknown } ).cairnMapsEditor;
} );

/** The looks of routes and areas a group without its own gets (limits.json `groupLine`). */
const DEFAULT_LINE = { lineColor: '', lineWidth: 3, fillOpacity: 0.25 };

describe( 'getEditorData', () => {
	it( 'keeps well-formed group looks for the preview and drops the rest', () => {
		( window as { cairnMapsEditor?: unknown } ).cairnMapsEditor = {
			accessToken: 'pk.x.y',
			groupStyles: [
				{
					slug: 'peaks',
					name: 'Peaks <b>',
					color: '#aa0000',
					icon: '',
				},
				{
					slug: 'huts',
					color: 'red',
					icon: 'https://example.test/hut.png',
				},
				{ slug: 'Bad Slug', color: '#000000', icon: '' },
				{ slug: 'x', color: '#000000', icon: 'javascript:alert(1)' },
				'nonsense',
			],
		};
		expect( getEditorData().groupStyles ).toEqual( [
			// The name is plain text (React renders it as such); a missing one is the slug.
			{
				slug: 'peaks',
				name: 'Peaks <b>',
				color: '#aa0000',
				icon: '',
				...DEFAULT_LINE,
			},
			{
				slug: 'huts',
				name: 'huts',
				color: '',
				icon: 'https://example.test/hut.png',
				...DEFAULT_LINE,
			},
			{
				slug: 'x',
				name: 'x',
				color: '#000000',
				icon: '',
				...DEFAULT_LINE,
			},
		] );
	} );

	it( 'has no group looks, and no token, when nothing was printed', () => {
		const data = getEditorData();
		expect( data.groupStyles ).toEqual( [] );
		expect( data.accessToken ).toBe( '' );
		expect( data.tokenError ).toBe( '' );
	} );
} );
