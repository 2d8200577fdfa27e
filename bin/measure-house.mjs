#!/usr/bin/env node
/**
 * npm run measure:house — the shape of the code, printed as plain text:
 *
 *   (a) lines per file and per room (folder) in src/, packages/map/src/ and plugin/;
 *   (b) the 10 longest functions in src/ + packages/map/src/ (TypeScript's own parser: function
 *       declarations and expressions, arrow functions, methods, accessors, constructors) and in
 *       plugin/ (PHP's own tokenizer, token_get_all, through `php -r`). A function's length is
 *       its lines from the first to the last, as eslint's max-lines-per-function counts them;
 *       nested functions count inside their parent too;
 *   (c) imports across the border between the plugin and its map package: relative imports from
 *       src/ into packages/, imports of `@cairn-maps/map` by name (src/), and package files
 *       importing src/ (import and export declarations, `import()`, `jest.mock()` and
 *       `require()` with a string);
 *   (d) cycles between PHP folders: the strongly connected components of the graph whose nodes
 *       are plugin/'s folders (`.` the root) and whose edges come from `use Cairn\Maps\…`
 *       statements and qualified names in code (comments are not code).
 *
 * Usage: node bin/measure-house.mjs [--files] [checkout]
 *   --files    list every file in (a) and every border import in (c), not only the first
 *   checkout   the working tree to measure (default: this one), e.g. another worktree
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = path.resolve(
	process.argv.slice( 2 ).find( ( arg ) => ! arg.startsWith( '--' ) ) ??
		path.join( path.dirname( fileURLToPath( import.meta.url ) ), '..' )
);
const TREES = [ 'src', 'packages/map/src', 'plugin' ];
const TS_TREES = [ 'src', 'packages/map/src' ];
const CODE = /\.(?:[cm]?[jt]sx?)$/;
const NAMESPACE = 'Cairn\\Maps\\';
const listFiles = process.argv.includes( '--files' );

/**
 * Files under a folder (relative to the repository), sorted; build output is not the house.
 * @param {string} dir A folder, relative to the checkout.
 */
function walk( dir ) {
	const out = [];
	for ( const entry of fs.readdirSync( path.join( ROOT, dir ), {
		withFileTypes: true,
	} ) ) {
		const rel = path.posix.join( dir, entry.name );
		if ( entry.isDirectory() ) {
			if (
				! [ 'node_modules', 'dist', 'build' ].includes( entry.name )
			) {
				out.push( ...walk( rel ) );
			}
		} else {
			out.push( rel );
		}
	}
	return out.sort();
}

function read( file ) {
	return fs.readFileSync( path.join( ROOT, file ), 'utf8' );
}

function lineCount( text ) {
	if ( text === '' ) {
		return 0;
	}
	const breaks = text.split( '\n' ).length - 1;
	return text.endsWith( '\n' ) ? breaks : breaks + 1;
}

function pad( value, width ) {
	return String( value ).padStart( width );
}

function heading( title ) {
	process.stdout.write( `\n== ${ title }\n` );
}

/* (a) Lines per file and per room. */
function printLines( files ) {
	heading( '(a) lines per room (folder: files, lines; own files only)' );
	for ( const tree of TREES ) {
		const inTree = files.filter( ( file ) =>
			file.startsWith( `${ tree }/` )
		);
		const rooms = new Map();
		let total = 0;
		for ( const file of inTree ) {
			const lines = lineCount( read( file ) );
			total += lines;
			const room = path.posix.dirname( file );
			const entry = rooms.get( room ) ?? { files: [], lines: 0 };
			entry.files.push( [ file, lines ] );
			entry.lines += lines;
			rooms.set( room, entry );
		}
		process.stdout.write(
			`${ tree }/: ${ inTree.length } files, ${ total } lines\n`
		);
		for ( const [ room, entry ] of [ ...rooms ].sort() ) {
			process.stdout.write(
				`  ${ room.padEnd( 40 ) }${ pad( entry.files.length, 4 ) } files${ pad(
					entry.lines,
					7
				) } lines\n`
			);
			if ( listFiles ) {
				for ( const [ file, lines ] of entry.files ) {
					process.stdout.write(
						`      ${ path.posix.basename( file ).padEnd( 36 ) }${ pad(
							lines,
							7
						) }\n`
					);
				}
			}
		}
	}
	if ( ! listFiles ) {
		heading( '(a) longest files (all: --files)' );
		files
			.map( ( file ) => [ file, lineCount( read( file ) ) ] )
			.sort( ( a, b ) => b[ 1 ] - a[ 1 ] )
			.slice( 0, 15 )
			.forEach( ( [ file, lines ] ) =>
				process.stdout.write( `${ pad( lines, 6 ) }  ${ file }\n` )
			);
	}
}

