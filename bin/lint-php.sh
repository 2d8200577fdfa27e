#!/usr/bin/env bash
# PHP lint: syntax of every PHP file, the layers of plugin/'s folders (bin/check-php-layers.php),
# then PHPCS with the WordPress standard.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x vendor/bin/phpcs ]; then
	echo "lint:php: vendor/bin/phpcs is missing. Run 'composer install' first." >&2
	exit 1
fi
# Syntax first, two files at a time (php -l takes one file); a file that does not parse is named.
git ls-files -co --exclude-standard -z -- '*.php' | grep -zvE '^(vendor|node_modules|build)/' |
	xargs -0 -P 2 -n 1 sh -c 'php -l "$1" >/dev/null 2>&1 || { echo "lint:php: syntax error in $1" >&2; php -l "$1" >&2; exit 255; }' php-l ||
	exit 1
php bin/check-php-layers.php
# Both cores: phpcs checks files in two processes.
vendor/bin/phpcs -q --parallel=2 --report=summary --report-full
