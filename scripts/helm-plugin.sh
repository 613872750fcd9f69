#!/bin/sh
# The command of the Helm plugin (plugin.yaml, at the repository's root):
# `helm catalogist ARGS` runs `catalogist ARGS`. The catalogist it runs is
# the one on PATH when that was built from the plugin's sources, else
# bin/catalogist in the plugin's directory, built with go when missing or
# built from another revision. Helm's install and update hooks call it with
# --plugin-hook alone, to build ahead of the first use.
set -eu

dir=${HELM_PLUGIN_DIR:-$(CDPATH='' cd -- "$(dirname -- "$0")/.." && pwd)}
bin=$dir/bin/catalogist

# What the plugin's sources are: their git revision, or outside a git
# checkout (an unpacked archive), the version plugin.yaml declares.
rev=$(git -C "$dir" rev-parse HEAD 2>/dev/null) || rev=
version=$(sed -n 's/^version:[[:space:]]*"\{0,1\}\([^"[:space:]]*\).*$/\1/p' "$dir/plugin.yaml")

# built_from_sources BINARY: whether `BINARY version` names the plugin's
# revision (or, outside a checkout, its version).
built_from_sources() {
	line=$("$1" version 2>/dev/null) || return 1
	if [ -n "$rev" ]; then
		case $line in *", revision $rev,"* | *", revision $rev") return 0 ;; esac
		return 1
	fi
	case $line in "catalogist v$version,"*) return 0 ;; esac
	return 1
}

# own_is_current: whether bin/catalogist can run. Outside a checkout, the
# binary built there was built from the sources beside it.
own_is_current() {
	[ -x "$bin" ] && { [ -z "$rev" ] || built_from_sources "$bin"; }
}

want=${rev:+revision $rev}
want=${want:-version $version}

build() {
	if ! command -v go >/dev/null 2>&1; then
		echo "helm catalogist: no catalogist of $want on PATH, and go is not on PATH to build one into $bin: install Go 1.26 or later (https://go.dev/dl/) and run: helm plugin update catalogist; or put a catalogist of $want on PATH" >&2
		return 2
	fi
	echo "helm catalogist: building catalogist ($want) into $bin" >&2
	# -buildvcs=auto whatever GOFLAGS says: the revision it stamps is what
	# built_from_sources compares.
	(cd "$dir" && go build -buildvcs=auto -o "$bin" ./cmd/catalogist) || {
		echo "helm catalogist: building catalogist in $dir failed (see above)" >&2
		return 1
	}
}

path=$(command -v catalogist 2>/dev/null) || path=

if [ "${1-}" = --plugin-hook ]; then
	if [ -n "$path" ] && built_from_sources "$path"; then
		echo "helm catalogist: runs $path, of $want"
	elif ! own_is_current; then
		# Without go, the plugin is installed all the same: it builds
		# catalogist, or finds it on PATH, at its first use.
		status=0
		build || status=$?
		[ "$status" -ne 1 ] || exit 1
	fi
	exit 0
fi

if [ -n "$path" ] && built_from_sources "$path"; then
	exec "$path" "$@"
fi
own_is_current || build
exec "$bin" "$@"
