/**
 * Free TCP ports for the sites and servers a spec starts itself (release sites, the German site,
 * the Next example), so that no two runs or specs collide on a fixed port.
 *
 * Ports come from below the system's ephemeral range (Linux: 32768–60999). A port the system picks
 * for `listen( 0 )` lies in that range, where every outgoing connection of the run (the browser,
 * PHP to its database, Playwright) also takes its local port: a port released by the check could be
 * taken by such a connection before the site, which needs tens of seconds to start, binds it. Ports
 * handed out by this process are remembered, so two specs or two sites starting at once never get
 * the same one. A server that still fails to take its port is started again on another
 * (startOnFreePort).
 */
import net from 'node:net';

const LOW = 20_000;
const HIGH = 32_000;
const handedOut = new Set< number >();

/** Whether nothing listens on the port (on 127.0.0.1 and, when the system has it, on ::1). */
function bindable( port: number, host: string ): Promise< boolean > {
	return new Promise( ( resolve ) => {
		const server = net.createServer();
		server.unref();
		server.once( 'error', ( error: NodeJS.ErrnoException ) =>
			// No IPv6 on this machine: only 127.0.0.1 counts.
			resolve( host === '::1' && error.code === 'EADDRNOTAVAIL' )
		);
		server.listen( { port, host, exclusive: true }, () =>
			server.close( () => resolve( true ) )
		);
	} );
}

export async function freePort(): Promise< number > {
	for ( let attempt = 0; attempt < 200; attempt++ ) {
		const port = LOW + Math.floor( Math.random() * ( HIGH - LOW ) );
		if ( handedOut.has( port ) ) {
			continue;
		}
		handedOut.add( port );
		if (
			( await bindable( port, '127.0.0.1' ) ) &&
			( await bindable( port, '::1' ) )
		) {
			return port;
		}
	}
	throw new Error( `no free port between ${ LOW } and ${ HIGH }` );
}

/**
 * Starts a server on a free port, and on another one if that start fails (the port was taken in
 * between, by something outside this run): up to `attempts` times, then the last error is thrown.
 */
export async function startOnFreePort< T >(
	start: ( port: number ) => Promise< T >,
	attempts = 3
): Promise< T > {
	let failure: unknown;
	for ( let attempt = 0; attempt < attempts; attempt++ ) {
		try {
			return await start( await freePort() );
		} catch ( error ) {
			failure = error;
		}
	}
	throw failure;
}
