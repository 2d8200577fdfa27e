<?php
/**
 * The map block's supports: colours, spacing, font size and the gap between map and places.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Blocks;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Blocks\Block_Gap;
use Cairn\Maps\Settings\Settings;
use Cairn\Maps\Tests\TestCase;

/**
 * What an editor sets in the block's Styles tab reaches the rendered wrapper (through
 * get_block_wrapper_attributes), beside the map's own attributes; a block gap becomes
 * `--cairn-gap`, and only a preset or a plain length gets through.
 *
 * @since 0.3.0
 */
final class Block_SupportsTest extends TestCase {

	/**
	 * The wrapper of a rendered map with these attributes.
	 *
	 * @param array<string, mixed> $attributes Block attributes.
	 */
	private function wrapper( array $attributes ): \WP_HTML_Tag_Processor {
		update_option( Settings::TOKEN_OPTION, Map_BlockTest::public_token() );
		$tags = new \WP_HTML_Tag_Processor( do_blocks( '<!-- wp:cairn/map ' . wp_json_encode( $attributes ) . ' /-->' ) );
		$this->assertTrue( $tags->next_tag( array( 'class_name' => 'wp-block-cairn-map' ) ) );
		return $tags;
	}

	/**
	 * Colours, padding, font size and gap reach the wrapper; the map's height stays.
	 */
	public function test_the_styles_an_editor_sets_reach_the_wrapper(): void {
		$wrapper = $this->wrapper(
			array(
				'height'          => '400px',
				'backgroundColor' => 'base',
				'textColor'       => 'contrast',
				'fontSize'        => 'small',
				'style'           => array(
					'spacing'  => array(
						'padding'  => array(
							'top'    => '12px',
							'right'  => '12px',
							'bottom' => '12px',
							'left'   => '12px',
						),
						'blockGap' => 'var:preset|spacing|40',
					),
					'elements' => array( 'link' => array( 'color' => array( 'text' => '#aa0000' ) ) ),
				),
			)
		);
		$class   = (string) $wrapper->get_attribute( 'class' );
		foreach ( array( 'has-base-background-color', 'has-background', 'has-contrast-color', 'has-text-color', 'has-small-font-size' ) as $expected ) {
			$this->assertStringContainsString( $expected, $class );
		}
		// The link colour: a class naming the rule core prints for this block's links.
		$this->assertMatchesRegularExpression( '/\bwp-elements-[0-9a-f]{32}\b/', $class );
		$style = (string) $wrapper->get_attribute( 'style' );
		$this->assertStringContainsString( '--cairn-map-height:400px;', $style );
		$this->assertStringContainsString( '--cairn-gap:var(--wp--preset--spacing--40);', $style );
		$this->assertStringContainsString( 'padding-top:12px', $style );
	}

	/**
	 * Gap values: presets and lengths pass, anything that could end the declaration does not.
	 *
	 * @dataProvider gaps
	 *
	 * @param mixed  $gap      Stored value.
	 * @param string $expected CSS value, or ''.
	 */
	public function test_only_a_preset_or_a_length_becomes_the_gap( $gap, string $expected ): void {
		$this->assertSame( $expected, Block_Gap::css_value( $gap ) );
		$style = (string) $this->wrapper( array( 'style' => array( 'spacing' => array( 'blockGap' => $gap ) ) ) )->get_attribute( 'style' );
		if ( '' === $expected ) {
			$this->assertStringNotContainsString( '--cairn-gap', $style );
			$this->assertStringNotContainsString( 'url(', $style );
		} else {
			$this->assertStringContainsString( '--cairn-gap:' . $expected . ';', $style );
		}
	}

	/**
	 * Stored gaps and what they become.
	 *
	 * @return array<string, array{mixed, string}>
	 */
	public static function gaps(): array {
		return array(
			'preset'          => array( 'var:preset|spacing|30', 'var(--wp--preset--spacing--30)' ),
			'pixels'          => array( '24px', '24px' ),
			'rem'             => array( '1.5rem', '1.5rem' ),
			'zero'            => array( '0', '0' ),
			'injection'       => array( '1px;background:url(https://evil.test/x)', '' ),
			'preset breakout' => array( 'var:preset|spacing|4);background:url(x', '' ),
			'axial object'    => array( array( 'top' => '1px' ), '' ),
			'number'          => array( 12, '' ),
			'unit only'       => array( 'px', '' ),
		);
	}
}
