<?php
/**
 * Which places of the index a tiled map shows.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Index;

defined( 'ABSPATH' ) || exit;

/**
 * A map's selection and a visitor's filter over the place index, validated (Rest\Places_Params):
 * the selection's group slugs (empty: every marker), the groups switched off, and the search.
 *
 * The rules mirror the markers feed and the runtime's engine.ts: a selection of groups keeps the
 * places in any of them (places without a group are not in it); a place whose groups are all
 * switched off is hidden (one without a group never is); a search keeps the places where every
 * query word starts a word of the title or of one of the place's group names; a circle (since
 * 0.8.0: a visitor's "near a place within 25 km") keeps the places within it.
 *
 * @since 0.6.0
 */
final class Place_Filter {

	/**
	 * The selection's group slugs, sorted; empty for every marker.
	 *
	 * @var string[]
	 */
	private array $groups;

	/**
	 * Group slugs switched off, sorted.
	 *
	 * @var string[]
	 */
	private array $hidden;

	/**
	 * Query words, folded, unique, sorted.
	 *
	 * @var string[]
	 */
	private array $words;

	/**
	 * The circle [lng, lat, metres], or null.
	 *
	 * @var array{0: float, 1: float, 2: int}|null
	 */
	private ?array $circle = null;

	/**
	 * Creates the filter.
	 *
	 * @param string[] $groups The selection's group slugs (empty: every marker).
	 * @param string[] $hidden Group slugs switched off.
	 * @param string   $search The search, trimmed.
	 */
	public function __construct( array $groups = array(), array $hidden = array(), string $search = '' ) {
		$this->groups = self::sorted( $groups );
		$this->hidden = self::sorted( $hidden );
		$this->words  = self::sorted( Place_Words::query_words( $search ) );
	}

	/**
	 * The selection's group slugs.
	 *
	 * @return string[]
	 */
	public function groups(): array {
		return $this->groups;
	}

	/**
	 * The query words (folded).
	 *
	 * @return string[]
	 */
	public function words(): array {
		return $this->words;
	}

	/**
	 * Whether only groups decide (no search): the stored cell counts can answer.
	 */
	public function by_groups_only(): bool {
		return array() === $this->words && null === $this->circle;
	}

	/**
	 * The same filter keeping only the places within a circle (null: none).
	 *
	 * @since 0.8.0
	 *
	 * @param array{0: float, 1: float, 2: int}|null $circle [lng, lat, metres], validated (Rest\Search_Params::circle()).
	 */
	public function with_circle( ?array $circle ): self {
		$copy         = clone $this;
		$copy->circle = null === $circle ? null : array( round( $circle[0], 7 ), round( $circle[1], 7 ), $circle[2] );
		return $copy;
	}

	/**
	 * The circle [lng, lat, metres], or null.
	 *
	 * @since 0.8.0
	 *
	 * @return array{0: float, 1: float, 2: int}|null
	 */
	public function circle(): ?array {
		return $this->circle;
	}

	/**
	 * Whether places without a group pass (combo 0): only when the selection names no group.
	 */
	public function shows_ungrouped(): bool {
		return array() === $this->groups;
	}

	/**
	 * Whether every place passes the groups rules (no selection of groups, nothing switched off).
	 */
	public function shows_every_combo(): bool {
		return array() === $this->groups && array() === $this->hidden;
	}

	/**
	 * Whether the places of a group combination pass the groups rules.
	 *
	 * @param string[] $slugs The combination's slugs (never empty).
	 */
	public function shows_combo( array $slugs ): bool {
		if ( array() !== $this->groups && array() === array_intersect( $slugs, $this->groups ) ) {
			return false;
		}
		return array() !== array_diff( $slugs, $this->hidden );
	}

	/**
	 * The same filter (its search kept) with other group slugs.
	 *
	 * @since 0.7.0
	 *
	 * @param string[] $groups The selection's group slugs.
	 * @param string[] $hidden Group slugs switched off.
	 */
	public function with_groups( array $groups, array $hidden ): self {
		$copy         = clone $this;
		$copy->groups = self::sorted( $groups );
		$copy->hidden = self::sorted( $hidden );
		return $copy;
	}

	/**
	 * The switched-off group slugs.
	 *
	 * @since 0.7.0
	 *
	 * @return string[]
	 */
	public function hidden(): array {
		return $this->hidden;
	}

	/**
	 * A canonical text of the filter, for cache keys.
	 */
	public function key(): string {
		$key = implode( ',', $this->groups ) . '|' . implode( ',', $this->hidden ) . '|' . implode( ' ', $this->words );
		return null === $this->circle ? $key : $key . '|' . implode( ',', $this->circle );
	}

	/**
	 * Sorted unique strings.
	 *
	 * @param string[] $values Values.
	 * @return string[]
	 */
	private static function sorted( array $values ): array {
		$values = array_values( array_unique( array_map( 'strval', $values ) ) );
		sort( $values, SORT_STRING );
		return $values;
	}
}
