/**
 * The block's settings in the sidebar. Every control is labelled and keyboard-usable; values are
 * validated before they reach the attributes.
 */
import type { Map as MapboxMap } from 'mapbox-gl';
import { InspectorControls } from '@wordpress/block-editor';
import {
	Button,
	FormTokenField,
	PanelBody,
	RadioControl,
	RangeControl,
	SelectControl,
	TextControl,
	ToggleControl,
} from '@wordpress/components';
import { store as coreStore } from '@wordpress/core-data';
import { useSelect } from '@wordpress/data';
import { useMemo, useState } from '@wordpress/element';
import { __ } from '@wordpress/i18n';
import type { MarkerSource } from '@cairn-maps/map';
import { parseContentSelection } from '@cairn-maps/map/plugin';

import { ControlsToggles, StyleField } from '../../shared/map-fields';
import { languageOptions } from '../../shared/languages';
import { ContentPanel } from './content-panel';
import { getEditorData } from './editor-data';
import { MarkerPicker } from './marker-picker';
import { NumberField } from './number-field';
import { PlaceSearch } from './place-search';
import type { MapBlockAttributes } from './types';
import {
	RANGES,
	heightError,
	languagesFromTokens,
	roundTo,
	zoomRangeError,
} from './validation';

export interface InspectorProps {
	attributes: MapBlockAttributes;
	setAttributes: ( attributes: Partial< MapBlockAttributes > ) => void;
	map: MapboxMap | null;
	accessToken: string;
	/** Whether the block knows a post from its context ("Show this post's place"). */
	hasPostContext?: boolean;
}

interface GroupTerm {
	id: number;
	slug: string;
	name: string;
}

