#!/usr/bin/env bash
# Provision WordPress core (6.8.x) plus the Twenty Twenty-Five theme into .cache/wordpress.
#
# This is the single place that knows where WordPress core comes from:
#   1. the official release zip from wordpress.org (normal machines with internet), else
#   2. Debian 13 "trixie" packages from the Debian archive (offline fallback: the
#      `wordpress` package is 6.8.x there). The packages are downloaded with apt-get's own
#      source list and state directory under .cache, unpacked with dpkg -x (nothing is
#      installed, the system's apt configuration is untouched) and copied with symlinks
#      resolved, so the result is a self-contained tree.
#
# Idempotent: a marker file makes reruns instant. Prints the core path on stdout.
#
# Environment:
#   CAIRN_WP_VERSION     release to fetch from wordpress.org (default: the newest 6.8.x it lists)
#   CAIRN_WP_SOURCE      auto (default) | wordpress.org | debian
#   CAIRN_DEBIAN_MIRROR  Debian mirror URL (default: the first one in the machine's apt sources)
#   CAIRN_WP_FORCE=1     rebuild even if the marker says the cache is good
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CACHE="$ROOT/.cache"
DEST="$CACHE/wordpress"
MARKER="$DEST/.cairn-core"
WANT_SERIES="6.8"
WP_VERSION="${CAIRN_WP_VERSION:-}"
SOURCE="${CAIRN_WP_SOURCE:-auto}"

log() { printf '[wp-core] %s\n' "$*" >&2; }
die() { printf '[wp-core] ERROR: %s\n' "$*" >&2; exit 1; }
# shellcheck source=bin/lib/debian-archive.sh
. "$ROOT/bin/lib/debian-archive.sh"

core_version() {
	sed -n "s/^\$wp_version = '\([^']*\)';.*/\1/p" "$1/wp-includes/version.php" 2>/dev/null || true
}

# Checks a core tree: version 6.8.x, theme present, no symlinks left (dangling or not).
verify() {
	local dir="$1" version
	version="$(core_version "$dir")"
	[[ -n "$version" ]] || { log "no wp-includes/version.php in $dir"; return 1; }
	[[ "$version" == "$WANT_SERIES" || "$version" == "$WANT_SERIES".* ]] ||
		{ log "expected WordPress $WANT_SERIES.x, found $version"; return 1; }
	[[ -f "$dir/wp-content/themes/twentytwentyfive/style.css" ]] ||
		{ log "theme twentytwentyfive missing"; return 1; }
	[[ -f "$dir/wp-load.php" && -f "$dir/wp-admin/index.php" ]] || { log "core files missing"; return 1; }
	local links
	links="$(find "$dir" -type l | head -n 5)"
	[[ -z "$links" ]] || { log "symlinks left in the tree: $links"; return 1; }
	return 0
}

# A site that ran directly in this folder (e.g. a hand-run `wp-env start` with "core" pointing
# here) leaves wp-config.php, a database and mount points behind: the tree is no longer pristine.
# bin/start.mjs gives every site its own copy instead.
pristine() {
	local dir="$1" extra
	[[ ! -e "$dir/wp-config.php" && ! -e "$dir/wp-content/database" && ! -e "$dir/wp-content/db.php" ]] || return 1
	extra="$(find "$dir/wp-content/plugins" -mindepth 1 -maxdepth 1 ! -name akismet ! -name index.php | head -n 1)"
	[[ -z "$extra" ]]
}

# One provisioning at a time (npm start, the PHPUnit bootstrap and CI may all call this).
mkdir -p "$CACHE"
if command -v flock >/dev/null; then
	exec 9>"$CACHE/wp-core.lock"
	flock -w 900 9 || die "another bin/wp-core.sh has held $CACHE/wp-core.lock for 15 minutes"
fi

if [[ "${CAIRN_WP_FORCE:-0}" != 1 && -f "$MARKER" ]] && verify "$DEST" 2>/dev/null; then
	if pristine "$DEST"; then
		echo "$DEST"
		exit 0
	fi
	log "$DEST was used to run a site (wp-config.php, database or mount points found); rebuilding it"
fi

mkdir -p "$CACHE"
WORK="$(mktemp -d "$CACHE/wp-core-build.XXXXXX")"
cleanup() { rm -rf "$WORK"; }
trap cleanup EXIT

