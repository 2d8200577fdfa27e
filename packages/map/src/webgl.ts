/**
 * Whether the browser links WebGL programs off the main thread (`KHR_parallel_shader_compile`).
 *
 * mapbox-gl compiles the shaders a style may need ahead of time, in idle callbacks. Where programs
 * link in parallel that costs the page nothing; without the extension (software WebGL such as
 * SwiftShader, some mobile drivers) each of those links blocks the main thread, for tens to
 * hundreds of milliseconds each, right after the map appears, for programs the map may never use.
 * The runtime therefore asks for ahead-of-time compiling only where it is free.
 */
let parallel: boolean | undefined;

/**
 * @param doc The document the map lives in.
 */
export function compilesShadersInParallel( doc: Document ): boolean {
	if ( parallel === undefined ) {
		try {
			const gl = doc.createElement( 'canvas' ).getContext( 'webgl2' );
			parallel = Boolean(
				gl?.getExtension( 'KHR_parallel_shader_compile' )
			);
			gl?.getExtension( 'WEBGL_lose_context' )?.loseContext();
		} catch {
			parallel = false;
		}
	}
	return parallel;
}
