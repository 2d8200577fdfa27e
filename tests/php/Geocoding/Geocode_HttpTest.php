<?php
/**
 * GET /cairn/v1/geocode over real HTTP, several requests at once.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Geocoding;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Tests\Http\Web_Server;
use Cairn\Maps\Tests\TestCase;
use WP_Application_Passwords;

/**
 * The test site behind PHP's built-in server with four workers, the providers played by the
 * fixture server: searches sent at the same moment by one author are served one slot apart or
 * refused with a 429 and Retry-After, and the provider never sees two within a second.
 *
 * @since 0.3.0
 */
final class Geocode_HttpTest extends TestCase {
	use Geocoder_Fixture {
		Geocoder_Fixture::set_up_before_class as fixture_set_up_before_class;
		Geocoder_Fixture::tear_down_after_class as fixture_tear_down_after_class;
	}
	use Web_Server {
		Web_Server::set_up_before_class insteadof Geocoder_Fixture;
		Web_Server::tear_down_after_class insteadof Geocoder_Fixture;
		Web_Server::set_up_before_class as web_server_set_up_before_class;
		Web_Server::tear_down_after_class as web_server_tear_down_after_class;
		Web_Server::web_server_environment as site_environment;
	}

	/**
	 * The author whose application password signs the requests.
	 *
	 * @var int
	 */
	private int $author = 0;

	/**
	 * `Authorization` header value.
	 *
	 * @var string
	 */
	private string $authorization = '';

	/**
	 * Starts the fixture, then the site pointed at it.
	 */
	public static function set_up_before_class(): void {
		self::fixture_set_up_before_class();
		self::web_server_set_up_before_class();
	}

	/**
	 * Stops both servers.
	 */
	public static function tear_down_after_class(): void {
		self::web_server_tear_down_after_class();
		self::fixture_tear_down_after_class();
	}

	/**
	 * Four workers, so that requests overlap.
	 */
	protected static function web_server_workers(): int {
		return 4;
	}

	/**
	 * The site with the geocoding router.
	 *
	 * @return string
	 */
	protected static function web_server_router(): string {
		return __DIR__ . '/geocode-router.php';
	}

	/**
	 * The test site's environment plus the fixture's address.
	 *
	 * @return array<string, string>
	 */
	protected static function web_server_environment(): array {
		return array_merge( self::site_environment(), array( 'CAIRN_GEOCODER_FIXTURE_BASE' => self::fixture_base_url( '', 'nominatim' ) ) );
	}

	/**
	 * An author with an application password, committed for the server to see.
	 */
	protected function set_up(): void {
		parent::set_up();
		$this->use_geocoder_fixture();
		$this->author = $this->create_user( 'author' );
		$created      = WP_Application_Passwords::create_new_application_password( $this->author, array( 'name' => 'geocode test' ) );
		$this->assertIsArray( $created );
		$this->authorization = 'Basic ' . base64_encode( get_userdata( $this->author )->user_login . ':' . $created[0] ); // phpcs:ignore WordPress.PHP.DiscouragedPHPFunctions.obfuscation_base64_encode -- HTTP Basic authentication.
		global $wpdb;
		$wpdb->query( 'COMMIT' );
	}

	/**
	 * Removes what the test committed.
	 */
	protected function tear_down(): void {
		global $wpdb;
		require_once ABSPATH . 'wp-admin/includes/user.php';
		wp_delete_user( $this->author );
		$this->use_geocoder_fixture();
		$wpdb->query( 'COMMIT' );
		parent::tear_down();
	}

	/**
	 * Visitors are refused over HTTP too, and nothing reaches the provider.
	 */
	public function test_visitors_get_401(): void {
		$answer = $this->http( '/?rest_route=/cairn/v1/geocode&q=Calton%20Hill' );
		$this->assertSame( 401, $answer['status'] );
		$this->assertSame( array(), $this->provider_requests() );
	}

	/**
	 * Four searches at once: served at most one per slot, the rest refused with Retry-After; the
	 * provider sees one request per served search, never two within a second.
	 */
	public function test_simultaneous_searches_are_served_a_slot_apart_or_refused(): void {
		$queries = array( 'Royal Mile', 'Calton Hill', 'Brandenburger Tor', 'Edinburgh' );
		$sockets = array();
		foreach ( $queries as $query ) {
			$sockets[ $query ] = $this->send( '/?rest_route=/cairn/v1/geocode&q=' . rawurlencode( $query ), array( 'Authorization' => $this->authorization ) );
		}
		$served  = 0;
		$refused = 0;
		foreach ( $sockets as $query => $socket ) {
			$answer = $this->receive( $socket );
			$body   = json_decode( $answer['body'], true );
			$this->assertIsArray( $body, "{$query}: a JSON answer, no PHP warning before it: {$answer['body']}" );
			if ( 200 === $answer['status'] ) {
				++$served;
				$this->assertNotSame( array(), $body['results'], $query );
				continue;
			}
			++$refused;
			$this->assertSame( 429, $answer['status'], "{$query}: {$answer['body']}" );
			$this->assertSame( 'cairn_geocode_rate_limited', $body['code'] );
			$this->assertMatchesRegularExpression( '/^[1-9]\d*$/', $answer['headers']['retry-after'] ?? '' );
			$this->assertStringContainsString( 'Try again in ' . $answer['headers']['retry-after'] . ' second', $body['message'] );
		}
		$times = array_column( $this->provider_requests(), 'time' );
		sort( $times );
		$gaps = array_map( static fn( $later, $earlier ) => $later - $earlier, array_slice( $times, 1 ), array_slice( $times, 0, -1 ) );
		fwrite( STDERR, sprintf( "\n[geocode] 4 simultaneous HTTP searches: %d served, %d refused (429); provider gaps %s s\n", $served, $refused, implode( ', ', array_map( static fn( $gap ) => sprintf( '%.3f', $gap ), $gaps ) ) ) ); // phpcs:ignore WordPress.WP.AlternativeFunctions.file_system_read_fwrite -- the measurement, for the record.
		$this->assertGreaterThanOrEqual( 2, $served, 'the second search waits for its slot' );
		$this->assertGreaterThanOrEqual( 1, $refused, 'a search whose slot is beyond the wait is refused' );
		$this->assertCount( $served, $times, 'one provider request per served search, none for a refused one' );
		$this->assertGreaterThanOrEqual( 1.0, min( $gaps ) );
	}
}
