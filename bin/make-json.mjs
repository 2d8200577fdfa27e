#!/usr/bin/env node
/**
 * Compiles translations the way WordPress loads them, from a .po file of the `cairn-maps` domain:
 *
 *   <name>.mo                      for PHP (gettext-parser's compiler);
 *   <name>-<md5 of script>.json    for each built script that uses a translated string, as
 *                                  `wp i18n make-json` writes them (Jed 1.x data, domain
 *                                  "messages", a context joined to its msgid by \u0004).
 *                                  WordPress finds a script's file by the md5 of the script's path
 *                                  inside the plugin, e.g. md5( 'build/blocks/map/view.js' ).
 *
 * Which script uses which string is read from build/ itself (run `npm run build` first): each
 * built .js file is parsed and its __(), _x(), _n() and _nx() calls of the domain collected, in
 * whatever form webpack and Terser left them (`(0, i.__)( … )`). The .po's own references point
 * at the TypeScript sources, which WordPress never loads. Lazily loaded chunks (build/*.js, such
 * as cairn-map-runtime.js) get files of their own, like a language pack made from the release
 * zip; plugin/I18n/Script_Translations.php hands them to the scripts that load those chunks.
 *
 * Usage: node bin/make-json.mjs <file.po>… [--out <folder>] [--plugin <folder>]
 *   --out     where to write (default: beside each .po)
 *   --plugin  the plugin folder whose build/ to read (default: this repository)
 * npm run i18n:fixtures builds tests/fixtures/languages/plugins/ this way.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { mo, po } from 'gettext-parser';

const require = createRequire( import.meta.url );
const ROOT = path.resolve(
	path.dirname( fileURLToPath( import.meta.url ) ),
	'..'
);
const BUILD = 'build';
const DOMAIN = 'cairn-maps';

/** Argument position of msgid, context and domain per gettext function (WordPress's). */
const FUNCTIONS = {
	__: { msgid: 0, domain: 1 },
	_x: { msgid: 0, context: 1, domain: 2 },
	_n: { msgid: 0, domain: 3 },
	_nx: { msgid: 0, context: 3, domain: 4 },
};

/**
 * The function a call calls: `__(`, `i18n.__(`, or webpack's `(0, i.__)(`.
 * @param {Object} callee A call expression's callee (Babel AST).
 */
function calleeName( callee ) {
	if ( 'SequenceExpression' === callee.type ) {
		return calleeName(
			callee.expressions[ callee.expressions.length - 1 ]
		);
	}
	if ( 'Identifier' === callee.type ) {
		return callee.name;
	}
	if (
		'MemberExpression' === callee.type &&
		! callee.computed &&
		'Identifier' === callee.property.type
	) {
		return callee.property.name;
	}
	return null;
}

/**
 * A string argument's value, or null when it is not a constant string.
 * @param {Object} node A Babel AST node.
 */
function stringValue( node ) {
	if ( ! node ) {
		return null;
	}
	if ( 'StringLiteral' === node.type ) {
		return node.value;
	}
	if ( 'TemplateLiteral' === node.type && 0 === node.expressions.length ) {
		return node.quasis[ 0 ].value.cooked;
	}
	if ( 'BinaryExpression' === node.type && '+' === node.operator ) {
		const left = stringValue( node.left );
		const right = stringValue( node.right );
		return null === left || null === right ? null : left + right;
	}
	return null;
}

/**
 * Every node of an AST, depth first.
 * @param {Object} node A Babel AST node.
 */
function* walk( node ) {
	if ( ! node || 'object' !== typeof node ) {
		return;
	}
	if ( Array.isArray( node ) ) {
		for ( const child of node ) {
			yield* walk( child );
		}
		return;
	}
	if ( 'string' === typeof node.type ) {
		yield node;
	}
	for ( const [ key, value ] of Object.entries( node ) ) {
		if (
			'loc' !== key &&
			'leadingComments' !== key &&
			'trailingComments' !== key &&
			value &&
			'object' === typeof value
		) {
			yield* walk( value );
		}
	}
}

/**
 * The keys (msgid, or context + \u0004 + msgid) of the domain's strings a built script uses.
 *
 * @param {string} source The script's code.
 * @return {Set<string>} Keys as Jed data names them.
 */
export function scriptStrings( source ) {
	const keys = new Set();
	if ( ! source.includes( DOMAIN ) ) {
		return keys;
	}
	const { parse } = require( '@babel/parser' );
	const ast = parse( source, {
		sourceType: 'unambiguous',
		errorRecovery: true,
	} );
	for ( const node of walk( ast.program ) ) {
		if ( 'CallExpression' !== node.type ) {
			continue;
		}
		const positions = FUNCTIONS[ calleeName( node.callee ) ];
		if (
			! positions ||
			DOMAIN !== stringValue( node.arguments[ positions.domain ] )
		) {
			continue;
		}
		const msgid = stringValue( node.arguments[ positions.msgid ] );
		if ( null === msgid ) {
			continue;
		}
		const context =
			undefined === positions.context
				? null
				: stringValue( node.arguments[ positions.context ] );
		keys.add( context ? `${ context }\u0004${ msgid }` : msgid );
	}
	return keys;
}

