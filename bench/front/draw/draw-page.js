/* global location, addEventListener */
/**
 * bench:draw's page side (served as /draw-page.js): makes the map over the whole viewport with
 * the bench's style, and offers `window.bench`, which bench/front/draw.mjs drives:
 * - `start( module, options )` imports /bundle/<module>.js and starts its session, timing both;
 * - `arm( kind, n )` then `waited()`: from the next pointerdown on, a message loop (and the
 *   input events' bubbling phase) checks whether the session reports what is awaited (`placed`:
 *   at least n placed vertices; `finished`: n finished drawings; `changed`: n changes), and
 *   answers when, counted from the pointerdown and from the pointerup (`event.timeStamp`);
 * - `report( points )`: the last feature's type, vertex count and how many of the clicked pixels
 *   have a vertex within 1.5 px.
 */
const TIMEOUT_MS = 5_000;

export function boot( lib, engine, prefix ) {
	const map = new lib.Map( {
		container: 'map',
		style: `${ location.origin }/style.json`,
		center: [ 10, 47 ],
		zoom: 4,
		...( engine === 'mapbox' ? { projection: 'mercator' } : {} ),
	} );
	let tool = null;
	let armed = null;

	const predicates = {
		placed: ( n ) => tool.placed().length >= n,
		finished: ( n ) => tool.finished.length >= n,
		changed: ( n ) => tool.changes.length >= n,
	};
	const check = () => {
		if ( ! armed || armed.result || armed.down === null ) {
			return;
		}
		if ( predicates[ armed.kind ]( armed.n ) ) {
			const at = performance.now();
			armed.result = {
				at,
				downAt: armed.down,
				fromDown: at - armed.down,
				fromUp: armed.up === null ? null : at - armed.up,
			};
			armed.resolve?.( armed.result );
		}
	};
	const poll = () => {
		const channel = new MessageChannel();
		const started = performance.now();
		channel.port1.onmessage = () => {
			check();
			if ( ! armed || armed.result ) {
				channel.port1.close();
				return;
			}
			if ( performance.now() - started > TIMEOUT_MS ) {
				armed.result = { timeout: true };
				armed.resolve?.( armed.result );
				channel.port1.close();
				return;
			}
			channel.port2.postMessage( null );
		};
		channel.port2.postMessage( null );
	};
	addEventListener(
		'pointerdown',
		( event ) => {
			if ( armed && armed.down === null ) {
				armed.down = event.timeStamp;
				poll();
			}
		},
		true
	);
	addEventListener(
		'pointerup',
		( event ) => {
			if ( armed && armed.up === null ) {
				armed.up = event.timeStamp;
			}
			// Armed between pointerdown and pointerup (the end of a drag): wait from here.
			if ( armed && armed.down === null ) {
				armed.down = event.timeStamp;
				poll();
			}
		},
		true
	);
	for ( const type of [ 'pointerup', 'mouseup', 'click', 'touchend' ] ) {
		addEventListener( type, check );
	}
	// A key press is a "click" for the key checks: it starts the loop too.
	addEventListener(
		'keydown',
		( event ) => {
			if ( armed && armed.down === null ) {
				armed.down = event.timeStamp;
				armed.up = event.timeStamp;
				poll();
			}
		},
		true
	);

	const pixel = ( position ) => {
		const p = map.project( position );
		return { x: p.x, y: p.y };
	};

	window.bench = {
		ready: false,
		map,
		async start( module, options = {} ) {
			const t0 = performance.now();
			const loaded = await import( `/bundle/${ module }.js` );
			const t1 = performance.now();
			tool = loaded.start( map, { prefix, ...options } );
			await tool.ready;
			const t2 = performance.now();
			return { loadMs: t1 - t0, initMs: t2 - t1, readyMs: t2 - t0 };
		},
		call( name, ...args ) {
			if ( name === 'finishedCount' ) {
				return tool.finished.length;
			}
			if ( name === 'changeCount' ) {
				return tool.changes.length;
			}
			if ( name === 'featureCount' ) {
				return tool.features().length;
			}
			const value = tool[ name ]( ...args );
			return value === undefined
				? null
				: JSON.parse( JSON.stringify( value ) );
		},
		arm( kind, n ) {
			armed = {
				kind,
				n,
				down: null,
				up: null,
				result: null,
				resolve: null,
			};
		},
		waited() {
			const current = armed;
			if ( current.result ) {
				return current.result;
			}
			return new Promise( ( resolve ) => {
				current.resolve = resolve;
				// Nothing came (no pointerdown): give up after the timeout.
				setTimeout( () => {
					if ( ! current.result ) {
						current.result = { timeout: true };
						resolve( current.result );
					}
				}, TIMEOUT_MS + 1000 );
			} );
		},
		idle() {
			return new Promise( ( resolve ) => {
				map.once( 'idle', () => resolve( null ) );
				map.triggerRepaint();
			} );
		},
		/**
		 * The drawing layers (not the basemap's) that draw something at pixel x, y.
		 * @param {number} x
		 * @param {number} y
		 */
		drawnAt( x, y ) {
			const basemap = new Set( [ 'earth', 'water', 'boundaries' ] );
			return map
				.queryRenderedFeatures( [ x, y ] )
				.map( ( f ) => f.layer.id )
				.filter( ( id ) => ! basemap.has( id ) );
		},
		pixelOfPlaced( index ) {
			return pixel( tool.placed()[ index ] );
		},
		report( points ) {
			const feature = tool.features().at( -1 );
			const placed = tool.placed().map( pixel );
			const matched = points.filter( ( [ x, y ] ) =>
				placed.some( ( p ) => Math.hypot( p.x - x, p.y - y ) < 1.5 )
			).length;
			return {
				type: feature?.geometry.type ?? null,
				vertices: placed.length,
				matched,
				features: tool.features().length,
			};
		},
		/**
		 * Whether one vertex went to `target` (pixels) and the others stayed.
		 * @param {number[][]} before The placed positions before.
		 * @param {number[][]} after  And after.
		 * @param {number[]}   target The pixel the vertex was dragged to.
		 */
		moved( before, after, target ) {
			const [ x, y ] = target;
			const near = ( a, b ) => Math.hypot( a.x - b.x, a.y - b.y ) < 1.5;
			const was = before.map( pixel );
			const now = after.map( pixel );
			const to = { x, y };
			const gone = was.filter(
				( p ) => ! now.some( ( q ) => near( p, q ) )
			);
			return {
				countKept: before.length === after.length,
				atTarget: now.some( ( p ) => near( p, to ) ),
				othersKept: gone.length === 1,
				changed: gone.length > 0,
			};
		},
	};
	map.once( 'load', () => {
		map.once( 'idle', () => {
			window.bench.ready = true;
		} );
		map.triggerRepaint();
	} );
}
