#!/usr/bin/env bash
# WordPress.org's Plugin Check (`wp plugin check`) against the release zip; prints the report.
#
#   bash bin/plugin-check.sh [wp plugin check options…]    e.g. --checks=late_escaping --format=json
#
# Not part of `npm test`: it needs Plugin Check, which no registry these machines reach holds
# (Packagist, npm, Debian). `npm test` runs its static part instead (`npm run test:plugin-check`,
# bin/plugin-check-static.mjs). Everything this script makes lives in .cache/plugin-check/ (ignored):
# 1. the release zip: CAIRN_PLUGIN_ZIP, else `npm run plugin-zip` into .cache/plugin-check/, unzipped
#    as site/wp-content/plugins/cairn-maps (what a site owner uploads, not the checkout);
# 2. a site: WordPress core from bin/wp-core.sh copied to .cache/plugin-check/site (Plugin Check
#    writes an object-cache.php drop-in into wp-content, and core's shared tree stays pristine);
# 3. Plugin Check: PLUGIN_CHECK_DIR (a plugin-check plugin folder with its vendor/), else
#    .cache/plugin-check/plugin-check if it holds one, else the release zip from wordpress.org;
# 4. WP-CLI: WP_CLI, else .cache/plugin-check/wp-cli/vendor/bin/wp, else `wp` on the PATH, else
#    `composer require wp-cli/wp-cli` into .cache/plugin-check/wp-cli (only `wp plugin check` is used);
# 5. a private MariaDB (bin/lib/mariadb.sh; data in .cache/plugin-check/mariadb, stopped at exit),
#    WordPress installed afresh, Plugin Check and Cairn Maps active (runtime checks need both);
# 6. `wp plugin check cairn-maps` with Plugin Check's cli.php required early, so the runtime checks
#    run too, and experimental checks included. Exits 1 when the report has an ERROR.
#
# Environment: CAIRN_PLUGIN_ZIP, PLUGIN_CHECK_DIR, PLUGIN_CHECK_ZIP_URL, WP_CLI,
#   CAIRN_PLUGIN_CHECK_DB_PORT (first port to try, default 3340).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WORK="$ROOT/.cache/plugin-check"
SITE="$WORK/site"
SLUG=cairn-maps
DB_DIR="$WORK/mariadb"
DB_NAME=plugin_check
DB_USER=plugin_check
DB_PASSWORD=plugin_check

log() { printf '[plugin-check] %s\n' "$*" >&2; }
die() { printf '[plugin-check] ERROR: %s\n' "$*" >&2; exit 1; }

mkdir -p "$WORK"
exec 8>"$WORK/lock"
flock -n 8 || die "another bin/plugin-check.sh is running in this checkout"

# --- 1. The release zip ----------------------------------------------------------------------------
ZIP="${CAIRN_PLUGIN_ZIP:-}"
if [[ -z "$ZIP" ]]; then
	ZIP="$WORK/$SLUG.zip"
	(cd "$ROOT" && npm run --silent plugin-zip -- --out="$ZIP") >&2 || die "npm run plugin-zip failed"
fi
[[ -f "$ZIP" ]] || die "no zip at $ZIP"

# --- 2. The site -----------------------------------------------------------------------------------
CORE="$(bash "$ROOT/bin/wp-core.sh")" || die "bin/wp-core.sh could not provision WordPress core"
if [[ ! -f "$SITE/wp-settings.php" ]] || ! cmp -s "$CORE/wp-includes/version.php" "$SITE/wp-includes/version.php"; then
	log "copying WordPress core to $SITE"
	rm -rf "$SITE"
	cp -r "$CORE" "$SITE"
	rm -f "$SITE/.cairn-core"
fi
rm -f "$SITE/wp-content/object-cache.php" # a drop-in an interrupted run left behind
rm -rf "${SITE:?}/wp-content/plugins/$SLUG"
unzip -q "$ZIP" -d "$SITE/wp-content/plugins"
[[ -f "$SITE/wp-content/plugins/$SLUG/$SLUG.php" ]] || die "$ZIP has no $SLUG/$SLUG.php"

