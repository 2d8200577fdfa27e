/**
 * A free TCP port on 127.0.0.1, chosen by the system: for the sites and servers a spec starts
 * itself (release sites, the German site), so that no two runs or specs collide on a fixed port.
 * The port is released before it is returned; the server that takes it next fails loudly if
 * something took it in between (bin/release-site.mjs checks that nothing answers there).
 */
import net from 'node:net';

export function freePort(): Promise< number > {
	return new Promise( ( resolve, reject ) => {
		const server = net.createServer();
		server.unref();
		server.on( 'error', reject );
		server.listen( 0, '127.0.0.1', () => {
			const address = server.address();
			server.close( () =>
				typeof address === 'object' && address
					? resolve( address.port )
					: reject( new Error( 'no port' ) )
			);
		} );
	} );
}
