#!/usr/bin/env bash
# PHP integration tests against real WordPress and a private MariaDB (`npm run test:php`).
#
#   bash bin/test-php.sh [phpunit arguments…]      e.g. --filter Markers_Feed, --group http
#   bash bin/test-php.sh --run <php script> [arguments…]
#       runs that script instead of PHPUnit, in the same environment (the database up, CAIRN_TEST_*
#       exported): bin/mutate-php.php runs PHPUnit many times against one database this way;
#   bash bin/test-php.sh --redis [phpunit arguments…]
#       the same with a persistent object cache: a private redis-server (no persistence, a free
#       port from 6390 on, stopped on exit) and the test drop-in tests/php/object-cache/
#       object-cache.php installed in the test site's own content folder; without arguments it
#       runs the groups `redis` and `proxy` (tests/php/Engines/; the proxy tests need nginx).
#
# 1. provisions WordPress core into .cache/wordpress (bin/wp-core.sh, read-only for us);
# 2. checks composer's vendor/ and the built block (build/blocks/map/block.json);
# 3. starts a MariaDB of its own: data in .cache/mariadb, its own socket, TCP on 127.0.0.1 only,
#    a free port from 3307 on (CAIRN_TEST_DB_PORT to choose), ready-wait with a timeout;
# 4. creates the test database and user, runs vendor/bin/phpunit, and always stops the server.
#
# tests/php/bootstrap.php installs WordPress afresh into that database on every run.
#
# Environment:
#   CAIRN_TEST_DB_PORT=N          first port to try (default 3307)
#   CAIRN_TEST_DB_TIMEOUT=s       how long to wait for MariaDB to accept connections (default 60)
#   CAIRN_TEST_DB_FRESH=1         delete the MariaDB data directory first
#   CAIRN_TEST_REDIS_PORT=N       with --redis: first port to try (default 6390)
set -euo pipefail

REDIS=0
RUN=""
if [[ "${1:-}" == --run ]]; then
	RUN="${2:?--run needs a PHP script}"
	shift 2
