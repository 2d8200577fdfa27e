/**
 * The cooperative gestures' messages, translated: each engine's adapter passes them to its
 * library's `locale` under its own keys (`gestureLocale`). The English text is the libraries' own.
 */
import { __ } from '@wordpress/i18n';

import type { GestureMessages } from './types';

export function gestureMessages(): GestureMessages {
	return {
		ctrl: __( 'Use ctrl + scroll to zoom the map', 'cairn-maps' ),
		cmd: __( 'Use ⌘ + scroll to zoom the map', 'cairn-maps' ),
		touch: __( 'Use two fingers to move the map', 'cairn-maps' ),
	};
}
