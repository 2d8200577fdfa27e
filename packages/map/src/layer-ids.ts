/**
 * The names of the markers' source and layers (markers-layer.ts draws them), on their own: the
 * block editor's marker editor listens on the points layer without bundling the layer code.
 */
export const MARKERS_SOURCE = 'cairn-markers';
export const CLUSTERS_LAYER = 'cairn-clusters';
export const CLUSTER_COUNT_LAYER = 'cairn-cluster-count';
export const POINTS_LAYER = 'cairn-points';
export const ICONS_LAYER = 'cairn-point-icons';