# --- Route 1: wordpress.org ------------------------------------------------------------------
from_wordpress_org() {
	if [[ -z "$WP_VERSION" ]]; then
		# stable-check lists every release; pick the newest of the series. One short try:
		# an unreachable wordpress.org must fail fast.
		WP_VERSION="$(curl -fsS --connect-timeout 5 -m 20 https://api.wordpress.org/core/stable-check/1.0/ 2>/dev/null |
			grep -oE "\"$WANT_SERIES(\.[0-9]+)?\"" | tr -d '"' | sort -V | tail -n 1 || true)"
		[[ -n "$WP_VERSION" ]] || { log "wordpress.org is not reachable"; return 1; }
	fi
	local url="https://wordpress.org/wordpress-$WP_VERSION.zip"
	log "trying $url"
	if ! curl -fsSL --connect-timeout 5 -m 120 -o "$WORK/wordpress.zip" "$url"; then
		log "wordpress.org is not reachable"
		return 1
	fi
	command -v unzip >/dev/null || die "unzip is needed to unpack the release zip (apt-get install unzip)"
	unzip -q "$WORK/wordpress.zip" -d "$WORK/zip" || return 1
	mv "$WORK/zip/wordpress" "$WORK/tree"
	# The release zip bundles twentytwentyfive since 6.7; nothing else to fetch.
	echo "wordpress.org $WP_VERSION" >"$WORK/source"
}

# --- Route 2: Debian trixie archive -------------------------------------------------------------
from_debian() {
	command -v apt-get >/dev/null && command -v dpkg >/dev/null ||
		die "neither wordpress.org nor apt-get/dpkg are available: cannot provision WordPress core"
	log "fetching Debian trixie packages"
	debian_download "$WORK/debs" wordpress wordpress-theme-twentytwentyfive libjs-lodash libjs-underscore libjs-cropper php-getid3
	local root="$WORK/root" deb
	mkdir -p "$root"
	for deb in "$WORK"/debs/*.deb; do
		dpkg -x "$deb" "$root"
	done
	local share="$root/usr/share/wordpress"
	[[ -d "$share/wp-includes" ]] || die "unexpected layout in the wordpress package: no usr/share/wordpress"
	# Debian's config files point into /etc/wordpress; the runtime supplies its own.
	rm -f "$share/wp-config.php" "$share/.htaccess"
	# Absolute symlinks point at the host (e.g. /usr/share/javascript/lodash/…): re-point them
	# into the unpacked root, and drop any that resolve nowhere, then copy with links resolved.
	local link target
	while IFS= read -r -d '' link; do
		target="$(readlink "$link")"
		if [[ "$target" == /* ]]; then
			if [[ -e "$root$target" ]]; then
				ln -sfn "$root$target" "$link"
			elif [[ -e "$target" ]]; then
				: # only on the host (e.g. the CA bundle): cp -L copies the host file
			else
				log "dropping dangling link ${link#"$root"} -> $target"
				rm -f "$link"
			fi
		fi
	done < <(find "$root" -type l -print0)
	# Resolve the whole tree: links may point at links.
	cp -rL "$share" "$WORK/tree"
	local version
	version="$(dpkg-deb -f "$WORK"/debs/wordpress_*.deb Version)"
	echo "debian trixie wordpress $version ($(debian_mirror))" >"$WORK/source"
}

case "$SOURCE" in
	wordpress.org) from_wordpress_org || die "could not download WordPress $WP_VERSION from wordpress.org" ;;
	debian) from_debian ;;
	auto) from_wordpress_org || { rm -rf "$WORK/zip" "$WORK/tree"; from_debian; } ;;
	*) die "CAIRN_WP_SOURCE must be auto, wordpress.org or debian (got '$SOURCE')" ;;
esac

# Dangling links that cp -L could not resolve would make cp fail above; check the rest.
verify "$WORK/tree" || die "the provisioned tree failed verification (see above); nothing was replaced"

{
	echo "version=$(core_version "$WORK/tree")"
	echo "source=$(cat "$WORK/source")"
	echo "date=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
} >"$WORK/tree/.cairn-core"

rm -rf "$DEST.old"
[[ -e "$DEST" ]] && mv "$DEST" "$DEST.old"
mv "$WORK/tree" "$DEST"
rm -rf "$DEST.old"
log "WordPress $(core_version "$DEST") ready ($(sed -n 's/^source=//p' "$MARKER"))"
echo "$DEST"
