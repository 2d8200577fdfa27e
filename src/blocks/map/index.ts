/**
 * Registers the `cairn/map` block in the editor. The block is dynamic: PHP renders it.
 */
import { registerBlockType } from '@wordpress/blocks';
import type { BlockConfiguration } from '@wordpress/blocks';

import metadata from './block.json';
import Edit from './edit';
import { registerSiteDefaultsVariation } from './site-defaults';
import type { MapBlockAttributes } from './types';
import './style.scss';
import './editor.scss';

registerBlockType< MapBlockAttributes >(
	metadata as unknown as BlockConfiguration< MapBlockAttributes >,
	{
		edit: Edit,
		save: () => null,
	}
);

// New blocks start with the site-wide defaults of Settings → Cairn Maps.
registerSiteDefaultsVariation();
