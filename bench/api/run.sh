#!/usr/bin/env bash
# API benchmark of issue 3 (`npm run bench:api`): GET /cairn/v1/markers against core's
# /wp/v2/cairn-markers pages, on native PHP with OPcache and MariaDB, at 1k, 10k and 100k markers.
#
#   bash bench/api/run.sh
#
# What it does, all on 127.0.0.1 and offline, everything it starts stopped on exit:
#  1. checks prerequisites (it installs nothing): php + mysqli + OPcache, MariaDB, node >= 20,
#     nginx + php-fpm (else PHP's built-in server with 4 workers), the built block (npm run build);
#  2. WordPress core from bin/wp-core.sh, copied into .cache/bench/wordpress with a generated
#     wp-config.php, the plugin linked at wp-content/plugins/cairn-maps and a bench-only mu-plugin
#     (bench/api/bench-mu-plugin.php: logs each request's PHP peak memory at shutdown);
#  3. a private MariaDB (data in .cache/bench-mariadb, fresh database every run);
#  4. php-fpm (pm static, 4 workers, OPcache on) behind nginx, configs generated in .cache/bench/;
#  5. per size: bulk-SQL seeding (bench/api/seed.php), the plugin's own invalidation
#     (`cairn_maps_markers_changed`), then bench/api/measure.mjs (cold / warm / 304 / bytes /
#     memory for ours; one page and all pages for core; the maps of a page with three map blocks,
#     /cairn/v1/posts/<id>/maps, beside core's /wp/v2/pages/<id> and the feed's 304);
#  6. bench/api/report.mjs prints the table and target checks, writes
#     bench/results/api-latest.json and appends a row to bench/results/history.jsonl.
#
# Environment:
#   BENCH_SIZES=1000,10000,100000   marker counts (cumulative seeding, ascending)
#   BENCH_DATA=world|country         marker coordinates: uniform worldwide (default, hardest to
#                                    compress) or over a country-sized box
#   BENCH_SERVER=auto|nginx|builtin  auto: nginx + php-fpm when both are installed
#   BENCH_CONCURRENCY=4              client concurrency for warm/304/core-page runs
#   BENCH_COLD_RUNS=5  BENCH_WARM_REQUESTS=40  BENCH_304_REQUESTS=200  BENCH_CORE_REQUESTS=40
#   BENCH_CORE_SAMPLE_PAGES=25       above 100 pages, core's "all pages" is sampled and extrapolated
#   BENCH_WORKERS=4                  php-fpm children / built-in server workers
#   BENCH_DB_PORT=3390 BENCH_HTTP_PORT=8890   first ports to try
#   BENCH_TIMEOUT=1500               hard cap on the whole run, in seconds
#   BENCH_NO_RESULTS=1               print only, write nothing under bench/results/
#   BENCH_STRICT=1                   exit 1 when a target fails
#   BENCH_HOLD=s                     keep the servers up s seconds after measuring (to poke at them)
#   BENCH_FLOOD_REQUESTS=200         random group/include/bbox requests of the flood (issue 12)
#   BENCH_POSTS=0                    no posts with places (issue 24): by default as many posts as
#                                    markers are seeded and the posts feed is measured beside the
#                                    markers feed (warm 200 and 304 interleaved, cold, PHP peak)
#   BENCH_ONLY=flood                 only the warm 200 and the flood (a quick check of that scenario;
#                                    writes api-only-flood-latest.json, never api-latest.json)
#   BENCH_ONLY=shapes                issue 21 (`npm run bench:api:shapes`): the markers feed's warm 200,
#                                    then BENCH_ROUTES routes of BENCH_ROUTE_VERTICES positions seeded
#                                    through the plugin's Shape_Store (wp.php seed-shapes) and
#                                    GET /cairn/v1/shapes cold / warm / 304 / bytes; then a GPX of
#                                    BENCH_GPX_POINTS points imported BENCH_GPX_RUNS times through
#                                    POST /cairn/v1/markers/import?format=gpx, and its shape's feed
#                                    bytes. No posts are seeded unless BENCH_POSTS=1; BENCH_SIZES
#                                    defaults to 100000 here.
#   BENCH_ROUTES=500 BENCH_ROUTE_VERTICES=2000 BENCH_GPX_POINTS=50000 BENCH_GPX_RUNS=3
#   BENCH_ONLY=tiles                 issue 22 (`npm run bench:api:tiles`): BENCH_SIZES defaults to
#                                    1000,100000,1000000, BENCH_DATA to cities; one database per size,
#                                    KEPT between runs (cairn_bench_t<size>_<data>: seeded and
#                                    indexed once, reused when it
#                                    already holds the size; BENCH_RESEED=1 starts it over); every
#                                    size served as tiles (threshold 1); bench/api/tiles.mjs measures
#                                    tiles cold / warm / 304 beside a static file's 304 through the
#                                    same nginx, search, list after a move, one place moved, a flood
#                                    of distinct URLs; bench/api/tiles-report.mjs prints and records.
#   BENCH_MEASURE=0                  (tiles) seed and index the sizes, measure nothing (a first seed)
#   BENCH_THEN='command'             (tiles) run this after the sizes are ready, the servers still up,
#                                    with CAIRN_BENCH_WP (the site) and CAIRN_BENCH_WP_DB_FILE (the
#                                    file naming its database: write cairn_bench_t<size>_<data> to switch):
#                                    how bench/front/tiles.mjs (`npm run bench:front:tiles`) gets its tiles
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
HERE="$ROOT/bench/api"
BENCH="$ROOT/.cache/bench"
WP_ROOT="$BENCH/wordpress"
DB_DIR="$ROOT/.cache/bench-mariadb"
DATA="$DB_DIR/data"
SOCKET="$DB_DIR/mariadb.sock"
DB_PIDFILE="$DB_DIR/mariadb.pid"
DB_ERRLOG="$DB_DIR/mariadb.err"
DB_NAME=cairn_bench
DB_USER=cairn_bench
DB_PASSWORD=cairn_bench

