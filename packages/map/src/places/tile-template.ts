/**
 * Whether a tiles URL template names the three coordinates `{z}`, `{x}` and `{y}` (literal or
 * percent-encoded). A module of its own: the configuration's parser takes it without the tiles'
 * arithmetic (which only tiled maps load, in the places chunk).
 * @param template `config.tilesUrl`.
 */
export function isTileTemplate( template: string ): boolean {
	return [ 'z', 'x', 'y' ].every( ( name ) =>
		new RegExp( `\\{${ name }\\}|%7B${ name }%7D`, 'i' ).test( template )
	);
}
