#!/usr/bin/env bash
# Writes cmd/catalogist/release.pgo, the CPU profile `make build`, the
# benchmarks and the release builds optimise the binary for (go build
# -pgo=cmd/catalogist/release.pgo). The profile is the main jobs'
# benchmarks: lint of a generated catalog and of the bundled examples, and a
# cold build. Regenerate it after large changes to those paths (`make pgo`);
# a stale profile still builds, only less well tuned.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

GO=${GO:-go}
$GO test ./lint -run '^$' -bench 'BenchmarkLint(Generated100|Examples)$' -benchtime 10x -cpuprofile "$work/lint.prof" -o "$work/lint.test" >&2
$GO test ./builder -run '^$' -bench 'BenchmarkBuildCold$' -benchtime 3x -cpuprofile "$work/build.prof" -o "$work/build.test" >&2
$GO tool pprof -proto "$work/lint.prof" "$work/build.prof" >"$work/release.pgo"
mv "$work/release.pgo" cmd/catalogist/release.pgo
echo "wrote cmd/catalogist/release.pgo ($(wc -c <cmd/catalogist/release.pgo) bytes)" >&2
