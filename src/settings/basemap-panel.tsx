/**
 * The basemap: Automatic, OpenFreeMap, Mapbox, a MapLibre style URL or a self-hosted PMTiles
 * archive; each provider's terms and attribution; and "Test basemap", checked from the server
 * (plugin/Rest/Basemap_Test_Controller.php).
 */
import apiFetch from '@wordpress/api-fetch';
import {
	Button,
	Card,
	CardBody,
	CardHeader,
	ExternalLink,
	Notice,
	RadioControl,
	SelectControl,
	Spinner,
	TextControl,
} from '@wordpress/components';
import { useState } from '@wordpress/element';
import { __, sprintf } from '@wordpress/i18n';
import { isRecord } from '@cairn-maps/map/plugin';

import { styleOptions } from '../shared/styles';
import {
	archiveUrl,
	automaticStyle,
	editedBasemapProblem,
	firstValue,
	OPENFREEMAP_STYLES,
	PMTILES_PREFIX,
	type BasemapKind,
} from './basemap';

export interface BasemapPanelProps {
	value: string;
	onChange: ( value: string ) => void;
	/**
	 * The kind the owner picked (kept apart from the value: an emptied field keeps its kind, where
	 * the value alone would say "automatic").
	 */
	kind: BasemapKind;
	onKindChange: ( kind: BasemapKind ) => void;
	/** Whether the token field holds a public token (Mapbox styles need one). */
	hasPublicToken: boolean;
	/** Hosts of the site's addresses, where a self-hosted archive may be. */
	localHosts: readonly string[];
}

interface TestResult {
	ok: boolean;
	message: string;
}

interface MediaFrame {
	on: ( event: string, callback: () => void ) => void;
	open: () => void;
	state: () => {
		get: ( name: string ) => {
			first: () => { toJSON: () => { url?: unknown } };
		};
	};
}

type MediaFactory = ( options: Record< string, unknown > ) => MediaFrame;

/** wp.media, when the screen loaded it (Settings_Page enqueues the media library). */
function mediaLibrary(): MediaFactory | null {
	const wp = ( window as { wp?: { media?: unknown } } ).wp;
	return typeof wp?.media === 'function'
		? ( wp.media as MediaFactory )
		: null;
}

/**
 * Runs "Test basemap" on the server.
 *
 * @param basemap The value being chosen.
 */
export async function testBasemap( basemap: string ): Promise< TestResult > {
	try {
		const answer: unknown = await apiFetch( {
			path: '/cairn/v1/basemap/test',
			method: 'POST',
			data: { basemap },
		} );
		const data = isRecord( answer ) ? answer : {};
		return {
			ok: data.ok === true,
			message: typeof data.message === 'string' ? data.message : '',
		};
	} catch ( error ) {
		return {
			ok: false,
			message:
				isRecord( error ) && typeof error.message === 'string'
					? error.message
					: __( 'The basemap could not be tested.', 'cairn-maps' ),
		};
	}
}

function Terms( { kind }: { kind: BasemapKind } ) {
	switch ( kind ) {
		case 'openfreemap':
			return (
				<p className="cairn-maps-settings__note">
					{ __(
						'OpenFreeMap is free, needs no key or registration, and asks for no payment. Its maps carry the attribution “OpenFreeMap © OpenMapTiles Data from OpenStreetMap”, which the map shows. Visitors’ browsers contact tiles.openfreemap.org, which receives their IP address: maps wait for consent when “Load maps only after the visitor agrees” is on.',
						'cairn-maps'
					) }{ ' ' }
					<ExternalLink href="https://openfreemap.org/">
						{ __( 'About OpenFreeMap', 'cairn-maps' ) }
					</ExternalLink>
				</p>
			);
		case 'mapbox':
			return (
				<p className="cairn-maps-settings__note">
					{ __(
						'Mapbox styles need the public access token above, and the Mapbox terms of service: map loads beyond the free tier are billed to your account, and maps show the Mapbox logo and attribution. Visitors’ browsers contact Mapbox, which receives their IP address and usage events.',
						'cairn-maps'
					) }{ ' ' }
					<ExternalLink href="https://www.mapbox.com/legal/tos">
						{ __( 'Mapbox terms of service', 'cairn-maps' ) }
					</ExternalLink>
				</p>
			);
		case 'style-url':
			return (
				<p className="cairn-maps-settings__note">
					{ __(
						'Any MapLibre style served over https: VersaTiles, MapTiler or Stadia (with their own key in the address), or your own server. Follow that provider’s terms and attribution; the map shows the attribution the style carries. Visitors’ browsers contact the style’s host, and only it (add other hosts with the cairn_maps_basemap_hosts filter).',
						'cairn-maps'
					) }
				</p>
			);
		case 'self-hosted':
			return (
				<p className="cairn-maps-settings__note">
					{ __(
						'Maps are drawn from a PMTiles archive on this site, with its labels’ fonts from the plugin: they contact no other server, so the map itself needs no consent. The map shows the archive’s attribution (for OpenStreetMap data, “Protomaps © OpenStreetMap”). Your web server must answer byte-range requests for the file: “Test basemap” checks that.',
						'cairn-maps'
					) }
				</p>
			);
		default:
			return null;
	}
}

