#!/usr/bin/env bash
# Installs the external tools the build and the tests need, into a per-user cache.
#
#   scripts/install-tools.sh            install every tool listed in ALL_TOOLS
#   scripts/install-tools.sh helm4 ...  install only the named tools
#   scripts/install-tools.sh --print helm4
#                                       print the path a tool is (or would be) installed at
#   scripts/install-tools.sh --print axe-core
#                                       print the path of axe.min.js, which the
#                                       browser tests inject into pages
#   scripts/install-tools.sh --print node-modules
#                                       print the node_modules directory of the
#                                       npm packages pinned in tools/browser
#
# Every installer is idempotent: when the pinned version is already present it
# returns immediately. On success it prints the installed path on stdout (one
# line per tool); progress messages go to stderr.
#
# Cache root: $CATALOGIST_TOOLS, default ~/.cache/catalogist-tools. Each pinned
# version gets its own directory (<cache>/<tool>-<version>/), so bumping a pin
# never reuses a stale binary and old versions can be deleted by hand.
#
# To add a tool: write install_<name> (and path_<name>) below and add <name>
# to ALL_TOOLS.
set -euo pipefail

TOOLS_DIR="${CATALOGIST_TOOLS:-$HOME/.cache/catalogist-tools}"

# Tools installed when no argument is given.
ALL_TOOLS=(helm4 helm3 chromium etcd kube-apiserver axe-core pre-commit helm-docs cmark-gfm)

# Pinned versions.
HELM4_VERSION="v4.3.1"
# The oldest Helm client whose reading of our output we support.
HELM3_VERSION="v3.19.5"
# The Kubernetes API server the launcher tests run against, built from the
# k8s.io/kubernetes module pinned in tools/kube-apiserver/go.mod (keep the two
# in step).
KUBE_VERSION="v1.37.2"
# The helm-docs whose READMEs `catalogist docs` writes the same way; the
# tests run it side by side with ours. It is a test tool only: its licence
# (GPL-3.0) keeps it out of catalogist's binary.
HELMDOCS_VERSION="v1.14.2"

# Root of the repository (this script lives in <root>/scripts).
ROOT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