/**
 * Built scripts, as paths inside the plugin ('build/blocks/map/view.js').
 *
 * @param {string} plugin The plugin's folder.
 * @return {string[]} Paths inside the plugin.
 */
function builtScripts( plugin ) {
	const folder = path.join( plugin, BUILD );
	if ( ! fs.existsSync( folder ) ) {
		throw new Error(
			`${ folder } is missing: run \`npm run build\` first.`
		);
	}
	return fs
		.readdirSync( folder, { recursive: true } )
		.map( ( name ) => `${ BUILD }/${ name.split( path.sep ).join( '/' ) }` )
		.filter( ( name ) => name.endsWith( '.js' ) )
		.sort();
}

/**
 * Translated entries of a .po as Jed data: key → msgstr list.
 * @param {Object} catalogue A .po as gettext-parser parses it.
 */
function jedMessages( catalogue ) {
	const messages = {};
	for ( const [ context, byId ] of Object.entries(
		catalogue.translations
	) ) {
		for ( const [ msgid, entry ] of Object.entries( byId ) ) {
			const fuzzy = /\bfuzzy\b/.test( entry.comments?.flag ?? '' );
			if (
				'' === msgid ||
				fuzzy ||
				! entry.msgstr.some( ( text ) => '' !== text )
			) {
				continue;
			}
			messages[ context ? `${ context }\u0004${ msgid }` : msgid ] =
				entry.msgstr;
		}
	}
	return messages;
}

/**
 * Writes the .mo and the scripts' .json files of one .po.
 *
 * @param {string} poFile   Path of the .po file.
 * @param {string} out      Folder to write to.
 * @param {string} [plugin] The plugin folder whose build/ is read (default: this repository; an
 *                          unpacked release zip for the scripts a release ships).
 * @return {string[]} Paths written.
 */
export function compile( poFile, out, plugin = ROOT ) {
	const catalogue = po.parse( fs.readFileSync( poFile ) );
	const base = path.basename( poFile, '.po' );
	const locale =
		catalogue.headers.Language || base.slice( DOMAIN.length + 1 );
	fs.mkdirSync( out, { recursive: true } );
	const written = [];

	const moFile = path.join( out, `${ base }.mo` );
	fs.writeFileSync( moFile, mo.compile( catalogue ) );
	written.push( moFile );

	// Files of an earlier run whose script is gone or no longer translated must not linger.
	for ( const name of fs.readdirSync( out ) ) {
		if (
			name.startsWith( `${ base }-` ) &&
			/-[0-9a-f]{32}\.json$/.test( name )
		) {
			fs.rmSync( path.join( out, name ) );
		}
	}

	const messages = jedMessages( catalogue );
	for ( const script of builtScripts( plugin ) ) {
		const used = scriptStrings(
			fs.readFileSync( path.join( plugin, script ), 'utf8' )
		);
		const translated = Object.fromEntries(
			[ ...used ]
				.filter( ( key ) => key in messages )
				.sort()
				.map( ( key ) => [ key, messages[ key ] ] )
		);
		if ( 0 === Object.keys( translated ).length ) {
			continue;
		}
		const jed = {
			'translation-revision-date':
				catalogue.headers[ 'PO-Revision-Date' ] ?? '',
			generator: 'bin/make-json.mjs',
			source: script,
			domain: 'messages',
			locale_data: {
				messages: {
					'': {
						domain: 'messages',
						lang: locale,
						'plural-forms':
							catalogue.headers[ 'Plural-Forms' ] ??
							'nplurals=2; plural=(n != 1);',
					},
					...translated,
				},
			},
		};
		const md5 = createHash( 'md5' ).update( script ).digest( 'hex' );
		const jsonFile = path.join( out, `${ base }-${ md5 }.json` );
		fs.writeFileSync( jsonFile, JSON.stringify( jed ) );
		written.push( jsonFile );
	}
	return written;
}

function main() {
	const args = process.argv.slice( 2 );
	const option = ( name ) => {
		const index = args.indexOf( name );
		return -1 === index ? null : args.splice( index, 2 )[ 1 ];
	};
	const out = option( '--out' );
	const plugin = option( '--plugin' );
	if ( 0 === args.length ) {
		console.error(
			'Usage: node bin/make-json.mjs <file.po>… [--out <folder>] [--plugin <folder>]'
		);
		process.exit( 2 );
	}
	for ( const poFile of args ) {
		const written = compile(
			poFile,
			out ?? path.dirname( poFile ),
			plugin ? path.resolve( plugin ) : ROOT
		);
		for ( const file of written ) {
			console.log( path.relative( ROOT, file ) );
		}
	}
}

if ( process.argv[ 1 ] === fileURLToPath( import.meta.url ) ) {
	main();
}
