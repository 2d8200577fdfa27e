/**
 * Logging in through wp-login.php's form, as a person does, on sites whose browser has no
 * session yet (release sites, the German site).
 *
 * wp-login.php focuses and selects the user name field about 200 ms after the page loads
 * (`wp_attempt_focus()`). Typing before that runs can land in the wrong field: the password went
 * into the user name field and the form refused to submit. So the form is filled once that focus
 * has happened, and the values are checked (and typed again if needed) before submitting.
 */
import { expect, type Page } from '@playwright/test';

export async function logInThroughForm(
	page: Page,
	username: string,
	password: string
): Promise< void > {
	await page.goto( '/wp-login.php' );
	const user = page.locator( '#user_login' );
	const pass = page.locator( '#user_pass' );
	// Not every login screen runs the focus script (one showing an error does not).
	await expect( user )
		.toBeFocused( { timeout: 5_000 } )
		.catch( () => undefined );
	await expect( async () => {
		await user.fill( username );
		await pass.fill( password );
		await expect( user ).toHaveValue( username, { timeout: 1_000 } );
		await expect( pass ).toHaveValue( password, { timeout: 1_000 } );
	} ).toPass( { timeout: 30_000 } );
	await page.locator( '#wp-submit' ).click();
	await expect( page ).toHaveURL( /\/wp-admin\/?$/, { timeout: 60_000 } );
}
