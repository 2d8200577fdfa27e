<?php
/**
 * Development and test sites only (copied into the site's mu-plugins by bin/start.mjs; never part
 * of the plugin).
 *
 * WordPress Playground logs every client without its cookie in as admin: a 302 that sets cookies
 * and reloads the address. A front end on another origin sends no cookies to this site, so its
 * REST reads would be redirected forever (and the 302 carries no CORS headers). REST reads are API
 * calls, not visits: they stay anonymous, as on any real WordPress site. Pages and wp-admin keep
 * Playground's auto-login.
 *
 * @package Cairn\Maps
 */

defined( 'ABSPATH' ) || exit;

// phpcs:disable WordPress.Security.NonceVerification.Recommended, WordPress.Security.ValidatedSanitizedInput -- read-only routing decision.
$cairn_maps_dev_uri = isset( $_SERVER['REQUEST_URI'] ) ? (string) $_SERVER['REQUEST_URI'] : '';
if ( isset( $_GET['rest_route'] ) || false !== strpos( $cairn_maps_dev_uri, '/wp-json/' ) ) {
	$_COOKIE['playground_auto_login_already_happened'] = '1';
}
unset( $cairn_maps_dev_uri );
