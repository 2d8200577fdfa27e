/**
 * The block in the editor. For now a placeholder that summarises the view; the live preview
 * follows in the editor issue.
 */
import { useBlockProps } from '@wordpress/block-editor';
import type { BlockEditProps } from '@wordpress/blocks';
import { Placeholder } from '@wordpress/components';
import { __, sprintf } from '@wordpress/i18n';

import type { MapBlockAttributes } from './types';

export default function Edit( {
	attributes,
}: BlockEditProps< MapBlockAttributes > ) {
	const blockProps = useBlockProps();
	const { center, zoom } = attributes;
	return (
		<div { ...blockProps }>
			<Placeholder
				icon="location-alt"
				label={ __( 'Cairn Map', 'cairn-maps' ) }
				instructions={ sprintf(
					/* translators: 1: latitude, 2: longitude, 3: zoom level. */
					__(
						'An interactive map centred on %1$s, %2$s at zoom %3$s. Publish or preview the page to see it.',
						'cairn-maps'
					),
					center.lat.toFixed( 4 ),
					center.lng.toFixed( 4 ),
					String( zoom )
				) }
			/>
		</div>
	);
}