/* (b) TypeScript functions. */
function functionName( node, source ) {
	if ( node.name ) {
		return node.name.getText( source );
	}
	if ( ts.isConstructorDeclaration( node ) ) {
		return 'constructor';
	}
	const parent = node.parent;
	if (
		( ts.isVariableDeclaration( parent ) ||
			ts.isPropertyAssignment( parent ) ||
			ts.isPropertyDeclaration( parent ) ) &&
		parent.name
	) {
		return parent.name.getText( source );
	}
	if ( ts.isCallExpression( parent ) ) {
		return `(callback of ${ parent.expression
			.getText( source )
			.slice( 0, 40 ) })`;
	}
	if ( ts.isJsxExpression( parent ) && ts.isJsxAttribute( parent.parent ) ) {
		return `(${ parent.parent.name.getText( source ) })`;
	}
	return '(anonymous)';
}

/**
 * A TypeScript file's syntax tree.
 * @param {string} file The file's path, relative to the checkout.
 * @param {string} text Its source.
 */
function parse( file, text ) {
	return ts.createSourceFile(
		file,
		text,
		ts.ScriptTarget.Latest,
		true,
		file.endsWith( 'x' ) ? ts.ScriptKind.TSX : ts.ScriptKind.TS
	);
}

function typescriptFunctions( file, text ) {
	const source = parse( file, text );
	const found = [];
	const visit = ( node ) => {
		if ( ts.isFunctionLike( node ) && 'body' in node && node.body ) {
			const start = source.getLineAndCharacterOfPosition(
				node.getStart( source )
			).line;
			const end = source.getLineAndCharacterOfPosition( node.end ).line;
			found.push( {
				file,
				line: start + 1,
				lines: end - start + 1,
				name: functionName( node, source ),
			} );
		}
		ts.forEachChild( node, visit );
	};
	visit( source );
	return found;
}

/**
 * Module specifiers a file names: import/export from, import(), require(), jest.mock().
 * @param {string} file The file's path, relative to the checkout.
 * @param {string} text Its source.
 */
function specifiers( file, text ) {
	const source = parse( file, text );
	const found = [];
	const visit = ( node ) => {
		if (
			( ts.isImportDeclaration( node ) ||
				ts.isExportDeclaration( node ) ) &&
			node.moduleSpecifier &&
			ts.isStringLiteral( node.moduleSpecifier )
		) {
			found.push( node.moduleSpecifier.text );
		} else if (
			ts.isCallExpression( node ) &&
			node.arguments.length > 0 &&
			ts.isStringLiteralLike( node.arguments[ 0 ] ) &&
			( node.expression.kind === ts.SyntaxKind.ImportKeyword ||
				[ 'require', 'jest.mock' ].includes(
					node.expression.getText( source )
				) )
		) {
			found.push( node.arguments[ 0 ].text );
		}
		ts.forEachChild( node, visit );
	};
	visit( source );
	return found;
}

