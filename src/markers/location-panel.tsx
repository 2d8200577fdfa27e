/**
 * The "Location" panel of the marker edit screen (the shared location editor): it edits
 * `meta.cairn_lat` / `meta.cairn_lng` of the marker, `meta.geo_address` when an address is
 * chosen or typed, and `meta.cairn_geometry` (a route or an area, drawn or pasted). Saving is the editor's; the server (Marker_Validation) refuses bad values with
 * a 400 and its message. Unset coordinates read `null` from the server.
 */
import { useEntityProp } from '@wordpress/core-data';
import { PluginDocumentSettingPanel } from '@wordpress/editor';
import { __ } from '@wordpress/i18n';

import { LocationEditor } from '../shared/location-editor';
import type { LocationChanges } from '../shared/location-editor';
import { ShapeTools, type ShapeGeometry } from '../shared/shape-editor';

const LAT = 'cairn_lat';
const LNG = 'cairn_lng';
const ADDRESS = 'geo_address';
const GEOMETRY = 'cairn_geometry';

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

	/**
	 * A new shape (or none). A marker without a position takes the server's anchor for the shape
	 * (a route's start, an area's label point): its unset coordinates are left out of the save
	 * (core-data merges meta edits into the stored meta; an undefined key is not sent). A marker
	 * with a position keeps it.
	 */
	const editShape = ( geometry: ShapeGeometry | null ) => {
		const next: Meta = { ...meta, [ GEOMETRY ]: geometry };
		if ( next[ LAT ] === null && next[ LNG ] === null ) {
			next[ LAT ] = undefined;
			next[ LNG ] = undefined;
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
				mapTools={ ( map, setBusy ) => (
					<ShapeTools
						map={ map }
						value={ meta[ GEOMETRY ] }
						onChange={ editShape }
						onActive={ setBusy }
					/>
				) }
			/>
		</PluginDocumentSettingPanel>
	);
}
