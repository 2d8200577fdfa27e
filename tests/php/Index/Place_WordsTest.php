<?php
/**
 * The search's rule on the server.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Index;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Index\Morton;
use Cairn\Maps\Index\Place_Words;
use Cairn\Maps\Markers\Markers_Version;
use Cairn\Maps\Plugin;
use Cairn\Maps\Tests\TestCase;

/**
 * Place_Words against the vectors the runtime's words.ts is tested with
 * (tests/fixtures/search-words.json): the place index folds and splits as the small map does.
 *
 * @since 0.7.0
 */
final class Place_WordsTest extends TestCase {

	/**
	 * The shared vectors of one kind.
	 *
	 * @param string $kind `words` or `matches`.
	 * @return array<string, array{0: array<string, mixed>}>
	 */
	private static function vectors( string $kind ): array {
		$vectors = wp_json_file_decode( dirname( __DIR__, 2 ) . '/fixtures/search-words.json', array( 'associative' => true ) );
		$cases   = array();
		foreach ( $vectors[ $kind ] as $vector ) {
			$name           = $vector['name'] ?? $vector['query'] . ' in ' . $vector['title'];
			$cases[ $name ] = array( $vector );
		}
		return $cases;
	}

	/**
	 * Folding, a title's words and a query's words.
	 *
	 * @dataProvider words_vectors
	 *
	 * @param array{text: string, fold: string, words: string[], query: string[]} $vector The case.
	 */
	public function test_it_folds_and_splits_as_the_runtime( array $vector ): void {
		$this->assertSame( $vector['fold'], Place_Words::fold( $vector['text'] ) );
		$this->assertSame( $vector['words'], Place_Words::words( $vector['text'] ) );
		$this->assertSame( $vector['query'], Place_Words::query_words( $vector['text'] ) );
	}

	/**
	 * The cases of test_it_folds_and_splits_as_the_runtime().
	 *
	 * @return array<string, array{0: array<string, mixed>}>
	 */
	public static function words_vectors(): array {
		return self::vectors( 'words' );
	}

	/**
	 * A German site folds as any other: remove_accents() would spell "ü" as "ue" there, and the
	 * runtime would not find the index's words.
	 */
	public function test_the_sites_language_does_not_change_the_fold(): void {
		switch_to_locale( 'de_DE' );
		try {
			$this->assertSame( array( 'muller', 'strasse' ), Place_Words::words( 'Müller Straße' ) );
		} finally {
			restore_previous_locale();
		}
	}

	/**
	 * Every `matches` vector as the tiled map sees it: one marker of that title in groups of those
	 * names, and the search asked of the list (`/places`) and of the tile holding the place
	 * (`/tiles`, at a zoom with points only). Both find the place exactly when the runtime does.
	 */
	public function test_the_list_and_the_tiles_match_as_the_runtime(): void {
		$vectors = self::vectors( 'matches' );
		$groups  = array();
		$places  = array();
		$k       = 0;
		foreach ( $vectors as $name => list( $vector ) ) {
			$slugs = array();
			foreach ( $vector['groups'] as $group_name ) {
				$slug = 'g' . md5( $group_name );
				if ( ! isset( $groups[ $slug ] ) ) {
					$groups[ $slug ] = $this->create_group( $slug, $group_name );
				}
				$slugs[] = $slug;
			}
			// Far apart (a degree), so that each is alone in its tile.
			$lat             = -40 + intdiv( $k, 40 );
			$lng             = -20 + ( $k % 40 );
			$places[ $name ] = array(
				$this->create_marker(
					array(
						'post_title' => $vector['title'],
						'lat'        => $lat,
						'lng'        => $lng,
						'groups'     => $slugs,
					)
				),
				$lat,
				$lng,
			);
			++$k;
		}
		Plugin::instance()->get( 'place_index' )->rebuild_now();
		$version = ( new Markers_Version() )->get();
		foreach ( $vectors as $name => list( $vector ) ) {
			list( $id, $lat, $lng ) = $places[ $name ];
			$list                   = $this->rest( 'GET', '/cairn/v1/places', array( 'q' => $vector['query'] ) );
			$this->assertSame( 200, $list->get_status(), $name );
			$listed = in_array( $id, array_column( $list->get_data()['items'], 'id' ), true );
			$this->assertSame( $vector['matches'], $listed, "the list, for $name" );

			list( $x, $y ) = Morton::tile_of( Morton::cell( Morton::code( (float) $lat, (float) $lng ), 17 ) );
			$tile          = $this->rest(
				'GET',
				"/cairn/v1/tiles/17/$x/$y",
				array(
					'q' => $vector['query'],
					'v' => $version,
				)
			);
			$this->assertSame( 200, $tile->get_status(), $name );
			$ids = array_column( $tile->get_data()['features'], 'id' );
			$this->assertSame( $vector['matches'], in_array( $id, $ids, true ), "the tile, for $name" );
		}
	}
}
