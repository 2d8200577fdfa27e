/**
 * The map block in the editor: a live preview through the shared runtime, the settings sidebar,
 * and markers placed on the map.
 */
import type { Map as MapboxMap } from 'mapbox-gl';
import { BlockControls, useBlockProps } from '@wordpress/block-editor';
import type { BlockEditProps } from '@wordpress/blocks';
import { ToolbarButton, ToolbarGroup } from '@wordpress/components';
import { useMemo, useState } from '@wordpress/element';
import { __ } from '@wordpress/i18n';

import type { ShapeKind } from '../../shared/shape-editor';
import {
	getEditorData,
	previewBasemap,
	previewDirections,
} from './editor-data';
import { blockGapStyle } from './block-gap';
import { Inspector } from './inspector';
import { MarkerEditor } from './marker-editor';
import { MapPreview } from './preview';
import { TokenPlaceholder, useTokenStatus } from './token-placeholder';
import type { MapBlockAttributes } from './types';
import { useCreatedMarkers } from './use-created-markers';
import { usePreviewFeeds, type MapContext } from './use-preview-feeds';

export default function Edit( {
	attributes,
	setAttributes,
	context,
}: BlockEditProps< MapBlockAttributes > & { context?: MapContext } ) {
	const blockProps = useBlockProps( { style: blockGapStyle( attributes ) } );
	const data = useMemo( getEditorData, [] );
	// Live: a token pasted into any map's placeholder reaches every map on the screen.
	const token = useTokenStatus();
	const [ map, setMap ] = useState< MapboxMap | null >( null );
	const [ adding, setAdding ] = useState( false );
	const [ newShape, setNewShape ] = useState< ShapeKind | null >( null );
	const {
		markersUrl,
		postsUrl,
		shapesUrl,
		groupStyles,
		refresh,
		refreshShapes,
	} = usePreviewFeeds( attributes, context, data );
	const onCreated = useCreatedMarkers( attributes.markers, refresh );
	// What visitors see for this block's style: the site's basemap for block.json's default.
	const basemap = previewBasemap( attributes.mapStyle, data );

	// Only a Mapbox map needs the token: a keyless or self-hosted basemap previews without one.
	if ( basemap.needsToken && token.status !== 'ok' ) {
		return (
			<div { ...blockProps }>
				<TokenPlaceholder />
			</div>
		);
	}

	const addMarker = __( 'Add marker', 'cairn-maps' );
	const drawTools = [
		[ 'line', __( 'Draw a route', 'cairn-maps' ), 'chart-line' ],
		[ 'area', __( 'Draw an area', 'cairn-maps' ), 'admin-site-alt3' ],
	] as const;
	return (
		<div { ...blockProps }>
			<BlockControls>
				<ToolbarGroup>
					<ToolbarButton
						icon="location"
						label={ addMarker }
						isPressed={ adding }
						disabled={ ! map }
						onClick={ () => {
							setAdding( ! adding );
							setNewShape( null );
						} }
					>
						{ addMarker }
					</ToolbarButton>
					{ drawTools.map( ( [ kind, label, icon ] ) => (
						<ToolbarButton
							key={ kind }
							icon={ icon }
							label={ label }
							isPressed={ newShape === kind }
							disabled={ ! map }
							onClick={ () => {
								setNewShape( newShape === kind ? null : kind );
								setAdding( false );
							} }
						>
							{ label }
						</ToolbarButton>
					) ) }
				</ToolbarGroup>
			</BlockControls>
			<Inspector
				attributes={ attributes }
				setAttributes={ setAttributes }
				map={ map }
				accessToken={ token.accessToken }
				hasPostContext={ Boolean( context?.postId ) }
			/>
			<MapPreview
				attributes={ attributes }
				basemap={ basemap }
				accessToken={ basemap.needsToken ? token.accessToken : '' }
				markersUrl={ markersUrl }
				postsUrl={ postsUrl }
				shapesUrl={ shapesUrl }
				markerUrl={ data.markerUrl }
				groupStyles={ groupStyles }
				units={ data.units }
				directions={ previewDirections(
					attributes.directions,
					data.directions
				) }
				onMap={ setMap }
			/>
			<MarkerEditor
				map={ map }
				markers={ attributes.markers }
				setMarkers={ ( markers ) => setAttributes( { markers } ) }
				onChanged={ refresh }
				onShapesChanged={ refreshShapes }
				onCreated={ onCreated }
				editUrl={ data.markerEditUrl }
				adding={ adding }
				setAdding={ setAdding }
				newShape={ newShape }
				setNewShape={ setNewShape }
			/>
		</div>
	);
}
