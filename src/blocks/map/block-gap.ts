/**
 * The block's "Block spacing" (`style.spacing.blockGap`) as the gap between the map and its
 * places: the editor's twin of Blocks\Block_Gap (WordPress applies a block gap only through the
 * layout support, which this block does not use). Only a spacing preset or a plain length.
 * @since 0.3.0
 */
import type { CSSProperties } from 'react';
import { isRecord } from '@cairn-maps/map/plugin';

const PRESET = /^var:preset\|spacing\|([a-z0-9-]+)$/;
const LENGTH =
	/^(?:0|\d{1,5}(?:\.\d{1,4})?(?:px|em|rem|%|vw|vh|vmin|vmax|ch|ex|cqi|cqw))$/;

/**
 * The gap as CSS, or '' when none is set or it is not one we accept.
 * @param attributes The block's attributes (its `style` comes from the block supports).
 */
export function blockGapValue( attributes: object ): string {
	const style = ( attributes as { style?: unknown } ).style;
	const spacing = isRecord( style ) ? style.spacing : undefined;
	const gap = isRecord( spacing ) ? spacing.blockGap : undefined;
	if ( typeof gap !== 'string' || gap.length > 64 ) {
		return '';
	}
	const preset = PRESET.exec( gap );
	if ( preset ) {
		return `var(--wp--preset--spacing--${ preset[ 1 ] })`;
	}
	return LENGTH.test( gap ) ? gap : '';
}

/**
 * Wrapper style carrying the gap (`--cairn-gap`), or undefined.
 * @param attributes The block's attributes.
 */
export function blockGapStyle( attributes: object ): CSSProperties | undefined {
	const value = blockGapValue( attributes );
	return value ? ( { '--cairn-gap': value } as CSSProperties ) : undefined;
}
