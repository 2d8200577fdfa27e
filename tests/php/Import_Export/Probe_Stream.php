<?php
/**
 * A stream wrapper that records what is opened through it.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Import_Export;

defined( 'ABSPATH' ) || exit;

/**
 * `cairnprobe://…`: records every open and stat, so a test proves the XML reader read nothing
 * outside the file (PHP's libxml loads external entities through PHP streams).
 *
 * @since 0.5.0
 */
final class Probe_Stream {

	/**
	 * What was opened or stat'ed since register().
	 *
	 * @var string[]
	 */
	public static array $opened = array();

	/**
	 * The stream context PHP sets.
	 *
	 * @var resource|null
	 */
	public $context;

	/**
	 * Registers the wrapper (and forgets earlier opens).
	 */
	public static function register(): void {
		self::$opened = array();
		stream_wrapper_register( 'cairnprobe', self::class );
	}

	/**
	 * Unregisters the wrapper.
	 */
	public static function unregister(): void {
		stream_wrapper_unregister( 'cairnprobe' );
	}

	/**
	 * Records an open.
	 *
	 * @param string      $path        Address.
	 * @param string      $mode        Mode.
	 * @param int         $options     Options.
	 * @param string|null $opened_path Opened path.
	 */
	public function stream_open( string $path, string $mode, int $options, ?string &$opened_path ): bool { // phpcs:ignore Generic.CodeAnalysis.UnusedFunctionParameter.FoundAfterLastUsed -- the wrapper's signature.
		self::$opened[] = $path;
		return true;
	}

	/**
	 * Reads nothing.
	 *
	 * @param int $count Bytes asked.
	 */
	public function stream_read( int $count ): string { // phpcs:ignore Generic.CodeAnalysis.UnusedFunctionParameter.Found -- the wrapper's signature.
		return '';
	}

	/**
	 * Always at the end.
	 */
	public function stream_eof(): bool {
		return true;
	}

	/**
	 * No stat.
	 *
	 * @return array<string, int>
	 */
	public function stream_stat(): array {
		return array();
	}

	/**
	 * Records a stat.
	 *
	 * @param string $path  Address.
	 * @param int    $flags Flags.
	 * @return array<string, int>
	 */
	public function url_stat( string $path, int $flags ): array { // phpcs:ignore Generic.CodeAnalysis.UnusedFunctionParameter.FoundAfterLastUsed -- the wrapper's signature.
		self::$opened[] = 'stat ' . $path;
		return array( 'size' => 0 );
	}
}
