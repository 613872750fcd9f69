#!/usr/bin/env bash
# Runs every fuzz target of the module for FUZZTIME executions each.
#
#   scripts/fuzz.sh                          # or: make fuzz
#   FUZZTIME=300000x scripts/fuzz.sh         # a longer campaign
#   scripts/fuzz.sh ./internal/target/migrate   # the targets of some packages
#
# Targets are found by their declarations in the test files, so new ones are
# picked up without editing anything (`go test -list` would build every test
# binary first). Each package's instrumented test binary is built once and
# run for each of its targets: `go test -fuzz` links it again for each
# target, and linking the packages that import Helm takes longer than a
# short pass fuzzes them. The binaries are kept (FUZZBIN, default in the
# user's cache directory): the go command leaves a binary whose build is
# unchanged as it is, so a warm run links only the packages that changed.
# Inputs found earlier are replayed from a corpus kept beside them, the
# newest FUZZKEEP (default 64) per target: replaying an input costs about a
# hundred times an execution, as every input's coverage of the instrumented
# Helm and Kubernetes code is copied, so an unbounded corpus would make each
# warm run slower than the last. Inputs worth keeping for good belong in the
# package's testdata/fuzz, where a failing input is written.
#
# FUZZTIME is an execution count: a duration-bounded run can fail with a bare
# "context deadline exceeded" when the deadline races a busy worker
# (golang/go#75804). Each new interesting input is minimized for FUZZMINIMIZE
# executions rather than the default minute, which would dominate a short
# pass. Several targets build file trees for each input (links, catalogs,
# migrated files): temporary files go to memory (/dev/shm, or FUZZTMP) when
# the machine has it, which makes those three times faster.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

GO=${GO:-go}
fuzztime=${FUZZTIME:-3000x}
minimize=${FUZZMINIMIZE:-200x}

bindir=${FUZZBIN:-${XDG_CACHE_HOME:-$HOME/.cache}/catalogist-fuzz}
mkdir -p "$bindir"
trap 'rm -rf "${fuzztmp:-}"' EXIT
fuzztmp=
if [ -z "${FUZZTMP:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then
	fuzztmp=$(mktemp -d /dev/shm/catalogist-fuzz.XXXXXX)
	FUZZTMP=$fuzztmp
fi

dirs=("$@")
[ ${#dirs[@]} -gt 0 ] || dirs=(.)
targets=$(grep -rHo --include='*_test.go' --exclude-dir=testdata --exclude-dir=tools '^func Fuzz[A-Za-z0-9_]*' "${dirs[@]}" |
	sed -E 's#^(.*)/[^/]+_test\.go:func (Fuzz.*)$#\1 \2#' | sort -u)
if [ -z "$targets" ]; then
	echo "no fuzz targets"
	exit 0
fi

keep=${FUZZKEEP:-64}
built=
n=0
skipped=0
while read -r pkg name; do
	bin=$bindir/$(printf '%s' "${pkg#./}" | tr -c 'A-Za-z0-9\n' '_').test
	if [ "$pkg" != "$built" ]; then
		$GO test -c -fuzz=. -o "$bin" "$pkg"
		importpath=$($GO list "$pkg")
		binsum=$(sha256sum "$bin" | cut -d' ' -f1)
		built=$pkg
	fi
	# A target that passed with this very binary (same code, tests and
	# dependencies), seed corpus and FUZZTIME is not fuzzed again, as
	# go test takes an unchanged test from its cache: CI on a warm machine
	# fuzzes what a change touched. FUZZALL=1 fuzzes every target.
	seeds=none
	if [ -d "$pkg/testdata/fuzz/$name" ]; then
		seeds=$(cd "$pkg" && find "testdata/fuzz/$name" -type f -print0 | sort -z | xargs -0r sha256sum | sha256sum | cut -d' ' -f1)
	fi
	# One stamp per key rather than per target: fuzzing in another
	# checkout (whose binaries differ by their paths) or with another
	# FUZZTIME must not make this one's pass forgotten.
	key="$binsum $seeds $fuzztime"
	stamp=$bindir/passed/$(printf '%s' "${importpath}.${name}" | tr -c 'A-Za-z0-9\n' '_').$(printf '%s' "$key" | sha256sum | cut -c1-16)
	if [ -z "${FUZZALL:-}" ] && [ -f "$stamp" ]; then
		echo "--- fuzz $pkg $name: passed before with the same binary and seeds (FUZZALL=1 fuzzes it again)"
		skipped=$((skipped + 1))
		continue
	fi
	echo "--- fuzz $pkg $name ($fuzztime)"
	corpus=$bindir/corpus/$importpath/$name
	mkdir -p "$corpus"
	ls -t "$corpus" | tail -n +$((keep + 1)) | (cd "$corpus" && xargs -r rm -f --)
	# The seed corpus (testdata/fuzz) is read relative to the package.
	(
		cd "$pkg"
		[ -z "${FUZZTMP:-}" ] || export TMPDIR=$FUZZTMP
		"$bin" -test.run='^$' -test.fuzz="^$name\$" -test.fuzztime="$fuzztime" \
			-test.fuzzminimizetime="$minimize" -test.fuzzcachedir="$bindir/corpus/$importpath"
	)
	mkdir -p "$bindir/passed"
	printf '%s' "$key" >"$stamp"
	n=$((n + 1))
done <<<"$targets"
echo "fuzz: $n targets passed ($fuzztime each), $skipped unchanged since they passed"
