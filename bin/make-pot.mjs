#!/usr/bin/env node
/**
 * npm run i18n:pot — writes languages/cairn-maps.pot from the plugin's sources, as
 * `wp i18n make-pot` would:
 *
 *   PHP            cairn-maps.php, uninstall.php, plugin/: GNU xgettext (Debian's `gettext`) with
 *                  WordPress's gettext functions as keywords and `translators:` comments.
 *   TypeScript     src/, packages/map/src/: @wordpress/babel-plugin-makepot (WordPress's own
 *                  extractor, as Gutenberg uses it) on Babel's TypeScript + JSX parser.
 *   block.json     title, description, keywords (and styles, variations) with core's contexts
 *                  (wp-includes/block-i18n.json), as WordPress translates them.
 *   plugin header  Plugin Name, Description, Author, as WordPress translates them.
 *
 * Why not @wp-blocks/make-pot (a Node port of `wp i18n make-pot`): 1.6.6 found no string in
 * block.json (it fetches core's schema from the network and got nothing back offline), lost
 * `translators:` comments written on the line above a PHP statement (cairn-maps.php), asks
 * questions on stdin when the header lacks an e-mail, and its make-json joins a context to its
 * msgid without the \u0004 separator WordPress's Jed data uses.
 *
 * Entries are merged by (context, msgid): references are joined, translator comments kept once.
 * POT-Creation-Date only changes when an entry does, so an unchanged run leaves the file alone.
 * `--check` writes nothing and exits 1 when the committed .pot lacks a string the sources have, or
 * has one they no longer have (msgid, context, plural, translator comment or flag). Reference lines
 * (`#: file:line`) are not compared: a line moving in a source file changes no translation, and
 * `npm run i18n:pot` (run before a release zip) refreshes them.
 *
 * Usage: node bin/make-pot.mjs [--check]
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { po } from 'gettext-parser';

const require = createRequire( import.meta.url );
const ROOT = path.resolve(
	path.dirname( fileURLToPath( import.meta.url ) ),
	'..'
);
const DOMAIN = 'cairn-maps';
const OUTPUT = path.join( ROOT, 'languages', `${ DOMAIN }.pot` );
const PHP_SOURCES = [ 'cairn-maps.php', 'uninstall.php', 'plugin' ];
const JS_SOURCES = [ 'src', 'packages/map/src' ];
const BLOCK_JSON = [ 'src/blocks/map/block.json' ];

/** WordPress's gettext functions, as xgettext keywords (WP-CLI's list). */
const PHP_KEYWORDS = [
	'__',
	'_e',
	'_x:1,2c',
	'_ex:1,2c',
	'_n:1,2',
	'_nx:1,2,4c',
	'_n_noop:1,2',
	'_nx_noop:1,2,3c',
	'esc_attr__',
	'esc_html__',
	'esc_attr_e',
	'esc_html_e',
	'esc_attr_x:1,2c',
	'esc_html_x:1,2c',
];

/** Translatable block.json fields and their contexts (core's block-i18n.json). */
const BLOCK_FIELDS = {
	title: 'block title',
	description: 'block description',
	keywords: 'block keyword',
};

/**
 * Files under a folder (or the file itself) whose name passes `accept`, sorted.
 * @param {string}                    relative A file or folder inside the plugin.
 * @param {(name: string) => boolean} accept   Whether a file is wanted.
 */
function listFiles( relative, accept ) {
	const full = path.join( ROOT, relative );
	if ( ! fs.existsSync( full ) ) {
		return [];
	}
	if ( fs.statSync( full ).isFile() ) {
		return accept( relative ) ? [ relative ] : [];
	}
	return fs
		.readdirSync( full, { recursive: true } )
		.map( ( name ) =>
			path.join( relative, name ).split( path.sep ).join( '/' )
		)
		.filter(
			( name ) =>
				accept( name ) &&
				fs.statSync( path.join( ROOT, name ) ).isFile()
		)
		.sort();
}

/** An empty catalogue: context → msgid → entry. */
function catalogue() {
	return new Map();
}

