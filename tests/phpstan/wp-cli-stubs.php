<?php
/**
 * The few WP-CLI classes and functions plugin/Cli uses, for PHPStan (WP-CLI itself is a tool in
 * tools/wp-cli, not a dependency of the plugin).
 *
 * @package Cairn\Maps
 */

// phpcs:disable

namespace {
class WP_CLI {
	/**
	 * @param string          $name     Command name.
	 * @param callable|object|string $callable Command.
	 * @param array<string, mixed> $args Arguments.
	 */
	public static function add_command( $name, $callable, $args = array() ): bool {
		return true;
	}

	/** @param string $message Message. */
	public static function log( $message ): void {}

	/** @param string $message Message. */
	public static function success( $message ): void {}

	/** @param string $message Message. */
	public static function warning( $message ): void {}

	/**
	 * @param string   $message Message.
	 * @param bool|int $exit    Exit.
	 * @return never
	 */
	public static function error( $message, $exit = true ) {
		exit( 1 );
	}
}
}

namespace WP_CLI\Utils {

/**
 * @param string $message Message.
 * @param int    $count   Ticks.
 * @return \cli\progress\Bar
 */
function make_progress_bar( $message, $count, $interval = 100 ) {
	return new \cli\progress\Bar( $message, $count );
}

/**
 * @param string                            $format Format.
 * @param array<int, array<string, mixed>> $items  Items.
 * @param string[]|string                   $fields Fields.
 */
function format_items( $format, $items, $fields ): void {}
}

namespace WP_CLI {

class NoOp {
	/** @param mixed[] $args */
	public function __call( string $method, array $args ): void {}
}
}

namespace cli\progress {

class Bar {
	public function __construct( string $message, int $total ) {}

	public function tick( int $increment = 1, ?string $msg = null ): void {}

	public function finish(): void {}
}
}
