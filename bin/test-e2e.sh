#!/usr/bin/env bash
# npm run test:e2e [-- playwright args]
#
# Runs the Playwright suite against a WordPress site:
# - if WP_BASE_URL is set, or CAIRN_E2E_PORT is and a site already answers on it, that site is
#   reused as is (tests must then tolerate whatever content it holds);
# - otherwise a test site is started with no demo content on CAIRN_E2E_PORT or, without it, on a
#   free port the system picks (so runs never collide on a fixed port), in its own wp-env work
#   folder (WP_ENV_HOME=.cache/wp-env-e2e), beside the `npm start` site on 8888, and it is
#   stopped again when the run ends, however it ends. Playwright reads its address from
#   WP_BASE_URL, which this script exports.
# Arguments go to `playwright test` unchanged (e.g. `npm run test:e2e -- tests/e2e/smoke.spec.ts`).
#
# Environment: WP_BASE_URL, CAIRN_E2E_PORT (a free port), CHROMIUM_PATH (/usr/bin/chromium),
# CAIRN_E2E_TIMEOUT (seconds for the whole Playwright run, default 3600: the whole suite takes about 35 min on this 2-core machine).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

say() { printf '[test-e2e] %s\n' "$*" >&2; }

# One run at a time on this machine: a second run would reuse the first one's site and lose it
# when the first run stops it.
if [[ -z "${CAIRN_E2E_LOCKED:-}" ]]; then
	mkdir -p .cache
	say "waiting for other e2e runs to finish (lock .cache/e2e.lock)"
	exec env CAIRN_E2E_LOCKED=1 flock -w 3600 .cache/e2e.lock "$0" "$@"
fi

CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [[ ! -x "$CHROMIUM" ]]; then
	say "ERROR: no Chromium at $CHROMIUM. Install Debian's (apt-get install chromium) or set CHROMIUM_PATH."
	say "(npx playwright install cannot download browsers on this network.)"
	exit 1
fi
[[ -d node_modules/@playwright/test ]] || { say "ERROR: run npm install first."; exit 1; }

# The release zip tests/e2e/release.spec.ts installs (builds first when build/ is stale).
say "making cairn-maps.zip (npm run plugin-zip)"
node bin/plugin-zip.mjs || { say "ERROR: could not make cairn-maps.zip (see above)."; exit 1; }

# A free port on 127.0.0.1 below the system's ephemeral range (32768 and up, where the run's own
# outgoing connections take their local ports and could take the site's before it binds it).
free_port() {
	node -e '
		const net = require( "net" );
		const tryPort = ( left ) => {
			const port = 20000 + Math.floor( Math.random() * 12000 );
			const s = net.createServer();
			s.once( "error", () => ( left > 0 ? tryPort( left - 1 ) : process.exit( 1 ) ) );
			s.listen( { port, host: "127.0.0.1", exclusive: true }, () => s.close( () => console.log( port ) ) );
		};
		tryPort( 100 );'
}
if [[ -n "${CAIRN_E2E_PORT:-}" ]]; then
	PORT="$CAIRN_E2E_PORT"
elif [[ -n "${WP_BASE_URL:-}" ]]; then
	PORT="$(node -e 'const u = new URL( process.argv[ 1 ] ); console.log( u.port || ( u.protocol === "https:" ? 443 : 80 ) );' "$WP_BASE_URL")"
else
	PORT="$(free_port)"
fi
export WP_BASE_URL="${WP_BASE_URL:-http://localhost:$PORT}"
SITE_HOME="$ROOT/.cache/wp-env-e2e"

answers() { curl -s -o /dev/null --connect-timeout 3 -m 60 "$WP_BASE_URL/"; }

STARTED=0
stop_site() {
	local code=$?
	if [[ $STARTED == 1 ]]; then
		say "stopping the test site on port $PORT"
		WP_ENV_HOME="$SITE_HOME" WP_ENV_PORT="$PORT" timeout -k 10 120 node bin/stop.mjs || say "WARNING: could not stop the test site"
	fi
	exit "$code"
}
trap stop_site EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

if answers; then
	say "reusing the site that answers at $WP_BASE_URL"
else
	if [[ "$WP_BASE_URL" != "http://localhost:$PORT" ]]; then
		say "ERROR: nothing answers at $WP_BASE_URL (and it is not the local test port $PORT, so it is not started here)."
		exit 1
	fi
	say "starting a test site on port $PORT (no demo content)"
	STARTED=1
	WP_ENV_HOME="$SITE_HOME" WP_ENV_PORT="$PORT" CAIRN_SEED=none timeout -k 10 600 node bin/start.mjs ||
		{ say "ERROR: the test site did not start (see above)."; exit 1; }
	for _ in 1 2 3 4 5; do answers && break || sleep 3; done
	answers || { say "ERROR: the test site started but does not answer at $WP_BASE_URL."; exit 1; }
fi

say "running playwright test $*"
timeout -k 30 "${CAIRN_E2E_TIMEOUT:-3600}" npx --no-install playwright test "$@"
