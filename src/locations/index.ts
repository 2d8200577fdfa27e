/**
 * The "Location" panel of posts whose type is enabled for locations. Loaded by
 * plugin/Content/Location_Editor.php on those block editor screens only.
 */
import { registerPlugin } from '@wordpress/plugins';

import { PostLocationPanel } from './location-panel';

registerPlugin( 'cairn-maps-post-location', {
	render: PostLocationPanel,
	icon: null,
} );
