/**
 * Counts as the page's language writes them: the panel's "10,000 places on this map", the
 * group counts and what is announced.
 */
import { formatCount } from '../../packages/map/src/count';
import { nearAnnouncement } from '../../packages/map/src/places/near';

describe( 'formatCount', () => {
	it( 'groups thousands as the language does', () => {
		expect( formatCount( 10000, 'en-US' ) ).toBe( '10,000' );
		expect( formatCount( 1234567, 'de-DE' ) ).toBe( '1.234.567' );
		expect( formatCount( 999, 'en-US' ) ).toBe( '999' );
		expect( formatCount( 0, 'en-US' ) ).toBe( '0' );
	} );

	it( 'falls back to plain digits for a language Intl refuses', () => {
		expect( formatCount( 10000, 'not a language!' ) ).toBe( '10000' );
	} );

	it( 'formats the counts of what is announced near a place', () => {
		expect(
			nearAnnouncement(
				12345,
				{ text: '', radius: 0 } as Parameters<
					typeof nearAnnouncement
				>[ 1 ],
				'metric',
				'en-US'
			)
		).toBe( '12,345 places, nearest to you first' );
	} );
} );
