/**
 * The names of the shapes' source and layers (layers.ts draws them beneath the points), apart
 * from the layer code: tests and hosts can name them without loading it.
 * @since 0.4.0
 */
export const SHAPES_SOURCE = 'cairn-shapes';
export const SHAPES_FILL_LAYER = 'cairn-shapes-fill';
export const SHAPES_HALO_LAYER = 'cairn-shapes-halo';
export const SHAPES_LINE_LAYER = 'cairn-shapes-line';