/* (b) and (d) PHP, through PHP's tokenizer. */
const PHP_SCAN = String.raw`
$out = [];
foreach ( json_decode( stream_get_contents( STDIN ), true ) as $file ) {
	$tokens = token_get_all( file_get_contents( $file ) );
	$functions = []; $names = []; $uses = [];
	$stack = []; $depth = 0; $pending = null; $ns = ''; $in_use = false; $use_prefix = '';
	$count = count( $tokens );
	for ( $i = 0; $i < $count; $i++ ) {
		$t = $tokens[ $i ];
		$id = is_array( $t ) ? $t[0] : $t;
		$line = is_array( $t ) ? $t[2] : null;
		if ( $id === T_NAMESPACE ) {
			$ns = '';
			for ( $j = $i + 1; $j < $count && $tokens[ $j ] !== ';' && $tokens[ $j ] !== '{'; $j++ ) {
				if ( is_array( $tokens[ $j ] ) && in_array( $tokens[ $j ][0], [ T_NAME_QUALIFIED, T_STRING ], true ) ) {
					$ns = $tokens[ $j ][1];
				}
			}
			$i = $j - 1;
			continue;
		}
		if ( $id === T_USE && $depth === 0 ) {
			$in_use = true; $use_prefix = '';
			continue;
		}
		if ( $in_use ) {
			if ( $t === ';' ) { $in_use = false; continue; }
			if ( $t === '{' ) { continue; }
			if ( $t === '}' ) { continue; }
			if ( is_array( $t ) && in_array( $id, [ T_NAME_QUALIFIED, T_NAME_FULLY_QUALIFIED, T_STRING ], true ) ) {
				$next = $i + 1;
				while ( $next < $count && is_array( $tokens[ $next ] ) && $tokens[ $next ][0] === T_WHITESPACE ) { $next++; }
				if ( $tokens[ $next ] === '{' || ( is_array( $tokens[ $next ] ) && $tokens[ $next ][0] === T_NS_SEPARATOR ) ) {
					$use_prefix = rtrim( ltrim( $t[1], '\\' ), '\\' ) . '\\';
					continue;
				}
				if ( $i > 0 && is_array( $tokens[ $i - 2 ] ?? null ) && $tokens[ $i - 2 ][0] === T_AS ) { continue; }
				if ( in_array( strtolower( $t[1] ), [ 'function', 'const' ], true ) ) { continue; }
				$uses[] = [ ltrim( $use_prefix . $t[1], '\\' ), $line ];
			}
			continue;
		}
		if ( $id === T_FUNCTION || $id === T_FN ) {
			$name = '(closure)';
			for ( $j = $i + 1; $j < $count; $j++ ) {
				$u = $tokens[ $j ];
				if ( $u === '&' || ( is_array( $u ) && $u[0] === T_WHITESPACE ) ) { continue; }
				if ( is_array( $u ) && $u[0] === T_STRING ) { $name = $u[1]; }
				break;
			}
			$pending = [ 'name' => $name, 'line' => $line, 'arrow' => $id === T_FN ];
			if ( $id === T_FN ) {
				// An arrow function is one expression: its lines are those up to the end of it.
				$level = 0; $last = $line;
				for ( $j = $i + 1; $j < $count; $j++ ) {
					$u = $tokens[ $j ];
					if ( is_array( $u ) ) { $last = $u[2] + substr_count( $u[1], "\n" ); continue; }
					if ( in_array( $u, [ '(', '[', '{' ], true ) ) { $level++; }
					if ( in_array( $u, [ ')', ']', '}' ], true ) ) { if ( $level === 0 ) { break; } $level--; }
					if ( ( $u === ';' || $u === ',' ) && $level === 0 ) { break; }
				}
				$functions[] = [ $name, $line, $last - $line + 1 ];
				$pending = null;
			}
			continue;
		}
		if ( $pending !== null && $t === ';' ) {
			$pending = null; // abstract or interface method: no body.
		}
		if ( $t === '{' || $id === T_CURLY_OPEN || $id === T_DOLLAR_OPEN_CURLY_BRACES ) {
			$depth++;
			if ( $pending !== null && $t === '{' ) {
				$stack[] = [ $pending['name'], $pending['line'], $depth ];
				$pending = null;
			}
			continue;
		}
		if ( $t === '}' ) {
			$top = end( $stack );
			if ( $top && $top[2] === $depth ) {
				array_pop( $stack );
				$last = $line;
				for ( $j = $i - 1; $j >= 0 && $last === null; $j-- ) {
					if ( is_array( $tokens[ $j ] ) ) { $last = $tokens[ $j ][2] + substr_count( $tokens[ $j ][1], "\n" ); }
				}
				$functions[] = [ $top[0], $top[1], $last - $top[1] + 1 ];
			}
			$depth--;
			continue;
		}
		if ( $id === T_NAME_FULLY_QUALIFIED ) {
			$names[] = [ ltrim( $t[1], '\\' ), $line ];
		} elseif ( $id === T_NAME_QUALIFIED ) {
			$names[] = [ $t[1], $line, 'qualified' ];
		}
	}
	$out[ $file ] = [ 'namespace' => $ns, 'functions' => $functions, 'names' => $names, 'uses' => $uses ];
}
echo json_encode( $out );
`;

function scanPhp( files ) {
	const run = spawnSync(
		'php',
		[ '-d', 'error_reporting=E_ALL', '-r', PHP_SCAN ],
		{
			cwd: ROOT,
			input: JSON.stringify( files ),
			encoding: 'utf8',
			maxBuffer: 64 * 1024 * 1024,
		}
	);
	if ( run.status !== 0 || run.stderr.trim() !== '' ) {
		throw new Error( `php -r failed: ${ run.stderr || run.status }` );
	}
	return JSON.parse( run.stdout );
}