/**
 * Adds an entry, merging references and comments with one already there.
 * @param {Map<string, Map<string, Object>>} entries The catalogue.
 * @param {Object}                           entry   msgctxt, msgid, msgid_plural, references, extracted, flags.
 */
function add( entries, entry ) {
	const context = entry.msgctxt ?? '';
	if ( ! entries.has( context ) ) {
		entries.set( context, new Map() );
	}
	const byId = entries.get( context );
	const known = byId.get( entry.msgid );
	if ( ! known ) {
		byId.set( entry.msgid, {
			msgctxt: entry.msgctxt,
			msgid: entry.msgid,
			msgid_plural: entry.msgid_plural,
			references: [ ...( entry.references ?? [] ) ],
			extracted: [ ...( entry.extracted ?? [] ) ],
			flags: [ ...( entry.flags ?? [] ) ],
		} );
		return;
	}
	known.msgid_plural ??= entry.msgid_plural;
	for ( const key of [ 'references', 'extracted', 'flags' ] ) {
		for ( const value of entry[ key ] ?? [] ) {
			if ( ! known[ key ].includes( value ) ) {
				known[ key ].push( value );
			}
		}
	}
}

/**
 * Entries of a gettext-parser catalogue, with their comments split into lists.
 * @param {Object} parsed A catalogue as gettext-parser parses it.
 */
function* entriesOf( parsed ) {
	for ( const [ context, byId ] of Object.entries( parsed.translations ) ) {
		for ( const [ msgid, entry ] of Object.entries( byId ) ) {
			if ( '' === msgid ) {
				continue;
			}
			const comments = entry.comments ?? {};
			const lines = ( text ) =>
				text ? text.split( '\n' ).filter( Boolean ) : [];
			yield {
				msgctxt: context || undefined,
				msgid,
				msgid_plural: entry.msgid_plural,
				references: lines( comments.reference ).flatMap( ( line ) =>
					line.split( ' ' )
				),
				// One translator comment per entry, as WP-CLI writes it ("translators: …").
				extracted: lines( comments.extracted )
					.join( ' ' )
					.split( /\s*(?=translators:)/i )
					.filter( Boolean )
					.map( ( text ) =>
						/^translators:/i.test( text )
							? text
							: `translators: ${ text }`
					),
				flags: lines( comments.flag ).flatMap( ( line ) =>
					line.split( /,\s*/ )
				),
			};
		}
	}
}

function fromPluginHeader( entries ) {
	const source = fs.readFileSync(
		path.join( ROOT, 'cairn-maps.php' ),
		'utf8'
	);
	const fields = {
		'Plugin Name': 'Plugin Name',
		Description: 'Description',
		Author: 'Author',
	};
	for ( const [ header, label ] of Object.entries( fields ) ) {
		const match = source.match(
			new RegExp( `^\\s*\\*\\s*${ header }:\\s*(.+?)\\s*$`, 'm' )
		);
		if ( match ) {
			add( entries, {
				msgid: match[ 1 ],
				references: [ 'cairn-maps.php' ],
				extracted: [ `${ label } of the plugin` ],
			} );
		}
	}
}

function fromPhp( entries ) {
	const files = PHP_SOURCES.flatMap( ( source ) =>
		listFiles( source, ( name ) => name.endsWith( '.php' ) )
	);
	const xgettext = spawnSync(
		'xgettext',
		[
			'--language=PHP',
			'--from-code=UTF-8',
			'--add-comments=translators:',
			'--no-wrap',
			'--output=-',
			...PHP_KEYWORDS.map( ( keyword ) => `--keyword=${ keyword }` ),
			...files,
		],
		{ cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }
	);
	if ( xgettext.error ) {
		throw new Error(
			`xgettext could not run (${ xgettext.error.message }): install GNU gettext (Debian: apt-get install gettext).`
		);
	}
	if ( 0 !== xgettext.status ) {
		throw new Error( `xgettext failed:\n${ xgettext.stderr }` );
	}
	// Not --omit-header: without a header xgettext drops every character outside ASCII.
	const parsed = po.parse(
		xgettext.stdout.replace( 'charset=CHARSET', 'charset=UTF-8' )
	);
	for ( const entry of entriesOf( parsed ) ) {
		add( entries, entry );
	}
}

