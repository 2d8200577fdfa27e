/**
 * The settings screen's save button, and why it is disabled when it is (the message the button is
 * described by).
 */
import { Button } from '@wordpress/components';
import { __ } from '@wordpress/i18n';

const BLOCKED_ID = 'cairn-maps-settings-save-blocked';

export interface SaveActionsProps {
	saving: boolean;
	/** What stops the save ('' when nothing does). */
	problem: string;
}

export function SaveActions( { saving, problem }: SaveActionsProps ) {
	const canSave = problem === '' && ! saving;
	return (
		<div className="cairn-maps-settings__actions">
			<Button
				__next40pxDefaultSize
				type="submit"
				variant="primary"
				isBusy={ saving }
				disabled={ ! canSave }
				accessibleWhenDisabled
				aria-describedby={ canSave ? undefined : BLOCKED_ID }
			>
				{ __( 'Save changes', 'cairn-maps' ) }
			</Button>
			{ ! canSave && ! saving && (
				<span
					id={ BLOCKED_ID }
					className="cairn-maps-settings__blocked"
				>
					{ problem }
				</span>
			) }
		</div>
	);
}
