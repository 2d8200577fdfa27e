/**
 * "Markers": which markers the map shows — all, those of chosen groups, hand-picked ones, or none
 * (posts only).
 */
import { FormTokenField, PanelBody, RadioControl } from '@wordpress/components';
import { __ } from '@wordpress/i18n';

import type { MarkerSource } from '@cairn-maps/map';
import { useMarkerGroups } from '../marker-groups';
import { MarkerPicker } from '../marker-picker';
import type { PanelProps } from './types';

export function MarkersPanel( {
	attributes: { markers },
	setAttributes,
}: PanelProps< 'markers' > ) {
	const groups = useMarkerGroups();
	return (
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
						label: __( 'Markers of chosen groups', 'cairn-maps' ),
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
	);
}
