<?php
/**
 * Who may create marker groups.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Groups;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Markers\Post_Type;
use WP_Error;
use WP_REST_Request;

/**
 * Creating a group needs the taxonomy's `edit_terms` (whoever manages categories), on every way in.
 *
 * `cairn_marker_group` is flat, and for flat taxonomies core lets anyone who may *assign* terms
 * create them: the REST terms controller checks `assign_terms` only, and a term given by name
 * (`wp_set_object_terms()`: the classic and quick edit tag boxes, XML-RPC) is created on the fly.
 * Assigning a group is part of writing markers (contributors and authors), so without this any of
 * them could create groups, and every map lists the site's groups.
 *
 * - REST: `POST /wp/v2/cairn-marker-groups` answers 403 before anything runs
 *   (`rest_request_before_callbacks`, ahead of the route's permission check and the meta checks);
 * - everything else that creates a term (`pre_insert_term`, which wp_insert_term() and so
 *   wp_set_object_terms() by name run): refused with a WP_Error for a signed-in user without
 *   `edit_terms`. Code running without a user (WP-CLI, cron, an upgrade routine) is not a user's
 *   request and keeps creating groups, as core lets it create any term;
 * - the block editor is not offered a "create" action it would be refused (the marker's
 *   `wp:action-create-cairn-marker-groups` link is left out).
 *
 * The import (Import_Groups) checks the same capability before it plans a new group.
 *
 * @since 0.2.0
 */
final class Group_Creation {

	/**
	 * Wires hooks.
	 */
	public function add_hooks(): void {
		add_filter( 'rest_request_before_callbacks', array( $this, 'refuse_rest_create' ), 10, 3 );
		add_filter( 'pre_insert_term', array( $this, 'refuse_insert' ), 10, 2 );
		add_filter( 'rest_prepare_' . Post_Type::POST_TYPE, array( $this, 'hide_create_action' ), 10, 1 );
	}

	/**
	 * Whether the current user may create groups.
	 */
	public static function current_user_can_create(): bool {
		$taxonomy = get_taxonomy( Post_Type::TAXONOMY );
		return $taxonomy instanceof \WP_Taxonomy && current_user_can( $taxonomy->cap->edit_terms );
	}

	/**
	 * The message of a refusal.
	 */
	public static function message(): string {
		return __( 'Sorry, you are not allowed to create marker groups. Ask someone who manages categories to create the group, then choose it.', 'cairn-maps' );
	}

	/**
	 * Refuses `POST /wp/v2/cairn-marker-groups` (creating a group) with a 403 for users without
	 * `edit_terms`.
	 *
	 * @param mixed $response A response to use instead of the route's, or null.
	 * @param mixed $handler  The route's handler.
	 * @param mixed $request  The request (a WP_REST_Request from core; anything else is ignored).
	 * @return mixed
	 */
	public function refuse_rest_create( $response, $handler, $request ) {
		if ( null !== $response || ! $request instanceof WP_REST_Request || 'POST' !== $request->get_method() ) {
			return $response;
		}
		$taxonomy = get_taxonomy( Post_Type::TAXONOMY );
		if ( ! $taxonomy instanceof \WP_Taxonomy || untrailingslashit( $request->get_route() ) !== '/' . $taxonomy->rest_namespace . '/' . $taxonomy->rest_base ) {
			return $response;
		}
		if ( self::current_user_can_create() ) {
			return $response;
		}
		return new WP_Error( 'rest_cannot_create', self::message(), array( 'status' => rest_authorization_required_code() ) );
	}

	/**
	 * Refuses to create a group for a signed-in user without `edit_terms`, whatever the way in.
	 *
	 * @param mixed  $term     The term name (or an error from an earlier filter).
	 * @param string $taxonomy Taxonomy.
	 * @return mixed The term, or a WP_Error.
	 */
	public function refuse_insert( $term, $taxonomy ) {
		if ( Post_Type::TAXONOMY !== $taxonomy || is_wp_error( $term ) || ! is_user_logged_in() || self::current_user_can_create() ) {
			return $term;
		}
		return new WP_Error( 'cairn_maps_cannot_create_group', self::message(), array( 'status' => 403 ) );
	}

	/**
	 * Leaves the "create a group" action out of a marker's REST answer for users who may not, so
	 * the editor offers to choose existing groups only.
	 *
	 * @param mixed $response The response (a WP_REST_Response, unless another filter replaced it).
	 * @return mixed
	 */
	public function hide_create_action( $response ) {
		if ( $response instanceof \WP_REST_Response && ! self::current_user_can_create() ) {
			$taxonomy = get_taxonomy( Post_Type::TAXONOMY );
			if ( $taxonomy instanceof \WP_Taxonomy ) {
				$response->remove_link( 'https://api.w.org/action-create-' . $taxonomy->rest_base );
			}
		}
		return $response;
	}
}