function printFunctions( title, functions ) {
	heading( title );
	functions
		.sort( ( a, b ) => b.lines - a.lines || a.file.localeCompare( b.file ) )
		.slice( 0, 10 )
		.forEach( ( fn ) =>
			process.stdout.write(
				`${ pad( fn.lines, 5 ) }  ${ fn.name }  ${ fn.file }:${ fn.line }\n`
			)
		);
	const over = functions.filter( ( fn ) => fn.lines > 150 ).length;
	process.stdout.write(
		`(${ functions.length } functions; ${ over } over 150 lines)\n`
	);
}

/* (c) The border. */
function printBorder( files ) {
	heading( '(c) imports across the border' );
	const intoPackages = [];
	const byName = [];
	const intoSrc = [];
	const srcRoot = path.join( ROOT, 'src' );
	const packagesRoot = path.join( ROOT, 'packages' );
	for ( const file of files.filter( ( name ) => CODE.test( name ) ) ) {
		const fromSrc = file.startsWith( 'src/' );
		const fromPackage = file.startsWith( 'packages/' );
		for ( const spec of specifiers( file, read( file ) ) ) {
			if ( fromSrc && /^@cairn-maps\/map(?:\/|$)/.test( spec ) ) {
				byName.push( `${ file } → ${ spec }` );
			}
			if ( ! spec.startsWith( '.' ) ) {
				continue;
			}
			const target = path.resolve( ROOT, path.dirname( file ), spec );
			if ( fromSrc && target.startsWith( packagesRoot + path.sep ) ) {
				intoPackages.push( `${ file } → ${ spec }` );
			}
			if (
				fromPackage &&
				( target === srcRoot ||
					target.startsWith( srcRoot + path.sep ) )
			) {
				intoSrc.push( `${ file } → ${ spec }` );
			}
		}
	}
	const list = ( title, items, show ) => {
		process.stdout.write( `${ title }: ${ items.length }\n` );
		items
			.slice( 0, show )
			.forEach( ( item ) => process.stdout.write( `  ${ item }\n` ) );
		if ( items.length > show ) {
			process.stdout.write( `  … and ${ items.length - show } more\n` );
		}
	};
	const filesWith = ( items ) =>
		new Set( items.map( ( item ) => item.split( ' → ' )[ 0 ] ) ).size;
	list(
		`relative imports from src/ into packages/ (in ${ filesWith(
			intoPackages
		) } files)`,
		intoPackages,
		listFiles ? Infinity : 5
	);
	list(
		'imports of @cairn-maps/map by name in src/',
		byName,
		listFiles ? Infinity : 5
	);
	list( 'package files importing src/', intoSrc, Infinity );
}

/* (d) PHP folder cycles. */
function folderOfFile( file ) {
	const dir = path.posix.dirname( path.posix.relative( 'plugin', file ) );
	return dir === '' ? '.' : dir;
}

function folderOfName( fqn, folders ) {
	if ( ! fqn.startsWith( NAMESPACE ) ) {
		return null;
	}
	const parts = fqn.slice( NAMESPACE.length ).split( '\\' );
	const asFolder = parts.join( '/' );
	// `use Cairn\Maps\Markers;` names a namespace (an alias for qualified names), not a class.
	if ( folders.has( asFolder ) ) {
		return null;
	}
	return parts.length > 1 ? parts.slice( 0, -1 ).join( '/' ) : '.';
}

/**
 * Tarjan's strongly connected components.
 * @param {string[]}                 nodes The folders.
 * @param {Map<string, Set<string>>} edges Each folder's dependencies.
 */
function components( nodes, edges ) {
	let index = 0;
	const indexOf = new Map();
	const low = new Map();
	const stack = [];
	const onStack = new Set();
	const found = [];
	const connect = ( node ) => {
		indexOf.set( node, index );
		low.set( node, index );
		index++;
		stack.push( node );
		onStack.add( node );
		for ( const next of edges.get( node ) ?? [] ) {
			if ( ! indexOf.has( next ) ) {
				connect( next );
				low.set( node, Math.min( low.get( node ), low.get( next ) ) );
			} else if ( onStack.has( next ) ) {
				low.set(
					node,
					Math.min( low.get( node ), indexOf.get( next ) )
				);
			}
		}
		if ( low.get( node ) === indexOf.get( node ) ) {
			const component = [];
			let member;
			do {
				member = stack.pop();
				onStack.delete( member );
				component.push( member );
			} while ( member !== node );
			found.push( component.sort() );
		}
	};
	for ( const node of nodes ) {
		if ( ! indexOf.has( node ) ) {
			connect( node );
		}
	}
	return found;
}

