/**
 * bin/lib/plugin-check-rules.mjs (bin/plugin-check-static.mjs), the part of WordPress.org's Plugin Check that CI runs on the
 * release zip: its file, header and code checks find what Plugin Check would refuse, and pass the
 * plugin's own header and readme.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import {
	codeFindings,
	fileFindings,
	headerFindings,
} from '../../bin/lib/plugin-check-rules.mjs';

const ROOT = path.resolve( __dirname, '..', '..' );

/** A scratch plugin folder holding the given files. */
function plugin( files: Record< string, string > ): string {
	const folder = fs.mkdtempSync( path.join( os.tmpdir(), 'cairn-pc-' ) );
	for ( const [ name, text ] of Object.entries( files ) ) {
		fs.mkdirSync( path.dirname( path.join( folder, name ) ), {
			recursive: true,
		} );
		fs.writeFileSync( path.join( folder, name ), text );
	}
	return folder;
}

const codes = ( findings: Array< { file: string; code: string } > ) =>
	findings.map( ( { file, code } ) => `${ file } ${ code }` );

describe( 'plugin check (static part)', () => {
	it( 'refuses the files the directory refuses, and only those', () => {
		expect(
			codes(
				fileFindings( {
					files: [
						'assets/glyphs/DejaVu Sans Book/0-255.pbf',
						'assets/glyphs/DejaVuSans-Book/0-255.pbf',
						'build/index.js',
						'languages/cairn-maps.pot',
						'assets/basemap/world.pmtiles',
						'vendor.zip',
						'tools/wp.phar',
						'bin/run.sh',
						'.env',
						'notes(old).txt',
					],
					folders: [ 'assets', '.git', 'build' ],
				} )
			)
		).toEqual( [
			'.git vcs_present',
			'assets/glyphs/DejaVu Sans Book/0-255.pbf badly_named_files',
			'vendor.zip compressed_files',
			'tools/wp.phar phar_files',
			'bin/run.sh application_detected',
			'.env hidden_files',
			'notes(old).txt badly_named_files',
		] );
	} );

	it( "passes the plugin's own header and readme", () => {
		const folder = plugin( {
			'cairn-maps.php': fs.readFileSync(
				path.join( ROOT, 'cairn-maps.php' ),
				'utf8'
			),
			'readme.txt': fs.readFileSync(
				path.join( ROOT, 'readme.txt' ),
				'utf8'
			),
			'languages/cairn-maps.pot': '',
		} );
		expect( headerFindings( folder ) ).toEqual( [] );
	} );

	it( 'finds a readme that disagrees with the header, a foreign text domain and a missing Domain Path', () => {
		const folder = plugin( {
			'cairn-maps.php':
				'<?php\n/**\n * Plugin Name: Cairn Maps\n * Description: Maps.\n * Version: 1.0.0\n * Requires at least: 6.6\n * Requires PHP: 8.1\n * License: GPL-2.0-or-later\n * Text Domain: other\n * Domain Path: /languages\n */\n',
			'readme.txt':
				'=== Cairn Maps ===\nContributors: someone\nRequires at least: 6.5\nTested up to: 6.8\nRequires PHP: 8.1\nStable tag: 0.9.0\nLicense: GPLv2 or later\n',
		} );
		expect( codes( headerFindings( folder ) ) ).toEqual( [
			'cairn-maps.php textdomain_mismatch',
			'cairn-maps.php plugin_header_no_domain_path',
			'readme.txt stable_tag_mismatch',
			'readme.txt readme_mismatched_header_requires_at_least',
		] );
	} );

	it( 'finds localhost URLs and unfiltered uploads in PHP, with their lines', () => {
		const folder = plugin( {
			'a.php': "<?php\n$url = 'http://localhost/wp-json/';\n",
			'b.php': "<?php\n\ndefine( 'ALLOW_UNFILTERED_UPLOADS', true );\n",
			'c.js': "fetch( 'http://localhost/' );\n",
		} );
		expect(
			codeFindings( folder, [ 'a.php', 'b.php', 'c.js' ] ).map(
				( { file, line, code } ) => `${ file }:${ line } ${ code }`
			)
		).toEqual( [
			'a.php:2 localhost_code_detected',
			'b.php:3 allow_unfiltered_uploads_detected',
		] );
	} );
} );
