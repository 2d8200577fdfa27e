/**
 * The site's marker groups, as the inspector and the marker editor list them (one query, so
 * core-data fetches it once for both).
 */
import { store as coreStore } from '@wordpress/core-data';
import { useSelect } from '@wordpress/data';

export interface GroupTerm {
	id: number;
	slug: string;
	name: string;
}

export function useMarkerGroups(): GroupTerm[] {
	return useSelect(
		( select ) =>
			( select( coreStore ).getEntityRecords(
				'taxonomy',
				'cairn_marker_group',
				{
					per_page: 100,
					_fields: 'id,slug,name',
				}
			) as GroupTerm[] | null ) ?? [],
		[]
	);
}
