#!/usr/bin/env bash
# Makes tests/fixtures/releases/cairn-maps-<version>.zip: the zip of the previous release, which
# tests/e2e/release.spec.ts installs and then upgrades with the current cairn-maps.zip.
#
# The fixture is committed (a fresh clone and CI never rebuild an old checkout); run this only to
# make it again, or for another release:
#   bash bin/build-previous-release.sh [commit] [version]     (default: 7a4d14f, 0.1.0)
#
# How: a git worktree of that commit in .cache/release-<version>, `npm ci` there (falling back to
# `npm install` as .ci/run does), `npm run build`, then the SAME packaging rules as
# `npm run plugin-zip` (bin/plugin-zip.mjs of this checkout, --source=the worktree). The worktree
# (with its own 1.6 GB node_modules, which tools walking .cache would meet) is removed afterwards;
# CAIRN_KEEP_WORKTREE=1 keeps it for a quicker rerun.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

COMMIT="${1:-7a4d14f}"
VERSION="${2:-0.1.0}"
WORKTREE="$ROOT/.cache/release-$VERSION"
OUT="$ROOT/tests/fixtures/releases/cairn-maps-$VERSION.zip"

say() { printf '[previous-release] %s\n' "$*" >&2; }

git rev-parse --verify --quiet "$COMMIT^{commit}" >/dev/null || { say "ERROR: no commit $COMMIT here"; exit 1; }
mkdir -p "$ROOT/.cache"

if [[ -d "$WORKTREE" ]] && [[ "$(git -C "$WORKTREE" rev-parse HEAD 2>/dev/null)" == "$(git rev-parse "$COMMIT^{commit}")" ]]; then
	say "reusing the worktree $WORKTREE"
else
	[[ -e "$WORKTREE" ]] && git worktree remove --force "$WORKTREE" 2>/dev/null || rm -rf "$WORKTREE"
	git worktree prune
	say "checking out $COMMIT into $WORKTREE"
	git worktree add --detach "$WORKTREE" "$COMMIT" >&2
fi

header="$(sed -n 's/^ \* Version: *//p' "$WORKTREE/cairn-maps.php" | head -n 1)"
[[ "$header" == "$VERSION" ]] || { say "ERROR: $COMMIT's cairn-maps.php says version '$header', not $VERSION"; exit 1; }

cd "$WORKTREE"
if [[ ! -d node_modules/@wordpress/scripts ]]; then
	say "npm ci (the lock file of $COMMIT)"
	if ! npm ci --no-audit --no-fund >&2; then
		say "npm ci refused the lock file; falling back to npm install"
		npm install --no-audit --no-fund >&2
	fi
fi
say "npm run build"
# The same lock as every build here: one webpack at a time on this machine.
flock -w 1800 "$ROOT/.cache/build.lock" npm run build >&2

cd "$ROOT"
CAIRN_BUILD_LOCK_HELD=1 node bin/plugin-zip.mjs --source="$WORKTREE" --out="$OUT" --no-build

if [[ "${CAIRN_KEEP_WORKTREE:-0}" != 1 ]]; then
	git worktree remove --force "$WORKTREE"
	say "removed the worktree $WORKTREE"
fi
