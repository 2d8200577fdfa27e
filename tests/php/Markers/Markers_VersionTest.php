<?php
/**
 * The markers version behind the feed's ETag and cache.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Markers;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Markers\Markers_Version;
use Cairn\Maps\Markers\Post_Type;
use Cairn\Maps\Plugin;
use Cairn\Maps\Tests\TestCase;

/**
 * Every change visible in the feed replaces the version at once; draft edits do not.
 *
 * @since 0.1.0
 */
final class Markers_VersionTest extends TestCase {

	/**
	 * The plugin's version part.
	 */
	private function version(): Markers_Version {
		$version = Plugin::instance()->get( 'markers_version' );
		$this->assertInstanceOf( Markers_Version::class, $version );
		return $version;
	}

	/**
	 * Asserts that a change replaces the version.
	 *
	 * @param callable $change  The change.
	 * @param string   $message What changed.
	 */
	private function assert_bumps( callable $change, string $message ): void {
		$before = $this->version()->get();
		$change();
		wp_cache_delete( 'alloptions', 'options' );
		$this->assertNotSame( $before, $this->version()->get(), $message );
	}

	/**
	 * Asserts that a change leaves the version alone.
	 *
	 * @param callable $change  The change.
	 * @param string   $message What changed.
	 */
	private function assert_keeps( callable $change, string $message ): void {
		$before = $this->version()->get();
		$change();
		$this->assertSame( $before, $this->version()->get(), $message );
	}

	/**
	 * Hooks are wired to named methods, so they can be unhooked.
	 */
	public function test_hooks_are_named_methods(): void {
		$this->assertSame( 10, has_action( 'transition_post_status', array( $this->version(), 'on_transition' ) ) );
		$this->assertSame( 10, has_action( 'set_object_terms', array( $this->version(), 'on_set_object_terms' ) ) );
	}

	/**
	 * Marker life cycle: publish, edit, trash, restore, delete.
	 */
	public function test_published_marker_changes_bump_the_version(): void {
		$id = 0;
		$this->assert_bumps(
			function () use ( &$id ) {
				$id = $this->create_marker();
			},
			'publishing'
		);
		$this->assert_bumps(
			static function () use ( $id ) {
				wp_update_post(
					array(
						'ID'         => $id,
						'post_title' => 'New title',
					)
				);
			},
			'editing a published marker'
		);
		$this->assert_bumps(
			static function () use ( $id ) {
				update_post_meta( $id, Post_Type::META_LNG, 3 );
			},
			'moving it'
		);
		$this->assert_bumps(
			static function () use ( $id ) {
				wp_trash_post( $id );
			},
			'trashing'
		);
		$this->assert_bumps(
			static function () use ( $id ) {
				add_filter( 'wp_untrash_post_status', 'wp_untrash_post_set_previous_status', 10, 3 );
				wp_untrash_post( $id );
			},
			'restoring it as published'
		);
		$this->assert_bumps(
			static function () use ( $id ) {
				wp_delete_post( $id, true );
			},
			'deleting it for good'
		);
		$other = $this->create_marker();
		$this->assert_bumps(
			static function () use ( $other ) {
				delete_post_meta( $other, Post_Type::META_LAT );
			},
			'removing a coordinate'
		);
	}

	/**
	 * Groups: assigning, renaming, creating and deleting.
	 */
	public function test_group_changes_bump_the_version(): void {
		$id    = $this->create_marker();
		$group = $this->create_group( 'peaks' );
		$this->assert_bumps(
			static function () use ( $id ) {
				wp_set_object_terms( $id, array( 'peaks' ), Post_Type::TAXONOMY );
			},
			'assigning a group'
		);
		$this->assert_bumps(
			static function () use ( $group ) {
				wp_update_term( $group, Post_Type::TAXONOMY, array( 'slug' => 'summits' ) );
			},
			'renaming a group'
		);
		$this->assert_bumps(
			function () {
				$this->create_group( 'lakes' );
			},
			'creating a group'
		);
		$this->assert_bumps(
			static function () use ( $group ) {
				wp_delete_term( $group, Post_Type::TAXONOMY );
			},
			'deleting a group'
		);
	}

	/**
	 * Work on drafts and on other post types leaves public caches alone.
	 */
	public function test_draft_and_unrelated_changes_keep_the_version(): void {
		$this->version()->get();
		$draft = $this->create_marker( array( 'post_status' => 'draft' ) );
		$this->assert_keeps(
			static function () use ( $draft ) {
				wp_update_post(
					array(
						'ID'         => $draft,
						'post_title' => 'Still a draft',
					)
				);
				update_post_meta( $draft, Post_Type::META_LAT, 5 );
			},
			'editing a draft'
		);
		$this->assert_keeps(
			static function () {
				$post = wp_insert_post(
					array(
						'post_title'  => 'A blog post',
						'post_status' => 'publish',
					)
				);
				update_post_meta( $post, Post_Type::META_LAT, 5 );
			},
			'publishing a blog post'
		);
		$this->assert_bumps(
			static function () use ( $draft ) {
				wp_publish_post( $draft );
			},
			'publishing the draft'
		);
	}

	/**
	 * A batch changes the version once, at its end.
	 */
	public function test_a_batch_bumps_once_at_the_end(): void {
		$before = $this->version()->get();
		$during = $this->version()->batch(
			function () {
				$this->create_marker();
				$this->create_marker();
				return $this->version()->get();
			}
		);
		$this->assertSame( $before, $during );
		$this->assertNotSame( $before, $this->version()->get() );
	}

	/**
	 * Direct SQL writers can announce their change.
	 */
	public function test_the_changed_action_bumps(): void {
		$this->assert_bumps(
			static function () {
				do_action( 'cairn_maps_markers_changed' );
			},
			'cairn_maps_markers_changed'
		);
	}
}