interface FieldsProps {
	value: string;
	change: ( value: string ) => void;
}

/** A Mapbox style: a preset, or another mapbox:// style; a warning without a token. */
function MapboxFields( {
	value,
	change,
	hasPublicToken,
}: FieldsProps & { hasPublicToken: boolean } ) {
	const presets = styleOptions();
	const preset = presets.some( ( style ) => style.value === value )
		? value
		: 'custom';
	return (
		<>
			{ ! hasPublicToken && (
				<Notice status="warning" isDismissible={ false }>
					{ __(
						'Mapbox styles need a public access token: enter it under Access token. Until then maps of this basemap show a notice instead of the map.',
						'cairn-maps'
					) }
				</Notice>
			) }
			<SelectControl
				__next40pxDefaultSize
				__nextHasNoMarginBottom
				label={ __( 'Mapbox style', 'cairn-maps' ) }
				value={ preset }
				options={ [
					...presets,
					{
						value: 'custom',
						label: __( 'Another Mapbox style', 'cairn-maps' ),
					},
				] }
				onChange={ ( next: string ) =>
					change( next === 'custom' ? 'mapbox://styles/' : next )
				}
			/>
			{ preset === 'custom' && (
				<TextControl
					__next40pxDefaultSize
					__nextHasNoMarginBottom
					label={ __( 'Mapbox style URL', 'cairn-maps' ) }
					help={ __(
						'mapbox://styles/owner/style-id, as Mapbox Studio shows it under “Share”.',
						'cairn-maps'
					) }
					value={ value }
					onChange={ ( next: string ) => change( next.trim() ) }
				/>
			) }
		</>
	);
}

/** A self-hosted archive: from the media library (wp.media), or an address on the site. */
function ArchiveFields( { value, change }: FieldsProps ) {
	const media = mediaLibrary();
	const chooseArchive = () => {
		if ( ! media ) {
			return;
		}
		const frame = media( {
			title: __( 'Choose a PMTiles archive', 'cairn-maps' ),
			button: { text: __( 'Use this archive', 'cairn-maps' ) },
			library: { type: 'application/vnd.pmtiles' },
			multiple: false,
		} );
		frame.on( 'select', () => {
			const url = frame.state().get( 'selection' ).first().toJSON().url;
			if ( typeof url === 'string' && url ) {
				change( PMTILES_PREFIX + url );
			}
		} );
		frame.open();
	};
	return (
		<>
			{ media && (
				<Button variant="secondary" onClick={ chooseArchive }>
					{ __( 'Choose from the media library', 'cairn-maps' ) }
				</Button>
			) }
			<TextControl
				__next40pxDefaultSize
				__nextHasNoMarginBottom
				type="url"
				label={ __( 'Archive address on this site', 'cairn-maps' ) }
				help={ __(
					'A .pmtiles file uploaded to the media library, or another address on this site.',
					'cairn-maps'
				) }
				value={ archiveUrl( value ) }
				onChange={ ( next: string ) =>
					change( PMTILES_PREFIX + next.trim() )
				}
			/>
		</>
	);
}

/** "Test basemap" and what the server found. */
function TestBasemap( {
	value,
	disabled,
	result,
	setResult,
}: {
	value: string;
	disabled: boolean;
	result: TestResult | null;
	setResult: ( result: TestResult | null ) => void;
} ) {
	const [ testing, setTesting ] = useState( false );
	let message = '';
	if ( result ) {
		message = result.ok
			? sprintf(
					/* translators: %s: what the server found. */
					__( 'The basemap works: %s', 'cairn-maps' ),
					result.message
				)
			: result.message;
	}
	return (
		<div className="cairn-maps-settings__basemap-test">
			<Button
				variant="secondary"
				disabled={ testing || disabled }
				aria-describedby="cairn-maps-basemap-test-result"
				onClick={ async () => {
					setTesting( true );
					setResult( null );
					setResult( await testBasemap( value ) );
					setTesting( false );
				} }
			>
				{ __( 'Test basemap', 'cairn-maps' ) }
			</Button>
			{ testing && <Spinner /> }
			<div id="cairn-maps-basemap-test-result" aria-live="polite">
				{ result && (
					<Notice
						status={ result.ok ? 'success' : 'error' }
						isDismissible={ false }
					>
						{ message }
					</Notice>
				) }
			</div>
		</div>
	);
}

