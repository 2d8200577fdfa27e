/**
 * The preview's shapes feed: the block's marker selection on the shapes route (as the server's
 * Feed_Url::shapes() builds it), none for a map without markers, and read again only after a
 * shape changed (a moved point does not reload the shapes).
 */
import './jsdom-globals';
import { act, screen } from '@testing-library/react';

import type { MapBlockAttributes } from '../../../src/blocks/map/types';
import { getEditorData } from '../../../src/blocks/map/editor-data';
import {
	usePreviewFeeds,
	type PreviewFeeds,
} from '../../../src/blocks/map/use-preview-feeds';
import { blockAttributes, fakeRest } from './fake-rest';
import { renderWithStores } from './render';

fakeRest();

const SHAPES = 'https://site.test/wp-json/cairn/v1/shapes';

beforeEach( () => {
	( window as { cairnMapsEditor?: unknown } ).cairnMapsEditor = {
		markersUrl: 'https://site.test/wp-json/cairn/v1/markers',
		shapesUrl: SHAPES,
	};
} );
afterEach( () => {
	delete ( window as { cairnMapsEditor?: unknown } ).cairnMapsEditor;
} );

let feeds: PreviewFeeds;

function Feeds( { attributes }: { attributes: MapBlockAttributes } ) {
	feeds = usePreviewFeeds( attributes, undefined, getEditorData() );
	return <output>{ feeds.shapesUrl }</output>;
}

function shown(): string {
	return screen.getByRole( 'status' ).textContent ?? '';
}

it( 'reads the shapes of the block’s markers, again only after a shape changed', () => {
	renderWithStores(
		<Feeds
			attributes={ blockAttributes( {
				markers: { source: 'groups', groups: [ 'trails' ], ids: [] },
			} ) }
		/>
	);
	expect( shown() ).toBe( `${ SHAPES }?group=trails&cairn_v=0` );

	act( () => feeds.refresh() );
	expect( shown() ).toBe( `${ SHAPES }?group=trails&cairn_v=0` );

	act( () => feeds.refreshShapes() );
	expect( shown() ).toBe( `${ SHAPES }?group=trails&cairn_v=1` );
} );

it( 'reads no shapes for a map without markers', () => {
	renderWithStores(
		<Feeds
			attributes={ blockAttributes( {
				markers: { source: 'none', groups: [], ids: [] },
			} ) }
		/>
	);
	expect( shown() ).toBe( '' );
} );
