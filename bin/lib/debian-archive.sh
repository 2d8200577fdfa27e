# shellcheck shell=bash
# Packages from Debian's trixie archive without installing them: sourced by bin/wp-core.sh (core)
# and bin/wp-languages.sh (core's translations). apt-get runs with a private state in
# $CACHE/apt (its own sources list, lists and archives; the system's apt configuration is never
# touched), so both scripts share one download of the package lists. The caller defines CACHE,
# log() and die().

# The Debian mirror: CAIRN_DEBIAN_MIRROR, else the machine's first non-security apt source
# (deb822 `URIs:` lines first, then one-line sources), else deb.debian.org.
debian_mirror() {
	if [[ -n "${CAIRN_DEBIAN_MIRROR:-}" ]]; then
		echo "${CAIRN_DEBIAN_MIRROR%/}"
		return
	fi
	local uri
	uri="$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null | sed -n 's/^URIs:[[:space:]]*//p' |
		tr ' ' '\n' | grep -v -- '-security' | grep -E '^https?://' | head -n 1 || true)"
	if [[ -z "$uri" ]]; then
		uri="$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
			sed -n 's/^deb[[:space:]]\+\(\[[^]]*\][[:space:]]\+\)\?\(https\?:[^[:space:]]*\).*/\2/p' |
			grep -v -- '-security' | head -n 1 || true)"
	fi
	echo "${uri:-http://deb.debian.org/debian}" | sed 's:/*$::'
}

# debian_download DIR PACKAGE… — downloads the packages' .deb files (trixie) into DIR.
debian_download() {
	local dir=$1
	shift
	command -v apt-get >/dev/null && command -v dpkg >/dev/null ||
		die "apt-get and dpkg are needed to fetch $* from Debian"
	local keyring=/usr/share/keyrings/debian-archive-keyring.gpg
	[[ -f "$keyring" ]] || die "$keyring missing (apt-get install debian-archive-keyring)"
	local mirror apt="$CACHE/apt"
	mirror="$(debian_mirror)"
	mkdir -p "$apt/lists/partial" "$apt/archives/partial" "$apt/cache" "$dir"
	echo "deb [signed-by=$keyring] $mirror trixie main" >"$apt/sources.list"
	local opts=(
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
	# Lists older than a day are refreshed; otherwise reused (fast reruns after a failure).
	if [[ -z "$(find "$apt/lists" -maxdepth 1 -name '*trixie*Packages*' -mmin -1440 2>/dev/null | head -n 1)" ]]; then
		log "reading the Debian archive at $mirror (trixie)"
		timeout 300 apt-get "${opts[@]}" -qq update >&2 || true
		# apt-get update only warns when the archive is unreachable: check for the index itself.
		[[ -n "$(find "$apt/lists" -maxdepth 1 -name '*trixie*Packages*' 2>/dev/null | head -n 1)" ]] ||
			die "could not read the Debian archive at $mirror (suite trixie). Check network access, or set CAIRN_DEBIAN_MIRROR."
	fi
	(cd "$dir" && timeout 300 apt-get "${opts[@]}" -qq download "$@" >&2) ||
		die "apt-get download $* failed"
}
