/**
 * Label languages Mapbox's vector tiles carry (Mapbox Streets v8 / Standard). `auto` follows the
 * visitor's browser.
 */
import { __ } from '@wordpress/i18n';

export interface LanguageOption {
	value: string;
	label: string;
}

export function languageOptions(): LanguageOption[] {
	return [
		{ value: 'auto', label: __( 'Visitor’s language', 'cairn-maps' ) },
		{ value: 'ar', label: __( 'Arabic', 'cairn-maps' ) },
		{ value: 'zh-Hans', label: __( 'Chinese (Simplified)', 'cairn-maps' ) },
		{
			value: 'zh-Hant',
			label: __( 'Chinese (Traditional)', 'cairn-maps' ),
		},
		{ value: 'cs', label: __( 'Czech', 'cairn-maps' ) },
		{ value: 'da', label: __( 'Danish', 'cairn-maps' ) },
		{ value: 'nl', label: __( 'Dutch', 'cairn-maps' ) },
		{ value: 'en', label: __( 'English', 'cairn-maps' ) },
		{ value: 'fi', label: __( 'Finnish', 'cairn-maps' ) },
		{ value: 'fr', label: __( 'French', 'cairn-maps' ) },
		{ value: 'de', label: __( 'German', 'cairn-maps' ) },
		{ value: 'el', label: __( 'Greek', 'cairn-maps' ) },
		{ value: 'he', label: __( 'Hebrew', 'cairn-maps' ) },
		{ value: 'hu', label: __( 'Hungarian', 'cairn-maps' ) },
		{ value: 'id', label: __( 'Indonesian', 'cairn-maps' ) },
		{ value: 'it', label: __( 'Italian', 'cairn-maps' ) },
		{ value: 'ja', label: __( 'Japanese', 'cairn-maps' ) },
		{ value: 'ko', label: __( 'Korean', 'cairn-maps' ) },
		{ value: 'no', label: __( 'Norwegian', 'cairn-maps' ) },
		{ value: 'pl', label: __( 'Polish', 'cairn-maps' ) },
		{ value: 'pt', label: __( 'Portuguese', 'cairn-maps' ) },
		{ value: 'ro', label: __( 'Romanian', 'cairn-maps' ) },
		{ value: 'ru', label: __( 'Russian', 'cairn-maps' ) },
		{ value: 'es', label: __( 'Spanish', 'cairn-maps' ) },
		{ value: 'sv', label: __( 'Swedish', 'cairn-maps' ) },
		{ value: 'th', label: __( 'Thai', 'cairn-maps' ) },
		{ value: 'tr', label: __( 'Turkish', 'cairn-maps' ) },
		{ value: 'uk', label: __( 'Ukrainian', 'cairn-maps' ) },
		{ value: 'vi', label: __( 'Vietnamese', 'cairn-maps' ) },
	];
}
