/**
 * Prints what @tmcw/togeojson makes of a GPX or KML document read from stdin, as JSON:
 * `node togeojson.cjs gpx|kml < file`. The corpus test (Import_Corpus_TogeojsonTest) compares it
 * with Cairn's readers. jsdom (a dev dependency of @wordpress/scripts) gives the XML parser.
 */
const { JSDOM } = require( 'jsdom' );
const togeojson = require( '@tmcw/togeojson' );

const kind = process.argv[ 2 ];
const chunks = [];
process.stdin.on( 'data', ( chunk ) => chunks.push( chunk ) );
process.stdin.on( 'end', () => {
	const text = Buffer.concat( chunks ).toString( 'utf8' );
	const { window } = new JSDOM( '' );
	const doc = new window.DOMParser().parseFromString( text, 'text/xml' );
	const collection =
		kind === 'gpx' ? togeojson.gpx( doc ) : togeojson.kml( doc );
	process.stdout.write( JSON.stringify( collection ) );
} );
