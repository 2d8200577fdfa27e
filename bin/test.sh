#!/usr/bin/env bash
# npm test: every suite, offline. Lint and types, unit (jest), PHP integration (PHPUnit on
# MariaDB), end-to-end (Playwright on the Playground site), the Live Preview's blueprint. Each suite is timed; all of them run
# even when one fails, and the exit code says whether any failed.
set -uo pipefail
cd "$(dirname "$0")/.."

need() {
	command -v "$1" >/dev/null 2>&1 || { echo "npm test: '$1' is missing. $2" >&2; exit 2; }
}
need php "Install PHP 8.1+ (Debian: apt-get install php-cli)."
need composer "Install Composer."
[ -d node_modules ] || { echo "npm test: node_modules is missing. Run 'npm ci' first." >&2; exit 2; }
[ -d vendor ] || { echo "npm test: vendor/ is missing. Run 'composer install' first." >&2; exit 2; }

results=()
failed=0
suite() {
	local name=$1
	shift
	local start=$SECONDS
	echo
	echo "=== $name ==="
	if "$@"; then
		results+=("PASS  $name  ($((SECONDS - start)) s)")
	else
		results+=("FAIL  $name  ($((SECONDS - start)) s)")
		failed=$((failed + 1))
	fi
}

suite "build" npm run --silent build
suite "types (tsc)" npm run --silent typecheck
suite "lint js" npm run --silent lint:js
suite "lint css" npm run --silent lint:css
suite "lint php (phpcs)" npm run --silent lint:php
suite "static analysis (phpstan)" npm run --silent lint:phpstan
suite "translations (languages/cairn-maps.pot is current)" node bin/make-pot.mjs --check
suite "plugin check (wordpress.org's static checks on the release zip)" npm run --silent test:plugin-check
suite "cluster vectors (tests/fixtures/cluster-vectors.json is supercluster's current output)" node bin/cluster-vectors.mjs --check
suite "unit (jest)" npm run --silent test:unit
suite "php integration (phpunit, mariadb)" npm run --silent test:php
suite "php on the engines big sites run (redis object cache, nginx proxy_cache)" npm run --silent test:php:engines
rm -f artifacts/e2e-summary.txt
suite "end-to-end (playwright, chromium)" npm run --silent test:e2e
suite "live preview (the wordpress.org blueprint booted offline in playground)" npm run --silent test:live-preview

echo
echo "=== summary ==="
printf '%s\n' "${results[@]}"
passed=$(( ${#results[@]} - failed ))
echo "suites: $passed passed, $failed failed"
# The end-to-end shards' summary (what failed, and why; the slowest specs), last, where a CI
# log's tail shows it (bin/test-e2e.sh writes it).
if [[ -s artifacts/e2e-summary.txt ]]; then
	echo
	echo "=== end-to-end shards (artifacts/e2e-summary.txt) ==="
	cut -c1-400 artifacts/e2e-summary.txt | head -n 60
fi
[ "$failed" -eq 0 ]
