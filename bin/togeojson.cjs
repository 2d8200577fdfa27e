/**
 * Prints what @tmcw/togeojson makes of GPX and KML files, as one JSON object by path:
 * `node bin/togeojson.cjs a.gpx b.kml …` (a path ending in .gpx is read as GPX, any other as KML).
 * The corpus test (Import_Corpus_TogeojsonTest) compares it with Cairn's readers. jsdom (a dev
 * dependency of @wordpress/scripts) gives the XML parser.
 */
const fs = require( 'fs' );
const { JSDOM } = require( 'jsdom' );
const togeojson = require( '@tmcw/togeojson' );

const { window } = new JSDOM( '' );
const parser = new window.DOMParser();
const out = {};
for ( const path of process.argv.slice( 2 ) ) {
	const doc = parser.parseFromString(
		fs.readFileSync( path, 'utf8' ),
		'text/xml'
	);
	out[ path ] = path.endsWith( '.gpx' )
		? togeojson.gpx( doc )
		: togeojson.kml( doc );
}
process.stdout.write( JSON.stringify( out ) );