function printCycles( php ) {
	heading(
		'(d) PHP folder-dependency cycles (strongly connected components)'
	);
	const folders = new Set(
		Object.keys( php ).map( ( file ) => folderOfFile( file ) )
	);
	const edges = new Map(
		[ ...folders ].map( ( folder ) => [ folder, new Set() ] )
	);
	// Which lines make each edge, to say why a cycle is one.
	const reasons = new Map();
	for ( const [ file, scan ] of Object.entries( php ) ) {
		const from = folderOfFile( file );
		const aliases = new Map(
			scan.uses.map( ( [ fqn ] ) => [ fqn.split( '\\' ).pop(), fqn ] )
		);
		const targets = [
			...scan.uses,
			...scan.names.map( ( [ name, line, kind ] ) => {
				if ( kind !== 'qualified' ) {
					return [ name, line ];
				}
				const [ first, ...rest ] = name.split( '\\' );
				const base =
					aliases.get( first ) ?? `${ scan.namespace }\\${ first }`;
				return [ [ base, ...rest ].join( '\\' ), line ];
			} ),
		];
		for ( const [ fqn, line ] of targets ) {
			const to = folderOfName( fqn, folders );
			if ( to === null || to === from || ! folders.has( to ) ) {
				continue;
			}
			edges.get( from ).add( to );
			const key = `${ from } → ${ to }`;
			if ( ! reasons.has( key ) ) {
				reasons.set( key, `${ file }:${ line } ${ fqn }` );
			}
		}
	}
	const edgeCount = [ ...edges.values() ].reduce(
		( sum, set ) => sum + set.size,
		0
	);
	process.stdout.write(
		`${ folders.size } folders, ${ edgeCount } folder → folder dependencies\n`
	);
	const cycles = components( [ ...folders ].sort(), edges ).filter(
		( component ) => component.length > 1
	);
	process.stdout.write( `cycles: ${ cycles.length }\n` );
	printCycleEdges( cycles, edges, reasons );
	// The root holds the composition root (Plugin.php) and shared kernels (Limits, version
	// tokens): the cycles that remain without it are the ones between rooms.
	const withoutRoot = new Map(
		[ ...edges ]
			.filter( ( [ from ] ) => from !== '.' )
			.map( ( [ from, to ] ) => [
				from,
				new Set( [ ...to ].filter( ( folder ) => folder !== '.' ) ),
			] )
	);
	const roomCycles = components(
		[ ...withoutRoot.keys() ].sort(),
		withoutRoot
	).filter( ( component ) => component.length > 1 );
	process.stdout.write(
		`cycles without the root folder: ${ roomCycles.length }\n`
	);
	for ( const cycle of roomCycles ) {
		process.stdout.write( `  { ${ cycle.join( ', ' ) } }\n` );
	}
}

function printCycleEdges( cycles, edges, reasons ) {
	for ( const cycle of cycles ) {
		process.stdout.write( `  { ${ cycle.join( ', ' ) } }\n` );
		const members = new Set( cycle );
		for ( const from of cycle ) {
			for ( const to of [ ...edges.get( from ) ].sort() ) {
				if ( members.has( to ) ) {
					process.stdout.write(
						`      ${ from } → ${ to }   (${ reasons.get(
							`${ from } → ${ to }`
						) })\n`
					);
				}
			}
		}
	}
}

const files = TREES.flatMap( ( tree ) => walk( tree ) );
printLines( files );

const tsFunctions = files
	.filter(
		( file ) =>
			TS_TREES.some( ( tree ) => file.startsWith( `${ tree }/` ) ) &&
			CODE.test( file ) &&
			! file.endsWith( '.d.ts' )
	)
	.flatMap( ( file ) => typescriptFunctions( file, read( file ) ) );
printFunctions(
	'(b) 10 longest functions in src/ + packages/map/src/ (lines)',
	tsFunctions
);

const phpFiles = files.filter(
	( file ) => file.endsWith( '.php' ) && file.startsWith( 'plugin/' )
);
const php = scanPhp( phpFiles );
printFunctions(
	'(b) 10 longest functions in plugin/ (lines)',
	Object.entries( php ).flatMap( ( [ file, scan ] ) =>
		scan.functions.map( ( [ name, line, lines ] ) => ( {
			file,
			line,
			lines,
			name,
		} ) )
	)
);

printBorder( [
	...files.filter( ( file ) => file.startsWith( 'src/' ) ),
	...walk( 'packages' ),
] );
printCycles( php );
