<?php
/**
 * Address search: the part of the plugin.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Geocoding;

defined( 'ABSPATH' ) || exit;

/**
 * Creates the geocoder, its REST route and its setting.
 *
 * @since 0.3.0
 */
class Geocoding {

	/**
	 * The geocoder.
	 *
	 * @var Geocoder
	 */
	private Geocoder $geocoder;

	/**
	 * The route.
	 *
	 * @var Geocode_Controller
	 */
	private Geocode_Controller $controller;

	/**
	 * The visitors' route ("near a place").
	 *
	 * @since 0.8.0
	 *
	 * @var Visitor_Geocode_Controller
	 */
	private Visitor_Geocode_Controller $visitors;

	/**
	 * The setting.
	 *
	 * @var Geocoder_Setting
	 */
	private Geocoder_Setting $setting;

	/**
	 * Creates the parts.
	 *
	 * @param Geocoder|null $geocoder The geocoder (a default one when null).
	 */
	public function __construct( ?Geocoder $geocoder = null ) {
		$this->geocoder   = $geocoder ?? new Geocoder();
		$this->controller = new Geocode_Controller( $this->geocoder );
		$this->visitors   = new Visitor_Geocode_Controller( $this->geocoder );
		$this->setting    = new Geocoder_Setting();
	}

	/**
	 * Wires hooks.
	 */
	public function add_hooks(): void {
		$this->controller->add_hooks();
		$this->visitors->add_hooks();
		$this->setting->add_hooks();
	}

	/**
	 * The geocoder, for other parts (`Plugin::instance()->get( 'geocoding' )->geocoder()`).
	 */
	public function geocoder(): Geocoder {
		return $this->geocoder;
	}

	/**
	 * The visitors' route (Rest\Early_Geocode_Answer sends its kept answers before `init`).
	 *
	 * @since 0.8.0
	 */
	public function visitors(): Visitor_Geocode_Controller {
		return $this->visitors;
	}
}
