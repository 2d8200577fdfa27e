<?php
/**
 * Posts with places, made through WordPress's APIs, for the posts feed's and popup's tests.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Tests\Feed;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Content\Location_Types;

/**
 * Creates posts with a place (geo_* meta), featured images and terms.
 *
 * @since 0.3.0
 */
trait Post_Places_Fixtures {

	/**
	 * Creates a post with a place.
	 *
	 * @param array<string, mixed> $args Post fields, plus `lat`, `lng`, `public` (each: omit for the
	 *        default, null for no such meta) and `category`/`tags` (slugs or names).
	 * @return int Post id.
	 */
	protected function create_place( array $args = array() ): int {
		$args = array_merge(
			array(
				'post_title'  => 'A place',
				'post_status' => 'publish',
				'post_type'   => 'post',
				'lat'         => 48.8566,
				'lng'         => 2.3522,
				'public'      => '1',
			),
			$args
		);
		$meta = array();
		foreach ( array(
			'lat'    => Location_Types::META_LAT,
			'lng'    => Location_Types::META_LNG,
			'public' => Location_Types::META_PUBLIC,
		) as $field => $key ) {
			if ( null !== $args[ $field ] ) {
				$meta[ $key ] = $args[ $field ];
			}
		}
		$terms = array(
			'category' => $args['category'] ?? null,
			'post_tag' => $args['tags'] ?? null,
		);
		unset( $args['lat'], $args['lng'], $args['public'], $args['category'], $args['tags'] );
		$id = wp_insert_post( array_merge( array( 'meta_input' => $meta ), $args ), true );
		$this->assertIsInt( $id, 'the post could be created' );
		foreach ( $terms as $taxonomy => $slugs ) {
			if ( null === $slugs ) {
				continue;
			}
			$ids = array();
			foreach ( (array) $slugs as $slug ) {
				$term = term_exists( $slug, $taxonomy );
				if ( ! is_array( $term ) ) {
					$term = wp_insert_term( ucfirst( $slug ), $taxonomy, array( 'slug' => $slug ) );
				}
				$this->assertIsArray( $term );
				$ids[] = (int) $term['term_id'];
			}
			wp_set_object_terms( $id, $ids, $taxonomy );
		}
		return $id;
	}

	/**
	 * Creates an attachment, an image with sizes unless another MIME type is given.
	 *
	 * @param string $mime MIME type.
	 * @param string $alt  Alternative text.
	 * @return int Attachment id.
	 */
	protected function create_attachment( string $mime = 'image/jpeg', string $alt = 'A lake at dawn' ): int {
		$file = 'image/jpeg' === $mime ? '2026/11/lake.jpg' : '2026/11/guide.pdf';
		$id   = wp_insert_attachment(
			array(
				'post_mime_type' => $mime,
				'post_title'     => 'Lake',
				'post_status'    => 'inherit',
			),
			$file
		);
		$this->assertIsInt( $id );
		update_post_meta( $id, '_wp_attached_file', $file );
		if ( 'image/jpeg' === $mime ) {
			wp_update_attachment_metadata(
				$id,
				array(
					'width'  => 2000,
					'height' => 1500,
					'file'   => $file,
					'sizes'  => array(
						'thumbnail'    => array(
							'file'      => 'lake-150x150.jpg',
							'width'     => 150,
							'height'    => 150,
							'mime-type' => 'image/jpeg',
						),
						'medium'       => array(
							'file'      => 'lake-300x225.jpg',
							'width'     => 300,
							'height'    => 225,
							'mime-type' => 'image/jpeg',
						),
						'medium_large' => array(
							'file'      => 'lake-768x576.jpg',
							'width'     => 768,
							'height'    => 576,
							'mime-type' => 'image/jpeg',
						),
					),
				)
			);
			update_post_meta( $id, '_wp_attachment_image_alt', $alt );
		}
		return $id;
	}

	/**
	 * The privacy matrix: every status × geo_public × type enabled or not, one post each.
	 *
	 * @return array<string, int> Post ids by "status/public/type"; the only public place is
	 *         "publish/true/post".
	 */
	protected function create_privacy_matrix(): array {
		$statuses   = array(
			'publish'  => array( 'post_status' => 'publish' ),
			'draft'    => array( 'post_status' => 'draft' ),
			'pending'  => array( 'post_status' => 'pending' ),
			'private'  => array( 'post_status' => 'private' ),
			'future'   => array(
				'post_status' => 'future',
				'post_date'   => gmdate( 'Y-m-d H:i:s', time() + DAY_IN_SECONDS ),
			),
			'password' => array(
				'post_status'   => 'publish',
				'post_password' => 'secret',
			),
		);
		$visibility = array(
			'true'    => '1',
			'false'   => '0',
			'empty'   => '',
			'missing' => null,
		);
		$ids        = array();
		foreach ( $statuses as $status => $fields ) {
			foreach ( $visibility as $name => $public ) {
				foreach ( array( 'post', 'page' ) as $type ) {
					$ids[ "{$status}/{$name}/{$type}" ] = $this->create_place(
						$fields + array(
							'post_title' => "{$status} {$name} {$type}",
							'post_type'  => $type,
							'public'     => $public,
						)
					);
				}
			}
		}
		return $ids;
	}
}
