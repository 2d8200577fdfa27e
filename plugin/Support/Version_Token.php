<?php
/**
 * A random token in an option, replaced whenever what it stands for changes.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Support;

defined( 'ABSPATH' ) || exit;

/**
 * The shared part of the plugin's version tokens (Markers\Markers_Version, Blocks\Patterns_Version):
 * a random token in an autoloaded option (read at the cost of no query; on its own cache key with a
 * persistent object cache, see bump()), created on first use and
 * replaced at once by bump(). A random token (rather than a counter) cannot collide when two
 * requests change things at the same moment, and an option (rather than the object cache's
 * `last_changed`) survives on sites without a persistent object cache. batch() turns many changes
 * into one replacement. Subclasses name the option and hook the changes that bump it.
 *
 * @since 0.2.0
 */
abstract class Version_Token {

	/**
	 * While > 0, changes are only noted; the version changes once when the outermost batch ends.
	 *
	 * @var int
	 */
	private int $held = 0;

	/**
	 * Whether a change was noted while held.
	 *
	 * @var bool
	 */
	private bool $pending = false;

	/**
	 * The option holding the token.
	 */
	abstract protected function option(): string;

	/**
	 * The current version (created on first use).
	 */
	public function get(): string {
		$version = get_option( $this->option(), '' );
		if ( ! is_string( $version ) || '' === $version ) {
			$version = $this->bump();
		}
		return $version;
	}

	/**
	 * Replaces the version. Returns the new one.
	 *
	 * Autoloaded only without a persistent object cache. With one, autoloaded options share one
	 * cache entry (`alloptions`) that every option save rewrites whole from what it read a moment
	 * before: a save by another process (WP-Cron saves `cron` on every run) could put the old token
	 * back for every later request, while the database holds the new one. On its own key the token
	 * is read in one cache lookup and replaced atomically.
	 */
	public function bump(): string {
		if ( $this->held > 0 ) {
			$this->pending = true;
			return (string) get_option( $this->option(), '' );
		}
		$version = bin2hex( random_bytes( 8 ) );
		update_option( $this->option(), $version, ! wp_using_ext_object_cache() );
		return $version;
	}

	/**
	 * Runs a batch of changes (an import) with one version change at the end instead of one per
	 * change.
	 *
	 * @param callable $batch The changes.
	 * @return mixed What the batch returns.
	 */
	public function batch( callable $batch ) {
		++$this->held;
		try {
			return $batch();
		} finally {
			--$this->held;
			if ( 0 === $this->held && $this->pending ) {
				$this->pending = false;
				$this->bump();
			}
		}
	}
}
