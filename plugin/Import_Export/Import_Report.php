<?php
/**
 * What an import did, or a dry run would do.
 *
 * @package Cairn\Maps
 */

namespace Cairn\Maps\Import_Export;

defined( 'ABSPATH' ) || exit;

use WP_Error;

/**
 * Counts an import's records as Marker_Import checks and writes them: imported (by kind:
 * markers, routes, areas, posts), refused (`skipped`, each with its place in the file and why)
 * and remarks on imported rows (`notices`). Keeps at most REPORT_MAX refusals and notices and,
 * for a dry run, a preview of at most PREVIEW_MAX features, so a million-row file reports in
 * bounded memory; the counts are always whole.
 *
 * @since 0.7.0
 */
final class Import_Report {

	/**
	 * Most refusals and notices listed (each; the counts go on).
	 */
	public const REPORT_MAX = 1000;

	/**
	 * Most features in a dry run's preview.
	 */
	public const PREVIEW_MAX = 2000;

	/**
	 * A dry run.
	 *
	 * @var bool
	 */
	private bool $dry_run;

	/**
	 * Records read.
	 *
	 * @var int
	 */
	private int $total = 0;

	/**
	 * Rows imported (or that would be), by kind.
	 *
	 * @var array<string, int>
	 */
	private array $kinds = array(
		'markers' => 0,
		'routes'  => 0,
		'areas'   => 0,
		'posts'   => 0,
	);

	/**
	 * Drafts waiting for geocoding.
	 *
	 * @var int
	 */
	private int $geocoding = 0;

	/**
	 * Refused records (at most REPORT_MAX).
	 *
	 * @var array<int, array<string, int|string>>
	 */
	private array $skipped = array();

	/**
	 * Refused records, all.
	 *
	 * @var int
	 */
	private int $skipped_count = 0;

	/**
	 * Notices (at most REPORT_MAX).
	 *
	 * @var array<int, array<string, int|string>>
	 */
	private array $notices = array();

	/**
	 * Notices, all.
	 *
	 * @var int
	 */
	private int $notices_count = 0;

	/**
	 * Term-taxonomy ids of the groups rows were put in.
	 *
	 * @var array<int, true>
	 */
	private array $groups_used = array();

	/**
	 * Groups created.
	 *
	 * @var string[]
	 */
	private array $groups_created = array();

	/**
	 * Groups a dry run would create, by name.
	 *
	 * @var string[]
	 */
	private array $groups_new = array();

	/**
	 * Whether posts (not markers) were written.
	 *
	 * @var bool
	 */
	private bool $posts = false;

	/**
	 * A dry run's preview features.
	 *
	 * @var array<int, array<string, mixed>>
	 */
	private array $preview = array();

	/**
	 * Creates a report.
	 *
	 * @param bool $dry_run A dry run.
	 */
	public function __construct( bool $dry_run ) {
		$this->dry_run = $dry_run;
	}

	/**
	 * One more record read.
	 */
	public function count_record(): void {
		++$this->total;
	}

	/**
	 * A record refused.
	 *
	 * @param array<string, int|string> $at      Its place in the file.
	 * @param string                    $message Why.
	 */
	public function skip( array $at, string $message ): void {
		++$this->skipped_count;
		if ( count( $this->skipped ) < self::REPORT_MAX ) {
			$this->skipped[] = $at + array( 'message' => $message );
		}
	}

	/**
	 * A remark on a row that imports.
	 *
	 * @param array<string, int|string> $at      Its place in the file.
	 * @param string                    $message The remark.
	 */
	public function notice( array $at, string $message ): void {
		++$this->notices_count;
		if ( count( $this->notices ) < self::REPORT_MAX ) {
			$this->notices[] = $at + array( 'message' => $message );
		}
	}

	/**
	 * A row written.
	 *
	 * @param array<string, mixed> $row Clean row (with `kind`).
	 */
	public function imported( array $row ): void {
		++$this->kinds[ (string) $row['kind'] ];
		if ( null === $row['lat'] ) {
			++$this->geocoding;
		}
	}

	/**
	 * A row a dry run would write: counted, and drawn in the preview while it has room.
	 *
	 * @param array<string, mixed> $row Clean row (with `kind`, and a shape's `geometry_json`).
	 */
	public function would_import( array $row ): void {
		$this->imported( $row );
		if ( count( $this->preview ) >= self::PREVIEW_MAX ) {
			return;
		}
		$geometry = isset( $row['geometry_json'] ) ? json_decode( (string) $row['geometry_json'], true ) : null;
		if ( ! is_array( $geometry ) ) {
			if ( null === $row['lat'] || null === $row['lng'] ) {
				return; // Placed later, by geocoding.
			}
			$geometry = array(
				'type'        => 'Point',
				'coordinates' => array( (float) $row['lng'], (float) $row['lat'] ),
			);
		}
		$this->preview[] = array(
			'type'       => 'Feature',
			'geometry'   => $geometry,
			'properties' => array(
				'title'  => (string) $row['title'],
				'kind'   => (string) $row['kind'],
				'groups' => array_values( $row['groups'] ),
			),
		);
	}

	/**
	 * A group rows were put in.
	 *
	 * @param int $tt_id Term-taxonomy id.
	 */
	public function used_group( int $tt_id ): void {
		$this->groups_used[ $tt_id ] = true;
	}

	/**
	 * Term-taxonomy ids of the groups used.
	 *
	 * @return int[]
	 */
	public function groups_used(): array {
		return array_keys( $this->groups_used );
	}

	/**
	 * Posts (not markers) were written.
	 */
	public function posts_changed(): void {
		$this->posts = true;
	}

	/**
	 * Whether posts were written.
	 */
	public function has_posts(): bool {
		return $this->posts;
	}

	/**
	 * Rows written (or that would be).
	 */
	public function count_imported(): int {
		return array_sum( $this->kinds );
	}

	/**
	 * The groups created.
	 *
	 * @param string[] $slugs Slugs.
	 */
	public function set_groups_created( array $slugs ): void {
		$this->groups_created = $slugs;
	}

	/**
	 * The groups a dry run would create.
	 *
	 * @param string[] $names Names.
	 */
	public function set_groups_new( array $names ): void {
		$this->groups_new = $names;
	}

	/**
	 * The report, or the error of a file none of whose records is valid.
	 *
	 * @return array<string, mixed>|WP_Error
	 */
	public function result() {
		$imported = $this->count_imported();
		if ( 0 === $imported && $this->skipped_count > 0 ) {
			return new WP_Error(
				'cairn_maps_import_invalid',
				__( 'No marker in the file is valid, so nothing was imported.', 'cairn-maps' ),
				array(
					'status'        => 400,
					'errors'        => $this->skipped,
					'skipped_count' => $this->skipped_count,
					'total'         => $this->total,
					'valid'         => 0,
					'dry_run'       => $this->dry_run,
				)
			);
		}
		$result = array(
			'dry_run'        => $this->dry_run,
			'total'          => $this->total,
			'imported'       => $imported,
			'kinds'          => $this->kinds,
			'shapes'         => $this->kinds['routes'] + $this->kinds['areas'],
			'geocoding'      => $this->geocoding,
			'groups_created' => $this->groups_created,
			'skipped'        => $this->skipped,
			'skipped_count'  => $this->skipped_count,
			'notices'        => $this->notices,
			'notices_count'  => $this->notices_count,
		);
		if ( $this->dry_run ) {
			$result['groups_new'] = $this->groups_new;
			$result['preview']    = array(
				'type'     => 'FeatureCollection',
				'features' => $this->preview,
			);
		}
		return $result;
	}
}
