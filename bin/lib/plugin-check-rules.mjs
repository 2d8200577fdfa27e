/**
 * The checks of WordPress.org's Plugin Check that need no WordPress, as pure functions over an
 * unpacked plugin folder (bin/plugin-check-static.mjs runs them on the release zip; PHPCS does the
 * rest). Each finding carries the code Plugin Check reports for the same problem.
 */
import fs from 'node:fs';
import path from 'node:path';

const SLUG = 'cairn-maps';

const COMPRESSED = [ 'zip', 'gz', 'tgz', 'rar', 'tar', '7z' ];
const APPLICATION = [
	'a',
	'bin',
	'bpk',
	'deploy',
	'dist',
	'distz',
	'dmg',
	'dms',
	'ds_store',
	'dump',
	'elc',
	'exe',
	'iso',
	'lha',
	'lrf',
	'lzh',
	'o',
	'obj',
	'pkg',
	'sh',
	'so',
];
const VCS = [ '.git', '.svn', '.hg', '.bzr' ];
const CONFLICTING = /[!@#$%^&*()+=[\]{};:"'<>,?/\\|`~]/;
const LOCALHOST =
	/https?:\/\/(localhost|127\.0\.0\.1|[^/\s'"]*\.local(host)?)\//;

/**
 * One finding, in Plugin Check's columns.
 *
 * @param {string} file    Path in the plugin folder.
 * @param {string} type    ERROR or WARNING.
 * @param {string} code    Plugin Check's code for it.
 * @param {string} message What is wrong.
 * @param {number} line    Line (0: the whole file).
 * @return {Object} The finding.
 */
export const finding = ( file, type, code, message, line = 0 ) => ( {
	file,
	line,
	type,
	code,
	message,
} );

/**
 * Every file and folder under a folder, relative, with `/`.
 *
 * @param {string} dir    The folder.
 * @param {string} prefix Its path so far.
 * @return {{files: string[], folders: string[]}} What it holds.
 */
export function walk( dir, prefix = '' ) {
	const found = { files: [], folders: [] };
	for ( const entry of fs.readdirSync( dir, { withFileTypes: true } ) ) {
		const relative = prefix + entry.name;
		if ( entry.isDirectory() ) {
			found.folders.push( relative );
			const inner = walk( path.join( dir, entry.name ), relative + '/' );
			found.files.push( ...inner.files );
			found.folders.push( ...inner.folders );
		} else {
			found.files.push( relative );
		}
	}
	return found;
}

/**
 * The file checks (Plugin Check's file_type check).
 *
 * @param {{files: string[], folders: string[]}} tree The plugin's files and folders.
 * @return {Object[]} Findings.
 */
export function fileFindings( { files, folders } ) {
	const found = [];
	for ( const folder of folders ) {
		if ( VCS.includes( path.posix.basename( folder ) ) ) {
			found.push(
				finding(
					folder,
					'ERROR',
					'vcs_present',
					'Version control folders are not permitted.'
				)
			);
		}
	}
	for ( const file of files ) {
		const name = path.posix.basename( file );
		const extension = name.includes( '.' )
			? name.split( '.' ).pop().toLowerCase()
			: '';
		if ( COMPRESSED.includes( extension ) ) {
			found.push(
				finding(
					file,
					'ERROR',
					'compressed_files',
					'Compressed files are not permitted.'
				)
			);
		} else if ( extension === 'phar' ) {
			found.push(
				finding(
					file,
					'ERROR',
					'phar_files',
					'Phar files are not permitted.'
				)
			);
		} else if ( APPLICATION.includes( extension ) ) {
			found.push(
				finding(
					file,
					'ERROR',
					'application_detected',
					'Application files are not permitted.'
				)
			);
		}
		if ( name.startsWith( '.' ) ) {
			found.push(
				finding(
					file,
					'ERROR',
					'hidden_files',
					'Hidden files are not permitted.'
				)
			);
		}
		if ( /\s/.test( file ) || CONFLICTING.test( name ) ) {
			found.push(
				finding(
					file,
					'ERROR',
					'badly_named_files',
					'Badly named files are not permitted.'
				)
			);
		}
	}
	return found;
}

/**
 * The header fields of a plugin's main file or readme (`Name: value` lines).
 *
 * @param {string} text The file's text.
 * @return {Map<string, string>} Values by lower-case name.
 */
export function headerFields( text ) {
	const fields = new Map();
	for ( const match of text
		.slice( 0, 8192 )
		.matchAll(
			/^[\s*#@]*([A-Za-z][A-Za-z ]+?):[ \t]*(.+?)\s*(\*\/)?$/gm
		) ) {
		const name = match[ 1 ].toLowerCase();
		if ( ! fields.has( name ) ) {
			fields.set( name, match[ 2 ].trim() );
		}
	}
	return fields;
}

/**
 * The header and readme checks (Plugin Check's plugin_header_fields, plugin_readme and
 * plugin_updater checks, their consistency parts).
 *
 * @param {string} folder The unpacked plugin.
 * @return {Object[]} Findings.
 */
export function headerFindings( folder ) {
	const found = [];
	const main = `${ SLUG }.php`;
	const header = headerFields(
		fs.readFileSync( path.join( folder, main ), 'utf8' )
	);
	for ( const field of [
		'plugin name',
		'description',
		'version',
		'requires at least',
		'requires php',
		'license',
		'text domain',
	] ) {
		if ( ! header.get( field ) ) {
			found.push(
				finding(
					main,
					'ERROR',
					'plugin_header_missing_field',
					`The plugin header has no "${ field }".`
				)
			);
		}
	}
	if ( header.has( 'text domain' ) && header.get( 'text domain' ) !== SLUG ) {
		found.push(
			finding(
				main,
				'ERROR',
				'textdomain_mismatch',
				`The text domain "${ header.get( 'text domain' ) }" is not the plugin's slug "${ SLUG }".`
			)
		);
	}
	const domainPath = header.get( 'domain path' );
	if ( domainPath && ! fs.existsSync( path.join( folder, domainPath ) ) ) {
		found.push(
			finding(
				main,
				'ERROR',
				'plugin_header_no_domain_path',
				`The Domain Path "${ domainPath }" is not in the plugin.`
			)
		);
	}
	if ( header.has( 'update uri' ) ) {
		found.push(
			finding(
				main,
				'ERROR',
				'plugin_updater_detected',
				'Plugins on WordPress.org may not set an Update URI.'
			)
		);
	}
	const readmeFile = path.join( folder, 'readme.txt' );
	if ( ! fs.existsSync( readmeFile ) ) {
		return [
			...found,
			finding(
				'readme.txt',
				'ERROR',
				'no_plugin_readme',
				'The plugin has no readme.txt.'
			),
		];
	}
	const readme = headerFields( fs.readFileSync( readmeFile, 'utf8' ) );
	const stable = readme.get( 'stable tag' ) ?? '';
	if ( stable === 'trunk' || stable !== header.get( 'version' ) ) {
		found.push(
			finding(
				'readme.txt',
				'ERROR',
				'stable_tag_mismatch',
				`The stable tag "${ stable }" is not the plugin's version "${ header.get( 'version' ) }".`
			)
		);
	}
	for ( const field of [ 'requires at least', 'requires php' ] ) {
		if ( readme.get( field ) !== header.get( field ) ) {
			found.push(
				finding(
					'readme.txt',
					'ERROR',
					`readme_mismatched_header_${ field.replace( / /g, '_' ) }`,
					`"${ field }" is "${ readme.get( field ) ?? '' }" in readme.txt and "${ header.get( field ) ?? '' }" in the plugin header.`
				)
			);
		}
	}
	for ( const field of [ 'tested up to', 'license', 'contributors' ] ) {
		if ( ! readme.get( field ) ) {
			found.push(
				finding(
					'readme.txt',
					'ERROR',
					`readme_missing_${ field.replace( / /g, '_' ) }`,
					`readme.txt has no "${ field }".`
				)
			);
		}
	}
	return found;
}

/**
 * Text checks of the PHP files (Plugin Check's localhost and no_unfiltered_uploads checks).
 *
 * @param {string}   folder The unpacked plugin.
 * @param {string[]} files  Its files.
 * @return {Object[]} Findings.
 */
export function codeFindings( folder, files ) {
	const found = [];
	for ( const file of files.filter( ( name ) => name.endsWith( '.php' ) ) ) {
		const lines = fs
			.readFileSync( path.join( folder, file ), 'utf8' )
			.split( '\n' );
		lines.forEach( ( text, index ) => {
			if ( LOCALHOST.test( text ) ) {
				found.push(
					finding(
						file,
						'ERROR',
						'localhost_code_detected',
						'Do not use localhost or 127.0.0.1 in your code.',
						index + 1
					)
				);
			}
			if ( text.includes( 'ALLOW_UNFILTERED_UPLOADS' ) ) {
				found.push(
					finding(
						file,
						'ERROR',
						'allow_unfiltered_uploads_detected',
						'ALLOW_UNFILTERED_UPLOADS is not permitted.',
						index + 1
					)
				);
			}
		} );
	}
	return found;
}
