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

mkdir -p "$CACHE"
exec 9>"$CACHE/wp-languages.lock"
flock -w 600 9 || die "another bin/wp-languages.sh holds $CACHE/wp-languages.lock"

if [[ -f "$DEST/.complete" && -d "$LANGUAGES" ]]; then
	echo "$LANGUAGES"
	exit 0
fi

command -v apt-get >/dev/null && command -v dpkg >/dev/null ||
	die "apt-get and dpkg are needed to fetch Debian's wordpress-l10n"
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
[[ -f "$keyring" ]] || die "$keyring missing (apt-get install debian-archive-keyring)"

mirror="${CAIRN_DEBIAN_MIRROR:-}"
if [[ -z "$mirror" ]]; then
	mirror="$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null | sed -n 's/^URIs:[[:space:]]*//p' |
		tr ' ' '\n' | grep -v -- '-security' | grep -E '^https?://' | head -n 1 || true)"
fi
if [[ -z "$mirror" ]]; then
	mirror="$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
		sed -n 's/^deb[[:space:]]\+\(\[[^]]*\][[:space:]]\+\)\?\(https\?:[^[:space:]]*\).*/\2/p' |
		grep -v -- '-security' | head -n 1 || true)"
fi
mirror="$(echo "${mirror:-http://deb.debian.org/debian}" | sed 's:/*$::')"

# The same private apt state as bin/wp-core.sh (.cache/apt), so its package lists are reused.
apt="$CACHE/apt"
mkdir -p "$apt/lists/partial" "$apt/archives/partial" "$apt/cache"
[[ -f "$apt/sources.list" ]] || echo "deb [signed-by=$keyring] $mirror trixie main" >"$apt/sources.list"
opts=(
	-o "Dir::Etc::SourceList=$apt/sources.list"
	-o "Dir::Etc::SourceParts=/dev/null"
	-o "Dir::State::Lists=$apt/lists"
	-o "Dir::Cache=$apt/cache"
	-o "Dir::Cache::Archives=$apt/archives"
	-o "Dir::Cache::pkgcache="
	-o "Dir::Cache::srcpkgcache="
	-o "APT::Sandbox::User=root"
	-o "Acquire::Languages=none"
	-o "Acquire::http::Timeout=20"
	-o "Acquire::Retries=1"
	-o "Debug::NoLocking=1"
)
if [[ -z "$(find "$apt/lists" -maxdepth 1 -name '*trixie*Packages*' -mmin -1440 2>/dev/null | head -n 1)" ]]; then
	log "reading the Debian archive at $mirror (trixie)"
	timeout 300 apt-get "${opts[@]}" -qq update >&2 || true
	[[ -n "$(find "$apt/lists" -maxdepth 1 -name '*trixie*Packages*' 2>/dev/null | head -n 1)" ]] ||
		die "could not read the Debian archive at $mirror (suite trixie); set CAIRN_DEBIAN_MIRROR"
fi

work="$(mktemp -d "$CACHE/wp-languages.XXXXXX")"
trap 'rm -rf "$work"' EXIT
log "downloading wordpress-l10n (Debian trixie)"
(cd "$work" && timeout 300 apt-get "${opts[@]}" -qq download wordpress-l10n >&2) ||
	die "apt-get download wordpress-l10n failed"
rm -rf "$DEST"
mkdir -p "$DEST"
dpkg -x "$work"/wordpress-l10n_*.deb "$DEST"
[[ -f "$LANGUAGES/de_DE.mo" ]] || die "unexpected layout in wordpress-l10n: no $LANGUAGES/de_DE.mo"
dpkg-deb -f "$work"/wordpress-l10n_*.deb Version >"$DEST/.complete"
log "core translations $(cat "$DEST/.complete") in $LANGUAGES"
echo "$LANGUAGES"
