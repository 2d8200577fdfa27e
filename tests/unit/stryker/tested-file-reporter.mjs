/**
 * Stryker only (stryker.config.mjs `plugins` and `reporters`): each mutant's result as it
 * comes, one JSON line in reports/mutation/tested.jsonl, so a run cut short (a busy machine,
 * a session ending) still says what it tested. The score of a full run is printed by the
 * clear-text reporter; `node bin/mutation-score.mjs` reads this file for the score so far.
 */
import fs from 'node:fs';
import path from 'node:path';

export const TESTED_FILE = path.resolve( 'reports/mutation/tested.jsonl' );

// As @stryker-mutator/api's declareFactoryPlugin( PluginKind.Reporter, … ) declares it.
export const strykerPlugins = [
	{
		kind: 'Reporter',
		name: 'tested-file',
		factory: () => {
			fs.mkdirSync( path.dirname( TESTED_FILE ), { recursive: true } );
			fs.writeFileSync( TESTED_FILE, '' );
			return {
				onMutantTested( result ) {
					fs.appendFileSync(
						TESTED_FILE,
						JSON.stringify( {
							file: result.fileName,
							line: result.location.start.line,
							mutator: result.mutatorName,
							replacement: result.replacement,
							status: result.status,
						} ) + '\n'
					);
				},
			};
		},
	},
];