/** The kinds the card offers. */
function kindOptions(): Array< { value: BasemapKind; label: string } > {
	return [
		{ value: 'automatic', label: __( 'Automatic', 'cairn-maps' ) },
		{
			value: 'openfreemap',
			label: __( 'OpenFreeMap (no key)', 'cairn-maps' ),
		},
		{
			value: 'mapbox',
			label: __( 'Mapbox (needs the token)', 'cairn-maps' ),
		},
		{
			value: 'style-url',
			label: __( 'A MapLibre style URL', 'cairn-maps' ),
		},
		{
			value: 'self-hosted',
			label: __(
				'Self-hosted (a PMTiles file on this site)',
				'cairn-maps'
			),
		},
	];
}

export function BasemapPanel( {
	value,
	onChange,
	kind,
	onKindChange,
	hasPublicToken,
	localHosts,
}: BasemapPanelProps ) {
	const [ result, setResult ] = useState< TestResult | null >( null );
	const problem = editedBasemapProblem( kind, value, localHosts );
	const automaticIsMapbox =
		automaticStyle( hasPublicToken ).startsWith( 'mapbox://' );
	const automaticKind: BasemapKind = automaticIsMapbox
		? 'mapbox'
		: 'openfreemap';
	const change = ( next: string ) => {
		setResult( null );
		onChange( next );
	};

	return (
		<Card className="cairn-maps-settings__card cairn-maps-settings__basemap">
			<CardHeader>
				<h2>{ __( 'Basemap', 'cairn-maps' ) }</h2>
			</CardHeader>
			<CardBody>
				<p className="cairn-maps-settings__intro">
					{ __(
						'The map every map block draws unless it names its own style.',
						'cairn-maps'
					) }
				</p>
				<RadioControl
					label={ __( 'Basemap', 'cairn-maps' ) }
					hideLabelFromVision
					selected={ kind }
					options={ kindOptions() }
					onChange={ ( next ) => {
						onKindChange( next as BasemapKind );
						change( firstValue( next as BasemapKind ) );
					} }
				/>
				{ kind === 'automatic' && (
					<p className="cairn-maps-settings__note">
						{ automaticIsMapbox
							? __(
									'Automatic: Mapbox Standard, because a public Mapbox token is set. Without a token, maps would draw OpenFreeMap.',
									'cairn-maps'
								)
							: __(
									'Automatic: OpenFreeMap Liberty, because no Mapbox token is set. With a public Mapbox token, maps draw Mapbox Standard.',
									'cairn-maps'
								) }
					</p>
				) }
				{ kind === 'openfreemap' && (
					<SelectControl
						__next40pxDefaultSize
						__nextHasNoMarginBottom
						label={ __( 'OpenFreeMap style', 'cairn-maps' ) }
						value={ value }
						options={ [ ...OPENFREEMAP_STYLES ] }
						onChange={ change }
					/>
				) }
				{ kind === 'mapbox' && (
					<MapboxFields
						value={ value }
						change={ change }
						hasPublicToken={ hasPublicToken }
					/>
				) }
				{ kind === 'style-url' && (
					<TextControl
						__next40pxDefaultSize
						__nextHasNoMarginBottom
						type="url"
						label={ __( 'Style URL (https)', 'cairn-maps' ) }
						value={ value }
						onChange={ ( next: string ) => change( next.trim() ) }
					/>
				) }
				{ kind === 'self-hosted' && (
					<ArchiveFields value={ value } change={ change } />
				) }
				<Terms kind={ kind === 'automatic' ? automaticKind : kind } />
				{ problem && (
					<p
						className="cairn-maps-settings__field-error"
						role="alert"
					>
						{ problem }
					</p>
				) }
				<TestBasemap
					value={ value }
					disabled={ problem !== '' }
					result={ result }
					setResult={ setResult }
				/>
			</CardBody>
		</Card>
	);
}
