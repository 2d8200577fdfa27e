/**
 * The "Location" panel of the marker edit screen (the shared location editor): it edits
 * `meta.cairn_lat` / `meta.cairn_lng` of the marker, and `meta.geo_address` when an address is
 * chosen or typed. Saving is the editor's; the server (Marker_Validation) refuses bad values with
 * a 400 and its message. Unset coordinates read `null` from the server.
 */
import { useEntityProp } from '@wordpress/core-data';
import { PluginDocumentSettingPanel } from '@wordpress/editor';
import { __ } from '@wordpress/i18n';

import { LocationEditor } from '../shared/location-editor';
import type { LocationChanges } from '../shared/location-editor';

const LAT = 'cairn_lat';
const LNG = 'cairn_lng';
const ADDRESS = 'geo_address';

type Meta = Record< string, unknown >;

export function LocationPanel() {
	const [ rawMeta, setRawMeta ] = useEntityProp(
		'postType',
		'cairn_marker',
		'meta'
	);
	const meta: Meta =
		typeof rawMeta === 'object' && rawMeta !== null
			? ( rawMeta as Meta )
			: {};
	// core-data types the setter as `Function`; it takes the whole meta object.
	const setMeta = setRawMeta as ( next: Meta ) => void;

	const edit = ( changes: LocationChanges ) => {
		const next: Meta = { ...meta };
		if ( changes.lat !== undefined ) {
			next[ LAT ] = changes.lat;
		}
		if ( changes.lng !== undefined ) {
			next[ LNG ] = changes.lng;
		}
		if ( changes.address !== undefined ) {
			next[ ADDRESS ] = changes.address;
		}
		setMeta( next );
	};

	return (
		<PluginDocumentSettingPanel
			name="cairn-maps-location"
			title={ __( 'Location', 'cairn-maps' ) }
			className="cairn-maps-location-panel"
		>
			<LocationEditor
				latitude={ meta[ LAT ] }
				longitude={ meta[ LNG ] }
				address={ ADDRESS in meta ? meta[ ADDRESS ] : undefined }
				onChange={ edit }
				hint={ __(
					'Maps show the marker once it has a latitude and a longitude.',
					'cairn-maps'
				) }
				mapLabel={ __(
					'Map: click to place the marker, or drag it',
					'cairn-maps'
				) }
				pinLabel={ __(
					'Marker position: drag to move it',
					'cairn-maps'
				) }
			/>
		</PluginDocumentSettingPanel>
	);
}
