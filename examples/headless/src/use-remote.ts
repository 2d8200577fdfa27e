/**
 * Data read from the site, with the states a reader sees: loading, failed, done. A new `load`
 * (its inputs changed) aborts the request in flight and starts again.
 */
import { useEffect, useState } from 'react';

export type Remote< T > =
	| { state: 'loading' }
	| { state: 'error'; error: unknown }
	| { state: 'done'; value: T };

const LOADING = { state: 'loading' } as const;

/**
 * @param load Reads the data; memoise it (`useCallback`) on what it reads.
 */
export function useRemote< T >(
	load: ( signal: AbortSignal ) => Promise< T >
): Remote< T > {
	const [ result, setResult ] = useState< {
		load: typeof load;
		remote: Remote< T >;
	} >( { load, remote: LOADING } );

	useEffect( () => {
		const controller = new AbortController();
		load( controller.signal ).then(
			( value ) => {
				if ( ! controller.signal.aborted ) {
					setResult( { load, remote: { state: 'done', value } } );
				}
			},
			( error: unknown ) => {
				if ( ! controller.signal.aborted ) {
					setResult( { load, remote: { state: 'error', error } } );
				}
			}
		);
		return () => controller.abort();
	}, [ load ] );

	// What an earlier `load` gave is not shown for this one.
	return result.load === load ? result.remote : LOADING;
}