log() { printf 'install-tools: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

need() {
	command -v "$1" >/dev/null 2>&1 || die "'$1' is required but not on PATH"
}

# go_install_helm MODULE VERSION DEST_DIR
# Builds the Helm CLI of MODULE (helm.sh/helm/v3 or /v4) at VERSION into
# DEST_DIR/helm, stamping the version the way Helm's own release build does so
# that `helm version --short` reports it.
go_install_helm() {
	local module=$1 version=$2 dest=$3
	need go
	mkdir -p "$dest"
	# Build into a scratch directory, then move: an interrupted run never
	# leaves a half-written binary at the final path.
	local tmp
	tmp=$(mktemp -d "$dest/.build.XXXXXX")
	log "building helm $version from $module (go install; the first build takes a few minutes)"
	# GOFLAGS from the caller (e.g. -mod=vendor) must not leak into a build
	# outside the module; CGO off gives a static binary like the release one.
	if ! GOFLAGS= CGO_ENABLED=0 GOBIN="$tmp" go install -trimpath \
		-ldflags "-s -w -X $module/internal/version.version=$version -X $module/internal/version.gitTreeState=clean" \
		"$module/cmd/helm@$version"; then
		rm -rf "$tmp"
		die "go install $module/cmd/helm@$version failed"
	fi
	mv -f "$tmp/helm" "$dest/helm"
	rm -rf "$tmp"
}

# helm_has_version BINARY VERSION: true when BINARY runs and reports VERSION.
helm_has_version() {
	local bin=$1 want=$2 got
	[ -x "$bin" ] || return 1
	got=$("$bin" version --short 2>/dev/null) || return 1
	# --short prints e.g. "v4.3.1" or "v4.3.1+gabcdef0".
	[ "${got%%+*}" = "$want" ]
}

### helm4: the Helm 4 CLI ###################################################

path_helm4() { printf '%s/helm-%s/helm\n' "$TOOLS_DIR" "$HELM4_VERSION"; }

install_helm4() {
	local bin
	bin=$(path_helm4)
	if ! helm_has_version "$bin" "$HELM4_VERSION"; then
		go_install_helm helm.sh/helm/v4 "$HELM4_VERSION" "$(dirname "$bin")"
		helm_has_version "$bin" "$HELM4_VERSION" ||
			die "$bin does not report version $HELM4_VERSION"
	fi
	printf '%s\n' "$bin"
}

### helm3: the oldest supported Helm 3 client ###############################

path_helm3() { printf '%s/helm-%s/helm\n' "$TOOLS_DIR" "$HELM3_VERSION"; }

install_helm3() {
	local bin
	bin=$(path_helm3)
	if ! helm_has_version "$bin" "$HELM3_VERSION"; then
		go_install_helm helm.sh/helm/v3 "$HELM3_VERSION" "$(dirname "$bin")"
		helm_has_version "$bin" "$HELM3_VERSION" ||
			die "$bin does not report version $HELM3_VERSION"
	fi
	printf '%s\n' "$bin"
}

# apt_install PACKAGE...: installs Debian packages, with sudo unless root.
apt_install() {
	need apt-get
	local sudo=()
	[ "$(id -u)" -eq 0 ] || sudo=(sudo)
	log "installing Debian's $1 with apt-get"
	"${sudo[@]}" apt-get update -qq >&2
	DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "$@" >&2 ||
		die "apt-get install $* failed"
}

### chromium: Debian's headless browser, for page tests #####################

path_chromium() { printf '/usr/bin/chromium\n'; }

install_chromium() {
	local bin
	bin=$(path_chromium)
	[ -x "$bin" ] || apt_install chromium fonts-dejavu-core
	"$bin" --version >&2 || die "$bin does not run"
	printf '%s\n' "$bin"
}

### etcd: Debian's etcd server, the kube-apiserver's storage ###############

path_etcd() { printf '/usr/bin/etcd\n'; }

install_etcd() {
	local bin
	bin=$(path_etcd)
	# The package's service is not wanted (scripts/kube-up.sh runs its own
	# etcd); in containers without an init system it is not started.
	[ -x "$bin" ] || apt_install etcd-server
	"$bin" --version >&2 || die "$bin does not run"
	printf '%s\n' "$bin"
}

### pre-commit: Debian's pre-commit, which runs the repository's hook ########
#
# The hook test installs .pre-commit-hooks.yaml into a scratch repository
# with the real tool, as a catalog's contributors do.

path_pre-commit() { printf '/usr/bin/pre-commit\n'; }

install_pre-commit() {
	local bin
	bin=$(path_pre-commit)
	[ -x "$bin" ] || apt_install pre-commit
	"$bin" --version >&2 || die "$bin does not run"
	printf '%s\n' "$bin"
}

### cmark-gfm: Debian's build of GitHub's Markdown renderer ##################
#
# The docs tests render the READMEs `catalogist docs` writes as GitHub
# renders them, to hold that a catalog's text shows there as text.

path_cmark-gfm() { printf '/usr/bin/cmark-gfm\n'; }

install_cmark-gfm() {
	local bin
	bin=$(path_cmark-gfm)
	[ -x "$bin" ] || apt_install cmark-gfm
	"$bin" --version >&2 || die "$bin does not run"
	printf '%s\n' "$bin"
}

### kube-apiserver: built from k8s.io/kubernetes, for the launcher tests #####
#
# Next to it goes clusterrole-aggregator (tools/kube-apiserver/cmd), the
# ClusterRole aggregation controller of the same release: scripts/kube-up.sh
# runs it in place of a controller manager so that the built-in ClusterRoles
# admin, edit and view get their rules.

path_kube-apiserver() { printf '%s/kube-apiserver-%s/kube-apiserver\n' "$TOOLS_DIR" "$KUBE_VERSION"; }

# kube_has_version BINARY VERSION: true when BINARY runs and reports VERSION
# (`kube-apiserver --version` prints "Kubernetes v1.37.2").
kube_has_version() {
	local bin=$1 want=$2 got
	[ -x "$bin" ] || return 1
	got=$("$bin" --version 2>/dev/null) || return 1
	[ "${got##* }" = "$want" ]
}

install_kube-apiserver() {
	local bin dest aggregator
	bin=$(path_kube-apiserver)
	dest=$(dirname "$bin")
	aggregator="$dest/clusterrole-aggregator"
	if ! kube_has_version "$bin" "$KUBE_VERSION" || ! kube_has_version "$aggregator" "$KUBE_VERSION"; then
		need go
		local src="$ROOT_DIR/tools/kube-apiserver"
		[ -f "$src/go.mod" ] || die "$src/go.mod not found"
		grep -Eq "^[[:space:]]*(require[[:space:]]+)?k8s\.io/kubernetes $KUBE_VERSION([[:space:]]|\$)" "$src/go.mod" ||
			die "$src/go.mod does not require k8s.io/kubernetes $KUBE_VERSION"
		mkdir -p "$dest"
		local tmp
		tmp=$(mktemp -d "$dest/.build.XXXXXX")
		# Stamp the version the way Kubernetes' own build does
		# (hack/lib/version.sh), so that --version reports it and the server
		# derives its binary version from it.
		local major minor ldflags="-s -w" pkg key
		major=${KUBE_VERSION#v}
		major=${major%%.*}
		minor=${KUBE_VERSION#v*.}
		minor=${minor%%.*}
		for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
			for key in gitVersion="$KUBE_VERSION" gitMajor="$major" gitMinor="$minor" gitTreeState=clean; do
				ldflags+=" -X $pkg.$key"
			done
		done
		log "building kube-apiserver $KUBE_VERSION from $src (go build; the first build takes about 10 minutes on 2 cores)"
		# As for Helm: no GOFLAGS from the caller, static binaries. Both are
		# built into a scratch directory, then moved, the server last: an
		# interrupted run never leaves a half-written binary in place.
		if ! (cd "$src" && GOFLAGS='' CGO_ENABLED=0 go build -trimpath -ldflags "$ldflags" \
			-o "$tmp/" k8s.io/kubernetes/cmd/kube-apiserver ./cmd/clusterrole-aggregator); then
			rm -rf "$tmp"
			die "go build of kube-apiserver $KUBE_VERSION failed"
		fi
		mv -f "$tmp/clusterrole-aggregator" "$aggregator"
		mv -f "$tmp/kube-apiserver" "$bin"
		rm -rf "$tmp"
		kube_has_version "$bin" "$KUBE_VERSION" ||
			die "$bin does not report version $KUBE_VERSION"
		kube_has_version "$aggregator" "$KUBE_VERSION" ||
			die "$aggregator does not report version $KUBE_VERSION"
	fi
	printf '%s\n' "$bin"
}

### helm-docs: the README generator the docs tests compare against #########

path_helm-docs() { printf '%s/helm-docs-%s/helm-docs\n' "$TOOLS_DIR" "$HELMDOCS_VERSION"; }

# helmdocs_has_version BINARY VERSION: true when BINARY runs and reports
# VERSION (`helm-docs --version` prints "helm-docs version 1.14.2").
helmdocs_has_version() {
	local bin=$1 want=$2 got
	[ -x "$bin" ] || return 1
	got=$("$bin" --version 2>/dev/null) || return 1
	[ "${got##* }" = "${want#v}" ]
}

install_helm-docs() {
	local bin dest
	bin=$(path_helm-docs)
	dest=$(dirname "$bin")
	if ! helmdocs_has_version "$bin" "$HELMDOCS_VERSION"; then
		need go
		mkdir -p "$dest"
		local tmp
		tmp=$(mktemp -d "$dest/.build.XXXXXX")
		log "building helm-docs $HELMDOCS_VERSION (go install)"
		# helm-docs' release build stamps main.version; go install does
		# not, so it is stamped here for --version to report it.
		if ! GOFLAGS= CGO_ENABLED=0 GOBIN="$tmp" go install -trimpath \
			-ldflags "-s -w -X main.version=${HELMDOCS_VERSION#v}" \
			"github.com/norwoodj/helm-docs/cmd/helm-docs@$HELMDOCS_VERSION"; then
			rm -rf "$tmp"
			die "go install github.com/norwoodj/helm-docs/cmd/helm-docs@$HELMDOCS_VERSION failed"
		fi
		mv -f "$tmp/helm-docs" "$bin"
		rm -rf "$tmp"
		helmdocs_has_version "$bin" "$HELMDOCS_VERSION" ||
			die "$bin does not report version $HELMDOCS_VERSION"
	fi
	printf '%s\n' "$bin"
}

### node-modules, axe-core: the npm packages the tests load ##################
#
# The npm packages pinned by tools/browser/package-lock.json, installed with
# `npm ci` into <cache>/node-browser-<hash of the lock file>/: bumping a pin
# changes the hash, so the next run installs afresh instead of reusing stale
# packages; an unchanged lock file costs one sha256sum. axe-core is the
# accessibility checker the browser tests run in pages; the JSON and YAML
# language services run the editor schema tests (make test-js).

BROWSER_PACKAGES="$ROOT_DIR/tools/browser"

browser_packages_dir() {
	local lock="$BROWSER_PACKAGES/package-lock.json" sum
	[ -f "$lock" ] || die "$lock not found"
	need sha256sum
	sum=$(sha256sum "$lock")
	printf '%s/node-browser-%s\n' "$TOOLS_DIR" "${sum:0:16}"
}

path_node-modules() { printf '%s/node_modules\n' "$(browser_packages_dir)"; }

install_node-modules() {
	local dir modules
	dir=$(browser_packages_dir)
	modules="$dir/node_modules"
	# Node runs the tests (make test-js); npm installs the packages.
	command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 || apt_install nodejs npm
	# The directory is moved into place only once complete, so its presence
	# means a finished install of this lock file.
	if [ ! -d "$modules" ]; then
		mkdir -p "$TOOLS_DIR"
		local tmp
		tmp=$(mktemp -d "$TOOLS_DIR/.node-browser.XXXXXX")
		cp "$BROWSER_PACKAGES/package.json" "$BROWSER_PACKAGES/package-lock.json" "$tmp/"
		log "installing the npm packages of $BROWSER_PACKAGES (npm ci)"
		# The packages are data for the pages under test and libraries the
		# tests import: none of their install scripts needs to run.
		if ! (cd "$tmp" && npm ci --no-audit --no-fund --ignore-scripts >&2); then
			rm -rf "$tmp"
			die "npm ci in a copy of $BROWSER_PACKAGES failed (is the npm registry reachable?)"
		fi
		local want
		for want in axe-core/axe.min.js vscode-json-languageservice/package.json yaml-language-server/package.json; do
			[ -s "$tmp/node_modules/$want" ] || {
				rm -rf "$tmp"
				die "npm ci of $BROWSER_PACKAGES did not install $want"
			}
		done
		rm -rf "$dir"
		mv "$tmp" "$dir"
	fi
	printf '%s\n' "$modules"
}

path_axe-core() { printf '%s/axe-core/axe.min.js\n' "$(path_node-modules)"; }

install_axe-core() {
	install_node-modules >/dev/null
	path_axe-core
}

############################################################################

# known_tools lists every tool that has an installer.
known_tools() {
	declare -F | sed -n 's/^declare -f install_//p' | tr '\n' ' '
}

main() {
	local print_only=false
	if [ "${1:-}" = "--print" ]; then
		print_only=true
		shift
	fi
	local tools=("$@")
	[ ${#tools[@]} -gt 0 ] || tools=("${ALL_TOOLS[@]}")
	local t
	for t in "${tools[@]}"; do
		declare -F "install_$t" >/dev/null ||
			die "unknown tool '$t' (known: $(known_tools))"
	done
	for t in "${tools[@]}"; do
		if $print_only; then
			"path_$t"
		else
			"install_$t"
		fi
	done
}

main "$@"
