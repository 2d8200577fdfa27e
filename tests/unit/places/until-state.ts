/**
 * Waiting on the places controller in unit tests: a promise that resolves once its state
 * satisfies a condition (checked at once and on every change), inside React's act() where a
 * panel is rendered.
 */
import { act } from 'react';

import type {
	PlacesController,
	PlacesState,
} from '../../../packages/map/src/places/controller';

/**
 * Resolves once the state satisfies the condition.
 * @param places    The controller.
 * @param condition What to wait for.
 */
export function stateWhere(
	places: PlacesController,
	condition: ( state: PlacesState ) => boolean
): Promise< void > {
	return new Promise< void >( ( resolve ) => {
		const check = () => {
			if ( condition( places.getState() ) ) {
				stop();
				resolve();
			}
		};
		const stop = places.subscribe( check );
		check();
	} );
}

/**
 * The same inside act(), for tests that render the panel.
 * @param places    The controller.
 * @param condition What to wait for.
 */
export function untilState(
	places: PlacesController,
	condition: ( state: PlacesState ) => boolean
): Promise< void > {
	return act( () => stateWhere( places, condition ) );
}
