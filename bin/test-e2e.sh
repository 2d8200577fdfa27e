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
# The whole suite (no arguments, no site given) runs in CAIRN_E2E_SHARDS shards (default 2): one
# Playground site each, started side by side, and one Playwright process each on its share of the
# spec files, split by their recorded run times (tests/e2e/durations.json, bin/lib/e2e-split.mjs).
# A Playground site answers with one PHP worker, so most of a test's time is the site's; two
# sites keep both cores busy. Each shard's lines are prefixed with [e2e N]; its report is
# artifacts/e2e-N.json and its failures' traces are under artifacts/test-results-N.
#
# Environment: WP_BASE_URL, CAIRN_E2E_PORT (a free port), CAIRN_E2E_SHARDS, CHROMIUM_PATH
# (/usr/bin/chromium), CAIRN_E2E_TIMEOUT (seconds for each Playwright run, default 4200: a shard took
# ≈ 2,950 s in CI, and the old 3,000 s cap stopped both shards before they wrote a report). Playwright
# itself stops 120 s before that (its globalTimeout), so a shard out of time still writes its report
# and the summary says which tests did not run.
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
# Shards: the whole suite on a site of our own, unless told otherwise.
SHARDS="${CAIRN_E2E_SHARDS:-2}"
if [[ $# -gt 0 || -n "${CAIRN_E2E_PORT:-}" || -n "${WP_BASE_URL:-}" ]]; then
	SHARDS=1
fi
[[ "$SHARDS" =~ ^[1-8]$ ]] || { say "ERROR: CAIRN_E2E_SHARDS must be 1-8 (got $SHARDS)."; exit 1; }

# The demo world archive every site's set-up uploads: built once here, not by two set-ups at once.
node bin/build-basemap.mjs >/dev/null || { say "ERROR: could not build the demo world archive (npm run basemap)."; exit 1; }

PORTS=()
HOMES=()
URLS=()
STARTED=()
for ((i = 1; i <= SHARDS; i++)); do
	if [[ -n "${CAIRN_E2E_PORT:-}" ]]; then
		port="$CAIRN_E2E_PORT"
	elif [[ -n "${WP_BASE_URL:-}" ]]; then
		port="$(node -e 'const u = new URL( process.argv[ 1 ] ); console.log( u.port || ( u.protocol === "https:" ? 443 : 80 ) );' "$WP_BASE_URL")"
	else
		port="$(free_port)"
		while [[ " ${PORTS[*]} " == *" $port "* ]]; do port="$(free_port)"; done
	fi
	PORTS+=("$port")
	if [[ $i == 1 ]]; then HOMES+=("$ROOT/.cache/wp-env-e2e"); else HOMES+=("$ROOT/.cache/wp-env-e2e-$i"); fi
	if [[ $SHARDS == 1 && -n "${WP_BASE_URL:-}" ]]; then URLS+=("$WP_BASE_URL"); else URLS+=("http://localhost:$port"); fi
	STARTED+=(0)
done

answers() { curl -s -o /dev/null --connect-timeout 3 -m 60 "$1/"; }

stop_sites() {
	local code=$?
	for ((i = 0; i < SHARDS; i++)); do
		if [[ ${STARTED[$i]} == 1 ]]; then
			say "stopping the test site on port ${PORTS[$i]}"
			WP_ENV_HOME="${HOMES[$i]}" WP_ENV_PORT="${PORTS[$i]}" timeout -k 10 120 node bin/stop.mjs || say "WARNING: could not stop the test site on port ${PORTS[$i]}"
		fi
	done
	exit "$code"
}
trap stop_sites EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Start the sites side by side (each in its own wp-env work folder), then wait for all of them.
# Each start's output also goes to artifacts/site-N-start.log. A site that does not start is
# started once more on a new port, after the reason is printed where a CI log's tail shows it.
mkdir -p artifacts
start_site() { # index
	local i="$1"
	say "starting a test site on port ${PORTS[$i]} (no demo content)"
	STARTED[$i]=1
	WP_ENV_HOME="${HOMES[$i]}" WP_ENV_PORT="${PORTS[$i]}" CAIRN_SEED=none timeout -k 10 600 node bin/start.mjs 2>&1 |
		tee "artifacts/site-$((i + 1))-start.log" | sed -u "s/^/[site $((i + 1))] /" &
	start_pids[$i]=$!
}
why_not_started() { # index
	local i="$1" log
	say "the test site on port ${PORTS[$i]} did not start; the end of its output:"
	tail -n 15 "artifacts/site-$((i + 1))-start.log" | sed "s/^/[site $((i + 1))]   /" >&2
	log="$(find "${HOMES[$i]}" -maxdepth 2 -name playground.log 2>/dev/null | head -n 1)"
	if [[ -n "$log" ]]; then
		say "the end of its Playground server log ($log):"
		tail -n 15 "$log" | sed "s/^/[site $((i + 1))]   /" >&2
	fi
}
start_pids=()
for ((i = 0; i < SHARDS; i++)); do
	url="${URLS[$i]}"
	if answers "$url"; then
		say "reusing the site that answers at $url"
		start_pids[$i]=0
		continue
	fi
	if [[ "$url" != "http://localhost:${PORTS[$i]}" ]]; then
		say "ERROR: nothing answers at $url (and it is not the local test port ${PORTS[$i]}, so it is not started here)."
		exit 1
	fi
	start_site "$i"
done
for ((i = 0; i < SHARDS; i++)); do
	[[ ${start_pids[$i]} == 0 ]] && continue
	if ! wait "${start_pids[$i]}"; then
		why_not_started "$i"
		[[ -z "${CAIRN_E2E_PORT:-}" && -z "${WP_BASE_URL:-}" ]] || { say "ERROR: the test site on port ${PORTS[$i]} did not start (see above)."; exit 1; }
		WP_ENV_HOME="${HOMES[$i]}" WP_ENV_PORT="${PORTS[$i]}" timeout -k 10 120 node bin/stop.mjs >/dev/null 2>&1 || true
		port="$(free_port)"
		while [[ " ${PORTS[*]} " == *" $port "* ]]; do port="$(free_port)"; done
		PORTS[$i]="$port"
		URLS[$i]="http://localhost:$port"
		say "starting it once more, on port $port"
		start_site "$i"
		wait "${start_pids[$i]}" || { why_not_started "$i"; say "ERROR: the test site on port ${PORTS[$i]} did not start twice (see above)."; exit 1; }
	fi
	url="${URLS[$i]}"
	for _ in 1 2 3 4 5; do answers "$url" && break || sleep 3; done
	answers "$url" || { say "ERROR: the test site started but does not answer at $url."; exit 1; }
done

E2E_TIMEOUT="${CAIRN_E2E_TIMEOUT:-4200}"
[[ "$E2E_TIMEOUT" =~ ^[0-9]+$ && "$E2E_TIMEOUT" -ge 300 ]] || { say "ERROR: CAIRN_E2E_TIMEOUT must be whole seconds, 300 or more (got $E2E_TIMEOUT)."; exit 1; }
# playwright.config.ts reads it: Playwright stops in time to write its reports.
export CAIRN_E2E_GLOBAL_TIMEOUT_MS=$(((E2E_TIMEOUT - 120) * 1000))

if [[ $SHARDS == 1 ]]; then
	export WP_BASE_URL="${URLS[0]}"
	say "running playwright test $*"
	timeout -k 30 "$E2E_TIMEOUT" npx --no-install playwright test "$@"
	exit $?
fi

mapfile -t LISTS < <(node bin/lib/e2e-split.mjs "$SHARDS")
run_pids=()
for ((i = 0; i < SHARDS; i++)); do
	n=$((i + 1))
	# shellcheck disable=SC2086 # a list of spec paths, split on purpose
	(
		export WP_BASE_URL="${URLS[$i]}"
		export STORAGE_STATE_PATH="$ROOT/artifacts/storage-states-$n/admin.json"
		export CAIRN_E2E_OUTPUT="artifacts/test-results-$n"
		export CAIRN_E2E_REPORT="artifacts/playwright-report-$n"
		export PLAYWRIGHT_JSON_OUTPUT_NAME="$ROOT/artifacts/e2e-$n.json"
		timeout -k 30 "$E2E_TIMEOUT" npx --no-install playwright test ${LISTS[$i]} 2>&1 |
			sed -u "s/^/[e2e $n] /"
		exit "${PIPESTATUS[0]}"
	) &
	run_pids+=($!)
	say "shard $n on ${URLS[$i]}: ${LISTS[$i]}"
done
failed=0
for ((i = 0; i < SHARDS; i++)); do
	if ! wait "${run_pids[$i]}"; then failed=1; fi
done

say "summary (also in artifacts/e2e-summary.txt, which npm test prints again at its very end)"
: >artifacts/e2e-summary.txt
for ((i = 0; i < SHARDS; i++)); do
	n=$((i + 1))
	node -e '
		const r = JSON.parse( require( "fs" ).readFileSync( process.argv[ 1 ], "utf8" ) );
		const s = r.stats;
		console.log( `shard ${ process.argv[ 2 ] }: ${ s.expected } passed, ${ s.unexpected } failed, ${ s.flaky } flaky, ${ s.skipped } skipped in ${ Math.round( s.duration / 1000 ) } s` );
		// Out of time (globalTimeout): Playwright says so in the errors of the report.
		for ( const error of r.errors ?? [] ) {
			console.log( `  ERROR ${ String( error.message ?? error ).replace( /\u001b\[[0-9;]*m/g, "" ).split( "\n" )[ 0 ].slice( 0, 200 ) }` );
		}
		const walk = ( suite ) => {
			for ( const spec of suite.specs ?? [] ) for ( const t of spec.tests ?? [] )
				for ( const res of t.results ?? [] ) {
					files[ spec.file ] = ( files[ spec.file ] ?? 0 ) + ( res.duration ?? 0 );
					if ( t.status !== "unexpected" ) continue;
					// What failed, in the lines a CI log'"'"'s tail shows: the title, the time it took, and
					// the first lines of its error.
					console.log( `  FAILED ${ spec.file }:${ spec.line } ${ spec.title } (${ Math.round( ( res.duration ?? 0 ) / 1000 ) } s)` );
					const message = ( res.error?.message ?? res.errors?.[ 0 ]?.message ?? "" ).replace( /\u001b\[[0-9;]*m/g, "" );
					message.split( "\n" ).filter( ( line ) => line.trim() ).slice( 0, 6 ).forEach( ( line ) => console.log( `    ${ line.slice( 0, 200 ) }` ) );
				}
			( suite.suites ?? [] ).forEach( walk );
		};
		const files = {};
		( r.suites ?? [] ).forEach( walk );
		const slowest = Object.entries( files ).sort( ( a, b ) => b[ 1 ] - a[ 1 ] ).slice( 0, 8 );
		console.log( `  slowest: ${ slowest.map( ( [ f, ms ] ) => `${ f } ${ Math.round( ms / 1000 ) } s` ).join( ", " ) }` );' "$ROOT/artifacts/e2e-$n.json" "$n" 2>/dev/null | tee -a artifacts/e2e-summary.txt || say "shard $n wrote no report"
done
exit "$failed"