fi
if [[ "${1:-}" == --redis ]]; then
	REDIS=1
	shift
	[[ $# -gt 0 ]] || set -- --group redis,proxy
fi

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DB_DIR="$ROOT/.cache/mariadb"
DATA="$DB_DIR/data"
SOCKET="$DB_DIR/mariadb.sock"
PIDFILE="$DB_DIR/mariadb.pid"
ERRLOG="$DB_DIR/mariadb.err"
TIMEOUT="${CAIRN_TEST_DB_TIMEOUT:-60}"
DB_NAME=cairn_tests
DB_USER=cairn_tests
DB_PASSWORD=cairn_tests

log() { printf '[test-php] %s\n' "$*" >&2; }
die() { printf '[test-php] ERROR: %s\n' "$*" >&2; exit 1; }

# --- Prerequisites --------------------------------------------------------------------------------
PACKAGES="php-cli php-mysql php-xml php-mbstring php-intl php-gd php-curl php-zip mariadb-server"
command -v php >/dev/null || die "php is not installed (Debian: apt-get install $PACKAGES)"
php -r 'exit( extension_loaded( "mysqli" ) ? 0 : 1 );' ||
	die "PHP has no mysqli extension (Debian: apt-get install php-mysql)"
# shellcheck source=bin/lib/mariadb.sh
. "$ROOT/bin/lib/mariadb.sh"
mariadb_find || die "$MARIADB_PROBLEM (Debian: apt-get install $PACKAGES)"
if [[ "$REDIS" == 1 ]]; then
	command -v redis-server >/dev/null || die "--redis needs redis-server (Debian: apt-get install redis-server php-redis)"
	php -r 'exit( extension_loaded( "redis" ) ? 0 : 1 );' || die "--redis needs PHP's redis extension (Debian: apt-get install php-redis)"
fi

[[ -f "$ROOT/vendor/bin/phpunit" ]] ||
	die "vendor/ is missing: run 'composer install' in $ROOT first"
[[ -f "$ROOT/build/blocks/map/block.json" ]] ||
	die "build/ is missing: run 'npm run build' first (the plugin idles without its built block)"

WP_CORE_DIR="$(bash "$ROOT/bin/wp-core.sh")" || die "bin/wp-core.sh could not provision WordPress core"
[[ -f "$WP_CORE_DIR/wp-settings.php" ]] || die "no WordPress core in '$WP_CORE_DIR'"

# --- MariaDB ---------------------------------------------------------------------------------------
mkdir -p "$DB_DIR"
# One run at a time per checkout: the data directory can only have one server.
exec 9>"$DB_DIR/lock"
if ! flock -n 9; then
	log "another bin/test-php.sh is using $DB_DIR; waiting up to ${TIMEOUT}s"
	flock -w "$TIMEOUT" 9 || die "$DB_DIR is still locked by another test run"
fi

mariadb_stop_stale "$PIDFILE" "$DATA"
if [[ "${CAIRN_TEST_DB_FRESH:-0}" == 1 ]]; then
	rm -rf "$DATA"
fi
mariadb_init "$DATA" "$DB_DIR"
PORT="$(free_port "${CAIRN_TEST_DB_PORT:-3307}")" ||
	die "no free port found from ${CAIRN_TEST_DB_PORT:-3307} on; set CAIRN_TEST_DB_PORT"

DB_PID=""
REDIS_PID=""
stop_redis() {
	if [[ -n "$REDIS_PID" ]] && kill -0 "$REDIS_PID" 2>/dev/null; then
		kill "$REDIS_PID" 2>/dev/null || true
		wait "$REDIS_PID" 2>/dev/null || true
	fi
	REDIS_PID=""
}
stop_db() {
	stop_redis
	DB_PID="${DB_PID:-${MARIADB_PID:-}}" # also a server that failed to come up
	if [[ -n "$DB_PID" ]] && kill -0 "$DB_PID" 2>/dev/null; then
		kill "$DB_PID" 2>/dev/null || true
		for _ in $(seq 1 150); do kill -0 "$DB_PID" 2>/dev/null || break; sleep 0.1; done
		if kill -0 "$DB_PID" 2>/dev/null; then
			log "MariaDB did not stop within 15 s; killing it"
			kill -9 "$DB_PID" 2>/dev/null || true
		fi
		wait "$DB_PID" 2>/dev/null || true
	fi
	DB_PID=""
	rm -f "$PIDFILE"
}
trap stop_db EXIT
trap 'exit 130' INT TERM

# Test-only settings on top of the library's: transient InnoDB statistics are refreshed as rows
# change, even inside a test's transaction, so queries over bulk-inserted test data get the plans
# they would get on a live site.
mariadb_start "$DATA" "$SOCKET" "$PIDFILE" "$ERRLOG" "$PORT" "$TIMEOUT" \
	--innodb-buffer-pool-size=256M --innodb-log-file-size=128M \
	--innodb-stats-persistent=0 --max-connections=50
DB_PID="$MARIADB_PID"
mariadb_create_db "$SOCKET" "$DB_NAME" "$DB_USER" "$DB_PASSWORD"

# --- Redis (with --redis) -----------------------------------------------------------------------
if [[ "$REDIS" == 1 ]]; then
	REDIS_PORT="$(free_port "${CAIRN_TEST_REDIS_PORT:-6390}")" || die "no free port for Redis from ${CAIRN_TEST_REDIS_PORT:-6390} on"
	# Nothing saved, nothing read from disk: every run starts from an empty cache.
	redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save '' --appendonly no --dir "$DB_DIR" \
		--logfile "$DB_DIR/redis.log" --daemonize no </dev/null >/dev/null 2>&1 9>&- &
	REDIS_PID=$!
	deadline=$((SECONDS + 20))
	until port_in_use "$REDIS_PORT"; do
		kill -0 "$REDIS_PID" 2>/dev/null || die "redis-server exited while starting (see $DB_DIR/redis.log)"
		((SECONDS < deadline)) || die "redis-server did not listen on $REDIS_PORT within 20 s"
		sleep 0.1
	done
	export CAIRN_TEST_REDIS="127.0.0.1:$REDIS_PORT"
	log "Redis object cache on 127.0.0.1:$REDIS_PORT (test drop-in tests/php/object-cache/object-cache.php)"
else
	unset CAIRN_TEST_REDIS
fi

# --- PHPUnit -------------------------------------------------------------------------------------
export CAIRN_TEST_DB_HOST="127.0.0.1:$PORT"
export CAIRN_TEST_DB_NAME="$DB_NAME"
export CAIRN_TEST_DB_USER="$DB_USER"
export CAIRN_TEST_DB_PASSWORD="$DB_PASSWORD"
export CAIRN_WP_CORE_DIR="$WP_CORE_DIR"

cd "$ROOT"
status=0
if [[ -n "$RUN" ]]; then
	php "$RUN" "$@" || status=$?
else
	php vendor/bin/phpunit "$@" || status=$?
fi
exit "$status"
