/**
 * The places worker's entry: bundled on its own (packages/map/build-worker.mjs) and started from
 * its text, so every bundler and every host (a CDN for the plugin's files included) can run it.
 */
import { createAnswerer, type Message } from './protocol';

const answer = createAnswerer();
const scope = self as unknown as {
	onmessage: ( event: MessageEvent< Message > ) => void;
	postMessage: ( message: unknown ) => void;
};
scope.onmessage = ( event ) => {
	answer( event.data ).then( ( reply ) => scope.postMessage( reply ) );
};
