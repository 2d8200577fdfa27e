<?php
/**
 * The map block's places without JavaScript.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Blocks;

defined( 'ABSPATH' ) || exit;

use Cairn\Maps\Feed\Geojson_Writer;
use Cairn\Maps\Index\Place_Index;
use Cairn\Maps\Index\Place_Filter;
use Cairn\Maps\Index\Place_Search;
use Cairn\Maps\Markers\Marker_Repository;
use Cairn\Maps\Support\Limits;
use WP_Post;

/**
 * The server-rendered places panel of a map: one page of its markers as a list (titles and
 * coordinates), a count, and links to the pages before and after, so that every place is
 * reachable without JavaScript, without WebGL and for screen readers. The view script turns the
 * entries into buttons. A map that shows posts lists them after its markers, each a link to the
 * post (since 0.3.0).
 *
 * Each map of a post pages its list with a query parameter of its own (page_parameter()), and the
 * panel is named by the post and the map's place in it, so the pager's links land on it.
 *
 * @since 0.2.0
 */
class Places_List {

	/**
	 * Marker reads.
	 *
	 * @var Marker_Repository
	 */
	private Marker_Repository $markers;

	/**
	 * Post reads.
	 *
	 * @var Content_Places
	 */
	private Content_Places $posts;

	/**
	 * Creates the list.
	 *
	 * @param Marker_Repository   $markers Marker reads.
	 * @param Content_Places|null $posts   Post reads (since 0.3.0).
	 */
	public function __construct( Marker_Repository $markers, ?Content_Places $posts = null ) {
		$this->markers = $markers;
		$this->posts   = $posts ?? new Content_Places();
	}

	/**
	 * One page of a map's places: its markers first (title order), then its posts (title order),
	 * the page clamped to the last one.
	 *
	 * @param array{groups?: string[], ids?: int[]}|null                                     $filters Marker filters; null: none.
	 * @param array{postTypes: string[], terms: array<string, string[]>, current: bool}|null $content The map's posts; null: none.
	 * @param WP_Post|null                                                                   $current The post from block context whose place is public.
	 * @param int                                                                            $page    Page asked for, from 1.
	 * @return array{items: array<int, array{id: int, title: string, lng: float, lat: float, link?: string}>, total: int, page: int}
	 */
	private function page( ?array $filters, ?array $content, ?WP_Post $current, int $page ): array {
		$per_page = (int) Limits::get( 'markerList.maxItems' );
		$markers  = null === $filters ? array(
			'items' => array(),
			'total' => 0,
			'page'  => 1,
		) : $this->markers->page( $filters, $page, $per_page );
		if ( null === $content ) {
			return $markers;
		}
		$marker_total = (int) $markers['total'];
		// How many posts there are, and the page's first post: after the markers of pages before.
		$count      = $this->posts->slice( $content, $current, 0, 0 )['total'];
		$pages      = max( 1, (int) ceil( ( $marker_total + $count ) / max( 1, $per_page ) ) );
		$page       = min( max( 1, $page ), $pages );
		$in_markers = ( $page - 1 ) * $per_page < $marker_total;
		if ( null !== $filters && $in_markers && $page !== (int) $markers['page'] ) {
			// Past the last page: the last one, which still holds markers.
			$markers = $this->markers->page( $filters, $page, $per_page );
		}
		$marker_items = $in_markers ? $markers['items'] : array();
		$room         = $per_page - count( $marker_items );
		$offset       = max( 0, ( $page - 1 ) * $per_page + count( $marker_items ) - $marker_total );
		$posts        = $room > 0 && $count > 0 ? $this->posts->slice( $content, $current, $offset, $room )['items'] : array();
		return array(
			'items' => array_merge( $marker_items, $posts ),
			'total' => $marker_total + $count,
			'page'  => $page,
		);
	}

	/**
	 * The id of a map's places panel: named by the post and the map's place in it, not by a
	 * counter of the request, so it is the same on every page of the list.
	 *
	 * @param int $index Position of the map in its post, from 1.
	 */
	public static function panel_id( int $index ): string {
		return 'cairn-places-' . (int) get_the_ID() . '-' . $index;
	}

	/**
	 * The id of the list inside a places panel (what the map region is described by).
	 *
	 * @param string $panel_id Id of the places panel.
	 */
	public static function list_id( string $panel_id ): string {
		return $panel_id . '-list';
	}