SIZES="${BENCH_SIZES:-1000,10000,100000}"
ONLY="${BENCH_ONLY:-}"
if [[ "$ONLY" == shapes ]]; then
	SIZES="${BENCH_SIZES:-100000}"        # One size unless asked: the routes are the same at each.
	export BENCH_POSTS="${BENCH_POSTS:-0}" # The posts feed is not what this run measures.
	ROUTES="${BENCH_ROUTES:-500}"
	ROUTE_VERTICES="${BENCH_ROUTE_VERTICES:-2000}"
	GPX_POINTS="${BENCH_GPX_POINTS:-50000}"
fi
if [[ "$ONLY" == tiles ]]; then
	SIZES="${BENCH_SIZES:-1000,100000,1000000}"
	export BENCH_POSTS=0 # Tiles cover markers only.
	# Places around 60 cities (and a third anywhere), as a big real map: dense tiles, not only empty ones.
	export BENCH_DATA="${BENCH_DATA:-cities}"
fi
SERVER="${BENCH_SERVER:-auto}"
WORKERS="${BENCH_WORKERS:-4}"
TOTAL_TIMEOUT="${BENCH_TIMEOUT:-1500}"
[[ "$ONLY" == tiles ]] && TOTAL_TIMEOUT="${BENCH_TIMEOUT:-5400}" # a first seed of 1M takes minutes

log() { printf '[bench:api] %s\n' "$*" >&2; }
die() { printf '[bench:api] ERROR: %s\n' "$*" >&2; exit 1; }

# --- Prerequisites (nothing is installed here) ------------------------------------------------------
DEBIAN_PACKAGES="php-cli php-mysql php-fpm nginx mariadb-server mariadb-client nodejs"
need() { die "$1 (Debian: apt-get install $DEBIAN_PACKAGES)"; }
command -v php >/dev/null || need "php is not installed"
php -r 'exit( extension_loaded( "mysqli" ) ? 0 : 1 );' || need "PHP has no mysqli extension (php-mysql)"
php -d opcache.enable_cli=1 -r 'exit( function_exists( "opcache_get_status" ) ? 0 : 1 );' ||
	need "PHP has no OPcache extension (php-opcache, part of php-cli/php-fpm on Debian)"
# shellcheck source=bin/lib/mariadb.sh
. "$ROOT/bin/lib/mariadb.sh"
mariadb_find || need "$MARIADB_PROBLEM"
command -v node >/dev/null || need "node is not installed (Node.js 20+)"
node -e 'process.exit(+process.versions.node.split(".")[0] >= 20 ? 0 : 1)' || die "Node.js 20+ is required (found $(node -v))"
command -v flock >/dev/null || die "flock is missing (Debian: util-linux)"
command -v timeout >/dev/null || die "timeout is missing (Debian: coreutils)"
[[ -f "$ROOT/build/blocks/map/block.json" ]] ||
	die "build/ is missing: run 'npm run build' first (the plugin stays idle without its built block)"

NGINX="$(command -v nginx || ls /usr/sbin/nginx 2>/dev/null || true)"
FPM="$(command -v php-fpm || true)"
if [[ -z "$FPM" ]]; then
	PHP_MINOR="$(php -r 'echo PHP_MAJOR_VERSION . "." . PHP_MINOR_VERSION;')"
	FPM="$(command -v "php-fpm$PHP_MINOR" || ls "/usr/sbin/php-fpm$PHP_MINOR" 2>/dev/null || ls /usr/sbin/php-fpm* 2>/dev/null | head -n 1 || true)"
fi
case "$SERVER" in
	auto)
		if [[ -n "$NGINX" && -n "$FPM" ]]; then SERVER=nginx; else
			SERVER=builtin
			log "nginx and/or php-fpm are not installed: using PHP's built-in server with $WORKERS workers"
			log "(for the production-like setup: apt-get install nginx php-fpm)"
		fi ;;
	nginx) [[ -n "$NGINX" && -n "$FPM" ]] || need "BENCH_SERVER=nginx needs nginx and php-fpm" ;;
	builtin) ;;
	*) die "BENCH_SERVER must be auto, nginx or builtin (got '$SERVER')" ;;