export function Inspector( {
	attributes,
	setAttributes,
	map,
	accessToken,
	hasPostContext = false,
}: InspectorProps ) {
	const {
		mapStyle,
		center,
		zoom,
		bearing,
		pitch,
		minZoom,
		maxZoom,
		controls,
		language,
		markers,
		cluster,
		hash,
		cooperativeGestures,
		height,
		places,
		languages,
	} = attributes;
	// A hand-written block may hold a partial `content`.
	const content = parseContentSelection( attributes.content );
	const [ heightText, setHeightText ] = useState( height );
	const styleHosts = useMemo( () => getEditorData().styleHosts, [] );
	const contentTypes = useMemo( () => getEditorData().postTypes, [] );
	const visitorLanguages = languageOptions().filter(
		( option ) => option.value !== 'auto'
	);

	const groups = useSelect(
		( select ) =>
			( select( coreStore ).getEntityRecords(
				'taxonomy',
				'cairn_marker_group',
				{
					per_page: 100,
					_fields: 'id,slug,name',
				}
			) as GroupTerm[] | null ) ?? [],
		[]
	);

	const useCurrentView = () => {
		if ( ! map ) {
			return;
		}
		const current = map.getCenter();
		setAttributes( {
			center: {
				lng: roundTo( current.lng, 6 ),
				lat: roundTo( current.lat, 6 ),
			},
			zoom: roundTo(
				Math.min( maxZoom, Math.max( minZoom, map.getZoom() ) ),
				2
			),
			bearing: roundTo( map.getBearing(), 1 ),
			pitch: roundTo( map.getPitch(), 1 ),
		} );
	};

	return (
		<InspectorControls>
			<PanelBody title={ __( 'Style', 'cairn-maps' ) }>
				<StyleField
					value={ mapStyle }
					hosts={ styleHosts }
					onChange={ ( url, valid ) => {
						// The block keeps its last valid style while a custom URL is being typed.
						if ( valid ) {
							setAttributes( { mapStyle: url } );
						}
					} }
				/>
			</PanelBody>

			<PanelBody title={ __( 'View', 'cairn-maps' ) }>
				<p className="cairn-maps-help">
					{ __(
						'Moving the preview does not change the saved view. Move it where you want, then use “Use current view”.',
						'cairn-maps'
					) }
				</p>
				<Button
					variant="secondary"
					onClick={ useCurrentView }
					disabled={ ! map }
				>
					{ __( 'Use current view', 'cairn-maps' ) }
				</Button>
				<NumberField
					label={ __( 'Latitude', 'cairn-maps' ) }
					value={ center.lat }
					range={ RANGES.lat }
					onChange={ ( lat ) =>
						setAttributes( { center: { ...center, lat } } )
					}
				/>
				<NumberField
					label={ __( 'Longitude', 'cairn-maps' ) }
					value={ center.lng }
					range={ RANGES.lng }
					onChange={ ( lng ) =>
						setAttributes( { center: { ...center, lng } } )
					}
				/>
				<RangeControl
					__next40pxDefaultSize
					__nextHasNoMarginBottom
					label={ __( 'Zoom', 'cairn-maps' ) }
					value={ zoom }
					min={ minZoom }
					max={ maxZoom }
					step={ 0.1 }
					onChange={ ( value?: number ) =>
						value !== undefined && setAttributes( { zoom: value } )
					}
				/>
				<RangeControl
					__next40pxDefaultSize
					__nextHasNoMarginBottom
					label={ __( 'Bearing (degrees)', 'cairn-maps' ) }
					value={ bearing }
					min={ RANGES.bearing.min }
					max={ RANGES.bearing.max }
					step={ 1 }
					onChange={ ( value?: number ) =>
						value !== undefined &&
						setAttributes( { bearing: value } )
					}
				/>
				<RangeControl
					__next40pxDefaultSize
					__nextHasNoMarginBottom
					label={ __( 'Pitch (degrees)', 'cairn-maps' ) }
					value={ pitch }
					min={ RANGES.pitch.min }
					max={ RANGES.pitch.max }
					step={ 1 }
					onChange={ ( value?: number ) =>
						value !== undefined && setAttributes( { pitch: value } )
					}
				/>
				<PlaceSearch
					accessToken={ accessToken }
					onSelect={ ( place ) =>
						setAttributes( {
							center: {
								lng: roundTo( place.lng, 6 ),
								lat: roundTo( place.lat, 6 ),
							},
							zoom: Math.min( maxZoom, Math.max( minZoom, 10 ) ),
						} )
					}
				/>
			</PanelBody>

			<PanelBody
				title={ __( 'Zoom limits', 'cairn-maps' ) }
				initialOpen={ false }
			>
				<NumberField
					label={ __( 'Minimum zoom', 'cairn-maps' ) }
					value={ minZoom }
					range={ RANGES.zoom }
					step={ 0.5 }
					check={ ( value ) => zoomRangeError( value, maxZoom ) }
					onChange={ ( value ) =>
						setAttributes( {
							minZoom: value,
							zoom: Math.max( zoom, value ),
						} )
					}
				/>
				<NumberField
					label={ __( 'Maximum zoom', 'cairn-maps' ) }
					value={ maxZoom }
					range={ RANGES.zoom }
					step={ 0.5 }
					check={ ( value ) => zoomRangeError( minZoom, value ) }
					onChange={ ( value ) =>
						setAttributes( {
							maxZoom: value,
							zoom: Math.min( zoom, value ),
						} )
					}
				/>
			</PanelBody>

			<PanelBody
				title={ __( 'Controls', 'cairn-maps' ) }
				initialOpen={ false }
			>
				<ControlsToggles
					value={ controls }
					onChange={ ( value ) =>
						setAttributes( { controls: value } )
					}
				/>
			</PanelBody>

			<PanelBody
				title={ __( 'Label language', 'cairn-maps' ) }
				initialOpen={ false }
			>
				<SelectControl
					__next40pxDefaultSize
					__nextHasNoMarginBottom
					label={ __( 'Language of map labels', 'cairn-maps' ) }
					value={ language }
					options={ languageOptions() }
					onChange={ ( value: string ) =>
						setAttributes( { language: value } )
					}
				/>
			</PanelBody>

			<PanelBody
				title={ __( 'Markers', 'cairn-maps' ) }
				initialOpen={ false }
			>
				<RadioControl
					label={ __( 'Markers to show', 'cairn-maps' ) }
					selected={ markers.source }
					options={ [
						{
							value: 'all',
							label: __( 'All markers', 'cairn-maps' ),
						},
						{
							value: 'groups',
							label: __(
								'Markers of chosen groups',
								'cairn-maps'
							),
						},
						{
							value: 'ids',
							label: __( 'Hand-picked markers', 'cairn-maps' ),
						},
						{
							value: 'none',
							label: __( 'None (posts only)', 'cairn-maps' ),
						},
					] }
					onChange={ ( value: string ) =>
						setAttributes( {
							markers: {
								...markers,
								source: value as MarkerSource,
							},
						} )
					}
				/>
				{ markers.source === 'groups' && (
					<FormTokenField
						__next40pxDefaultSize
						__nextHasNoMarginBottom
						label={ __( 'Groups', 'cairn-maps' ) }
						value={ markers.groups.map(
							( slug ) =>
								groups.find( ( group ) => group.slug === slug )
									?.name ?? slug
						) }
						suggestions={ groups.map( ( group ) => group.name ) }
						__experimentalExpandOnFocus
						onChange={ ( tokens ) => {
							const slugs = tokens
								.map( ( token ) => {
									const name =
										typeof token === 'string'
											? token
											: token.value;
									return groups.find(
										( group ) =>
											group.name === name ||
											group.slug === name
									)?.slug;
								} )
								.filter( ( slug ): slug is string =>
									Boolean( slug )
								);
							setAttributes( {
								markers: {
									...markers,
									groups: Array.from( new Set( slugs ) ),
								},
							} );
						} }
					/>
				) }
				{ markers.source === 'ids' && (
					<MarkerPicker
						ids={ markers.ids }
						onChange={ ( ids ) =>
							setAttributes( { markers: { ...markers, ids } } )
						}
					/>
				) }
			</PanelBody>

			<ContentPanel
				content={ content }
				onChange={ ( next ) => setAttributes( { content: next } ) }
				postTypes={ contentTypes }
				hasPostContext={ hasPostContext }
			/>

			<PanelBody
				title={ __( 'Places', 'cairn-maps' ) }
				initialOpen={ false }
			>
				<ToggleControl
					__nextHasNoMarginBottom
					label={ __( 'Search field', 'cairn-maps' ) }
					help={ __(
						'Visitors find a place by its name or group.',
						'cairn-maps'
					) }
					checked={ places.search }
					onChange={ ( search: boolean ) =>
						setAttributes( { places: { ...places, search } } )
					}
				/>
				<ToggleControl
					__nextHasNoMarginBottom
					label={ __( 'Group filter', 'cairn-maps' ) }
					help={ __(
						'A button per group shows or hides its places (only on maps with two or more groups).',
						'cairn-maps'
					) }
					checked={ places.groupFilter }
					onChange={ ( groupFilter: boolean ) =>
						setAttributes( { places: { ...places, groupFilter } } )
					}
				/>
				<ToggleControl
					__nextHasNoMarginBottom
					label={ __( 'List follows the map', 'cairn-maps' ) }
					help={ __(
						'The list shows the places in view after each move.',
						'cairn-maps'
					) }
					checked={ places.followMap }
					onChange={ ( followMap: boolean ) =>
						setAttributes( { places: { ...places, followMap } } )
					}
				/>
				<FormTokenField
					__next40pxDefaultSize
					__nextHasNoMarginBottom
					label={ __(
						'Label languages visitors can choose',
						'cairn-maps'
					) }
					value={ languages.map(
						( tag ) =>
							visitorLanguages.find(
								( option ) => option.value === tag
							)?.label ?? tag
					) }
					suggestions={ visitorLanguages.map(
						( option ) => option.label
					) }
					__experimentalExpandOnFocus
					__experimentalValidateInput={ ( token: string ) =>
						languagesFromTokens( [ token ], visitorLanguages )
							.length > 0
					}
					onChange={ ( tokens ) =>
						setAttributes( {
							languages: languagesFromTokens(
								tokens,
								visitorLanguages
							),
						} )
					}
				/>
				<p className="components-form-token-field__help">
					{ __(
						'Choose two or more to give visitors a language switch on the map.',
						'cairn-maps'
					) }
				</p>
			</PanelBody>

			<PanelBody
				title={ __( 'Clustering', 'cairn-maps' ) }
				initialOpen={ false }
			>
				<ToggleControl
					__nextHasNoMarginBottom
					label={ __( 'Group close markers', 'cairn-maps' ) }
					checked={ cluster.enabled }
					onChange={ ( enabled: boolean ) =>
						setAttributes( { cluster: { ...cluster, enabled } } )
					}
				/>
				{ cluster.enabled && (
					<RangeControl
						__next40pxDefaultSize
						__nextHasNoMarginBottom
						label={ __( 'Cluster radius (pixels)', 'cairn-maps' ) }
						value={ cluster.radius }
						min={ RANGES.clusterRadius.min }
						max={ RANGES.clusterRadius.max }
						onChange={ ( radius?: number ) =>
							radius !== undefined &&
							setAttributes( { cluster: { ...cluster, radius } } )
						}
					/>
				) }
			</PanelBody>

			<PanelBody
				title={ __( 'Behaviour', 'cairn-maps' ) }
				initialOpen={ false }
			>
				<ToggleControl
					__nextHasNoMarginBottom
					label={ __(
						'Keep the view in the page address',
						'cairn-maps'
					) }
					help={ __(
						'Visitors can share a link to what they see.',
						'cairn-maps'
					) }
					checked={ hash }
					onChange={ ( value: boolean ) =>
						setAttributes( { hash: value } )
					}
				/>
				<ToggleControl
					__nextHasNoMarginBottom
					label={ __( 'Cooperative gestures', 'cairn-maps' ) }
					help={ __(
						'The page scrolls normally; zoom with Ctrl/⌘ + scroll or two fingers.',
						'cairn-maps'
					) }
					checked={ cooperativeGestures }
					onChange={ ( value: boolean ) =>
						setAttributes( { cooperativeGestures: value } )
					}
				/>
				<TextControl
					__next40pxDefaultSize
					__nextHasNoMarginBottom
					label={ __( 'Height', 'cairn-maps' ) }
					value={ heightText }
					help={ heightError( heightText ) || undefined }
					onChange={ ( value: string ) => {
						setHeightText( value );
						if ( ! heightError( value ) ) {
							setAttributes( { height: value } );
						}
					} }
				/>
			</PanelBody>
		</InspectorControls>
	);
}
