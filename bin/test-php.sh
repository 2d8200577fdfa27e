#!/usr/bin/env bash
# PHP integration tests against real WordPress and a private MariaDB (`npm run test:php`).
#
#   bash bin/test-php.sh [phpunit arguments…]      e.g. --filter Markers_Feed, --group http
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
set -euo pipefail

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
PACKAGES="php-cli php-mysql php-xml php-mbstring php-intl php-gd php-curl mariadb-server"
command -v php >/dev/null || die "php is not installed (Debian: apt-get install $PACKAGES)"
php -r 'exit( extension_loaded( "mysqli" ) ? 0 : 1 );' ||
	die "PHP has no mysqli extension (Debian: apt-get install php-mysql)"
MARIADBD="$(command -v mariadbd || true)"
[[ -n "$MARIADBD" ]] || MARIADBD="$(ls /usr/sbin/mariadbd /usr/sbin/mysqld 2>/dev/null | head -n 1 || true)"
[[ -n "$MARIADBD" && -x "$MARIADBD" ]] || die "mariadbd not found (Debian: apt-get install mariadb-server)"
INSTALL_DB="$(command -v mariadb-install-db || command -v mysql_install_db || true)"
[[ -n "$INSTALL_DB" ]] || die "mariadb-install-db not found (Debian: apt-get install mariadb-server)"
CLIENT="$(command -v mariadb || command -v mysql || true)"
[[ -n "$CLIENT" ]] || die "the mariadb client is not installed (Debian: apt-get install mariadb-client)"

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

USER_ARGS=()
if [[ "$(id -u)" == 0 ]]; then
	# mariadbd refuses to run as root unless told to; CI runs as root.
	USER_ARGS=(--user=root)
fi

# A server left over by a killed run (its pid file is still there): stop it first.
if [[ -f "$PIDFILE" ]]; then
	old_pid="$(cat "$PIDFILE" 2>/dev/null || true)"
	if [[ -n "$old_pid" ]] && kill -0 "$old_pid" 2>/dev/null &&
		grep -qa -- "$DATA" "/proc/$old_pid/cmdline" 2>/dev/null; then
		log "stopping a MariaDB left running by an earlier run (pid $old_pid)"
		kill "$old_pid" 2>/dev/null || true
		for _ in $(seq 1 100); do kill -0 "$old_pid" 2>/dev/null || break; sleep 0.1; done
	fi
	rm -f "$PIDFILE"
fi

if [[ "${CAIRN_TEST_DB_FRESH:-0}" == 1 ]]; then
	rm -rf "$DATA"
fi
if [[ ! -d "$DATA/mysql" ]]; then
	log "initialising a MariaDB data directory in $DATA"
	rm -rf "$DATA"
	"$INSTALL_DB" --no-defaults --datadir="$DATA" "${USER_ARGS[@]}" --auth-root-authentication-method=socket \
		--skip-test-db --skip-name-resolve >"$DB_DIR/install.log" 2>&1 ||
		{ tail -n 20 "$DB_DIR/install.log" >&2; die "mariadb-install-db failed (log: $DB_DIR/install.log)"; }
fi

port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
PORT="${CAIRN_TEST_DB_PORT:-3307}"
for _ in $(seq 1 50); do
	port_in_use "$PORT" || break
	PORT=$((PORT + 1))
done
port_in_use "$PORT" && die "no free port found from ${CAIRN_TEST_DB_PORT:-3307} on; set CAIRN_TEST_DB_PORT"

DB_PID=""
stop_db() {
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

: >"$ERRLOG"
# Test-only durability settings: nothing here must survive a crash, speed matters more.
# Transient InnoDB statistics are refreshed as rows change, even inside a test's transaction, so
# queries over bulk-inserted test data get the plans they would get on a live site.
"$MARIADBD" --no-defaults "${USER_ARGS[@]}" \
	--datadir="$DATA" --socket="$SOCKET" --pid-file="$PIDFILE" --log-error="$ERRLOG" \
	--bind-address=127.0.0.1 --port="$PORT" --skip-name-resolve --skip-log-bin \
	--character-set-server=utf8mb4 --collation-server=utf8mb4_unicode_ci \
	--innodb-buffer-pool-size=256M --innodb-log-file-size=128M \
	--innodb-flush-log-at-trx-commit=0 --innodb-doublewrite=0 --sync-binlog=0 \
	--innodb-stats-persistent=0 \
	--max-allowed-packet=64M --max-connections=50 \
	</dev/null >/dev/null 2>&1 &
DB_PID=$!

log "starting MariaDB on 127.0.0.1:$PORT (pid $DB_PID)"
deadline=$((SECONDS + TIMEOUT))
until "$CLIENT" --no-defaults --socket="$SOCKET" -uroot -e 'SELECT 1' >/dev/null 2>&1; do
	if ! kill -0 "$DB_PID" 2>/dev/null; then
		tail -n 30 "$ERRLOG" >&2 || true
		DB_PID=""
		die "MariaDB exited while starting (log: $ERRLOG)"
	fi
	((SECONDS < deadline)) || { tail -n 30 "$ERRLOG" >&2 || true; die "MariaDB was not ready within ${TIMEOUT}s (log: $ERRLOG)"; }
	sleep 0.2
done

"$CLIENT" --no-defaults --socket="$SOCKET" -uroot <<SQL || die "could not create the test database and user"
DROP DATABASE IF EXISTS \`$DB_NAME\`;
CREATE DATABASE \`$DB_NAME\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
CREATE USER IF NOT EXISTS '$DB_USER'@'127.0.0.1' IDENTIFIED BY '$DB_PASSWORD';
CREATE USER IF NOT EXISTS '$DB_USER'@'localhost' IDENTIFIED BY '$DB_PASSWORD';
GRANT ALL PRIVILEGES ON \`$DB_NAME\`.* TO '$DB_USER'@'127.0.0.1';
GRANT ALL PRIVILEGES ON \`$DB_NAME\`.* TO '$DB_USER'@'localhost';
SQL

# --- PHPUnit -------------------------------------------------------------------------------------
export CAIRN_TEST_DB_HOST="127.0.0.1:$PORT"
export CAIRN_TEST_DB_NAME="$DB_NAME"
export CAIRN_TEST_DB_USER="$DB_USER"
export CAIRN_TEST_DB_PASSWORD="$DB_PASSWORD"
export CAIRN_WP_CORE_DIR="$WP_CORE_DIR"

cd "$ROOT"
status=0
php vendor/bin/phpunit "$@" || status=$?
exit "$status"
