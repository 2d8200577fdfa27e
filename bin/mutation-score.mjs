/**
 * The mutation score so far, from reports/mutation/tested.jsonl (written mutant by mutant by
 * `npm run test:mutation`, tests/unit/stryker/tested-file-reporter.mjs): per file and in all,
 * as Stryker counts it (killed and timed out are detected; survived and no coverage are not;
 * ignored and errors are left out). `--survivors` lists the mutants that lived.
 */
import fs from 'node:fs';

const lines = fs
	.readFileSync( 'reports/mutation/tested.jsonl', 'utf8' )
	.split( '\n' )
	.filter( Boolean )
	.map( ( line ) => JSON.parse( line ) );

const DETECTED = new Set( [ 'Killed', 'Timeout' ] );
const UNDETECTED = new Set( [ 'Survived', 'NoCoverage' ] );
const byFile = new Map();
for ( const { file, status } of lines ) {
	const counts = byFile.get( file ) ?? {
		detected: 0,
		undetected: 0,
		other: 0,
	};
	if ( DETECTED.has( status ) ) {
		counts.detected++;
	} else if ( UNDETECTED.has( status ) ) {
		counts.undetected++;
	} else {
		counts.other++;
	}
	byFile.set( file, counts );
}
const score = ( { detected, undetected } ) =>
	detected + undetected === 0
		? 'n/a'
		: `${ ( ( 100 * detected ) / ( detected + undetected ) ).toFixed( 2 ) } %`;
const total = { detected: 0, undetected: 0, other: 0 };
for ( const [ file, counts ] of [ ...byFile ].sort() ) {
	console.log(
		`${ score( counts ).padStart( 8 ) }  ${ counts.detected } detected, ${ counts.undetected } undetected, ${ counts.other } ignored or errors  ${ file }`
	);
	total.detected += counts.detected;
	total.undetected += counts.undetected;
	total.other += counts.other;
}
console.log(
	`${ score( total ).padStart( 8 ) }  all ${ lines.length } tested so far (${ total.detected } detected, ${ total.undetected } undetected)`
);
if ( process.argv.includes( '--survivors' ) ) {
	for ( const { file, line, mutator, replacement, status } of lines ) {
		if ( UNDETECTED.has( status ) ) {
			console.log(
				`${ status }  ${ file }:${ line }  ${ mutator }  ${ replacement }`
			);
		}
	}
}
