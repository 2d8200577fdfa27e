/**
 * Markers → Marker Groups: the line looks of a group's routes and areas (line colour, line width,
 * fill opacity) set on the add and edit forms, read back as stored term meta; an invalid width
 * refused with its message and no group created.
 */
import type { Page } from '@playwright/test';
import type { RequestUtils } from '@wordpress/e2e-test-utils-playwright';

import { expect, test } from './fixtures/maps-service';

const GROUPS_URL =
	'/wp-admin/edit-tags.php?taxonomy=cairn_marker_group&post_type=cairn_marker';
const WIDTH_MESSAGE =
	'The line width must be a whole number of pixels from 1 to 12.';

interface GroupRecord {
	id: number;
	name: string;
	meta: {
		cairn_color: string;
		cairn_line_color: string;
		cairn_line_width: number;
		cairn_fill_opacity: number;
	};
}

async function groupsBySlug(
	requestUtils: RequestUtils,
	slug: string
): Promise< GroupRecord[] > {
	return ( await requestUtils.rest( {
		path: '/wp/v2/cairn-marker-groups',
		params: { slug, context: 'edit' },
	} ) ) as GroupRecord[];
}

/** Types a colour into one of the form's colour pickers (the text field opens with its button). */
async function pickColour( page: Page, wrap: string, colour: string ) {
	const row = page.locator( wrap );
	const field = row.locator( 'input.cairn-maps-color-field' );
	if ( ! ( await field.isVisible() ) ) {
		await row.getByRole( 'button', { name: 'Select Color' } ).click();
	}
	await field.fill( colour );
}

const SLUG = `e2e-looks-${ Date.now().toString( 36 ) }`;

test.afterAll( async ( { requestUtils } ) => {
	for ( const group of await groupsBySlug( requestUtils, SLUG ) ) {
		await requestUtils.rest( {
			method: 'DELETE',
			path: `/wp/v2/cairn-marker-groups/${ group.id }`,
			params: { force: true },
		} );
	}
} );

test.describe( 'group line looks', () => {
	test.describe.configure( { timeout: 240_000 } );

	test( 'are set on the add and edit forms and stored; an invalid width is refused', async ( {
		page,
		requestUtils,
	} ) => {
		await page.goto( GROUPS_URL );
		const form = page.locator( '#addtag' );
		await form.getByLabel( 'Name', { exact: true } ).fill( 'E2E trails' );
		await form.getByLabel( 'Slug', { exact: true } ).fill( SLUG );
		await pickColour( page, '.term-cairn-line-color-wrap', '#c0392b' );
		const width = form.getByLabel( 'Line width' );
		const opacity = form.getByLabel( 'Area fill opacity' );
		await expect( width ).toHaveValue( '3' );
		await expect( opacity ).toHaveValue( '0.25' );

		// Too wide: the whole group is refused with the message.
		await width.fill( '20' );
		await opacity.fill( '0.4' );
		await form
			.getByRole( 'button', { name: 'Add New Marker Group' } )
			.click();
		await expect(
			page.locator( '#ajax-response .notice-error' )
		).toHaveText( WIDTH_MESSAGE );
		expect( await groupsBySlug( requestUtils, SLUG ) ).toEqual( [] );

		await width.fill( '6' );
		await form
			.getByRole( 'button', { name: 'Add New Marker Group' } )
			.click();
		await expect(
			page
				.locator( '#the-list' )
				.getByRole( 'link', { name: '“E2E trails” (Edit)' } )
		).toBeVisible();
		// The list's looks column tells them.
		await expect(
			page.locator( '#the-list tr', { hasText: 'E2E trails' } )
		).toContainText( 'Lines: #c0392b, 6 px; area fill 0.40' );
		const [ created ] = await groupsBySlug( requestUtils, SLUG );
		expect( created?.meta ).toMatchObject( {
			cairn_line_color: '#c0392b',
			cairn_line_width: 6,
			cairn_fill_opacity: 0.4,
		} );

		// The edit form shows them; a change is stored, an emptied colour goes back to the group's.
		await page.goto(
			`/wp-admin/term.php?taxonomy=cairn_marker_group&tag_ID=${ created!.id }&post_type=cairn_marker`
		);
		const edit = page.locator( '#edittag' );
		await expect( edit.getByLabel( 'Line width' ) ).toHaveValue( '6' );
		await expect( edit.getByLabel( 'Area fill opacity' ) ).toHaveValue(
			'0.4'
		);
		await expect( edit.locator( '#cairn-maps-line-color' ) ).toHaveValue(
			'#c0392b'
		);
		await edit.getByLabel( 'Line width' ).fill( '9' );
		await edit.getByLabel( 'Area fill opacity' ).fill( '0.1' );
		await pickColour( page, '.term-cairn-line-color-wrap', '' );
		await edit.getByRole( 'button', { name: 'Update' } ).click();
		await expect( page.locator( '#message' ) ).toContainText( 'updated' );
		await expect( edit.getByLabel( 'Line width' ) ).toHaveValue( '9' );
		const [ updated ] = await groupsBySlug( requestUtils, SLUG );
		expect( updated?.meta ).toMatchObject( {
			cairn_line_color: '',
			cairn_line_width: 9,
			cairn_fill_opacity: 0.1,
		} );
	} );
} );
