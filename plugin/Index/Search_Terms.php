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
 * Turns a panel filter (selection `groups`, `hidden` groups, search `q`) into what the queries
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
	 * The combinations of a selection: null for every place, else the ids holding one of the slugs.
	 *
	 * @param string[] $groups The selection's slugs ([] = every place).
	 * @return int[]|null
	 */
	public function selection( array $groups ): ?array {
		if ( array() === $groups ) {
			return null;
		}
		$ids = array();
		foreach ( $this->combos() as $id => $slugs ) {
			if ( array() !== array_intersect( $slugs, $groups ) ) {
				$ids[] = $id;
			}
		}
		return $ids;
	}

	/**
	 * The combinations passing a selection and hidden groups: null when every place passes, else
	 * the ids (0 = no group: such places pass hidden groups).
	 *
	 * @param string[] $groups The selection's slugs.
	 * @param string[] $hidden Slugs switched off.
	 * @return int[]|null
	 */
	public function passing( array $groups, array $hidden ): ?array {
		$selection = $this->selection( $groups );
		if ( array() === $hidden ) {
			return $selection;
		}
		$passing = null === $selection ? array( 0 ) : array();
		foreach ( $this->combos() as $id => $slugs ) {
			if ( ( null === $selection || in_array( $id, $selection, true ) ) && array() !== array_diff( $slugs, $hidden ) ) {
				$passing[] = $id;
			}
		}
		return $passing;
	}

	/**
	 * The words of a search: for each, `like` (the LIKE pattern of the title words it starts) and
	 * `named` (the combinations holding a group with a name word it starts). A search without a
	 * word (only punctuation, symbols) is no search, as in the runtime's words.ts: every place
	 * passes it.
	 *
	 * @param string $search The search, trimmed ('' for none).
	 * @return array<int, array{like: string, named: int[]}>
	 */
	public function words( string $search ): array {
		global $wpdb;
		$words = Place_Words::query_words( $search );
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
	 * Group names by slug (the groups of the index's combinations).
	 *
	 * @return array<string, string>
	 */
	private function names(): array {
		if ( null === $this->names ) {
			$this->names = array();
			$slugs       = array_values( array_unique( array_merge( array(), ...array_values( $this->combos() ) ) ) );
			if ( array() !== $slugs ) {
				$terms = get_terms(
					array(
						'taxonomy'   => Post_Type::TAXONOMY,
						'hide_empty' => false,
						'slug'       => $slugs,
					)
				);
				foreach ( is_array( $terms ) ? $terms : array() as $term ) {
					$this->names[ $term->slug ] = html_entity_decode( $term->name, ENT_QUOTES | ENT_HTML5, 'UTF-8' );
				}
			}
		}
		return $this->names;
	}
}
