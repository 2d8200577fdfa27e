#!/usr/bin/env bash
# PHP lint: syntax of every PHP file, the layers of plugin/'s folders (bin/check-php-layers.php),
# then PHPCS with the WordPress standard.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x vendor/bin/phpcs ]; then
	echo "lint:php: vendor/bin/phpcs is missing. Run 'composer install' first." >&2
	exit 1
fi
git ls-files -co --exclude-standard -- '*.php' | grep -vE '^(vendor|node_modules|build)/' | while read -r file; do
	php -l "$file" >/dev/null || { echo "lint:php: syntax error in $file" >&2; exit 1; }
done
php bin/check-php-layers.php
vendor/bin/phpcs -q --report=summary --report-full
