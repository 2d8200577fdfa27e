/**
 * "Move to trash", asked twice: the first press asks, "Yes, move to trash" does it, "Keep it"
 * takes the question back.
 */
import { Button } from '@wordpress/components';
import { useState } from '@wordpress/element';
import { __ } from '@wordpress/i18n';

export interface TrashControlProps {
	busy: boolean;
	onTrash: () => void;
}

export function TrashControl( { busy, onTrash }: TrashControlProps ) {
	const [ confirming, setConfirming ] = useState( false );
	if ( ! confirming ) {
		return (
			<Button
				variant="link"
				isDestructive
				onClick={ () => setConfirming( true ) }
			>
				{ __( 'Move to trash', 'cairn-maps' ) }
			</Button>
		);
	}
	return (
		<>
			<Button
				variant="secondary"
				isDestructive
				onClick={ onTrash }
				disabled={ busy }
			>
				{ __( 'Yes, move to trash', 'cairn-maps' ) }
			</Button>
			<Button variant="tertiary" onClick={ () => setConfirming( false ) }>
				{ __( 'Keep it', 'cairn-maps' ) }
			</Button>
		</>
	);
}
