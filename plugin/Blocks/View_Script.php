<?php
/**
 * The front-end loader stays small: React loads with the map, not with the page.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Blocks;

defined( 'ABSPATH' ) || exit;

/**
 * The places panel is React from WordPress (`wp-element`). wp-scripts lists React among the view
 * script's dependencies because the map runtime's chunk uses it, which would load React (and
 * ReactDOM) on every page with a map before any map nears the viewport. This removes them from the
 * view script's dependencies and gives the loader their addresses, in dependency order, which it
 * loads just before the map runtime (src/blocks/map/view.ts).
 *
 * @since 0.2.0
 */
class View_Script {

	/**
	 * Handles loaded with the map, not with the page (and whatever they depend on that the view
	 * script does not already load).
	 */
	public const LAZY = array( 'react', 'react-dom', 'react-jsx-runtime', 'wp-element' );

	/**
	 * Wires hooks.
	 */
	public function add_hooks(): void {
		// After the block (and its view script) is registered on init.
		add_action( 'init', array( $this, 'defer_react' ), 20 );
	}

	/**
	 * The view script's handle.
	 */
	public static function handle(): string {
		return generate_block_asset_handle( 'cairn/map', 'viewScript' );
	}

	/**
	 * Moves React out of the view script's dependencies and hands the loader its addresses.
	 */
	public function defer_react(): void {
		$scripts = wp_scripts();
		$handle  = self::handle();
		$view    = $scripts->registered[ $handle ] ?? null;
		if ( ! $view instanceof \_WP_Dependency ) {
			return;
		}
		$view->deps = array_values( array_diff( $view->deps, self::LAZY ) );
		$eager      = $this->resolve( $view->deps, array() );
		$lazy       = array_diff( $this->resolve( self::LAZY, array() ), $eager );
		$urls       = array();
		foreach ( $lazy as $dependency ) {
			$url = $this->url( $dependency );
			if ( '' !== $url ) {
				$urls[] = $url;
			}
		}
		wp_add_inline_script(
			$handle,
			'var cairnMapsScripts = ' . wp_json_encode( $urls, JSON_HEX_TAG | JSON_HEX_AMP | JSON_UNESCAPED_SLASHES ) . ';',
			'before'
		);
	}

	/**
	 * Handles and everything they depend on, dependencies first.
	 *
	 * @param string[] $handles Script handles.
	 * @param string[] $done    Handles already listed.
	 * @return string[]
	 */
	private function resolve( array $handles, array $done ): array {
		$scripts = wp_scripts();
		foreach ( $handles as $handle ) {
			if ( in_array( $handle, $done, true ) || ! isset( $scripts->registered[ $handle ] ) ) {
				continue;
			}
			$done   = $this->resolve( $scripts->registered[ $handle ]->deps, $done );
			$done[] = $handle;
		}
		return $done;
	}

	/**
	 * The address WordPress would print for a registered script, or '' for an alias (no file).
	 *
	 * @param string $handle Script handle.
	 */
	private function url( string $handle ): string {
		$scripts = wp_scripts();
		$script  = $scripts->registered[ $handle ];
		$src     = is_string( $script->src ) ? $script->src : '';
		if ( '' === $src ) {
			return '';
		}
		if ( ! preg_match( '|^(https?:)?//|', $src ) && ! ( $scripts->content_url && str_starts_with( $src, $scripts->content_url ) ) ) {
			$src = $scripts->base_url . $src;
		}
		$version = null === $script->ver ? '' : ( false === $script->ver ? $scripts->default_version : $script->ver );
		if ( '' !== $version ) {
			$src = add_query_arg( 'ver', $version, $src );
		}
		// Core's own filter, applied as core applies it when it prints the script.
		// phpcs:ignore WordPress.NamingConventions.PrefixAllGlobals.NonPrefixedHooknameFound -- core's hook.
		return (string) esc_url_raw( (string) apply_filters( 'script_loader_src', $src, $handle ) );
	}
}
