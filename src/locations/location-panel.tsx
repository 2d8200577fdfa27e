/**
 * The "Location" panel of a post whose type is enabled for locations (Settings → Cairn Maps):
 * the shared location editor on the post's `geo_latitude`, `geo_longitude` and `geo_address`,
 * "Show on maps" (`geo_public`) and "Remove location".
 *
 * Edits go through `core/editor`'s `editPost( { meta } )` (meta edits are merged) and are saved
 * with the post; the server refuses bad values with a 400 and nothing is saved. A location set in
 * this panel on a post that had none is shown on maps unless the editor switches that off; a
 * location stored without `geo_public` stays private.
 */
import { Button, ToggleControl } from '@wordpress/components';
import { useDispatch, useSelect } from '@wordpress/data';
import { useRef } from '@wordpress/element';
import { PluginDocumentSettingPanel } from '@wordpress/editor';
import { __ } from '@wordpress/i18n';
import { LIMITS } from '@cairn-maps/map/plugin';

import { LocationEditor } from '../shared/location-editor';
import type { LocationChanges } from '../shared/location-editor';
import { coordinate } from '../shared/location-editor/fields';

export const META = {
	lat: 'geo_latitude',
	lng: 'geo_longitude',
	address: 'geo_address',
	public: 'geo_public',
} as const;

type Meta = Record< string, unknown >;

/** The parts of the `core/editor` store this panel uses. */
interface EditorSelectors {
	getEditedPostAttribute: ( attribute: 'meta' ) => unknown;
	getCurrentPostAttribute: ( attribute: 'meta' ) => unknown;
}
interface EditorActions {
	editPost: ( edits: { meta: Meta } ) => void;
}

function asMeta( value: unknown ): Meta {
	return typeof value === 'object' && value !== null ? ( value as Meta ) : {};
}

function placed( meta: Meta ): boolean {
	return (
		coordinate( meta[ META.lat ], LIMITS.markerLatitude ) !== null &&
		coordinate( meta[ META.lng ], LIMITS.longitude ) !== null
	);
}

export function PostLocationPanel() {
	const { rawMeta, storedMeta } = useSelect( ( select ) => {
		const editor = select( 'core/editor' ) as EditorSelectors;
		return {
			rawMeta: editor.getEditedPostAttribute( 'meta' ),
			storedMeta: editor.getCurrentPostAttribute( 'meta' ),
		};
	}, [] );
	const { editPost } = useDispatch( 'core/editor' ) as EditorActions;
	const meta = asMeta( rawMeta );
	const hasPosition = placed( meta );
	// A location the post was saved with keeps its "Show on maps" choice, even when a coordinate
	// is emptied and typed again; only "Remove location" makes the next place a new one.
	const storedPosition = placed( asMeta( storedMeta ) );
	const hasAnything =
		hasPosition ||
		( meta[ META.lat ] ?? null ) !== null ||
		( meta[ META.lng ] ?? null ) !== null ||
		( typeof meta[ META.address ] === 'string' &&
			meta[ META.address ] !== '' );

	// Whether "Show on maps" was switched in this session: then the editor's choice stands.
	const chosePublic = useRef( false );
	// Whether "Remove location" was used in this session.
	const removed = useRef( false );

	const edit = ( changes: LocationChanges ) => {
		const next: Meta = {};
		if ( changes.lat !== undefined ) {
			next[ META.lat ] = changes.lat;
		}
		if ( changes.lng !== undefined ) {
			next[ META.lng ] = changes.lng;
		}
		if ( changes.address !== undefined ) {
			next[ META.address ] = changes.address;
		}
		// A post that gets a position when it had none is shown on maps (the toggle says so,
		// and the editor can switch it off); a stored location without geo_public stays private.
		const lat = changes.lat !== undefined ? changes.lat : meta[ META.lat ];
		const lng = changes.lng !== undefined ? changes.lng : meta[ META.lng ];
		if (
			! hasPosition &&
			( ! storedPosition || removed.current ) &&
			! chosePublic.current &&
			coordinate( lat, LIMITS.markerLatitude ) !== null &&
			coordinate( lng, LIMITS.longitude ) !== null
		) {
			next[ META.public ] = true;
		}
		editPost( { meta: next } );
	};

	return (
		<PluginDocumentSettingPanel
			name="cairn-maps-location"
			title={ __( 'Location', 'cairn-maps' ) }
			className="cairn-maps-location-panel"
		>
			<LocationEditor
				latitude={ meta[ META.lat ] }
				longitude={ meta[ META.lng ] }
				address={ meta[ META.address ] ?? '' }
				onChange={ edit }
				hint={ __(
					'Give this post a place: search an address, click the map, or type the coordinates.',
					'cairn-maps'
				) }
				mapLabel={ __(
					'Map: click to place the post’s location, or drag it',
					'cairn-maps'
				) }
				pinLabel={ __(
					'Location of the post: drag to move it',
					'cairn-maps'
				) }
			>
				<ToggleControl
					__nextHasNoMarginBottom
					label={ __( 'Show on maps', 'cairn-maps' ) }
					help={ __(
						'When on, visitors see this post’s place on maps once the post is published. When off, only people who can edit the post see it.',
						'cairn-maps'
					) }
					checked={ meta[ META.public ] === true }
					onChange={ ( value: boolean ) => {
						chosePublic.current = true;
						editPost( { meta: { [ META.public ]: value } } );
					} }
				/>
				{ hasAnything && (
					<div className="cairn-maps-location-panel__actions">
						<Button
							__next40pxDefaultSize
							variant="secondary"
							isDestructive
							onClick={ () => {
								chosePublic.current = false;
								removed.current = true;
								editPost( {
									meta: {
										[ META.lat ]: null,
										[ META.lng ]: null,
										[ META.address ]: null,
										[ META.public ]: null,
									},
								} );
							} }
						>
							{ __( 'Remove location', 'cairn-maps' ) }
						</Button>
					</div>
				) }
			</LocationEditor>
		</PluginDocumentSettingPanel>
	);
}
