/**
 * The block's attributes, mirroring block.json.
 */
import type {
	ClusterConfig,
	ControlsConfig,
	LngLat,
	MarkerSelection,
} from '../../map/types';

export type MapBlockAttributes = {
	center: LngLat;
	zoom: number;
	bearing: number;
	pitch: number;
	minZoom: number;
	maxZoom: number;
	mapStyle: string;
	controls: ControlsConfig;
	language: string;
	markers: MarkerSelection;
	cluster: ClusterConfig;
	hash: boolean;
	height: string;
	cooperativeGestures: boolean;
};
