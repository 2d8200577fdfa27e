<?php
/**
 * The plugin's own feed, from an empty cache, for the feed's tests.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Feed;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Feed\Feed_Cache;
use Cairn\Maps\Feed\Geojson_Feed;
use Cairn\Maps\Plugin;
use Cairn\Maps\Rest\Markers_Controller;

/**
 * Each test starts from an empty feed cache (in the test's transaction: the HTTP tests commit
 * theirs) and reaches the feed the REST route serves.
 *
 * @since 0.2.0
 */
trait Plugin_Feed {

	/**
	 * Empties the feed cache.
	 */
	protected function set_up(): void {
		global $wpdb;
		parent::set_up();
		$wpdb->query( $wpdb->prepare( "DELETE FROM {$wpdb->options} WHERE option_name LIKE %s OR option_name LIKE %s OR option_name LIKE %s", $wpdb->esc_like( '_transient_' . Feed_Cache::PREFIX ) . '%', $wpdb->esc_like( '_transient_timeout_' . Feed_Cache::PREFIX ) . '%', $wpdb->esc_like( Feed_Cache::PREFIX ) . '%' ) );
		wp_cache_flush();
	}

	/**
	 * The plugin's feed.
	 */
	private function feed(): Geojson_Feed {
		$reflection = new \ReflectionProperty( Markers_Controller::class, 'feed' );
		$reflection->setAccessible( true );
		return $reflection->getValue( Plugin::instance()->get( 'markers' ) );
	}
}
