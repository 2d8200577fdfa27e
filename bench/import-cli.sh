#!/usr/bin/env bash
# Benchmark: `wp cairn import` of a large CSV file (default 1,000,000 rows) on a fresh test site,
# with PHP's peak memory (memory_get_peak_usage, the budget is 64 MB), the wall time and the load
# average before and after (other work on the machine slows it: read the time with the load).
# The idle peak is `wp cairn index status` on the same site: WordPress and WP-CLI alone.
# Not a test: it asserts nothing; it prints one line and appends it to bench/results/import-cli.tsv.
#
#   bash bench/import-cli.sh [rows]
#
# It starts a MariaDB of its own (data in .cache/bench-mariadb, stopped on exit), installs
# WordPress into it as the PHP tests do, generates the file (titles "Bench N", coordinates
# spread over the globe, every 10th row in one of 5 groups, every 1000th row invalid) and runs
# bin/wp.sh cairn import, then counts the markers in the database.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ROWS="${1:-1000000}"
DB_DIR="$ROOT/.cache/bench-mariadb"
DATA="$DB_DIR/data"
SOCKET="$DB_DIR/mariadb.sock"
PIDFILE="$DB_DIR/mariadb.pid"
ERRLOG="$DB_DIR/mariadb.err"
log() { printf '[bench-import] %s\n' "$*" >&2; }
die() { printf '[bench-import] ERROR: %s\n' "$*" >&2; exit 1; }

# shellcheck source=bin/lib/mariadb.sh
. "$ROOT/bin/lib/mariadb.sh"
mariadb_find || die "$MARIADB_PROBLEM"
CORE="$(bash "$ROOT/bin/wp-core.sh")"
mkdir -p "$DB_DIR"
mariadb_stop_stale "$PIDFILE" "$DATA"
rm -rf "$DATA"
mariadb_init "$DATA" "$DB_DIR"
PORT="$(free_port 3390)" || die "no free port"
DB_PID=""
stop_db() {
	DB_PID="${DB_PID:-${MARIADB_PID:-}}"
	if [[ -n "$DB_PID" ]] && kill -0 "$DB_PID" 2>/dev/null; then
		kill "$DB_PID" 2>/dev/null || true
		wait "$DB_PID" 2>/dev/null || true
	fi
	rm -f "$PIDFILE"
}
trap stop_db EXIT
mariadb_start "$DATA" "$SOCKET" "$PIDFILE" "$ERRLOG" "$PORT" 60 --innodb-buffer-pool-size=256M --innodb-log-file-size=256M
DB_PID="$MARIADB_PID"
mariadb_create_db "$SOCKET" cairn_bench cairn_bench cairn_bench

export CAIRN_TEST_DB_HOST="127.0.0.1:$PORT" CAIRN_TEST_DB_NAME=cairn_bench CAIRN_TEST_DB_USER=cairn_bench CAIRN_TEST_DB_PASSWORD=cairn_bench CAIRN_WP_CORE_DIR="$CORE"
unset CAIRN_TEST_REDIS
CONFIG="$(php -r 'function cairn_maps_tests_fail( $m ) { fwrite( STDERR, $m ); exit( 1 ); } require $argv[1]; echo cairn_maps_tests_write_config();' "$ROOT/tests/php/includes/config.php")"
# A copy of its own: a PHP test run rewrites the tests' configuration with its own database.
cp "$CONFIG" "$ROOT/.cache/bench-wp-config.php"
export CAIRN_WP_CONFIG="$ROOT/.cache/bench-wp-config.php"
php "$ROOT/tests/php/includes/install.php" "$CAIRN_WP_CONFIG" >/dev/null

FILE="$ROOT/.cache/bench-import-$ROWS.csv"
if [[ ! -s "$FILE" ]]; then
	log "writing $ROWS rows to $FILE"
	php -r '
		$rows = (int) $argv[1];
		$out  = fopen( $argv[2], "wb" );
		fwrite( $out, "title,lat,lng,group,description\n" );
		for ( $i = 1; $i <= $rows; $i++ ) {
			$lat   = 0 === $i % 1000 ? "north" : sprintf( "%.5f", fmod( $i * 0.61803, 170 ) - 85 );
			$lng   = sprintf( "%.5f", fmod( $i * 1.32471, 358 ) - 179 );
			$group = 0 === $i % 10 ? "Group " . ( $i % 5 ) : "";
			fwrite( $out, "Bench $i,$lat,$lng,$group,Row $i\n" );
		}
		fclose( $out );
	' "$ROWS" "$FILE"
fi

base="$(CAIRN_WP_PEAK=1 bash "$ROOT/bin/wp.sh" cairn index status 2>&1 >/dev/null | grep -o "peak_memory_bytes=[0-9]*" | cut -d= -f2 || true)"
load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
start="$(date +%s.%N)"
out="$(CAIRN_WP_PEAK=1 bash "$ROOT/bin/wp.sh" cairn import "$FILE" 2>&1 >/dev/null | grep -v '^Warning: Line ' || true)"
end="$(date +%s.%N)"
load_after="$(cut -d' ' -f1-3 /proc/loadavg)"
peak="$(grep -o 'peak_memory_bytes=[0-9]*' <<<"$out" | cut -d= -f2 || true)"
markers="$("$CLIENT" --no-defaults --socket="$SOCKET" -uroot -N -e "SELECT COUNT(*) FROM cairn_bench.wptests_posts WHERE post_type = 'cairn_marker' AND post_status = 'publish'" 2>/dev/null || echo '?')"
seconds="$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')"
peak_mb="$(awk -v p="${peak:-0}" 'BEGIN { printf "%.1f", p / 1048576 }')"
base_mb="$(awk -v p="${base:-0}" 'BEGIN { printf "%.1f", p / 1048576 }')"
line="$(date -u +%FT%TZ)	rows=$ROWS	markers=$markers	seconds=$seconds	php_peak_mb=$peak_mb	php_peak_idle_mb=$base_mb	load_before=$load_before	load_after=$load_after	cores=$(nproc)"
echo "$line"
grep -v '^peak_memory' <<<"$out" | tail -3 >&2
mkdir -p "$ROOT/bench/results"
echo "$line" >>"$ROOT/bench/results/import-cli.tsv"
