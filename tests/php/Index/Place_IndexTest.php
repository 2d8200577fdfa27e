<?php
/**
 * The place index kept in step with the markers.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Index;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Index\Index_Schema;
use Cairn\Maps\Index\Morton;
use Cairn\Maps\Index\Place_Index;
use Cairn\Maps\Markers\Post_Type;
use Cairn\Maps\Plugin;
use Cairn\Maps\Tests\TestCase;

/**
 * Rows, words, cells and stamps after markers are published, edited, unpublished and deleted
 * through WordPress' own APIs, and a rebuild from scratch.
 *
 * @since 0.5.0
 */
final class Place_IndexTest extends TestCase {

	/**
	 * The index, rebuilt (empty) before each test.
	 *
	 * @var Place_Index
	 */
	private Place_Index $index;

	/**
	 * Rebuilds the index from the (test's) markers.
	 */
	protected function set_up(): void {
		parent::set_up();
		$index = Plugin::instance()->get( 'place_index' );
		$this->assertInstanceOf( Place_Index::class, $index );
		$this->index = $index;
		$this->index->rebuild_now();
	}

	/**
	 * Rows of an index table.
	 *
	 * @param string $name  Table.
	 * @param string $order ORDER BY.
	 * @return array<int, array<string, string>>
	 */
	private function rows( string $name, string $order ): array {
		global $wpdb;
		$rows = $wpdb->get_results( 'SELECT * FROM ' . Index_Schema::table( $name ) . " ORDER BY $order", ARRAY_A ); // phpcs:ignore WordPress.DB.DirectDatabaseQuery, WordPress.DB.PreparedSQL.NotPrepared, WordPress.DB.PreparedSQL.InterpolatedNotPrepared -- a test's read of the plugin's table, ordered by a column name of the test.
		return is_array( $rows ) ? $rows : array();
	}

	/**
	 * A published marker is indexed with its code, plain title, groups and words.
	 */
	public function test_a_published_marker_is_indexed(): void {
		$id     = $this->create_marker(
			array(
				'post_title' => 'Café <b>de</b> la Gare &amp; Hôtel',
				'lat'        => 48.8566,
				'lng'        => 2.3522,
				'groups'     => array( 'huts', 'alps' ),
			)
		);
		$places = $this->rows( 'cairn_places', 'post_id' );
		$this->assertCount( 1, $places );
		$this->assertSame( (string) $id, $places[0]['post_id'] );
		$this->assertSame( (string) Morton::code( 48.8566, 2.3522 ), $places[0]['code'] );
		$this->assertSame( 'Café de la Gare & Hôtel', $places[0]['title'] );
		$this->assertSame( 'cafe de la gare & hotel', $places[0]['sort_key'] );
		$this->assertSame( array( (int) $places[0]['combo'] => array( 'alps', 'huts' ) ), $this->index->combos() );
		$this->assertSame( array( 'cafe', 'de', 'gare', 'hotel', 'la' ), array_column( $this->rows( 'cairn_place_words', 'word' ), 'word' ) );
		$this->assertSame( 1, $this->index->count() );
		$this->assertSame( 1, $this->index->count( array( 'huts' ) ) );
		$this->assertSame( 0, $this->index->count( array( 'lakes' ) ) );
		$this->assertTrue( $this->index->is_ready() );
	}
}