esac

IFS=',' read -r -a SIZE_LIST <<<"$SIZES"
prev=0
for size in "${SIZE_LIST[@]}"; do
	[[ "$size" =~ ^[0-9]+$ && "$size" -gt "$prev" ]] || die "BENCH_SIZES must be ascending positive integers (got '$SIZES')"
	prev="$size"
done

WP_CORE_DIR="$(bash "$ROOT/bin/wp-core.sh")" || die "bin/wp-core.sh could not provision WordPress core"
[[ -f "$WP_CORE_DIR/wp-settings.php" ]] || die "no WordPress core in '$WP_CORE_DIR'"

# --- One run at a time; a hard cap on the whole run --------------------------------------------------
mkdir -p "$BENCH" "$DB_DIR"
exec 9>"$BENCH/lock"
flock -n 9 || die "another bench/api/run.sh is running (lock: $BENCH/lock)"

if [[ -z "${BENCH_WATCHDOG_CHILD:-}" ]]; then
	# Re-run under `timeout` so that nothing can hang past the cap; the child's trap stops servers.
	export BENCH_WATCHDOG_CHILD=1
	exec 9>&-
	# `timeout` runs in its own process group, out of reach of Ctrl-C: forward INT/TERM to it (it
	# passes them on to the run, whose trap stops the servers) and wait for it to finish.
	timeout --kill-after=30 "$TOTAL_TIMEOUT" bash "${BASH_SOURCE[0]}" "$@" &
	watchdog=$!
	trap 'kill -TERM "$watchdog" 2>/dev/null || true' INT TERM
	status=0
	wait "$watchdog" || status=$?
	while kill -0 "$watchdog" 2>/dev/null; do wait "$watchdog" || status=$?; done
	[[ "$status" == 124 ]] && log "the run exceeded BENCH_TIMEOUT=${TOTAL_TIMEOUT}s and was stopped"
	exit "$status"
fi