	/**
	 * The query parameter holding the page of a map's server-rendered list: `cairn-places` for
	 * the post's first map, `cairn-places-<n>` for the n-th.
	 *
	 * @since 0.2.0
	 *
	 * @param int $index Position of the map in its post, from 1.
	 */
	public static function page_parameter( int $index ): string {
		return $index <= 1 ? 'cairn-places' : 'cairn-places-' . $index;
	}

	/**
	 * The page of the list the address asks for: a whole number from 1, else 1 (anything else is
	 * ignored quietly; past the last page is clamped by the repository).
	 *
	 * @param string $parameter Query parameter.
	 */
	private static function requested_page( string $parameter ): int {
		// phpcs:ignore WordPress.Security.NonceVerification.Recommended -- a page number to show, no action.
		$value = isset( $_GET[ $parameter ] ) && is_string( $_GET[ $parameter ] ) ? sanitize_text_field( wp_unslash( $_GET[ $parameter ] ) ) : '';
		return 1 === preg_match( '/^\d{1,9}$/D', $value ) ? max( 1, (int) $value ) : 1;
	}

	/**
	 * The first page of a map's list, as data: its places (plain-text titles, as the list shows
	 * them), how many there are in all, the page (1) and the places a page holds.
	 *
	 * @since 0.3.0
	 *
	 * @param array{groups?: string[], ids?: int[]}|null                                     $filters Repository filters of the map's
	 *                                                                                                markers; null: none selected.
	 * @param array{postTypes: string[], terms: array<string, string[]>, current: bool}|null $content The map's posts (since 0.3.0).
	 * @param WP_Post|null                                                                   $current The post from block context whose place is public.
	 * @return array{items: array<int, array{id: int, title: string, lng: float, lat: float, link?: string}>, total: int, page: int, perPage: int}
	 */
	public function first_page( ?array $filters, ?array $content = null, ?WP_Post $current = null ): array {
		$per_page = (int) Limits::get( 'markerList.maxItems' );
		$list     = $this->page( $filters, $content, $current, 1 );
		$items    = array();
		foreach ( $list['items'] as $item ) {
			$entry = array(
				'id'    => (int) $item['id'],
				// Plain text, as the feed gives titles (Geojson_Writer::plain_title()).
				'title' => Geojson_Writer::plain_title( $item['title'] ),
				'lng'   => (float) $item['lng'],
				'lat'   => (float) $item['lat'],
			);
			if ( isset( $item['link'] ) ) {
				$entry['link'] = (string) $item['link'];
			}
			$items[] = $entry;
		}
		return array(
			'items'   => $items,
			'total'   => (int) $list['total'],
			'page'    => 1,
			'perPage' => $per_page,
		);
	}

	/**
	 * The places panel of a map: the region holding the list of the page the address asks for.
	 *
	 * @param array{groups?: string[], ids?: int[]}|null                                     $filters Repository filters of the map's
	 *                                                                                                markers; null: none selected.
	 * @param int                                                                            $index   Position of the map in its post, from 1.
	 * @param array{postTypes: string[], terms: array<string, string[]>, current: bool}|null $content The map's posts (since 0.3.0).
	 * @param WP_Post|null                                                                   $current The post from block context whose place is public.
	 * @param string                                                                         $directions The app of each entry's "Directions" link
	 *                                                                                                   (Directions_Setting::resolve(); `none`: no link; since 0.9.0).
	 */
	public function render( ?array $filters, int $index, ?array $content = null, ?WP_Post $current = null, string $directions = 'none' ): string {
		$param     = self::page_parameter( $index );
		$places_id = self::panel_id( $index );
		$near      = self::requested_near();
		$list      = null !== $near ? $this->near_page( $filters, $content, $near, self::requested_page( $param ) ) : null;
		$list      = $list ?? $this->page( $filters, $content, $current, self::requested_page( $param ) );
		return sprintf(
			'<div class="wp-block-cairn-map__places" role="region" aria-label="%1$s" id="%2$s">%3$s%4$s</div>',
			esc_attr__( 'Places', 'cairn-maps' ),
			esc_attr( $places_id ),
			null === $filters || ! empty( $filters['ids'] ) ? '' : self::near_form( $near, $places_id ),
			$this->render_list( $list, self::list_id( $places_id ), $param, $places_id, $directions )
		);
	}

