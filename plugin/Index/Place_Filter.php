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
 * 0.8.0: a visitor's "near a place within 25 km") keeps the places within it. Since 0.10.0 the
 * selection may name post types and their group keys too (selects()), and this one object is what
 * the tiles, the list, the summary and the counts read (Rest\Places_Params::filter()).
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
	 * Whether the selection shows markers (false: posts only).
	 *
	 * @var bool
	 */
	private bool $markers = true;

	/**
	 * Post types whose places the selection shows, sorted.
	 *
	 * @var string[]
	 */
	private array $types = array();

	/**
	 * Group keys of posts (`<taxonomy>:<slug>`), sorted: posts with any of them; none for all.
	 *
	 * @var string[]
	 */
	private array $terms = array();

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
	 * The same filter with a selection of posts beside (or instead of) the markers.
	 *
	 * @since 0.10.0
	 *
	 * @param bool     $markers Whether the selection shows markers (of `groups`, or all).
	 * @param string[] $types   Post types whose places it shows (none: no posts).
	 * @param string[] $terms   Group keys (`<taxonomy>:<slug>`): posts with any of them (none: every post of the types).
	 */
	public function with_posts( bool $markers, array $types, array $terms ): self {
		$copy          = clone $this;
		$copy->markers = $markers;
		$copy->types   = self::sorted( $types );
		$copy->terms   = self::sorted( $terms );
		return $copy;
	}

	/**
	 * Whether the selection shows markers.
	 *
	 * @since 0.10.0
	 */
	public function shows_markers(): bool {
		return $this->markers;
	}

	/**
	 * The post types of the selection.
	 *
	 * @since 0.10.0
	 *
	 * @return string[]
	 */
	public function types(): array {
		return $this->types;
	}

	/**
	 * The group keys the selection's posts must have one of (none: any).
	 *
	 * @since 0.10.0
	 *
	 * @return string[]
	 */
	public function terms(): array {
		return $this->terms;
	}

	/**
	 * Whether the places of a group combination are in the map's selection (the one rule of the
	 * tiles, the list, the summary and the counts). A post's combination starts with its type
	 * (`@post`, Place_Source): it is in a selection of that type, with one of the selection's
	 * terms when it names some. Any other is a marker's (no slug for one without a group): in a
	 * selection of markers, in one of its groups when it names some.
	 *
	 * @since 0.10.0
	 *
	 * @param string[] $slugs The combination's slugs, sorted (none: a marker without a group).
	 */
	public function selects( array $slugs ): bool {
		$type = self::type_of( $slugs );
		if ( null !== $type ) {
			return in_array( $type, $this->types, true ) && ( array() === $this->terms || array() !== array_intersect( $slugs, $this->terms ) );
		}
		return $this->markers && ( array() === $this->groups || array() !== array_intersect( $slugs, $this->groups ) );
	}

	/**
	 * Whether the places of a group combination pass the selection and the groups switched off:
	 * a place whose groups are all switched off is hidden, one without a group never is.
	 *
	 * @since 0.10.0
	 *
	 * @param string[] $slugs The combination's slugs, sorted.
	 */
	public function shows( array $slugs ): bool {
		if ( ! $this->selects( $slugs ) ) {
			return false;
		}
		$groups = self::groups_of( $slugs );
		return array() === $groups || array() === $this->hidden || array() !== array_diff( $groups, $this->hidden );
	}

	/**
	 * The post type of a combination (its `@type` slug), or null for a marker's.
	 *
	 * @since 0.10.0
	 *
	 * @param string[] $slugs The combination's slugs.
	 */
	private static function type_of( array $slugs ): ?string {
		foreach ( $slugs as $slug ) {
			if ( 0 === strpos( $slug, Place_Source::TYPE_PREFIX ) ) {
				return substr( $slug, strlen( Place_Source::TYPE_PREFIX ) );
			}
		}
		return null;
	}

	/**
	 * The groups of a combination, without its type: what a legend shows and switches off.
	 *
	 * @since 0.10.0
	 *
	 * @param string[] $slugs The combination's slugs.
	 * @return string[]
	 */
	public static function groups_of( array $slugs ): array {
		return array_values( array_filter( $slugs, static fn( string $slug ): bool => 0 !== strpos( $slug, Place_Source::TYPE_PREFIX ) ) );
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
		if ( null !== $this->circle ) {
			$key .= '|' . implode( ',', $this->circle );
		}
		// A selection of markers alone keeps the key it had before posts came to the index.
		return $this->markers && array() === $this->types ? $key : $key . '|' . ( $this->markers ? 'm' : '-' ) . '|' . implode( ',', $this->types ) . '|' . implode( ',', $this->terms );
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
