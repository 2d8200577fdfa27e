/**
 * The probe for parallel shader linking that decides `precompilePrograms`.
 */
type Probe = typeof import( '../../packages/map/src/webgl' );

function probeWith( extensions: string[] ): {
	result: boolean;
	lost: jest.Mock;
} {
	const lost = jest.fn();
	const gl = {
		getExtension: ( name: string ) => {
			if ( name === 'WEBGL_lose_context' ) {
				return { loseContext: lost };
			}
			return extensions.includes( name ) ? {} : null;
		},
	};
	const getContext = jest
		.spyOn( HTMLCanvasElement.prototype, 'getContext' )
		.mockImplementation( ( () => gl ) as never );
	let result = false;
	// A fresh module each time: the answer is cached per page.
	jest.isolateModules( () => {
		const { compilesShadersInParallel } =
			require( '../../packages/map/src/webgl' ) as Probe;
		result = compilesShadersInParallel( document );
		compilesShadersInParallel( document );
	} );
	expect( getContext ).toHaveBeenCalledTimes( 1 );
	getContext.mockRestore();
	return { result, lost };
}

describe( 'compilesShadersInParallel', () => {
	it( 'is true where the browser has KHR_parallel_shader_compile, and frees its context', () => {
		const { result, lost } = probeWith( [ 'KHR_parallel_shader_compile' ] );
		expect( result ).toBe( true );
		expect( lost ).toHaveBeenCalledTimes( 1 );
	} );

	it( 'is false without the extension', () => {
		expect( probeWith( [] ).result ).toBe( false );
	} );

	it( 'is false without WebGL 2', () => {
		const getContext = jest
			.spyOn( HTMLCanvasElement.prototype, 'getContext' )
			.mockImplementation( ( () => null ) as never );
		jest.isolateModules( () => {
			const { compilesShadersInParallel } =
				require( '../../packages/map/src/webgl' ) as Probe;
			expect( compilesShadersInParallel( document ) ).toBe( false );
		} );
		getContext.mockRestore();
	} );
} );
