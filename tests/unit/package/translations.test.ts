/**
 * A headless site translates the package's strings the way WordPress translates the plugin's
 * scripts: the package calls `@wordpress/i18n` in the `cairn-maps` text domain, and an app that
 * passes that library the Jed data of the plugin's translation files (`setLocaleData`) gets the
 * map's messages in its language (packages/map/README.md, "Translations"). Checked on the
 * sources through the public entry, and on the built package an app installs, which must use
 * the app's own copy of @wordpress/i18n rather than one of its own.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';

import { resetLocaleData, setLocaleData } from '@wordpress/i18n';
import { createMap, errorMessage } from '@cairn-maps/map';

const ROOT = path.resolve( __dirname, '../../..' );
const PACKAGE = path.join( ROOT, 'packages/map' );

const MISSING_TOKEN =
	'This map cannot be shown yet: a public Mapbox access token must be provided in Settings → Cairn Maps.';
const STYLE = 'The map could not be loaded. Please try again later.';

/**
 * One of the plugin's script translation files, as WordPress keeps them in
 * wp-content/languages/plugins/cairn-maps-de_DE-<md5 of the script>.json (what `wp i18n
 * make-json`, translate.wordpress.org's language packs and bin/make-json.mjs write).
 */
const GERMAN_FILE = {
	'translation-revision-date': '2026-01-01 00:00+0000',
	generator: 'bin/make-json.mjs',
	source: 'build/blocks/map/view.js',
	domain: 'messages',
	locale_data: {
		messages: {
			'': {
				domain: 'messages',
				lang: 'de_DE',
				'plural-forms': 'nplurals=2; plural=(n != 1);',
			},
			[ MISSING_TOKEN ]: [
				'Diese Karte kann noch nicht angezeigt werden: In Einstellungen → Cairn Maps fehlt ein öffentlicher Mapbox-Zugangsschlüssel.',
			],
			[ STYLE ]: [
				'Die Karte konnte nicht geladen werden. Bitte versuchen Sie es später erneut.',
			],
		},
	},
};

afterEach( () => {
	resetLocaleData();
	document.body.replaceChildren();
} );

describe( "the package's strings in the site's language", () => {
	it( 'shows a map error in German once the app sets the locale data', () => {
		setLocaleData( GERMAN_FILE.locale_data.messages, 'cairn-maps' );
		const host = document.createElement( 'div' );
		host.className = 'wp-block-cairn-map';
		const container = document.createElement( 'div' );
		host.append( container );
		document.body.append( host );

		// No access token: the map fails at once, before any library or network.
		createMap( container, { zoom: 3 }, { host } );

		expect( host.dataset.cairnState ).toBe( 'error' );
		const alert = host.querySelector( '[role="alert"]' );
		expect( alert?.getAttribute( 'data-cairn-error' ) ).toBe(
			'missing-token'
		);
		expect( alert?.textContent ).toContain(
			'In Einstellungen → Cairn Maps fehlt ein öffentlicher Mapbox-Zugangsschlüssel.'
		);
		expect( alert?.textContent ).not.toContain( MISSING_TOKEN );
	} );

	it( 'stays in English without locale data, and for another text domain', () => {
		expect( errorMessage( 'style' ) ).toBe( STYLE );
		setLocaleData( GERMAN_FILE.locale_data.messages, 'default' );
		expect( errorMessage( 'style' ) ).toBe( STYLE );
	} );

	it( "reaches the built package through the app's @wordpress/i18n", () => {
		// Built afresh: a package left from an earlier build would test old code.
		execFileSync( process.execPath, [ path.join( PACKAGE, 'build.mjs' ) ], {
			stdio: 'ignore',
		} );
		const script = `
			const { setLocaleData } = await import( '@wordpress/i18n' );
			setLocaleData( ${ JSON.stringify(
				GERMAN_FILE.locale_data.messages
			) }, 'cairn-maps' );
			const { errorMessage } = await import( '@cairn-maps/map' );
			console.log( JSON.stringify( errorMessage( 'style' ) ) );
		`;
		const out = execFileSync(
			process.execPath,
			[ '--input-type=module', '-e', script ],
			{ cwd: ROOT, encoding: 'utf8' }
		);
		expect( JSON.parse( out.trim().split( '\n' ).pop() ?? '""' ) ).toBe(
			'Die Karte konnte nicht geladen werden. Bitte versuchen Sie es später erneut.'
		);
	}, 60_000 );
} );
