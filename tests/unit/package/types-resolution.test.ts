/**
 * @jest-environment node
 */
/**
 * README snippets compile: every ```ts / ```tsx block of the package's README and of the
 * handbook's headless page (docs/headless.md) is type-checked under `strict` against the packed
 * package, as a user who copies it gets it (with Next.js's own addition to fetch's options, `next: { revalidate }`).
 *
 * Types for every resolver: an app that installs the packed package gets the types of `.` and
 * `./react` under `moduleResolution` `node` (what Next.js 15 writes), `node16`, `nodenext` and
 * `bundler` — not `any` (which would let every mistake through), and not "no types" (which fails
 * a strict type check such as `next build`'s).
 */
import fs from 'node:fs';
import path from 'node:path';

import { ROOT, packedConsumer, typeCheck } from './packed-package';

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

/** The TypeScript blocks of a Markdown file. */
function snippets( file: string ): string[] {
	const text = fs.readFileSync( path.join( ROOT, file ), 'utf8' );
	return [ ...text.matchAll( /^```tsx?\n([\s\S]*?)^```$/gm ) ].map(
		( match ) => match[ 1 ] ?? ''
	);
}

describe( 'README snippets type-check under strict', () => {
	const READMES = [ 'packages/map/README.md', 'docs/headless.md' ];

	it( 'finds the snippets', () => {
		expect(
			snippets( 'packages/map/README.md' ).length
		).toBeGreaterThanOrEqual( 4 );
		expect( snippets( 'docs/headless.md' ).length ).toBeGreaterThanOrEqual(
			1
		);
	} );

	it.each( [ 'bundler', 'node' ] )(
		'moduleResolution %s',
		( moduleResolution ) => {
			const folder = path.join(
				consumer,
				`readme-${ moduleResolution }`
			);
			fs.mkdirSync( folder, { recursive: true } );
			const files = READMES.flatMap( ( readme ) =>
				snippets( readme ).map( ( code, index ) => {
					const name = `${ readme.replace( /\W+/g, '-' ) }-${ index }.tsx`;
					fs.writeFileSync( path.join( folder, name ), code );
					return name;
				} )
			);
			// What Next.js declares for its fetch (next/types/global.d.ts).
			fs.writeFileSync(
				path.join( folder, 'next-fetch.d.ts' ),
				'interface RequestInit { next?: { revalidate?: number | false; tags?: string[] }; }\n'
			);
			fs.writeFileSync(
				path.join( folder, 'tsconfig.json' ),
				JSON.stringify( {
					compilerOptions: {
						target: 'es2022',
						lib: [ 'es2022', 'dom', 'dom.iterable' ],
						module:
							moduleResolution === 'node' ? 'commonjs' : 'esnext',
						moduleResolution,
						jsx: 'react-jsx',
						strict: true,
						noEmit: true,
						skipLibCheck: true,
						esModuleInterop: true,
						isolatedModules: true,
						types: [],
					},
					files: [ 'next-fetch.d.ts', ...files ],
				} )
			);
			expect( typeCheck( path.join( folder, 'tsconfig.json' ) ) ).toBe(
				''
			);
		},
		60_000
	);
} );
