<?php
/**
 * Where maps get mapbox-gl from: Mapbox's own distribution, at the pinned version, with integrity.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Blocks;

use Cairn\Maps\Markers\Marker_Editor;
use Cairn\Maps\Support\Inline_Script;

defined( 'ABSPATH' ) || exit;

/**
 * The plugin ships no mapbox-gl: version 2+ is licensed under the Mapbox terms, which do not allow
 * redistributing it inside a GPL plugin. Maps load `mapbox-gl.js` and `mapbox-gl.css` from
 * `https://api.mapbox.com/mapbox-gl-js/v<version>/` when they start (src/blocks/map/load-mapbox-gl.ts).
 * The version and the files' Subresource Integrity hashes come from build/mapbox-gl.json, written
 * at build time from the release files in node_modules/mapbox-gl/dist, which are the files Mapbox
 * serves for that version. This prints them, as `window.cairnMapsMapboxGl`, before every script
 * that starts maps: the front-end loader, the block editor and the marker's Location panel.
 *
 * The `cairn_maps_mapbox_gl_base_url` filter points maps at another copy of the same files (a
 * site that hosts them itself); the integrity hashes stay, so only identical files load.
 *
 * The addresses are never part of a map's `data-cairn-config`: what a page's markup says cannot
 * choose which script runs.
 *
 * @since 0.3.0
 */
class Mapbox_Gl implements Inline_Script {

	/** The global the loader reads. */
	public const GLOBAL_NAME = 'cairnMapsMapboxGl';

	/** The filter for the folder the two files are loaded from. */
	public const BASE_URL_FILTER = 'cairn_maps_mapbox_gl_base_url';

	/** Mapbox's distribution; `%s` is the version. */
	public const DEFAULT_BASE_URL = 'https://api.mapbox.com/mapbox-gl-js/v%s/';

	/**
	 * Parsed build/mapbox-gl.json, read once per request.
	 *
	 * @var array{version: string, js: string, css: string}|null
	 */
	private ?array $build = null;

	/**
	 * Wires hooks.
	 */
	public function add_hooks(): void {
		// After the block (and its scripts) is registered on init.
		add_action( 'init', array( $this, 'attach_to_block_scripts' ), 20 );
		// After the marker editor enqueued its panel (priority 10).
		add_action( 'enqueue_block_editor_assets', array( $this, 'attach_to_marker_editor' ), 20 );
	}

	/**
	 * The front-end loader and the block's editor script get the library's addresses.
	 */
	public function attach_to_block_scripts(): void {
		$type    = \WP_Block_Type_Registry::get_instance()->get_registered( 'cairn/map' );
		$handles = array( View_Script::handle() );
		if ( $type && ! empty( $type->editor_script_handles ) ) {
			$handles[] = (string) reset( $type->editor_script_handles );
		}
		foreach ( $handles as $handle ) {
			$this->attach( $handle );
		}
	}

	/**
	 * The marker's Location panel gets them too (its map starts on the marker screen).
	 */
	public function attach_to_marker_editor(): void {
		$this->attach( Marker_Editor::SCRIPT_HANDLE );
	}

	/**
	 * What the loader gets: the version and, for each file, its address and integrity. Null when
	 * the build has no build/mapbox-gl.json (then maps show their `style` alert).
	 *
	 * @return array{version: string, js: array{src: string, integrity: string}, css: array{src: string, integrity: string}}|null
	 */
	public function library(): ?array {
		$build = $this->build();
		if ( null === $build ) {
			return null;
		}
		$base = $this->base_url( $build['version'] );
		return array(
			'version' => $build['version'],
			'js'      => array(
				'src'       => $base . 'mapbox-gl.js',
				'integrity' => $build['js'],
			),
			'css'     => array(
				'src'       => $base . 'mapbox-gl.css',
				'integrity' => $build['css'],
			),
		);
	}

	/**
	 * The folder the files are loaded from, with a trailing slash.
	 *
	 * @param string $version The pinned mapbox-gl version.
	 */
	public function base_url( string $version ): string {
		$default = sprintf( self::DEFAULT_BASE_URL, $version );
		/**
		 * Filters the folder mapbox-gl.js and mapbox-gl.css are loaded from (default Mapbox's
		 * distribution of the pinned version). Point it at a copy of the same release's files,
		 * e.g. on the site itself: the Subresource Integrity hashes stay, so other files are
		 * refused by the browser and the map shows its error.
		 *
		 * @since 0.3.0
		 *
		 * @param string $base_url An absolute http(s) URL of a folder.
		 * @param string $version  The mapbox-gl version the plugin was built with.
		 */
		$filtered = apply_filters( 'cairn_maps_mapbox_gl_base_url', $default, $version );
		$url      = is_string( $filtered ) ? esc_url_raw( trim( $filtered ), array( 'https', 'http' ) ) : '';
		if ( '' === $url || ! preg_match( '#^https?://[^/]#i', $url ) ) {
			return $default;
		}
		return trailingslashit( $url );
	}

	/**
	 * The inline script that hands the loader the library.
	 */
	public function inline_script(): string {
		return 'var ' . self::GLOBAL_NAME . ' = ' . wp_json_encode( $this->library(), JSON_HEX_TAG | JSON_HEX_AMP | JSON_UNESCAPED_SLASHES ) . ';';
	}

	/**
	 * Prints the library before a registered script.
	 *
	 * @param string $handle Script handle.
	 */
	private function attach( string $handle ): void {
		if ( wp_script_is( $handle, 'registered' ) ) {
			wp_add_inline_script( $handle, $this->inline_script(), 'before' );
		}
	}

	/**
	 * The build's mapbox-gl.json, or null when it is missing or malformed.
	 *
	 * @return array{version: string, js: string, css: string}|null
	 */
	private function build(): ?array {
		if ( null === $this->build ) {
			$file = CAIRN_MAPS_DIR . 'build/mapbox-gl.json';
			// A local file shipped with the plugin, not a remote URL.
			$json    = is_readable( $file ) ? file_get_contents( $file ) : false; // phpcs:ignore WordPress.WP.AlternativeFunctions.file_get_contents_file_get_contents
			$decoded = is_string( $json ) ? json_decode( $json, true ) : null;
			if (
				! is_array( $decoded )
				|| ! is_string( $decoded['version'] ?? null ) || ! preg_match( '/^\d+\.\d+\.\d+(-[0-9A-Za-z.]+)?$/', $decoded['version'] )
				|| ! is_string( $decoded['js'] ?? null ) || ! is_string( $decoded['css'] ?? null )
			) {
				return null;
			}
			$this->build = array(
				'version' => $decoded['version'],
				'js'      => $decoded['js'],
				'css'     => $decoded['css'],
			);
		}
		return $this->build;
	}
}
