<?php
/**
 * The `[cairn_map]` shortcode.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Blocks;

defined( 'ABSPATH' ) || exit;

use WP_Block_Type;
use WP_Block_Type_Registry;
use WP_Post;

/**
 * A Cairn map where there is no block editor: the classic editor, text widgets, page builders'
 * shortcode elements, `do_shortcode()` in a theme.
 *
 * `[cairn_map zoom="5" groups="museums"]` renders the `cairn/map` block with those attributes
 * (Shortcode_Attributes reads the flat form) through core's render_block(), so the markup, the
 * places list, the configuration and the enqueued view script and stylesheet are exactly the
 * block's. `[cairn_map pattern="12"]` renders a published pattern (`wp_block`) holding a map, as
 * a `core/block` referring to it renders: the maps with the rest of the pattern (headings,
 * captions), since that is what the author composed, and the shortcodes in it run as they would
 * in a post (a pattern that would show itself gives the alert instead). An attribute that breaks
 * its rule, or a pattern that cannot be shown, renders only the map's alert, never a guess at
 * the map meant.
 *
 * Whatever the shortcode encloses (`[cairn_map]…[/cairn_map]`) is ignored: never printed, never run.
 *
 * @since 0.8.0
 */
class Map_Shortcode {

	/**
	 * The shortcode's tag.
	 */
	public const TAG = 'cairn_map';

	/**
	 * Error code of an attribute that breaks its rule.
	 */
	public const ATTRIBUTE_ERROR = 'shortcode-attribute';

	/**
	 * Error code of a pattern that cannot be shown.
	 */
	public const PATTERN_ERROR = 'shortcode-pattern';

	/**
	 * Finds the maps of a pattern.
	 *
	 * @var Post_Maps
	 */
	private Post_Maps $post_maps;

	/**
	 * Patterns this shortcode is rendering now, outermost first (a pattern never shows itself).
	 *
	 * @var int[]
	 */
	private array $rendering = array();

	/**
	 * Creates the shortcode.
	 *
	 * @param Post_Maps $post_maps Finds the maps of a pattern.
	 */
	public function __construct( Post_Maps $post_maps ) {
		$this->post_maps = $post_maps;
	}

	/**
	 * Wires hooks.
	 */
	public function add_hooks(): void {
		add_action( 'init', array( $this, 'register' ) );
	}

	/**
	 * Registers the shortcode.
	 */
	public function register(): void {
		add_shortcode( self::TAG, array( $this, 'render' ) );
	}

	/**
	 * Renders the shortcode.
	 *
	 * @param mixed $atts The attributes as WordPress parsed them ('' when there are none).
	 * @return string HTML.
	 */
	public function render( $atts ): string {
		$type = WP_Block_Type_Registry::get_instance()->get_registered( 'cairn/map' );
		if ( ! $type instanceof WP_Block_Type ) {
			return '';
		}
		$given = Shortcode_Attributes::given( $atts );
		if ( isset( $given['pattern'] ) ) {
			return $this->render_pattern( $given, $type );
		}
		$parsed = Shortcode_Attributes::parse( $given, $type, Map_Block::defaults( $type ) );
		if ( null !== $parsed['invalid'] ) {
			return $this->error_box( $type, self::ATTRIBUTE_ERROR, self::attribute_message( $parsed['invalid'] ) );
		}
		return render_block(
			array(
				'blockName'    => 'cairn/map',
				'attrs'        => $parsed['attributes'],
				'innerBlocks'  => array(),
				'innerHTML'    => '',
				'innerContent' => array(),
			)
		);
	}

