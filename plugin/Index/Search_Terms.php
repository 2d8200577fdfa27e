<?php
/**
 * A filter of the places panel, in the index's terms.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Index;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Markers\Post_Type;

/**
 * Turns a panel filter (Place_Filter: the selection, `hidden` groups, the search) into what the queries
 * need: the group combinations that pass (null: all), and for each search word the LIKE pattern
 * of the title words it starts, and the combinations holding a group whose name has a word it
 * starts ("cafés" finds the places of the group "Cafés").
 *
 * @since 0.6.0
 */
class Search_Terms {

	/**
	 * The group combinations, id => slugs.
	 *
	 * @var array<int, string[]>|null
	 */
	private ?array $combos = null;

	/**
	 * Group names by slug.
	 *
	 * @var array<string, string>|null
	 */
	private ?array $names = null;

	/**
	 * Forgets what was read (each answer reads combinations and names afresh).
	 */
	public function forget(): void {
		$this->combos = null;
		$this->names  = null;
	}

	/**
	 * The group combinations: id => sorted slugs (read as the index keeps them: Place_Store, the
	 * object cache first).
	 *
	 * @return array<int, string[]>
	 */
	public function combos(): array {
		$this->combos ??= ( new Place_Store() )->combos();
		return $this->combos;
	}

	/**
	 * The combinations of a selection (Place_Filter::selects()): null when every place is in it,
	 * else their ids (0 = a marker without a group).
	 *
	 * @param Place_Filter $filter The filter.
	 * @return int[]|null
	 */
	public function selection( Place_Filter $filter ): ?array {
		return $this->where( array( $filter, 'selects' ) );
	}

	/**
	 * The combinations passing a selection and the groups switched off (Place_Filter::shows()):
	 * null when every place passes, else their ids.
	 *
	 * @param Place_Filter $filter The filter.
	 * @return int[]|null
	 */
	public function passing( Place_Filter $filter ): ?array {
		return $this->where( array( $filter, 'shows' ) );
	}

	/**
	 * The ids of the combinations (0 included: no group) a test keeps; null when it keeps all.
	 *
	 * @param callable $keeps Takes a combination's slugs.
	 * @return int[]|null
	 */
	private function where( callable $keeps ): ?array {
		$ids = array();
		$all = true;
		foreach ( array( 0 => array() ) + $this->combos() as $id => $slugs ) {
			if ( $keeps( $slugs ) ) {
				$ids[] = $id;
			} else {
				$all = false;
			}
		}
		return $all ? null : $ids;
	}

	/**
	 * The words of a search: for each, `like` (the LIKE pattern of the title words it starts) and
	 * `named` (the combinations holding a group with a name word it starts). A search without a
	 * word (only punctuation, symbols) is no search, as in the runtime's words.ts: every place
	 * passes it.
	 *
	 * @param string[] $words The search's folded words (Place_Filter::words()).
	 * @return array<int, array{like: string, named: int[]}>
	 */
	public function words( array $words ): array {
		global $wpdb;
		$terms = array();
		foreach ( $words as $word ) {
			$terms[] = array(
				'like'  => $wpdb->esc_like( $word ) . '%',
				'named' => $this->named( $word ),
			);
		}
		return $terms;
	}

	/**
	 * The combinations holding a group one of whose name's words starts with this word (the one
	 * reader of group names for the list, the counts and the tiles).
	 *
	 * @param string $word A folded query word.
	 * @return int[]
	 */
	public function named( string $word ): array {
		$named = array();
		foreach ( $this->names() as $slug => $name ) {
			foreach ( Place_Words::words( $name ) as $name_word ) {
				if ( 0 === strpos( $name_word, $word ) ) {
					$named[ $slug ] = true;
					break;
				}
			}
		}
		if ( array() === $named ) {
			return array();
		}
		$ids = array();
		foreach ( $this->combos() as $id => $slugs ) {
			if ( array() !== array_intersect_key( array_flip( $slugs ), $named ) ) {
				$ids[] = $id;
			}
		}
		return $ids;
	}

	/**
	 * Group names by slug (the groups of the index's combinations): a marker group's by its slug,
	 * a post's term by its key `<taxonomy>:<slug>`.
	 *
	 * @return array<string, string>
	 */
	private function names(): array {
		if ( null === $this->names ) {
			$this->names = array();
			$by_taxonomy = array();
			foreach ( array_unique( array_merge( array(), ...array_values( $this->combos() ) ) ) as $slug ) {
				if ( 0 === strpos( $slug, Place_Source::TYPE_PREFIX ) ) {
					continue;
				}
				$parts = explode( ':', $slug, 2 );
				if ( 2 === count( $parts ) ) {
					$by_taxonomy[ $parts[0] ][] = $parts[1];
				} else {
					$by_taxonomy[ Post_Type::TAXONOMY ][] = $slug;
				}
			}
			foreach ( $by_taxonomy as $taxonomy => $slugs ) {
				$terms = get_terms(
					array(
						'taxonomy'   => $taxonomy,
						'hide_empty' => false,
						'slug'       => $slugs,
					)
				);
				foreach ( is_array( $terms ) ? $terms : array() as $term ) {
					$key                 = Post_Type::TAXONOMY === $taxonomy ? $term->slug : $taxonomy . ':' . $term->slug;
					$this->names[ $key ] = html_entity_decode( $term->name, ENT_QUOTES | ENT_HTML5, 'UTF-8' );
				}
			}
		}
		return $this->names;
	}
}
