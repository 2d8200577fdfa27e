/**
 * The block's settings in the sidebar, one component per panel (panels.tsx). Every control is
 * labelled and keyboard-usable; values are validated before they reach the attributes.
 */
import { InspectorControls } from '@wordpress/block-editor';
import { useState } from '@wordpress/element';

import { InspectorPanels, type InspectorProps } from './panels';

export type { InspectorProps } from './panels';

export function Inspector( props: InspectorProps ) {
	const heightText = useState( props.attributes.height );
	return (
		<InspectorControls>
			<InspectorPanels { ...props } heightText={ heightText } />
		</InspectorControls>
	);
}
