/**
 * The markup `useCairnMap` draws into: a host that carries `data-cairn-state` (and the runtime's
 * alert), holding the labelled region the map draws in, then anything else the editor shows with
 * the map (the block preview's places panel).
 */
import type { CSSProperties, ReactNode } from 'react';

import type { CairnMapHandle } from './use-cairn-map';

interface MapHostProps {
	/** The refs `useCairnMap` returned. */
	handle: Pick< CairnMapHandle, 'hostRef' | 'containerRef' >;
	/** Class of the host element. */
	className: string;
	/** Class of the map's own element. */
	mapClassName: string;
	/** Accessible name of the map region, translated. */
	label: string;
	/** Style of the map's element (its height). */
	mapStyle?: CSSProperties;
	children?: ReactNode;
}

export function MapHost( {
	handle,
	className,
	mapClassName,
	label,
	mapStyle,
	children,
}: MapHostProps ) {
	return (
		<div
			ref={ handle.hostRef }
			className={ className }
			data-cairn-state="loading"
		>
			<div
				ref={ handle.containerRef }
				className={ mapClassName }
				role="region"
				aria-label={ label }
				style={ mapStyle }
			/>
			{ children }
		</div>
	);
}