function fromBlockJson( entries ) {
	for ( const file of BLOCK_JSON ) {
		const block = JSON.parse(
			fs.readFileSync( path.join( ROOT, file ), 'utf8' )
		);
		const strings = [];
		for ( const [ field, context ] of Object.entries( BLOCK_FIELDS ) ) {
			for ( const value of [ block[ field ] ].flat() ) {
				if ( 'string' === typeof value && '' !== value ) {
					strings.push( [ context, value ] );
				}
			}
		}
		for ( const style of block.styles ?? [] ) {
			strings.push( [ 'block style label', style.label ] );
		}
		for ( const variation of block.variations ?? [] ) {
			strings.push( [ 'block variation title', variation.title ] );
			strings.push( [
				'block variation description',
				variation.description,
			] );
			for ( const keyword of variation.keywords ?? [] ) {
				strings.push( [ 'block variation keyword', keyword ] );
			}
		}
		for ( const [ msgctxt, msgid ] of strings ) {
			if ( 'string' === typeof msgid && '' !== msgid ) {
				add( entries, { msgctxt, msgid, references: [ file ] } );
			}
		}
	}
}

function fromTypeScript( entries ) {
	const babel = require( '@babel/core' );
	const makepot = require( '@wordpress/babel-plugin-makepot' );
	const files = JS_SOURCES.flatMap( ( source ) =>
		listFiles(
			source,
			( name ) =>
				/\.(ts|tsx|js|jsx|mjs)$/.test( name ) &&
				! /\.d\.ts$|\.test\.|\/test\/|\.generated\./.test( name )
		)
	);
	const temporary = fs.mkdtempSync(
		path.join( os.tmpdir(), 'cairn-maps-pot-' )
	);
	const output = path.join( temporary, 'js.pot' );
	// One plugin object for every file: it gathers all files' strings and writes them together.
	const plugin = makepot( babel );
	try {
		for ( const file of files ) {
			babel.transformFileSync( path.join( ROOT, file ), {
				cwd: ROOT,
				babelrc: false,
				configFile: false,
				code: false,
				parserOpts: { plugins: [ 'typescript', 'jsx' ] },
				plugins: [ [ plugin, { output } ] ],
			} );
		}
		if ( ! fs.existsSync( output ) ) {
			return;
		}
		for ( const entry of entriesOf(
			po.parse( fs.readFileSync( output ) )
		) ) {
			add( entries, entry );
		}
	} finally {
		fs.rmSync( temporary, { recursive: true, force: true } );
	}
}

/**
 * Orders references naturally (file, then line) and writes the catalogue as a .pot.
 * @param {Map<string, Map<string, Object>>} entries      The catalogue.
 * @param {string}                           creationDate POT-Creation-Date.
 */
function render( entries, creationDate ) {
	const headers = {
		'Project-Id-Version': `Cairn Maps ${ pluginVersion() }`,
		'Report-Msgid-Bugs-To':
			'https://wordpress.org/support/plugin/cairn-maps',
		'Last-Translator': 'FULL NAME <EMAIL@ADDRESS>',
		'Language-Team': 'LANGUAGE <LL@li.org>',
		'MIME-Version': '1.0',
		'Content-Type': 'text/plain; charset=UTF-8',
		'Content-Transfer-Encoding': '8bit',
		'POT-Creation-Date': creationDate,
		'PO-Revision-Date': 'YEAR-MO-DA HO:MI+ZONE',
		'X-Generator': 'bin/make-pot.mjs',
		'X-Domain': DOMAIN,
	};
	const translations = { '': { '': { msgid: '', msgstr: [ '' ] } } };
	for ( const [ context, byId ] of entries ) {
		translations[ context ] ??= {};
		for ( const entry of byId.values() ) {
			const comments = { reference: entry.references.join( '\n' ) };
			if ( entry.extracted.length ) {
				comments.extracted = entry.extracted.join( '\n' );
			}
			if ( entry.flags.length ) {
				comments.flag = entry.flags.join( ', ' );
			}
			translations[ context ][ entry.msgid ] = {
				...( entry.msgctxt ? { msgctxt: entry.msgctxt } : {} ),
				msgid: entry.msgid,
				...( entry.msgid_plural
					? { msgid_plural: entry.msgid_plural }
					: {} ),
				msgstr: entry.msgid_plural ? [ '', '' ] : [ '' ],
				comments,
			};
		}
	}
	const body = po
		.compile(
			{ charset: 'utf-8', headers, translations },
			{ foldLength: 79, sort: false }
		)
		.toString( 'utf8' );
	return (
		'# Copyright (C) Cairn Maps\n' +
		'# This file is distributed under the GPL-2.0-or-later.\n' +
		body +
		'\n'
	);
}

