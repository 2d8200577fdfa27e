<?php
/**
 * The feed URLs of a map's selections.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Blocks;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Blocks\Feed_Url;
use Cairn\Maps\Support\Rest_Routes;
use Cairn\Maps\Tests\TestCase;

/**
 * Feed_Url against the vectors the editor's preview (the package's feed-url.ts) is tested with:
 * the page asks for what the preview showed.
 *
 * @since 0.4.0
 */
final class Feed_UrlTest extends TestCase {

	/**
	 * The shared vectors, by kind (`markers`, `posts`).
	 *
	 * @param string $kind Which builder.
	 * @return array<string, array{0: array<string, mixed>}>
	 */
	private static function vectors( string $kind ): array {
		$vectors = wp_json_file_decode( dirname( __DIR__, 2 ) . '/fixtures/feed-urls.json', array( 'associative' => true ) );
		$cases   = array();
		foreach ( $vectors[ $kind ] as $vector ) {
			$cases[ $vector['name'] ] = array( $vector );
		}
		return $cases;
	}

	/**
	 * Marker selections.
	 *
	 * @return array<string, array{0: array<string, mixed>}>
	 */
	public static function markers_vectors(): array {
		return self::vectors( 'markers' );
	}

	/**
	 * Marker selections on the shapes feed.
	 *
	 * @return array<string, array{0: array<string, mixed>}>
	 */
	public static function shapes_vectors(): array {
		return self::vectors( 'shapes' );
	}

	/**
	 * Post selections.
	 *
	 * @return array<string, array{0: array<string, mixed>}>
	 */
	public static function posts_vectors(): array {
		return self::vectors( 'posts' );
	}

	/**
	 * The query parameters a URL adds to the feed's address, in order and decoded; null for no URL.
	 *
	 * @param string      $url  A feed URL, or ''.
	 * @param string|null $base The feed's address it starts with; the markers feed's when null.
	 * @return array<int, array{0: string, 1: string}>|null
	 */
	private function query( string $url, ?string $base = null ): ?array {
		if ( '' === $url ) {
			return null;
		}
		$this->assertStringStartsWith( $base ?? Feed_Url::base(), $url );
		$pairs = array();
		foreach ( explode( '&', (string) wp_parse_url( $url, PHP_URL_QUERY ) ) as $pair ) {
			list( $key, $value ) = array_pad( explode( '=', $pair, 2 ), 2, '' );
			if ( '' !== $key && 'rest_route' !== $key ) {
				$pairs[] = array( rawurldecode( $key ), rawurldecode( $value ) );
			}
		}
		return $pairs;
	}

	/**
	 * A marker selection's URL.
	 *
	 * @dataProvider markers_vectors
	 *
	 * @param array<string, mixed> $vector Selection and expected query.
	 */
	public function test_markers_url( array $vector ): void {
		$this->assertSame( $vector['query'], $this->query( Feed_Url::markers( $vector['selection'] ) ) );
	}

	/**
	 * A marker selection's shapes feed URL.
	 *
	 * @dataProvider shapes_vectors
	 *
	 * @param array<string, mixed> $vector Selection and expected query.
	 */
	public function test_shapes_url( array $vector ): void {
		$this->assertSame( $vector['query'], $this->query( Feed_Url::shapes( $vector['selection'] ), Feed_Url::shapes_base() ) );
	}

	/**
	 * The shapes feed is asked what the markers feed is asked, on its own route.
	 *
	 * @dataProvider markers_vectors
	 *
	 * @param array<string, mixed> $vector Selection and expected query.
	 */
	public function test_shapes_url_has_the_markers_query( array $vector ): void {
		$this->assertSame( rest_url( 'cairn/v1/shapes' ), Feed_Url::shapes_base() );
		$this->assertSame( $vector['query'], $this->query( Feed_Url::shapes( $vector['selection'] ), Feed_Url::shapes_base() ) );
	}

	/**
	 * A post selection's URL.
	 *
	 * @dataProvider posts_vectors
	 *
	 * @param array<string, mixed> $vector Selection, block context and expected query.
	 */
	public function test_posts_url( array $vector ): void {
		$this->assertSame( $vector['query'], $this->query( Feed_Url::posts( $vector['content'], $vector['context'] ) ) );
	}

	/**
	 * The address is the feed's route of the plugin's namespace, and the server writes the values
	 * as it always did: lists of slugs as they are, lists of post types and term keys encoded.
	 */
	public function test_addresses_as_written_before(): void {
		$this->assertSame( rest_url( 'cairn/v1/markers' ), Feed_Url::base() );
		$this->assertSame( 'cairn/v1', Rest_Routes::NAMESPACE );
		$this->assertSame( rest_url( 'cairn/v1/markers/' ), Rest_Routes::url( 'markers/' ) );
		$this->assertSame(
			add_query_arg( 'group', 'peaks,huts', rest_url( 'cairn/v1/markers' ) ),
			Feed_Url::markers(
				array(
					'source' => 'groups',
					'groups' => array( 'peaks', 'huts' ),
					'ids'    => array(),
				)
			)
		);
		$this->assertSame(
			add_query_arg(
				array(
					'post_type' => 'page%2Cpost',
					'terms'     => 'category%3Awalks',
				),
				rest_url( 'cairn/v1/markers' )
			),
			Feed_Url::posts(
				array(
					'postTypes' => array( 'post', 'page' ),
					'terms'     => array( 'category' => array( 'walks' ) ),
					'current'   => false,
				),
				array()
			)
		);
	}
}