	/**
	 * The "near" search the address asks for (`?cairn-near=<lng>,<lat>|<text>` or a place name
	 * alone, `&cairn-radius=<km>`, as the runtime's), or null: `point` [lng, lat] or null (then
	 * `text` names one of the map's places), `radius` in metres (0: any distance).
	 *
	 * @since 0.8.0
	 *
	 * @return array{point: float[]|null, text: string, radius: int}|null
	 */
	private static function requested_near(): ?array {
		// phpcs:disable WordPress.Security.NonceVerification.Recommended -- a search to show, no action.
		$value  = isset( $_GET['cairn-near'] ) && is_string( $_GET['cairn-near'] ) ? sanitize_text_field( wp_unslash( $_GET['cairn-near'] ) ) : '';
		$radius = isset( $_GET['cairn-radius'] ) && is_string( $_GET['cairn-radius'] ) ? sanitize_text_field( wp_unslash( $_GET['cairn-radius'] ) ) : '';
		// phpcs:enable WordPress.Security.NonceVerification.Recommended
		if ( '' === trim( $value ) ) {
			return null;
		}
		$parts  = explode( '|', $value, 2 );
		$point  = 1 === preg_match( '/^\s*-?\d{1,3}(\.\d+)?\s*,\s*-?\d{1,2}(\.\d+)?\s*$/', $parts[0] ) ? array_map( 'floatval', explode( ',', $parts[0] ) ) : null;
		$point  = null !== $point && abs( $point[0] ) <= 180 && abs( $point[1] ) <= 90 ? $point : null;
		$text   = null === $point ? $value : ( $parts[1] ?? '' );
		$metres = is_numeric( $radius ) ? (int) round( (float) $radius * 1000 ) : 0;
		$metres = $metres >= (int) Limits::get( 'near.minRadius' ) && $metres <= (int) Limits::get( 'near.maxRadius' ) ? $metres : 0;
		return array(
			'point'  => $point,
			'text'   => mb_substr( trim( $text ), 0, 200 ),
			'radius' => $metres,
		);
	}

	/**
	 * One page of a map's markers near a position (the address's search), nearest first with
	 * their distances, from the place index; null when the index cannot answer it (not built yet,
	 * a map of chosen markers or of posts, a place name the map does not have).
	 *
	 * @since 0.8.0
	 *
	 * @param array{groups?: string[], ids?: int[]}|null                                     $filters The map's markers.
	 * @param array{postTypes: string[], terms: array<string, string[]>, current: bool}|null $content The map's posts.
	 * @param array{point: float[]|null, text: string, radius: int}                          $near    The search.
	 * @param int                                                                            $page    Page asked for, from 1.
	 * @return array{items: array<int, array{id: int, title: string, lng: float, lat: float, distance: float}>, total: int, page: int}|null
	 */
	private function near_page( ?array $filters, ?array $content, array $near, int $page ): ?array {
		if ( null === $filters || ! empty( $filters['ids'] ) || ( null !== $content && array() !== $content['postTypes'] ) || ! ( new Place_Index() )->is_ready() ) {
			return null;
		}
		$search = new Place_Search();
		$filter = new Place_Filter( $filters['groups'] ?? array() );
		$query  = array(
			'bbox'     => null,
			'near'     => null,
			'page'     => 1,
			'per_page' => 1,
			'include'  => 0,
		);
		$point  = $near['point'];
		if ( null === $point && '' !== $near['text'] ) {
			// A place name: the first of the map's places it names.
			$found = $search->list( new Place_Filter( $filters['groups'] ?? array(), array(), $near['text'] ), $query )['items'][0] ?? null;
			$point = null === $found ? null : array( (float) $found['lng'], (float) $found['lat'] );
		}
		if ( null === $point ) {
			return null;
		}
		if ( $near['radius'] > 0 ) {
			$filter = $filter->with_circle( array( $point[0], $point[1], $near['radius'] ) );
		}
		$list  = $search->list(
			$filter,
			array(
				'near'     => $point,
				'page'     => max( 1, $page ),
				'per_page' => (int) Limits::get( 'markerList.maxItems' ),
			) + $query
		);
		$items = array();
		foreach ( $list['items'] as $item ) {
			$items[] = array(
				'id'       => (int) $item['id'],
				'title'    => (string) $item['title'],
				'lng'      => (float) $item['lng'],
				'lat'      => (float) $item['lat'],
				'distance' => (float) ( $item['distance'] ?? 0 ),
			);
		}
		return array(
			'items' => $items,
			'total' => $list['total'],
			'page'  => $list['page'],
		);
	}