# --- 3. Plugin Check -------------------------------------------------------------------------------
PC_DIR="${PLUGIN_CHECK_DIR:-$WORK/plugin-check}"
if [[ ! -f "$PC_DIR/vendor/autoload.php" ]]; then
	[[ -z "${PLUGIN_CHECK_DIR:-}" ]] || die "PLUGIN_CHECK_DIR=$PLUGIN_CHECK_DIR has no vendor/autoload.php"
	url="${PLUGIN_CHECK_ZIP_URL:-https://downloads.wordpress.org/plugin/plugin-check.latest-stable.zip}"
	log "downloading Plugin Check from $url"
	curl -fsSL --connect-timeout 5 -m 120 -o "$WORK/plugin-check.zip" "$url" ||
		die "could not download Plugin Check; set PLUGIN_CHECK_DIR to a plugin-check folder that has its vendor/"
	rm -rf "$WORK/plugin-check"
	unzip -q "$WORK/plugin-check.zip" -d "$WORK"
	PC_DIR="$WORK/plugin-check"
fi
rm -rf "$SITE/wp-content/plugins/plugin-check"
cp -r "$PC_DIR" "$SITE/wp-content/plugins/plugin-check"

# --- 4. WP-CLI -------------------------------------------------------------------------------------
WP="${WP_CLI:-}"
if [[ -z "$WP" && -x "$WORK/wp-cli/vendor/bin/wp" ]]; then
	WP="$WORK/wp-cli/vendor/bin/wp"
elif [[ -z "$WP" ]] && command -v wp >/dev/null; then
	WP="$(command -v wp)"
elif [[ -z "$WP" ]]; then
	log "installing WP-CLI into $WORK/wp-cli"
	mkdir -p "$WORK/wp-cli"
	(cd "$WORK/wp-cli" && composer require --no-interaction wp-cli/wp-cli:^2.11) >&2 ||
		die "could not install WP-CLI with Composer; set WP_CLI to a wp executable"
	WP="$WORK/wp-cli/vendor/bin/wp"
fi
# CI and these machines run as root; WP-CLI refuses that unless told.
WP_ARGS=()
[[ "$(id -u)" == 0 ]] && WP_ARGS=(--allow-root)
"$WP" "${WP_ARGS[@]}" --version >/dev/null 2>&1 || die "WP-CLI at $WP does not run"
# Global flags go last: Plugin Check's drop-in looks for `plugin check` as the first two arguments.
wp() { "$WP" "$@" "${WP_ARGS[@]}" --path="$SITE"; }