function pluginVersion() {
	const match = fs
		.readFileSync( path.join( ROOT, 'cairn-maps.php' ), 'utf8' )
		.match( /^\s*\*\s*Version:\s*(\S+)/m );
	return match ? match[ 1 ] : '0.0.0';
}

/**
 * The .pot without the lines that change on every run.
 * @param {string} text A .pot file.
 */
function withoutDates( text ) {
	return text.replace( /^"POT-Creation-Date: .*\\n"$/m, '' );
}

/**
 * The .pot as a translator sees it: no date, no `#: file:line` references.
 * @param {string} text A .pot file.
 */
function withoutReferences( text ) {
	return withoutDates( text )
		.split( '\n' )
		.filter( ( line ) => ! line.startsWith( '#:' ) )
		.join( '\n' );
}

/**
 * The msgids (with their context) one catalogue has and the other lacks.
 * @param {string} from A .pot file.
 * @param {string} to   Another.
 */
function missingFrom( from, to ) {
	const ids = ( text ) =>
		new Set(
			Object.entries( po.parse( text || '' ).translations ).flatMap(
				( [ context, byId ] ) =>
					Object.keys( byId )
						.filter( ( id ) => id !== '' )
						.map( ( id ) =>
							context ? `${ context } | ${ id }` : id
						)
			)
		);
	const have = ids( to );
	return [ ...ids( from ) ].filter( ( id ) => ! have.has( id ) );
}

function main() {
	const check = process.argv.includes( '--check' );
	const entries = catalogue();
	fromPluginHeader( entries );
	fromPhp( entries );
	fromBlockJson( entries );
	fromTypeScript( entries );

	const previous = fs.existsSync( OUTPUT )
		? fs.readFileSync( OUTPUT, 'utf8' )
		: '';
	const previousDate = previous.match(
		/^"POT-Creation-Date: (.*)\\n"$/m
	)?.[ 1 ];
	const now = new Date().toISOString().replace( /\.\d+Z$/, '+00:00' );
	let text = render( entries, previousDate ?? now );
	const changed = withoutDates( text ) !== withoutDates( previous );
	let count = 0;
	for ( const byId of entries.values() ) {
		count += byId.size;
	}
	if ( check ) {
		const stale =
			withoutReferences( text ) !== withoutReferences( previous );
		console.log(
			`${ path.relative( ROOT, OUTPUT ) }: ${ stale ? 'out of date' : 'up to date' } (${ count } strings)`
		);
		if ( stale ) {
			for ( const id of missingFrom( text, previous ) ) {
				console.log( `  missing: ${ id }` );
			}
			for ( const id of missingFrom( previous, text ) ) {
				console.log( `  no longer in the sources: ${ id }` );
			}
			console.log( '  Run `npm run i18n:pot` and commit the .pot.' );
		}
		process.exit( stale ? 1 : 0 );
	}
	if ( changed ) {
		text = render( entries, now );
		fs.mkdirSync( path.dirname( OUTPUT ), { recursive: true } );
		fs.writeFileSync( OUTPUT, text );
	}
	console.log(
		`${ path.relative( ROOT, OUTPUT ) }: ${ count } strings${ changed ? '' : ' (unchanged)' }`
	);
}

main();