	/**
	 * The "near" form without JavaScript: a GET form over the page's own address, taking a place
	 * name or "lng,lat" and a radius (the runtime's panel replaces it).
	 *
	 * @since 0.8.0
	 *
	 * @param array{point: float[]|null, text: string, radius: int}|null $near      The address's search.
	 * @param string                                                     $places_id Id of the places panel.
	 */
	private static function near_form( ?array $near, string $places_id ): string {
		$imperial = 'imperial' === Map_Block::units();
		$unit     = $imperial ? 1.609344 : 1.0;
		$hidden   = '';
		// phpcs:ignore WordPress.Security.NonceVerification.Recommended -- the page's own address, kept.
		foreach ( wp_unslash( $_GET ) as $name => $value ) {
			if ( is_string( $value ) && ! in_array( $name, array( 'cairn-near', 'cairn-radius' ), true ) && 0 !== strpos( (string) $name, 'cairn-places' ) ) {
				$hidden .= sprintf( '<input type="hidden" name="%1$s" value="%2$s">', esc_attr( (string) $name ), esc_attr( sanitize_text_field( $value ) ) );
			}
		}
		$text    = null === $near ? '' : ( '' !== $near['text'] ? $near['text'] : ( null === $near['point'] ? '' : implode( ',', $near['point'] ) ) );
		$options = '<option value="">' . esc_html__( 'any distance', 'cairn-maps' ) . '</option>';
		foreach ( (array) Limits::get( 'near.radiiKm' ) as $value ) {
			$km       = round( (float) $value * $unit, 3 );
			$selected = null !== $near && abs( $near['radius'] - $km * 1000 ) < 2;
			$options .= sprintf(
				'<option value="%1$s"%2$s>%3$s</option>',
				esc_attr( (string) $km ),
				$selected ? ' selected' : '',
				/* translators: %s: a number of kilometres or miles. */
				esc_html( sprintf( $imperial ? __( '%s mi', 'cairn-maps' ) : __( '%s km', 'cairn-maps' ), number_format_i18n( (float) $value ) ) )
			);
		}
		return sprintf(
			'<form class="wp-block-cairn-map__near" role="search" method="get" action="%1$s"><label for="%2$s-near">%3$s</label> <input id="%2$s-near" type="text" name="cairn-near" value="%4$s" maxlength="200" placeholder="%5$s"> <label for="%2$s-radius">%6$s</label> <select id="%2$s-radius" name="cairn-radius">%7$s</select> %8$s<button type="submit">%9$s</button></form>',
			esc_url( (string) preg_replace( '/[?#].*/s', '', (string) remove_query_arg( array( 'cairn-near', 'cairn-radius' ) ) ) . '#' . $places_id ),
			esc_attr( $places_id ),
			esc_html__( 'Near', 'cairn-maps' ),
			esc_attr( $text ),
			esc_attr__( 'A place on this map, or longitude,latitude', 'cairn-maps' ),
			esc_html__( 'within', 'cairn-maps' ),
			$options,
			$hidden,
			esc_html__( 'Find', 'cairn-maps' )
		);
	}

	/**
	 * The accessible list of markers: what remains without JavaScript or WebGL. One page of at
	 * most `markerList.maxItems` places, with links to the pages before and after.
	 *
	 * @param array{items: array<int, array{id: int, title: string, lng: float, lat: float, link?: string, distance?: float}>, total: int, page: int} $list      Places of the page.
	 * @param string                                                                                                                                  $list_id   Element id.
	 * @param string                                                                                                                                  $param     Query parameter of the page.
	 * @param string                                                                                                                                  $places_id Id of the places panel.
	 * @param string                                                                                                                                  $directions The app of the entries' "Directions" links.
	 */
	private function render_list( array $list, string $list_id, string $param, string $places_id, string $directions ): string {
		$html = sprintf(
			'<div class="wp-block-cairn-map__markers" id="%1$s"><h2 class="wp-block-cairn-map__markers-title">%2$s</h2>',
			esc_attr( $list_id ),
			esc_html(
				sprintf(
					/* translators: %s: number of places on the map ("10,000"). */
					_n( '%s place on this map', '%s places on this map', $list['total'], 'cairn-maps' ),
					number_format_i18n( $list['total'] )
				)
			)
		);
		if ( array() !== $list['items'] ) {
			$html .= '<ul class="wp-block-cairn-map__list">';
			foreach ( $list['items'] as $item ) {
				$plain = wp_strip_all_tags( $item['title'] );
				$title = esc_html( $plain );
				$html .= sprintf(
					'<li data-cairn-marker-id="%1$d" data-lng="%2$s" data-lat="%3$s">%4$s%5$s%6$s</li>',
					$item['id'],
					esc_attr( (string) $item['lng'] ),
					esc_attr( (string) $item['lat'] ),
					// A post is read on its own page.
					isset( $item['link'] ) && '' !== $item['link'] ? '<a href="' . esc_url( $item['link'] ) . '">' . $title . '</a>' : $title,
					isset( $item['distance'] ) ? ' <span class="wp-block-cairn-map__distance">' . esc_html( self::distance_text( (float) $item['distance'] ) ) . '</span>' : '',
					// The way there in the visitor's own map app, as the popup and the panel offer it.
					'none' === $directions ? '' : ' ' . Directions_Link::html( $directions, $plain, (float) $item['lat'], (float) $item['lng'] )
				);
			}
			$html .= '</ul>';
		}
		return $html . $this->render_pages( $list, $param, $places_id ) . '</div>';
	}

