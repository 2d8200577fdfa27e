<?php
/**
 * Translations for the plugin's scripts, including the chunks they load later.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\I18n;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Blocks\Editor_Data;
use Cairn\Maps\Blocks\View_Script;
use Cairn\Maps\Content\Location_Editor;
use Cairn\Maps\Markers\Marker_Editor;
use Cairn\Maps\Settings\Settings_Page;

/**
 * Every script of the plugin that shows text gets the `cairn-maps` translations WordPress prints
 * before it (`wp.i18n.setLocaleData`).
 *
 * WordPress finds a script's translations by the md5 of the script's path inside the plugin, one
 * file per script (`cairn-maps-de_DE-<md5 of build/blocks/map/view.js>.json`). The map runtime is
 * not such a script: the view script, the block's preview and the marker's Location map load it
 * as webpack chunks (build/cairn-map-runtime.js and the others in build/), which WordPress never
 * prints, so their translation files (made per file, like every other script's) would never be
 * read. The chunks call the same `wp.i18n` as the script that loaded them, so their translations
 * are handed over with that script's: merged into the data WordPress prints before it.
 *
 * Files are looked up where core looks, language packs (wp-content/languages/plugins) first, then
 * the plugin's own languages/ folder, for a release installed from a zip.
 *
 * @since 0.2.0
 */
class Script_Translations {

	public const DOMAIN = 'cairn-maps';

	/**
	 * Translations already put together in this request, by locale and handle.
	 *
	 * @var array<string, string|false>
	 */
	private array $loaded = array();

	/**
	 * Scripts of folders above this one (Plugin names them), each with whether it loads the
	 * runtime chunks: the Tools page's import preview draws its map with them.
	 *
	 * @var array<string, bool>
	 */
	private array $more_handles;

	/**
	 * Creates the part.
	 *
	 * @since 0.7.0
	 *
	 * @param array<string, bool> $more_handles More script handles, each with whether it loads the runtime chunks.
	 */
	public function __construct( array $more_handles = array() ) {
		$this->more_handles = $more_handles;
	}

	/**
	 * Wires hooks.
	 */
	public function add_hooks(): void {
		// The block's scripts are registered on init (10); the screens' scripts when they are
		// enqueued, before anything is printed.
		add_action( 'init', array( $this, 'set_translations' ), 20 );
		add_action( 'wp_print_scripts', array( $this, 'set_translations' ) );
		add_filter( 'pre_load_script_translations', array( $this, 'load' ), 10, 4 );
	}

	/**
	 * Script handles of the plugin that show text, each with whether it loads the runtime chunks.
	 *
	 * @return array<string, bool>
	 */
	public function handles(): array {
		return array(
			Editor_Data::SCRIPT_HANDLE     => true,
			View_Script::handle()          => true,
			Marker_Editor::SCRIPT_HANDLE   => true,
			Location_Editor::SCRIPT_HANDLE => true,
			Settings_Page::SCRIPT_HANDLE   => false,
		) + $this->more_handles;
	}

	/**
	 * Asks WordPress to print translations before each registered script of the plugin.
	 */
	public function set_translations(): void {
		foreach ( array_keys( $this->handles() ) as $handle ) {
			if ( wp_script_is( $handle, 'registered' ) ) {
				wp_set_script_translations( $handle, self::DOMAIN, CAIRN_MAPS_DIR . 'languages' );
			}
		}
	}

	/**
	 * The translations of one of the plugin's scripts and of the chunks it loads, as one Jed
	 * document, or false when there are none. Runs for every file core would try: the first
	 * call answers, later ones repeat the answer.
	 *
	 * @param string|false|null $translations Translations another filter supplied, or null.
	 * @param string|false      $file         The file core is about to read.
	 * @param string            $handle       Script handle.
	 * @param string            $domain       Text domain.
	 * @return string|false|null
	 */
	public function load( $translations, $file, $handle, $domain ) {
		unset( $file );
		$handles = $this->handles();
		if ( null !== $translations || self::DOMAIN !== $domain || ! isset( $handles[ $handle ] ) ) {
			return $translations;
		}
		$script = $this->script_path( $handle );
		if ( null === $script ) {
			// Served from elsewhere (a CDN rewrite): core's own lookup applies.
			return null;
		}
		$key = determine_locale() . '|' . $handle;
		if ( ! isset( $this->loaded[ $key ] ) ) {
			$scripts              = $handles[ $handle ] ? array_merge( array( $script ), $this->chunks() ) : array( $script );
			$this->loaded[ $key ] = $this->merge( $scripts );
		}
		return $this->loaded[ $key ];
	}

	/**
	 * Webpack's chunks (build/*.js), which the entry scripts in build's subfolders load.
	 *
	 * @return string[] Paths inside the plugin.
	 */
	private function chunks(): array {
		$files = glob( CAIRN_MAPS_DIR . 'build/*.js' );
		$paths = array();
		foreach ( false === $files ? array() : $files as $file ) {
			$paths[] = 'build/' . basename( $file );
		}
		return $paths;
	}

	/**
	 * A registered script's path inside the plugin ('build/blocks/map/view.js'), or null when it
	 * is not served from the plugin's folder.
	 *
	 * @param string $handle Script handle.
	 */
	private function script_path( string $handle ): ?string {
		$script = wp_scripts()->registered[ $handle ] ?? null;
		if ( ! $script instanceof \_WP_Dependency || ! is_string( $script->src ) ) {
			return null;
		}
		$base = (string) wp_parse_url( plugins_url( '/', CAIRN_MAPS_FILE ), PHP_URL_PATH );
		$path = (string) wp_parse_url( $script->src, PHP_URL_PATH );
		if ( '' === $base || ! str_starts_with( $path, $base ) ) {
			return null;
		}
		return substr( $path, strlen( $base ) );
	}

	/**
	 * The translations of several scripts as one Jed document, or false when none has any.
	 *
	 * @param string[] $scripts Paths inside the plugin.
	 * @return string|false
	 */
	private function merge( array $scripts ) {
		$messages = array();
		foreach ( $scripts as $script ) {
			$data = $this->read( $script );
			if ( null !== $data ) {
				// The first file's header ("" key: language, plural forms) is kept.
				$messages += $data;
			}
		}
		if ( array() === $messages ) {
			return false;
		}
		return (string) wp_json_encode( array( 'locale_data' => array( 'messages' => $messages ) ) );
	}

	/**
	 * The messages of one script's translation file, language packs first.
	 *
	 * @param string $script Path inside the plugin.
	 * @return array<string, mixed>|null
	 */
	private function read( string $script ): ?array {
		$name = self::DOMAIN . '-' . determine_locale() . '-' . md5( $script ) . '.json';
		foreach ( array( WP_LANG_DIR . '/plugins/', CAIRN_MAPS_DIR . 'languages/' ) as $folder ) {
			if ( ! is_readable( $folder . $name ) ) {
				continue;
			}
			$json = json_decode( (string) file_get_contents( $folder . $name ), true ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_get_contents_file_get_contents -- a local file.
			$data = is_array( $json ) ? ( $json['locale_data'][ self::DOMAIN ] ?? $json['locale_data']['messages'] ?? null ) : null;
			if ( is_array( $data ) ) {
				return $data;
			}
		}
		return null;
	}
}
