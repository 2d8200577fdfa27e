/**
 * "Posts on the map": which posts with a public place the map shows (attribute `content`). The
 * post types are those the site enabled for locations (Settings → Cairn Maps); terms narrow them,
 * suggested from the site's own terms.
 */
import {
	CheckboxControl,
	FormTokenField,
	PanelBody,
	ToggleControl,
} from '@wordpress/components';
import { store as coreStore } from '@wordpress/core-data';
import { useSelect } from '@wordpress/data';
import { useState } from '@wordpress/element';
import { __, sprintf } from '@wordpress/i18n';
import type { ContentSelection } from '@cairn-maps/map';

import type { ContentPostType, ContentTaxonomy } from './editor-data';

export interface ContentPanelProps {
	content: ContentSelection;
	onChange: ( content: ContentSelection ) => void;
	/** Post types the site enabled for locations. */
	postTypes: ContentPostType[];
	/** Whether the block sits where a post is known (a post, a template, a Query Loop). */
	hasPostContext: boolean;
}

interface TermRecord {
	id: number;
	slug: string;
	name: string;
}

/** Term names come from REST as HTML entities ("Caf&eacute;"); show them as text. */
function plain( html: string ): string {
	return (
		new window.DOMParser().parseFromString( html, 'text/html' ).body
			.textContent ?? ''
	);
}

/**
 * The terms of one taxonomy a map is narrowed to: a token field with the site's terms as
 * suggestions (searched as the editor types), stored as slugs.
 * @param props
 * @param props.taxonomy
 * @param props.slugs
 * @param props.onChange
 */
function TermsField( {
	taxonomy,
	slugs,
	onChange,
}: {
	taxonomy: ContentTaxonomy;
	slugs: string[];
	onChange: ( slugs: string[] ) => void;
} ) {
	const [ search, setSearch ] = useState( '' );
	const { found, chosen } = useSelect(
		( select ) => {
			const store = select( coreStore );
			return {
				found:
					( store.getEntityRecords( 'taxonomy', taxonomy.name, {
						search,
						per_page: 20,
						_fields: 'id,slug,name',
					} ) as TermRecord[] | null ) ?? [],
				chosen:
					slugs.length > 0
						? ( ( store.getEntityRecords(
								'taxonomy',
								taxonomy.name,
								{
									slug: slugs,
									per_page: 100,
									_fields: 'id,slug,name',
								}
							) as TermRecord[] | null ) ?? [] )
						: [],
			};
		},
		[ taxonomy.name, search, slugs ]
	);
	const known = [ ...chosen, ...found ];
	const nameOf = ( slug: string ) => {
		const term = known.find( ( item ) => item.slug === slug );
		return term ? plain( term.name ) : slug;
	};
	return (
		<FormTokenField
			__next40pxDefaultSize
			__nextHasNoMarginBottom
			label={ taxonomy.label }
			value={ slugs.map( nameOf ) }
			suggestions={ found.map( ( term ) => plain( term.name ) ) }
			onInputChange={ setSearch }
			__experimentalExpandOnFocus
			__experimentalShowHowTo={ false }
			onChange={ ( tokens ) => {
				const next = tokens
					.map( ( token ) => {
						const name =
							typeof token === 'string' ? token : token.value;
						return known.find(
							( term ) =>
								plain( term.name ) === name ||
								term.slug === name
						)?.slug;
					} )
					.filter( ( slug ): slug is string => Boolean( slug ) );
				onChange( Array.from( new Set( next ) ) );
			} }
		/>
	);
}

export function ContentPanel( {
	content,
	onChange,
	postTypes,
	hasPostContext,
}: ContentPanelProps ) {
	const chosen = postTypes.filter( ( type ) =>
		content.postTypes.includes( type.name )
	);
	// Each taxonomy once, even when several chosen types share it.
	const taxonomies = chosen
		.flatMap( ( type ) => type.taxonomies )
		.filter(
			( taxonomy, index, all ) =>
				all.findIndex( ( other ) => other.name === taxonomy.name ) ===
				index
		);
	const setTypes = ( names: string[] ) => {
		const allowed = postTypes
			.filter( ( type ) => names.includes( type.name ) )
			.flatMap( ( type ) => type.taxonomies.map( ( t ) => t.name ) );
		// Terms of a taxonomy none of the chosen types uses would narrow nothing: dropped.
		const terms = Object.fromEntries(
			Object.entries( content.terms ).filter( ( [ taxonomy ] ) =>
				allowed.includes( taxonomy )
			)
		);
		onChange( { ...content, postTypes: names, terms } );
	};
	return (
		<PanelBody
			title={ __( 'Posts on the map', 'cairn-maps' ) }
			initialOpen={ content.postTypes.length > 0 || content.current }
		>
			<ToggleControl
				__nextHasNoMarginBottom
				label={ __( "Show this post's place", 'cairn-maps' ) }
				help={
					hasPostContext
						? __(
								'The map shows the place of the post it is in (in a template: the post being viewed), when that place is public.',
								'cairn-maps'
							)
						: __(
								'Shows the place of the post the map is in. In a single-post template or a Query Loop, that is the post being shown.',
								'cairn-maps'
							)
				}
				checked={ content.current }
				onChange={ ( current: boolean ) =>
					onChange( { ...content, current } )
				}
			/>
			{ ! content.current && postTypes.length === 0 && (
				<p className="cairn-maps-help">
					{ __(
						'No post type can have a place yet: choose them in Settings → Cairn Maps.',
						'cairn-maps'
					) }
				</p>
			) }
			{ ! content.current && postTypes.length > 0 && (
				<fieldset className="cairn-maps-content-types">
					<legend>
						{ __(
							'Show posts with a public place of these types',
							'cairn-maps'
						) }
					</legend>
					{ postTypes.map( ( type ) => (
						<CheckboxControl
							__nextHasNoMarginBottom
							key={ type.name }
							label={ type.label }
							checked={ content.postTypes.includes( type.name ) }
							onChange={ ( checked: boolean ) =>
								setTypes(
									checked
										? [ ...content.postTypes, type.name ]
										: content.postTypes.filter(
												( name ) => name !== type.name
											)
								)
							}
						/>
					) ) }
				</fieldset>
			) }
			{ ! content.current && taxonomies.length > 0 && (
				<>
					<p className="cairn-maps-help">
						{ __(
							'Only posts with any of these terms (none: all posts of the chosen types).',
							'cairn-maps'
						) }
					</p>
					{ taxonomies.map( ( taxonomy ) => (
						<TermsField
							key={ taxonomy.name }
							taxonomy={ taxonomy }
							slugs={ content.terms[ taxonomy.name ] ?? [] }
							onChange={ ( slugs ) => {
								const terms = { ...content.terms };
								if ( slugs.length ) {
									terms[ taxonomy.name ] = slugs;
								} else {
									delete terms[ taxonomy.name ];
								}
								onChange( { ...content, terms } );
							} }
						/>
					) ) }
				</>
			) }
			{ content.postTypes.length > 0 && content.current && (
				<p className="cairn-maps-help">
					{ sprintf(
						/* translators: %d: number of post types chosen. */
						__(
							'While "Show this post\'s place" is on, the %d chosen post types are not shown.',
							'cairn-maps'
						),
						content.postTypes.length
					) }
				</p>
			) }
		</PanelBody>
	);
}