# --- 5. Database and install -----------------------------------------------------------------------
# shellcheck source=bin/lib/mariadb.sh
. "$ROOT/bin/lib/mariadb.sh"
mariadb_find || die "$MARIADB_PROBLEM (Debian: apt-get install mariadb-server php-mysql)"
mkdir -p "$DB_DIR"
mariadb_stop_stale "$DB_DIR/mariadb.pid" "$DB_DIR/data"
mariadb_init "$DB_DIR/data" "$DB_DIR"
PORT="$(free_port "${CAIRN_PLUGIN_CHECK_DB_PORT:-3340}")" || die "no free port for MariaDB"
stop_db() {
	local pid="${MARIADB_PID:-}"
	rm -f "$SITE/wp-content/object-cache.php"
	if [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null; then
		kill "$pid" 2>/dev/null || true
		for _ in $(seq 1 150); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
		kill -9 "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	fi
	rm -f "$DB_DIR/mariadb.pid"
}
trap stop_db EXIT
trap 'exit 130' INT TERM
mariadb_start "$DB_DIR/data" "$DB_DIR/mariadb.sock" "$DB_DIR/mariadb.pid" "$DB_DIR/mariadb.err" "$PORT" 60
mariadb_create_db "$DB_DIR/mariadb.sock" "$DB_NAME" "$DB_USER" "$DB_PASSWORD"

cat >"$SITE/wp-config.php" <<PHP
<?php
// Generated by bin/plugin-check.sh. Do not edit.
define( 'DB_NAME', '$DB_NAME' );
define( 'DB_USER', '$DB_USER' );
define( 'DB_PASSWORD', '$DB_PASSWORD' );
define( 'DB_HOST', '127.0.0.1:$PORT' );
define( 'DB_CHARSET', 'utf8mb4' );
define( 'DB_COLLATE', '' );
foreach ( array( 'AUTH', 'SECURE_AUTH', 'LOGGED_IN', 'NONCE' ) as \$scheme ) {
	define( \$scheme . '_KEY', 'plugin-check-' . \$scheme );
	define( \$scheme . '_SALT', 'plugin-check-' . \$scheme );
}
define( 'WP_DEBUG', true );
define( 'WP_DEBUG_DISPLAY', false );
define( 'WP_DEBUG_LOG', '$WORK/debug.log' );
define( 'WP_HOME', 'http://example.org' );
define( 'WP_SITEURL', 'http://example.org' );
define( 'WP_ENVIRONMENT_TYPE', 'local' );
define( 'DISABLE_WP_CRON', true );
define( 'WP_HTTP_BLOCK_EXTERNAL', true );
define( 'AUTOMATIC_UPDATER_DISABLED', true );
\$table_prefix = 'wp_';
if ( ! defined( 'ABSPATH' ) ) {
	define( 'ABSPATH', __DIR__ . '/' );
}
require_once ABSPATH . 'wp-settings.php';
PHP

# WP-CLI's core command is not needed: install as core's own test suite does.
cat >"$WORK/install.php" <<'PHP'
<?php
define( 'WP_INSTALLING', true );
$_SERVER['HTTP_HOST'] = 'example.org';
$_SERVER['SERVER_NAME'] = 'example.org';
$_SERVER['REQUEST_URI'] = '/';
function wp_new_blog_notification() {}
require $argv[1] . '/wp-load.php';
require_once ABSPATH . 'wp-admin/includes/upgrade.php';
require_once ABSPATH . 'wp-admin/includes/plugin.php';
$result = wp_install( 'Plugin Check', 'admin', 'admin@example.org', false, '', 'password' );
if ( empty( $result['user_id'] ) ) {
	fwrite( STDERR, "wp_install() did not create the admin user\n" );
	exit( 1 );
}
// The checked plugin must be active too: Plugin Check runs its runtime checks only then.
foreach ( array( 'plugin-check/plugin.php', 'cairn-maps/cairn-maps.php' ) as $plugin ) {
	$activated = activate_plugin( $plugin );
	if ( is_wp_error( $activated ) ) {
		fwrite( STDERR, "Activating $plugin failed: " . $activated->get_error_message() . "\n" );
		exit( 1 );
	}
}
PHP
php "$WORK/install.php" "$SITE" >&2 || die "installing WordPress failed"
: >"$WORK/debug.log"

# --- 6. Plugin Check -------------------------------------------------------------------------------
log "Plugin Check $(sed -n 's/^ \* Version: *//p' "$SITE/wp-content/plugins/plugin-check/plugin.php"), $("$WP" "${WP_ARGS[@]}" --version), WordPress $(sed -n "s/^\$wp_version = '\([^']*\)';.*/\1/p" "$SITE/wp-includes/version.php")"
status=0
out="$(wp plugin check "$SLUG" --require="$SITE/wp-content/plugins/plugin-check/cli.php" \
	--include-experimental "$@" 2>&1)" || status=$?
printf '%s\n' "$out"
if [[ -s "$WORK/debug.log" ]]; then
	log "PHP notices while checking ($WORK/debug.log):"
	cat "$WORK/debug.log" >&2
fi
((status == 0)) || exit "$status"
if grep -qE '(^|[[:space:],|"])ERROR([[:space:],|"]|$)' <<<"$out"; then
	exit 1
fi
