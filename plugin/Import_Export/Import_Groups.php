<?php
/**
 * The marker groups an import refers to.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Import_Export;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Markers\Post_Type;
use WP_Error;
use WP_Term;

/**
 * Resolves the group values of an import to slugs (looking each one up once), remembers which
 * groups are missing, and creates them when the import is written.
 *
 * @since 0.1.0
 */
final class Import_Groups {

	/**
	 * Term ids of existing groups, by slug.
	 *
	 * @var array<string, int>
	 */
	private array $known = array();

	/**
	 * Names of groups to create, by slug.
	 *
	 * @var array<string, string>
	 */
	private array $missing = array();

	/**
	 * Slugs of the groups created.
	 *
	 * @var string[]
	 */
	private array $created = array();

	/**
	 * Term-taxonomy ids, by slug.
	 *
	 * @var array<string, int>
	 */
	private array $tt_ids = array();

	/**
	 * The slug of a group value (a slug or a name), planning to create the group if it is missing.
	 *
	 * @param string $value Group slug or name as written in the file.
	 * @return string|WP_Error
	 */
	public function resolve( string $value ) {
		$name = trim( wp_strip_all_tags( $value, true ) );
		$slug = sanitize_title( $name );
		if ( '' === $slug || strlen( $slug ) > 200 ) {
			return new WP_Error(
				'cairn_maps_import_group',
				/* translators: %s: group as written in the file. */
				sprintf( __( 'The group "%s" is not a valid group name or slug.', 'cairn-maps' ), $value )
			);
		}
		if ( isset( $this->known[ $slug ] ) || isset( $this->missing[ $slug ] ) ) {
			return $slug;
		}
		$term = get_term_by( 'slug', $slug, Post_Type::TAXONOMY );
		if ( ! $term instanceof WP_Term ) {
			// A folder or group named as an existing group whose slug differs ("Alps 2024" and
			// "alps-trip"): that group, found by its name.
			$term = get_term_by( 'name', $name, Post_Type::TAXONOMY );
			if ( $term instanceof WP_Term ) {
				$this->known[ $term->slug ] = $term->term_id;
				return $term->slug;
			}
		}
		if ( $term instanceof WP_Term ) {
			$this->known[ $slug ] = $term->term_id;
			return $slug;
		}
		if ( ! self::may_create() ) {
			return new WP_Error(
				'cairn_maps_import_group',
				/* translators: %s: group slug. */
				sprintf( __( 'The group "%s" does not exist, and you are not allowed to create groups.', 'cairn-maps' ), $slug )
			);
		}
		$this->missing[ $slug ] = $name;
		return $slug;
	}

	/**
	 * Creates the missing groups.
	 *
	 * @return array<string, int> Term ids of all groups referred to, by slug.
	 */
	public function create_missing(): array {
		foreach ( $this->missing as $slug => $name ) {
			// A group with another slug may already use the name: then it is named after its slug.
			$term_id = $this->insert( $name, $slug );
			$term_id = $term_id > 0 ? $term_id : $this->insert( $slug, $slug );
			if ( $term_id > 0 ) {
				$this->known[ $slug ] = $term_id;
				$this->created[]      = $slug;
				continue;
			}
			$existing             = get_term_by( 'slug', $slug, Post_Type::TAXONOMY ); // Created meanwhile.
			$this->known[ $slug ] = $existing instanceof WP_Term ? $existing->term_id : 0;
		}
		$this->missing = array();
		return array_filter( $this->known );
	}

	/**
	 * Whether groups may be created: the capability Group_Creation asks, or WP-CLI run without a
	 * user (the server's owner, as Group_Creation lets code without a user create groups).
	 */
	public static function may_create(): bool {
		if ( defined( 'WP_CLI' ) && WP_CLI && 0 === get_current_user_id() ) {
			return true;
		}
		$taxonomy = get_taxonomy( Post_Type::TAXONOMY );
		return false !== $taxonomy && current_user_can( $taxonomy->cap->edit_terms );
	}

	/**
	 * The groups that would be created (a dry run), by slug: their names.
	 *
	 * @return array<string, string>
	 */
	public function missing(): array {
		return $this->missing;
	}

	/**
	 * A known group's term-taxonomy id (0 when unknown).
	 *
	 * @param string $slug Slug.
	 */
	public function tt_id( string $slug ): int {
		if ( empty( $this->known[ $slug ] ) ) {
			return 0;
		}
		if ( ! isset( $this->tt_ids[ $slug ] ) ) {
			$term                  = get_term( $this->known[ $slug ], Post_Type::TAXONOMY );
			$this->tt_ids[ $slug ] = $term instanceof WP_Term ? (int) $term->term_taxonomy_id : 0;
		}
		return $this->tt_ids[ $slug ];
	}

	/**
	 * Slugs of the groups created.
	 *
	 * @return string[]
	 */
	public function created(): array {
		return $this->created;
	}

	/**
	 * Removes the groups this import created (when the import is given up).
	 */
	public function delete_created(): void {
		foreach ( $this->created as $slug ) {
			if ( ! empty( $this->known[ $slug ] ) ) {
				wp_delete_term( $this->known[ $slug ], Post_Type::TAXONOMY );
				unset( $this->known[ $slug ] );
			}
		}
		$this->created = array();
	}

	/**
	 * Inserts a group.
	 *
	 * @param string $name Name.
	 * @param string $slug Slug.
	 * @return int Term id, or 0 when it could not be created.
	 */
	private function insert( string $name, string $slug ): int {
		$term = wp_insert_term( wp_slash( $name ), Post_Type::TAXONOMY, array( 'slug' => $slug ) );
		return is_array( $term ) ? (int) $term['term_id'] : 0;
	}
}
