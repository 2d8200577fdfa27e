<?php
/**
 * PMTiles archives in the media library.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Settings;

defined( 'ABSPATH' ) || exit;

/**
 * Lets people who manage the site's settings upload `.pmtiles` archives (a self-hosted basemap)
 * to the media library; nobody else. WordPress checks an upload's content against its extension,
 * and knows no PMTiles type: an archive is accepted when its first bytes are a PMTiles header.
 * Size limits are WordPress' own (its upload limit and its message).
 *
 * @since 0.7.0
 */
final class Basemap_Uploads {

	public const EXTENSION = 'pmtiles';
	public const MIME_TYPE = 'application/vnd.pmtiles';

	/**
	 * The first bytes of every PMTiles archive.
	 */
	public const MAGIC = 'PMTiles';

	/**
	 * Wires hooks.
	 */
	public function add_hooks(): void {
		add_filter( 'upload_mimes', array( $this, 'allow_archives' ), 10, 2 );
		add_filter( 'wp_check_filetype_and_ext', array( $this, 'recognise_archive' ), 10, 5 );
	}

	/**
	 * Adds `.pmtiles` to the types a user may upload, for users who can manage options.
	 *
	 * @param mixed                    $mimes Types by extension pattern.
	 * @param int|\WP_User|string|null $user  The user (core passes null for the current one).
	 * @return mixed
	 */
	public function allow_archives( $mimes, $user = null ) {
		if ( ! is_array( $mimes ) || ! self::may_upload( $user ) ) {
			return $mimes;
		}
		$mimes[ self::EXTENSION ] = self::MIME_TYPE;
		return $mimes;
	}

	/**
	 * Decides a `.pmtiles` upload by its content: accepted when the type is allowed for the user
	 * (allow_archives()) and the file starts with a PMTiles header, refused otherwise. Core alone
	 * would take any bytes under that name (their content type, application/octet-stream, tells it
	 * nothing), and a user who cannot manage options gets core's own "not allowed" refusal.
	 *
	 * @param mixed              $data      Core's answer: ext, type, proper_filename.
	 * @param string             $file      Path of the uploaded file.
	 * @param string             $filename  Its name.
	 * @param string[]|null|bool $mimes     Allowed types, or null/false for the user's.
	 * @param string|false       $real_mime The content type core found.
	 * @return mixed
	 */
	public function recognise_archive( $data, $file, $filename, $mimes = null, $real_mime = false ) {
		if ( ! is_array( $data ) || self::EXTENSION !== strtolower( pathinfo( (string) $filename, PATHINFO_EXTENSION ) ) ) {
			return $data;
		}
		$allowed = is_array( $mimes ) ? $mimes : get_allowed_mime_types();
		if ( self::MIME_TYPE !== ( $allowed[ self::EXTENSION ] ?? null ) ) {
			return $data;
		}
		$archive = in_array( $real_mime, array( false, '', 'application/octet-stream', self::MIME_TYPE ), true ) && self::is_archive( (string) $file );
		return array(
			'ext'             => $archive ? self::EXTENSION : false,
			'type'            => $archive ? self::MIME_TYPE : false,
			'proper_filename' => $data['proper_filename'] ?? false,
		);
	}

	/**
	 * Whether a user may upload archives: manage_options.
	 *
	 * @param int|\WP_User|string|null $user The user, or null for the current one.
	 */
	private static function may_upload( $user ): bool {
		if ( null === $user || '' === $user ) {
			return current_user_can( 'manage_options' );
		}
		return user_can( $user instanceof \WP_User ? $user : (int) $user, 'manage_options' );
	}

	/**
	 * Whether a file starts with a PMTiles header.
	 *
	 * @param string $file Path.
	 */
	private static function is_archive( string $file ): bool {
		if ( '' === $file || ! is_readable( $file ) ) {
			return false;
		}
		// phpcs:ignore WordPress.WP.AlternativeFunctions.file_get_contents_file_get_contents -- the first bytes of an upload in PHP's temporary folder.
		$head = file_get_contents( $file, false, null, 0, strlen( self::MAGIC ) );
		return self::MAGIC === $head;
	}
}
