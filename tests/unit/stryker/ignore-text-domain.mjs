/**
 * Stryker only (stryker.config.mjs `plugins` and `ignorers`): the text domain of a translation
 * call (`__( 'Places', 'cairn-maps' )`) is not mutated. jest loads no translations, so every
 * change of it reads the same English and would survive: 62 equivalent mutants, not gaps. The
 * text itself is still mutated (the tests read it).
 */
const TRANSLATE = new Set( [ '__', '_x', '_n', '_nx' ] );

// As @stryker-mutator/api's declareValuePlugin( PluginKind.Ignore, … ) declares it.
export const strykerPlugins = [
	{
		kind: 'Ignore',
		name: 'text-domain',
		value: {
			shouldIgnore( path ) {
				const { node, parent } = path;
				return node.type === 'StringLiteral' &&
					node.value === 'cairn-maps' &&
					parent?.type === 'CallExpression' &&
					parent.callee.type === 'Identifier' &&
					TRANSLATE.has( parent.callee.name )
					? 'The text domain: jest loads no translations.'
					: undefined;
			},
		},
	},
];