	/**
	 * `[cairn_map pattern="<id>"]`: the pattern, as a `core/block` referring to it renders.
	 *
	 * @param array<string, string> $given Attributes by flat name.
	 * @param WP_Block_Type         $type  The map block type.
	 */
	private function render_pattern( array $given, WP_Block_Type $type ): string {
		$others = array_diff( array_keys( $given ), array( 'pattern' ) );
		if ( array() !== $others ) {
			return $this->error_box(
				$type,
				self::ATTRIBUTE_ERROR,
				sprintf(
					/* translators: %s: a shortcode attribute's name. */
					__( 'This map cannot be shown because of a configuration error: the shortcode’s “%s” attribute cannot be used with “pattern” (change the map in its pattern instead).', 'cairn-maps' ),
					(string) reset( $others )
				)
			);
		}
		$id = self::pattern_id( $given['pattern'] );
		if ( null === $id ) {
			return $this->error_box( $type, self::ATTRIBUTE_ERROR, self::attribute_message( 'pattern' ) );
		}
		$pattern = self::readable_pattern( $id );
		if ( null === $pattern ) {
			return $this->error_box(
				$type,
				self::PATTERN_ERROR,
				/* translators: %d: the pattern ID the shortcode names. */
				sprintf( __( 'This map cannot be shown: there is no published pattern with the ID %d.', 'cairn-maps' ), $id )
			);
		}
		if ( in_array( $id, $this->rendering, true ) ) {
			return $this->error_box(
				$type,
				self::PATTERN_ERROR,
				/* translators: %d: the pattern ID. */
				sprintf( __( 'This map cannot be shown: pattern %d would show itself.', 'cairn-maps' ), $id )
			);
		}
		if ( array() === $this->post_maps->blocks( $pattern ) ) {
			return $this->error_box(
				$type,
				self::PATTERN_ERROR,
				/* translators: %d: the pattern ID. */
				sprintf( __( 'This map cannot be shown: pattern %d holds no Cairn map.', 'cairn-maps' ), $id )
			);
		}
		$this->rendering[] = $id;
		try {
			$html = render_block(
				array(
					'blockName'    => 'core/block',
					'attrs'        => array( 'ref' => $id ),
					'innerBlocks'  => array(),
					'innerHTML'    => '',
					'innerContent' => array(),
				)
			);
			// What the_content does after do_blocks(): a Shortcode block in the pattern works as in a
			// post (WordPress does not read a shortcode's output for more shortcodes).
			return do_shortcode( shortcode_unautop( $html ) );
		} finally {
			array_pop( $this->rendering );
		}
	}

	/**
	 * A pattern's ID: a whole number from 1 (no sign, no spaces, no leading zero), else null.
	 *
	 * @param string $value The attribute.
	 */
	public static function pattern_id( string $value ): ?int {
		if ( 1 !== preg_match( '/^[1-9][0-9]{0,18}$/D', $value ) ) {
			return null;
		}
		$id = filter_var( $value, FILTER_VALIDATE_INT, array( 'options' => array( 'min_range' => 1 ) ) );
		return is_int( $id ) ? $id : null;
	}

	/**
	 * The pattern with an ID when every visitor may see it: a `wp_block` post, published, without
	 * a password (what core's `core/block` renders), else null — one answer for a missing, draft,
	 * private, trashed or protected pattern and for a post of another type, so that nothing is
	 * learnt of them.
	 *
	 * @param int $id Post ID.
	 */
	public static function readable_pattern( int $id ): ?WP_Post {
		$post = get_post( $id );
		if ( ! $post instanceof WP_Post || 'wp_block' !== $post->post_type || 'publish' !== $post->post_status || '' !== $post->post_password ) {
			return null;
		}
		return $post;
	}

	/**
	 * The message for an attribute that breaks its rule.
	 *
	 * @param string $name Flat name.
	 */
	public static function attribute_message( string $name ): string {
		return sprintf(
			/* translators: 1: a shortcode attribute's name, 2: what it must be, such as "a number from 0 to 22". */
			__( 'This map cannot be shown because of a configuration error: the shortcode’s “%1$s” attribute must be %2$s.', 'cairn-maps' ),
			$name,
			Shortcode_Attributes::expected( $name )
		);
	}

	/**
	 * The map's alert alone (Map_Block::error_box()), with the block's stylesheet and loader (which
	 * announces the error), as a rendered block enqueues them.
	 *
	 * @param WP_Block_Type $type    The map block type.
	 * @param string        $code    Error code.
	 * @param string        $message Message.
	 */
	private function error_box( WP_Block_Type $type, string $code, string $message ): string {
		foreach ( array_filter( $type->style_handles ) as $handle ) {
			wp_enqueue_style( $handle );
		}
		foreach ( array_filter( $type->view_script_handles ) as $handle ) {
			wp_enqueue_script( $handle );
		}
		return Map_Block::error_box( $code, $message );
	}
}
