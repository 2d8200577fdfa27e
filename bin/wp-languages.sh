#!/usr/bin/env bash
# WordPress core's translations (admin, front end, continents and cities) for test sites that run
# in another language: prints a folder laid out like wp-content/languages (de_DE.mo,
# admin-de_DE.mo, …) on stdout.
#
# Source: Debian's `wordpress-l10n` package of the same suite bin/wp-core.sh takes core from
# (trixie: WordPress 6.8, so the strings match core), downloaded and unpacked into
# .cache/wordpress-l10n with apt-get's own source list and state (nothing is installed, the
# system's apt configuration is untouched) — the route bin/wp-core.sh takes for core itself.
# The package puts the files in usr/share/wordpress/wp-content/languages/. Idempotent: reruns
# print the cached folder at once.
#
# Environment: CAIRN_DEBIAN_MIRROR (default: the first one in the machine's apt sources).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE="$ROOT/.cache"
DEST="$CACHE/wordpress-l10n"
LANGUAGES="$DEST/usr/share/wordpress/wp-content/languages"

log() { printf '[wp-languages] %s\n' "$*" >&2; }
die() { printf '[wp-languages] ERROR: %s\n' "$*" >&2; exit 1; }
# shellcheck source=bin/lib/debian-archive.sh
. "$ROOT/bin/lib/debian-archive.sh"

mkdir -p "$CACHE"
exec 9>"$CACHE/wp-languages.lock"
flock -w 600 9 || die "another bin/wp-languages.sh holds $CACHE/wp-languages.lock"

if [[ -f "$DEST/.complete" && -d "$LANGUAGES" ]]; then
	echo "$LANGUAGES"
	exit 0
fi

work="$(mktemp -d "$CACHE/wp-languages.XXXXXX")"
trap 'rm -rf "$work"' EXIT
log "downloading wordpress-l10n (Debian trixie)"
debian_download "$work" wordpress-l10n
rm -rf "$DEST"
mkdir -p "$DEST"
dpkg -x "$work"/wordpress-l10n_*.deb "$DEST"
[[ -f "$LANGUAGES/de_DE.mo" ]] || die "unexpected layout in wordpress-l10n: no $LANGUAGES/de_DE.mo"
dpkg-deb -f "$work"/wordpress-l10n_*.deb Version >"$DEST/.complete"
log "core translations $(cat "$DEST/.complete") in $LANGUAGES"
echo "$LANGUAGES"
