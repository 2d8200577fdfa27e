<?php
/**
 * Which places pass a filter, as Place_Search queries them.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Index;

defined( 'ABSPATH' ) || exit;

/**
 * A filter in the index's terms (Search_Terms): the combinations that pass (`combos`, null for
 * all) and those left out (`excluded`), the search words, and how a query should read them: the
 * word whose places drive it (`driver`, the rarest title word without group names), and how
 * common that word is (`estimate`).
 *
 * @since 0.6.0
 */
final class Place_Match {

	/**
	 * Combination ids that pass; null for all.
	 *
	 * @var int[]|null
	 */
	public ?array $combos;

	/**
	 * Combination ids left out.
	 *
	 * @var int[]
	 */
	public array $excluded;

	/**
	 * Search words: `like` (LIKE pattern of title words) and `named` (combinations whose group
	 * names it starts); `equals`, one title word it starts, reads that word's rows alone;
	 * `spellings`, every title word it starts (when they are few), reads their rows by name.
	 *
	 * @var array<int, array{like: string, named: int[], equals?: string, spellings?: string[]}>
	 */
	public array $words;

	/**
	 * The index of the word whose places drive the query, or null.
	 *
	 * @var int|null
	 */
	public ?int $driver = null;

	/**
	 * How many title words the driving word starts (counted up to Place_Search::SPARSE + 1), or
	 * null without one or when it alone was eligible.
	 *
	 * @var int|null
	 */
	public ?int $estimate = null;

	/**
	 * Creates the filter.
	 *
	 * @param int[]|null                                    $combos   Combination ids that pass; null for all.
	 * @param int[]                                         $excluded Combination ids left out.
	 * @param array<int, array{like: string, named: int[]}> $words    Search words.
	 */
	public function __construct( ?array $combos, array $excluded, array $words ) {
		$this->combos   = $combos;
		$this->excluded = $excluded;
		$this->words    = $words;
	}

	/**
	 * A one-word search whose word names groups, split in two disjoint parts: `named`, the places
	 * of those groups (no word: the aggregates count them), and `titles`, the other places whose
	 * title has a word it starts (driven by that word). Null for any other filter.
	 *
	 * @return array{named: Place_Match, titles: Place_Match}|null
	 */
	public function split_named(): ?array {
		if ( 1 !== count( $this->words ) || array() === $this->words[0]['named'] ) {
			return null;
		}
		$named            = $this->words[0]['named'];
		$inside           = null === $this->combos ? $named : array_values( array_intersect( $this->combos, $named ) );
		$titles           = new self(
			$this->combos,
			array_values( array_unique( array_merge( $this->excluded, $named ) ) ),
			array(
				array(
					'like'  => $this->words[0]['like'],
					'named' => array(),
				),
			)
		);
		$titles->driver   = 0;
		$titles->estimate = $this->estimate;
		return array(
			'named'  => new self( $inside, $this->excluded, array() ),
			'titles' => $titles,
		);
	}
}