START_TIME=$SECONDS
LOAD_BEFORE="$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || true)"
log "load average at the start: ${LOAD_BEFORE:-unknown} ($(nproc 2>/dev/null || echo '?') CPUs)"
PIDS=()        # every server this run started, stopped in reverse order
# Stops one server we started: by pid, or by its own process group ("-PID") for PHP's built-in
# server, whose workers outlive their parent otherwise.
stop_pid() {
	local pid="$1" name="$2" target="$1"
	if [[ "$pid" == -* ]]; then pid="${pid#-}"; target="-$pid"; fi
	kill -0 -- "$target" 2>/dev/null || return 0
	kill -- "$target" 2>/dev/null || true
	for _ in $(seq 1 150); do kill -0 -- "$target" 2>/dev/null || break; sleep 0.1; done
	if kill -0 -- "$target" 2>/dev/null; then
		log "$name (pid $pid) did not stop within 15 s; killing it"
		kill -9 -- "$target" 2>/dev/null || true
	fi
	wait "$pid" 2>/dev/null || true
}
cleanup() {
	local i entry
	for ((i = ${#PIDS[@]} - 1; i >= 0; i--)); do
		entry="${PIDS[$i]}"
		stop_pid "${entry%%:*}" "${entry#*:}"
	done
	PIDS=()
	rm -f "$DB_PIDFILE"
}
trap cleanup EXIT
trap 'exit 130' INT TERM


# --- WordPress root: a copy of core (never the pristine .cache/wordpress) ----------------------------
core_stamp="$(cat "$WP_CORE_DIR/.cairn-core" 2>/dev/null || echo unknown)"
if [[ ! -f "$WP_ROOT/.bench-core" || "$(cat "$WP_ROOT/.bench-core")" != "$core_stamp" ]]; then
	log "copying WordPress core into $WP_ROOT"
	rm -rf "$WP_ROOT"
	cp -a "$WP_CORE_DIR" "$WP_ROOT"
	rm -f "$WP_ROOT/.cairn-core"
	printf '%s' "$core_stamp" >"$WP_ROOT/.bench-core"
fi
# The bench site's plugins are ours alone: only cairn-maps (linked) and the bench probe.
rm -rf "$WP_ROOT/wp-content/mu-plugins"
mkdir -p "$WP_ROOT/wp-content/plugins" "$WP_ROOT/wp-content/mu-plugins" "$WP_ROOT/wp-content/uploads"
ln -sfn "$ROOT" "$WP_ROOT/wp-content/plugins/cairn-maps"
cp "$HERE/bench-mu-plugin.php" "$WP_ROOT/wp-content/mu-plugins/cairn-bench.php"
PEAK_LOG="$BENCH/peak.log"
: >"$PEAK_LOG"

# --- MariaDB ---------------------------------------------------------------------------------------
mariadb_stop_stale "$DB_PIDFILE" "$DATA"
mariadb_init "$DATA" "$DB_DIR"
DB_PORT="$(free_port "${BENCH_DB_PORT:-3390}")" || die "no free port for MariaDB from ${BENCH_DB_PORT:-3390} on"
# Server settings of a small production box (buffer pool holds the data set); durability relaxed
# only to make seeding quick — reads, which is all that is measured, are unaffected.
# Issue 22: the 1M database (≈ 1.5 GB with its indexes) wants a larger pool; BENCH_DB_POOL overrides.
DB_POOL="${BENCH_DB_POOL:-512M}"
[[ "$ONLY" == tiles ]] && DB_POOL="${BENCH_DB_POOL:-2G}"
mariadb_start "$DATA" "$SOCKET" "$DB_PIDFILE" "$DB_ERRLOG" "$DB_PORT" 60 \
	--innodb-buffer-pool-size="$DB_POOL" --innodb-log-file-size=256M --max-connections=100
PIDS+=("$MARIADB_PID:MariaDB")
if [[ "$ONLY" == tiles ]]; then
	# One database per size, kept between runs (see tiles_database below); the default one too.
	"$CLIENT" --no-defaults --socket="$SOCKET" -uroot <<SQL || die "could not create the user $DB_USER"
CREATE DATABASE IF NOT EXISTS \`$DB_NAME\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
CREATE USER IF NOT EXISTS '$DB_USER'@'127.0.0.1' IDENTIFIED BY '$DB_PASSWORD';
CREATE USER IF NOT EXISTS '$DB_USER'@'localhost' IDENTIFIED BY '$DB_PASSWORD';
GRANT ALL PRIVILEGES ON \`cairn\\_bench%\`.* TO '$DB_USER'@'127.0.0.1';
GRANT ALL PRIVILEGES ON \`cairn\\_bench%\`.* TO '$DB_USER'@'localhost';
SQL
else
	mariadb_create_db "$SOCKET" "$DB_NAME" "$DB_USER" "$DB_PASSWORD"
fi

# --- wp-config.php ---------------------------------------------------------------------------------
HTTP_PORT="$(free_port "${BENCH_HTTP_PORT:-8890}")" || die "no free HTTP port from ${BENCH_HTTP_PORT:-8890} on"
SITE_URL="http://127.0.0.1:$HTTP_PORT"
# Issue 22: the database of the size being measured is named in a file read on every request (the
# tiles run switches databases between sizes without restarting PHP; OPcache does not revalidate).
DB_NAME_FILE="$BENCH/db-name"
printf '%s' "$DB_NAME" >"$DB_NAME_FILE"
TILES_CONFIG=""
[[ "$ONLY" == tiles ]] && TILES_CONFIG="define( 'CAIRN_BENCH_TILE_THRESHOLD', 1 );"
cat >"$WP_ROOT/wp-config.php" <<PHP
<?php
// Generated by bench/api/run.sh for the API benchmark; rewritten on every run.
define( 'DB_NAME', trim( (string) file_get_contents( '$DB_NAME_FILE' ) ) );
define( 'DB_USER', '$DB_USER' );
define( 'DB_PASSWORD', '$DB_PASSWORD' );
define( 'DB_HOST', '127.0.0.1:$DB_PORT' );
define( 'DB_CHARSET', 'utf8mb4' );
define( 'DB_COLLATE', '' );
define( 'AUTH_KEY', 'bench' ); define( 'SECURE_AUTH_KEY', 'bench' ); define( 'LOGGED_IN_KEY', 'bench' );
define( 'NONCE_KEY', 'bench' ); define( 'AUTH_SALT', 'bench' ); define( 'SECURE_AUTH_SALT', 'bench' );
define( 'LOGGED_IN_SALT', 'bench' ); define( 'NONCE_SALT', 'bench' );
define( 'WP_HOME', '$SITE_URL' );
define( 'WP_SITEURL', '$SITE_URL' );
define( 'WP_DEBUG', false );
define( 'WP_DEBUG_DISPLAY', false );
define( 'WP_ENVIRONMENT_TYPE', 'production' );
define( 'DISABLE_WP_CRON', true );
define( 'WP_HTTP_BLOCK_EXTERNAL', true );
define( 'AUTOMATIC_UPDATER_DISABLED', true );
define( 'WP_AUTO_UPDATE_CORE', false );
define( 'CAIRN_BENCH_PEAK_LOG', '$PEAK_LOG' );
$TILES_CONFIG
\$table_prefix = 'wp_';
if ( ! defined( 'ABSPATH' ) ) {
	define( 'ABSPATH', __DIR__ . '/' );
}
require_once ABSPATH . 'wp-settings.php';
PHP

export CAIRN_BENCH_WP_ROOT="$WP_ROOT" CAIRN_BENCH_SITE_URL="$SITE_URL"
if [[ "$ONLY" != tiles ]]; then
	log "installing WordPress and activating the plugin"
	timeout --foreground 120 php "$HERE/wp.php" install >&2 || die "WordPress install failed"
	timeout --foreground 60 php "$HERE/wp.php" activate >&2 || die "activating cairn-maps failed"
	MAPS_POST="$(timeout --foreground 60 php "$HERE/wp.php" maps-page)" || die "creating the page with three maps failed"
fi

# --- HTTP server: nginx + php-fpm, or PHP's built-in server ------------------------------------------
OPCACHE_INI=(opcache.enable=1 opcache.enable_cli=1 opcache.memory_consumption=128 opcache.interned_strings_buffer=16
	opcache.max_accelerated_files=20000 opcache.validate_timestamps=0 opcache.jit=off)
mkdir -p "$BENCH/nginx"
if [[ "$SERVER" == nginx ]]; then
	FPM_SOCK="$BENCH/php-fpm.sock"
	FPM_ARGS=(--nodaemonize --fpm-config "$BENCH/php-fpm.conf")
	# OPcache settings are system-wide (shared memory): on the command line, not in the pool.
	for kv in "${OPCACHE_INI[@]}"; do FPM_ARGS+=(-d "$kv"); done
	FPM_USER=""
	if [[ "$(id -u)" == 0 ]]; then FPM_ARGS+=(--allow-to-run-as-root); FPM_USER="user = root
group = root"; fi
	{
		echo "[global]"
		echo "pid = $BENCH/php-fpm.pid"
		echo "error_log = $BENCH/php-fpm.log"
		echo "daemonize = no"
		echo "[bench]"
		echo "$FPM_USER"
		echo "listen = $FPM_SOCK"
		echo "pm = static"
		echo "pm.max_children = $WORKERS"
		echo "pm.max_requests = 0"
		echo "request_terminate_timeout = 120"
		echo "catch_workers_output = yes"
		echo "php_admin_value[memory_limit] = 256M"
		echo "php_admin_flag[display_errors] = off"
		echo "php_admin_flag[log_errors] = on"
		echo "php_admin_value[error_log] = $BENCH/php-errors.log"
		echo "php_admin_flag[zlib.output_compression] = off"
	} >"$BENCH/php-fpm.conf"
	NGINX_USER=""
	[[ "$(id -u)" == 0 ]] && NGINX_USER="user root;"
	# Issue 22 (tiles): nginx proxy_cache in front of the site on a second port, as docs/cdn.md
	# recommends (what a CDN or a caching proxy serves: tiles with the current v are immutable).
	PROXY_SERVER=""
	PROXY_URL=""
	if [[ "$ONLY" == tiles ]]; then
		PROXY_PORT="$(free_port $((HTTP_PORT + 1)))" || die "no free port for the proxy"
		PROXY_URL="http://127.0.0.1:$PROXY_PORT"
		rm -rf "$BENCH/nginx/cache"
		PROXY_SERVER="	proxy_cache_path $BENCH/nginx/cache levels=1:2 keys_zone=bench:8m max_size=256m inactive=1d use_temp_path=off;
	map \$http_cookie \$bench_private_cookie { default 0; \"~*wordpress_logged_in_|wp-postpass_|comment_author_|wordpress_sec_\" 1; }
	map \"\$bench_private_cookie\$http_x_wp_nonce\$arg__wpnonce\$http_authorization\" \$bench_skip_cache { default 1; \"0\" 0; }
	server {
		listen 127.0.0.1:$PROXY_PORT;
		server_name 127.0.0.1;
		location / {
			proxy_pass http://127.0.0.1:$HTTP_PORT;
			proxy_http_version 1.1;
			proxy_set_header Host \$http_host;
			proxy_cache bench;
			proxy_cache_key \$scheme\$request_method\$http_host\$request_uri;
			proxy_cache_methods GET HEAD;
			proxy_cache_revalidate on;
			proxy_cache_lock on;
			proxy_cache_lock_timeout 5s;
			proxy_cache_bypass \$bench_skip_cache;
			proxy_no_cache \$bench_skip_cache;
			add_header X-Cache-Status \$upstream_cache_status always;
		}
	}"
	fi
	cat >"$BENCH/nginx/nginx.conf" <<NGINX
# Generated by bench/api/run.sh.
$NGINX_USER
worker_processes 2;
daemon off;
pid $BENCH/nginx/nginx.pid;
error_log $BENCH/nginx/error.log warn;
events { worker_connections 256; }
http {
	access_log off;
	default_type application/octet-stream;
	client_body_temp_path $BENCH/nginx/client_body;
	proxy_temp_path $BENCH/nginx/proxy;
	fastcgi_temp_path $BENCH/nginx/fastcgi;
	uwsgi_temp_path $BENCH/nginx/uwsgi;
	scgi_temp_path $BENCH/nginx/scgi;
	sendfile on;
	keepalive_timeout 65;
	keepalive_requests 100000;
	# No gzip here: the feed compresses itself; core's pages are measured as PHP sends them.
	gzip off;
	server {
		listen 127.0.0.1:$HTTP_PORT;
		server_name 127.0.0.1;
		root $WP_ROOT;
		index index.php;
		location / { try_files \$uri \$uri/ /index.php?\$args; }
		# Issue 22: a static file beside PHP (etag on, nginx's default), for the tiles' 304.
		location /bench-static/ { etag on; add_header Cache-Control "public, max-age=31536000, immutable"; }
		location ~ \.php\$ {
			try_files \$uri =404;
			fastcgi_param SCRIPT_FILENAME \$document_root\$fastcgi_script_name;
			fastcgi_param QUERY_STRING \$query_string;
			fastcgi_param REQUEST_METHOD \$request_method;
			fastcgi_param CONTENT_TYPE \$content_type;
			fastcgi_param CONTENT_LENGTH \$content_length;
			fastcgi_param SCRIPT_NAME \$fastcgi_script_name;
			fastcgi_param REQUEST_URI \$request_uri;
			fastcgi_param DOCUMENT_URI \$document_uri;
			fastcgi_param DOCUMENT_ROOT \$document_root;
			fastcgi_param SERVER_PROTOCOL \$server_protocol;
			fastcgi_param GATEWAY_INTERFACE CGI/1.1;
			fastcgi_param SERVER_SOFTWARE nginx;
			fastcgi_param REMOTE_ADDR \$remote_addr;
			fastcgi_param REMOTE_PORT \$remote_port;
			fastcgi_param SERVER_ADDR \$server_addr;
			fastcgi_param SERVER_PORT \$server_port;
			fastcgi_param SERVER_NAME \$server_name;
			fastcgi_param HTTP_HOST \$http_host;
			fastcgi_pass unix:$FPM_SOCK;
			fastcgi_buffer_size 32k;
			fastcgi_buffers 64 32k;
			fastcgi_read_timeout 120s;
		}
	}
$PROXY_SERVER
}
NGINX
	rm -f "$FPM_SOCK"
	: >"$BENCH/php-fpm.log"
	"$FPM" "${FPM_ARGS[@]}" </dev/null >>"$BENCH/php-fpm.log" 2>&1 9>&- &
	PIDS+=("$!:php-fpm")
	FPM_PID=$!
	deadline=$((SECONDS + 20))
	until [[ -S "$FPM_SOCK" ]]; do
		kill -0 "$FPM_PID" 2>/dev/null || { tail -n 20 "$BENCH/php-fpm.log" >&2; die "php-fpm exited while starting"; }
		((SECONDS < deadline)) || die "php-fpm did not open $FPM_SOCK within 20 s"
		sleep 0.1
	done
	"$NGINX" -t -q -p "$BENCH/nginx" -e "$BENCH/nginx/error.log" -c "$BENCH/nginx/nginx.conf" 2>&1 |
		grep -v '"user" directive' >&2 || true
	"$NGINX" -p "$BENCH/nginx" -e "$BENCH/nginx/error.log" -c "$BENCH/nginx/nginx.conf" </dev/null >/dev/null 2>&1 9>&- &
	PIDS+=("$!:nginx")
	HTTP_PID=$!
	SERVER_DESC="nginx $("$NGINX" -v 2>&1 | sed 's/.*nginx\///') + $("$FPM" -v | head -n 1 | cut -d' ' -f1-2) (pm static, $WORKERS children)"
else
	command -v setsid >/dev/null || die "setsid is missing (Debian: util-linux)"
	# Its own process group (setsid), so that stopping it stops its workers too.
	PHP_CLI_SERVER_WORKERS="$WORKERS" setsid php -d memory_limit=256M -d display_errors=0 -d log_errors=1 \
		-d error_log="$BENCH/php-errors.log" -d zlib.output_compression=0 \
		$(printf -- '-d %s ' "${OPCACHE_INI[@]}") \
		-S "127.0.0.1:$HTTP_PORT" -t "$WP_ROOT" </dev/null >"$BENCH/php-server.log" 2>&1 9>&- &
	PIDS+=("-$!:php-server")
	HTTP_PID=$!
	SERVER_DESC="PHP $(php -r 'echo PHP_VERSION;') built-in server ($WORKERS workers)"
fi
deadline=$((SECONDS + 20))
until port_in_use "$HTTP_PORT"; do
	kill -0 "$HTTP_PID" 2>/dev/null || die "the HTTP server exited while starting (see $BENCH/)"
	((SECONDS < deadline)) || die "the HTTP server did not listen on $HTTP_PORT within 20 s"
	sleep 0.1
done
log "serving $SITE_URL with $SERVER_DESC"

# --- Seed and measure each size ----------------------------------------------------------------------
RUN_DIR="$BENCH/run"
rm -rf "$RUN_DIR"
mkdir -p "$RUN_DIR"
export CAIRN_BENCH_DB_HOST=127.0.0.1 CAIRN_BENCH_DB_PORT="$DB_PORT" CAIRN_BENCH_DB_NAME="$DB_NAME" \
	CAIRN_BENCH_DB_USER="$DB_USER" CAIRN_BENCH_DB_PASSWORD="$DB_PASSWORD" CAIRN_BENCH_PEAK_LOG="$PEAK_LOG"

# --- Issue 22: tiles, search and lists of the place index (BENCH_ONLY=tiles) --------------------------
if [[ "$ONLY" == tiles ]]; then
	[[ "$SERVER" == nginx ]] || log "WARNING: no nginx: the static file's 304 (the tiles' 304 target) is served by PHP's built-in server"
	# A static file of a tile's size beside PHP: nginx answers its 304 (ETag: mtime and length).
	mkdir -p "$WP_ROOT/bench-static"
	head -c 6000 /dev/zero | tr '\0' 'x' >"$WP_ROOT/bench-static/tile.json"
	for size in "${SIZE_LIST[@]}"; do
		db="cairn_bench_t${size}_$BENCH_DATA"
		if [[ "${BENCH_RESEED:-}" == 1 ]]; then
			"$CLIENT" --no-defaults --socket="$SOCKET" -uroot -e "DROP DATABASE IF EXISTS \`$db\`" || die "could not drop $db"
		fi
		"$CLIENT" --no-defaults --socket="$SOCKET" -uroot \
			-e "CREATE DATABASE IF NOT EXISTS \`$db\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci" || die "could not create $db"
		printf '%s' "$db" >"$DB_NAME_FILE"
		export CAIRN_BENCH_DB_NAME="$db"
		log "$size: database $db (kept between runs)"
		timeout --foreground 120 php "$HERE/wp.php" install >&2 || die "WordPress install failed"
		timeout --foreground 600 php -d memory_limit=1G "$HERE/wp.php" activate >&2 || die "activating cairn-maps failed"
		TILES_POST="$(timeout --foreground 60 php "$HERE/wp.php" tiles-page)" || die "creating the page with one map failed"
		t0=$(date +%s%N)
		timeout --foreground 1800 php "$HERE/seed.php" "$size" >"$RUN_DIR/seed-$size.json" || die "seeding $size markers failed"
		t1=$(date +%s%N)
		log "$size: seed $(cat "$RUN_DIR/seed-$size.json" | node -e 'const s=JSON.parse(require("fs").readFileSync(0));console.log(`${s.inserted} inserted in ${s.seconds} s, ${s.markers} markers`)')"
		inserted="$(node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1])).inserted)' "$RUN_DIR/seed-$size.json")"
		# Markers written behind WordPress' back are announced (cairn_maps_markers_changed: the feed's
		# version, and a full index rebuild pending); a kept database that got nothing new is not
		# touched, so its index stays ready and is reused.
		force=""
		if [[ "$inserted" != 0 ]]; then
			timeout --foreground 60 php "$HERE/wp.php" bump >&2 || die "invalidating the plugin's feed cache failed"
			force=force
		fi
		log "$size: place index (wp.php index-rebuild $force)"
		timeout --foreground 3000 php -d memory_limit=1G "$HERE/wp.php" index-rebuild $force >"$RUN_DIR/index-$size.json" ||
			die "building the place index failed (is issue 22's index merged?)"
		log "$size: index $(cat "$RUN_DIR/index-$size.json")"
		[[ -n "${CAIRN_BENCH_AUTH:-}" ]] && [[ "${CAIRN_BENCH_AUTH_DB:-}" == "$db" ]] ||
			{ CAIRN_BENCH_AUTH="$(timeout --foreground 60 php "$HERE/wp.php" app-password)" || die "creating an application password failed"; }
		export CAIRN_BENCH_AUTH CAIRN_BENCH_AUTH_DB="$db"
		[[ "${BENCH_MEASURE:-1}" == 0 ]] && continue
		timeout --foreground 1800 node "$HERE/tiles.mjs" --size "$size" --url "$SITE_URL" --seed "$RUN_DIR/seed-$size.json" \
			--index "$RUN_DIR/index-$size.json" --page "$TILES_POST" --static /bench-static/tile.json ${PROXY_URL:+--proxy "$PROXY_URL"} \
			--out "$RUN_DIR/size-$size.json" || die "measuring tiles at $size markers failed"
	done
	if [[ -n "${BENCH_THEN:-}" ]]; then
		log "running: $BENCH_THEN"
		status=0
		CAIRN_BENCH_WP="$SITE_URL" CAIRN_BENCH_WP_DB_FILE="$DB_NAME_FILE" bash -c "$BENCH_THEN" 9>&- || status=$?
		printf '%s' "$DB_NAME" >"$DB_NAME_FILE"
		exit "$status"
	fi
	printf '%s' "$DB_NAME" >"$DB_NAME_FILE"
	[[ "${BENCH_MEASURE:-1}" == 0 ]] && { log "BENCH_MEASURE=0: sizes seeded and indexed, nothing measured"; exit 0; }
	if [[ -n "${BENCH_HOLD:-}" ]]; then
		log "BENCH_HOLD: servers stay up for ${BENCH_HOLD}s at $SITE_URL (MariaDB 127.0.0.1:$DB_PORT)"
		sleep "$BENCH_HOLD" || true
	fi
	export BENCH_SERVER_DESC="$SERVER_DESC" BENCH_MARIADB_VERSION="$("$MARIADBD" --version | sed 's/.*Ver //;s/ for .*//')"
	export BENCH_ELAPSED_SECONDS=$((SECONDS - START_TIME)) BENCH_LOAD_BEFORE="$LOAD_BEFORE"
	export BENCH_LOAD_AFTER="$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || true)"
	node "$HERE/tiles-report.mjs" --dir "$RUN_DIR" --sizes "$SIZES" --results "$ROOT/bench/results" || die "report failed"
	exit 0
fi

for size in "${SIZE_LIST[@]}"; do
	log "seeding to $size markers"
	t0=$(date +%s%N)
	timeout --foreground 600 php "$HERE/seed.php" "$size" >"$RUN_DIR/seed-$size.json" || die "seeding $size markers failed"
	timeout --foreground 60 php "$HERE/wp.php" bump >&2 || die "invalidating the plugin's feed cache failed"
	if [[ "${BENCH_POSTS:-1}" != 0 ]]; then
		timeout --foreground 60 php "$HERE/wp.php" bump-places >&2 || die "invalidating the plugin's posts feed cache failed"
	fi
	t1=$(date +%s%N)
	log "seeded and invalidated in $(((t1 - t0) / 1000000)) ms; measuring"
	SHAPES_ARGS=()
	if [[ "$ONLY" == shapes ]]; then
		# Issue 21: routes through the plugin's Shape_Store (cumulative), a GPX file, an application
		# password for the import (the bench mu-plugin allows them over HTTP).
		log "seeding $ROUTES routes of $ROUTE_VERTICES positions (wp.php seed-shapes)"
		timeout --foreground 600 php -d memory_limit=1G "$HERE/wp.php" seed-shapes "$ROUTES" "$ROUTE_VERTICES" >"$RUN_DIR/shapes-seed-$size.json" ||
			die "seeding routes failed (is the geo branch's Shape_Store merged?)"
		log "routes: $(cat "$RUN_DIR/shapes-seed-$size.json")"
		[[ -f "$RUN_DIR/track-$GPX_POINTS.gpx" ]] ||
			php "$HERE/trails.php" gpx "$GPX_POINTS" "$RUN_DIR/track-$GPX_POINTS.gpx" 21 >&2 || die "writing the GPX file failed"
		[[ -n "${CAIRN_BENCH_AUTH:-}" ]] || CAIRN_BENCH_AUTH="$(timeout --foreground 60 php "$HERE/wp.php" app-password)" ||
			die "creating an application password failed"
		export CAIRN_BENCH_AUTH
		SHAPES_ARGS=(--shapes-seed "$RUN_DIR/shapes-seed-$size.json" --gpx "$RUN_DIR/track-$GPX_POINTS.gpx")
	fi
	timeout --foreground 900 node "$HERE/measure.mjs" --size "$size" --url "$SITE_URL" --seed "$RUN_DIR/seed-$size.json" \
		--maps-post "$MAPS_POST" "${SHAPES_ARGS[@]}" --out "$RUN_DIR/size-$size.json" || die "measuring $size markers failed"
done

# Where a cold rebuild's time goes, at the largest size (CLI, plugin classes, after all HTTP runs).
if [[ -z "${BENCH_ONLY:-}" ]]; then
	log "profiling a cold rebuild step by step at ${SIZE_LIST[-1]} markers"
	timeout --foreground 300 php -d memory_limit=1G "$HERE/wp.php" profile >"$RUN_DIR/profile.json" ||
		{ log "the rebuild profile failed (see above); the report goes on without it"; rm -f "$RUN_DIR/profile.json"; }
fi

if [[ -n "${BENCH_HOLD:-}" ]]; then
	log "BENCH_HOLD: servers stay up for ${BENCH_HOLD}s at $SITE_URL (MariaDB 127.0.0.1:$DB_PORT)"
	sleep "$BENCH_HOLD" || true
fi

# --- Report ----------------------------------------------------------------------------------------
export BENCH_SERVER_DESC="$SERVER_DESC" BENCH_MARIADB_VERSION="$("$MARIADBD" --version | sed 's/.*Ver //;s/ for .*//')"
export BENCH_ELAPSED_SECONDS=$((SECONDS - START_TIME)) BENCH_LOAD_BEFORE="$LOAD_BEFORE"
export BENCH_LOAD_AFTER="$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || true)"
node "$HERE/report.mjs" --dir "$RUN_DIR" --sizes "$SIZES" --results "$ROOT/bench/results" || die "report failed"