	/**
	 * A distance in the site's units ("3.2 km", "850 m", "2.1 mi", "400 ft").
	 *
	 * @since 0.8.0
	 *
	 * @param float $metres The distance.
	 */
	private static function distance_text( float $metres ): string {
		if ( 'imperial' === Map_Block::units() ) {
			$miles = $metres / 1609.344;
			/* translators: %s: a distance in miles, or in feet. */
			return $miles < 0.1 ? sprintf( __( '%s ft', 'cairn-maps' ), number_format_i18n( $metres * 3.28084 ) ) : sprintf( __( '%s mi', 'cairn-maps' ), number_format_i18n( $miles, 1 ) );
		}
		/* translators: %s: a distance in metres, or in kilometres. */
		return $metres < 1000 ? sprintf( __( '%s m', 'cairn-maps' ), number_format_i18n( $metres ) ) : sprintf( __( '%s km', 'cairn-maps' ), number_format_i18n( $metres / 1000, 1 ) );
	}

	/**
	 * Links to the list's previous and next pages, and which places this page shows; nothing when
	 * one page holds them all.
	 *
	 * @param array{items: array<int, mixed>, total: int, page: int} $list      Markers of the page.
	 * @param string                                                 $param     Query parameter of the page.
	 * @param string                                                 $places_id Id of the places panel.
	 */
	private function render_pages( array $list, string $param, string $places_id ): string {
		$per_page = (int) Limits::get( 'markerList.maxItems' );
		$pages    = (int) ceil( $list['total'] / max( 1, $per_page ) );
		if ( $pages <= 1 ) {
			return '';
		}
		$page  = $list['page'];
		$first = ( $page - 1 ) * $per_page + 1;
		$link  = static function ( int $to, string $rel, string $text ) use ( $param, $places_id ): string {
			// Page 1 is the page's own address, without the parameter.
			$url = 1 === $to ? remove_query_arg( $param ) : add_query_arg( $param, $to );
			return sprintf(
				'<a class="wp-block-cairn-map__pages-%1$s" rel="%1$s" href="%2$s">%3$s</a>',
				esc_attr( $rel ),
				esc_url( (string) preg_replace( '/#.*/s', '', $url ) . '#' . $places_id ),
				esc_html( $text )
			);
		};
		$html  = '<nav class="wp-block-cairn-map__pages" aria-label="' . esc_attr__( 'Pages of places', 'cairn-maps' ) . '">';
		$html .= $page > 1 ? $link( $page - 1, 'prev', __( 'Previous places', 'cairn-maps' ) ) : '';
		$html .= '<span class="wp-block-cairn-map__pages-range">' . esc_html(
			sprintf(
				/* translators: 1: number of the first place on this page, 2: of the last, 3: number of places in all. */
				__( 'Places %1$s–%2$s of %3$s', 'cairn-maps' ),
				number_format_i18n( $first ),
				number_format_i18n( $first + count( $list['items'] ) - 1 ),
				number_format_i18n( $list['total'] )
			)
		) . '</span>';
		$html .= $page < $pages ? $link( $page + 1, 'next', __( 'Next places', 'cairn-maps' ) ) : '';
		return $html . '</nav>';
	}
}
