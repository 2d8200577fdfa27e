/**
 * The sidebar's panels in their order, without the sidebar slot (the Inspector puts them there).
 */
import type { Map as MapboxMap } from 'mapbox-gl';
import { useMemo } from '@wordpress/element';

import { parseContentSelection } from '@cairn-maps/map/plugin';
import { ContentPanel } from '../content-panel';
import { getEditorData } from '../editor-data';
import type { MapBlockAttributes } from '../types';
import { BehaviourPanel } from './behaviour-panel';
import { ClusteringPanel } from './clustering-panel';
import { ControlsPanel } from './controls-panel';
import { LanguagePanel } from './language-panel';
import { MarkersPanel } from './markers-panel';
import { PlacesPanel } from './places-panel';
import { StylePanel } from './style-panel';
import type { SetAttributes } from './types';
import { ViewPanel } from './view-panel';
import { ZoomLimitsPanel } from './zoom-limits-panel';

export interface InspectorProps {
	attributes: MapBlockAttributes;
	setAttributes: SetAttributes;
	map: MapboxMap | null;
	accessToken: string;
	/** Whether the block knows a post from its context ("Show this post's place"). */
	hasPostContext?: boolean;
}

export interface InspectorPanelsProps extends InspectorProps {
	/** What the height field holds, and its setter (see BehaviourPanel). */
	heightText: readonly [ string, ( text: string ) => void ];
}

export function InspectorPanels( {
	attributes,
	setAttributes,
	map,
	accessToken,
	hasPostContext = false,
	heightText,
}: InspectorPanelsProps ) {
	const contentTypes = useMemo( () => getEditorData().postTypes, [] );
	const panel = { attributes, setAttributes };
	return (
		<>
			<StylePanel { ...panel } />
			<ViewPanel { ...panel } map={ map } accessToken={ accessToken } />
			<ZoomLimitsPanel { ...panel } />
			<ControlsPanel { ...panel } />
			<LanguagePanel { ...panel } />
			<MarkersPanel { ...panel } />
			<ContentPanel
				// A hand-written block may hold a partial `content`.
				content={ parseContentSelection( attributes.content ) }
				onChange={ ( next ) => setAttributes( { content: next } ) }
				postTypes={ contentTypes }
				hasPostContext={ hasPostContext }
			/>
			<PlacesPanel { ...panel } />
			<ClusteringPanel { ...panel } />
			<BehaviourPanel { ...panel } heightText={ heightText } />
		</>
	);
}
