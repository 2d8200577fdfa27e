/**
 * "Clustering": whether close markers are grouped, and within what radius.
 */
import { PanelBody, RangeControl, ToggleControl } from '@wordpress/components';
import { __ } from '@wordpress/i18n';

import { RANGES } from '../validation';
import type { PanelProps } from './types';

export function ClusteringPanel( {
	attributes: { cluster },
	setAttributes,
}: PanelProps< 'cluster' > ) {
	return (
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
	);
}
