/**
 * Rendering for the editor's component tests: a fresh data registry with WordPress's own
 * core-data store for each test (so no answer is cached from the test before), and a block
 * whose `setAttributes` keeps the attributes as the editor would, recording each call.
 */
import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import { store as coreStore } from '@wordpress/core-data';
import { createRegistry, RegistryProvider } from '@wordpress/data';
import { useState } from '@wordpress/element';

import type { MapBlockAttributes } from '../../../src/blocks/map/types';
import type { SetAttributes } from '../../../src/blocks/map/inspector/types';

export function renderWithStores( ui: ReactElement ) {
	const registry = createRegistry();
	registry.register( coreStore );
	return render(
		<RegistryProvider value={ registry }>{ ui }</RegistryProvider>
	);
}

interface BlockProps {
	initial: MapBlockAttributes;
	onSet: SetAttributes;
	children: (
		attributes: MapBlockAttributes,
		setAttributes: SetAttributes
	) => ReactElement;
}

function Block( { initial, onSet, children }: BlockProps ) {
	const [ attributes, setState ] = useState( initial );
	return children( attributes, ( next ) => {
		onSet( next );
		setState( ( current ) => ( { ...current, ...next } ) );
	} );
}

/**
 * Renders `children` with the block's attributes; returns the spy of setAttributes.
 * @param initial  The attributes to start from.
 * @param children The panel(s), given the attributes and setAttributes.
 */
export function renderBlock(
	initial: MapBlockAttributes,
	children: BlockProps[ 'children' ]
) {
	const setAttributes = jest.fn< void, [ Partial< MapBlockAttributes > ] >();
	const view = renderWithStores(
		<Block initial={ initial } onSet={ setAttributes }>
			{ children }
		</Block>
	);
	return { ...view, setAttributes };
}
