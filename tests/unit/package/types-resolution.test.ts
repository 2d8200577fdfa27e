/**
 * @jest-environment node
 */
/**
 * Types for every resolver: an app that installs the packed package gets the types of `.` and
 * `./react` under `moduleResolution` `node` (what Next.js 15 writes), `node16`, `nodenext` and
 * `bundler` — not `any` (which would let every mistake through), and not "no types" (which fails
 * a strict type check such as `next build`'s).
 */
import fs from 'node:fs';
import path from 'node:path';

import { packedConsumer, typeCheck } from './packed-package';

const CONSUMER = `
import { createMap, fetchPostMaps, hydrate } from '@cairn-maps/map';
import type { CreateMapOptions, MapConfig, PostMap, PostMaps } from '@cairn-maps/map';
import { CairnMap } from '@cairn-maps/map/react';
import type { CairnMapProps } from '@cairn-maps/map/react';
import '@cairn-maps/map/style.css';

type IsAny< T > = 0 extends 1 & T ? true : false;
// Each is false only when the type really came from the package.
export const typed: [
	IsAny< typeof createMap >,
	IsAny< typeof hydrate >,
	IsAny< typeof CairnMap >,
	IsAny< CairnMapProps >,
	IsAny< PostMap >,
	IsAny< MapConfig >,
	IsAny< CreateMapOptions >,
] = [ false, false, false, false, false, false, false ];

export async function maps( site: string ) {
	const answer: PostMaps = await fetchPostMaps( site, 42 );
	return answer.maps.map( ( map ) => (
		<CairnMap key={ map.id } config={ map.config } />
	) );
}

// @ts-expect-error: a mistake the types must catch (config is required).
export const wrong = <CairnMap />;
`;

const RESOLUTIONS = [
	{ module: 'commonjs', moduleResolution: 'node' },
	{ module: 'esnext', moduleResolution: 'bundler' },
	{ module: 'node16', moduleResolution: 'node16' },
	{ module: 'nodenext', moduleResolution: 'nodenext' },
];

let consumer = '';

beforeAll( () => {
	consumer = packedConsumer( 'types-consumer' );
	fs.writeFileSync(
		path.join( consumer, 'package.json' ),
		JSON.stringify( { name: 'consumer', private: true, type: 'module' } )
	);
	fs.writeFileSync( path.join( consumer, 'app.tsx' ), CONSUMER );
}, 120_000 );

describe( 'the packed package type-checks in a strict consumer', () => {
	it.each( RESOLUTIONS )(
		'moduleResolution $moduleResolution',
		( { module, moduleResolution } ) => {
			const project = path.join(
				consumer,
				`tsconfig.${ moduleResolution }.json`
			);
			fs.writeFileSync(
				project,
				JSON.stringify( {
					compilerOptions: {
						target: 'es2022',
						lib: [ 'es2022', 'dom', 'dom.iterable' ],
						module,
						moduleResolution,
						jsx: 'react-jsx',
						strict: true,
						noEmit: true,
						// What Next.js and Vite write: the app's own code is checked, not libraries'.
						skipLibCheck: true,
						esModuleInterop: true,
						types: [],
					},
					files: [ 'app.tsx' ],
				} )
			);
			expect( typeCheck( project ) ).toBe( '' );
		},
		60_000
	);
} );
