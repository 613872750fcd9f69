#!/usr/bin/env bash
# Times what the launcher does with a large published index, finding the
# versions of one chart (repoindex.ChartVersions), against Helm's own index
# loader (repo.LoadIndexFile on the whole file, then the chart's entry), on
# a generated index of 15,000 versions (500 charts), in YAML as Helm writes
# it and, for information, in JSON:
#
#   scripts/bench-launch.sh        # or: make bench-launch
#
# Targets, on the YAML index: ChartVersions at least 10 times faster than
# Helm's loader and allocating at least 5 times fewer bytes; the script
# fails when one is missed. BENCH_TIME is go test's -benchtime (default 1s:
# Helm's loader then runs once, ChartVersions a few dozen times).
#
# bench-common.sh is not sourced: it builds the CLI and installs the Helm
# CLI, which these Go benchmarks do not need.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

benchtime=${BENCH_TIME:-1s}
min_speed=10 # Helm's time / ChartVersions' time
min_memory=5 # Helm's bytes / ChartVersions' bytes

bench=bench-launch
log() { printf '%s: %s\n' "$bench" "$*" >&2; }
die() { log "error: $*"; exit 1; }
# ratio A B prints A/B with two decimals.
ratio() { local r=$(($1 * 100 / ($2 > 0 ? $2 : 1))); printf '%d.%02d' $((r / 100)) $((r % 100)); }

work=$(mktemp -d "${TMPDIR:-/tmp}/$bench.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

log "go test -bench (-benchtime $benchtime); generating the index takes a while"
go test -run '^$' -bench '^Benchmark(ChartVersions|HelmLoadIndex)(JSON)?15000$' -benchmem -benchtime "$benchtime" ./internal/output/repoindex/ |
	tee "$work/bench.txt" >&2

# field NAME UNIT prints the value before UNIT on the line of benchmark
# NAME (ns/op, B/op, allocs/op), as an integer.
field() {
	local v
	v=$(awk -v name="$1" -v unit="$2" '{ n = $1; sub(/-[0-9]+$/, "", n) } n == name { for (i = 2; i <= NF; i++) if ($i == unit) print $(i - 1) }' "$work/bench.txt" | tail -n 1)
	[ -n "$v" ] || die "no $2 for $1 in the go test output"
	printf '%s\n' "${v%.*}"
}

# ms NS prints nanoseconds as milliseconds, mb BYTES bytes as megabytes,
# with two decimals.
ms() { printf '%d.%02d' $(($1 / 1000000)) $(($1 % 1000000 / 10000)); }
mb() { ms "$1"; }

printf '\nFinding one chart of a generated 15000-version index (go test -benchtime %s)\n\n' "$benchtime"
printf '%-6s %-44s %10s %15s %12s\n' "format" "step" "time (ms)" "allocated (MB)" "allocations"
for format in "" JSON; do
	for name in ChartVersions HelmLoadIndex; do
		b=Benchmark$name${format}15000
		case $name in
		ChartVersions) what="repoindex.ChartVersions" ;;
		*) what="Helm repo.LoadIndexFile, then the entry" ;;
		esac
		printf '%-6s %-44s %10s %15s %12s\n' "${format:-YAML}" "$what" \
			"$(ms "$(field "$b" ns/op)")" "$(mb "$(field "$b" B/op)")" "$(field "$b" allocs/op)"
	done
done

failed=0
printf '\n'
for format in "" JSON; do
	ours_ns=$(field "BenchmarkChartVersions${format}15000" ns/op)
	ours_b=$(field "BenchmarkChartVersions${format}15000" B/op)
	helm_ns=$(field "BenchmarkHelmLoadIndex${format}15000" ns/op)
	helm_b=$(field "BenchmarkHelmLoadIndex${format}15000" B/op)
	speed=$(ratio "$helm_ns" "$ours_ns")
	memory=$(ratio "$helm_b" "$ours_b")
	if [ -z "$format" ]; then
		printf 'YAML: Helm / ChartVersions = %sx the time (target >= %d), %sx the bytes allocated (target >= %d)\n' \
			"$speed" "$min_speed" "$memory" "$min_memory"
		if ((helm_ns < min_speed * ours_ns)); then
			log "ChartVersions is only ${speed}x faster than Helm's loader (target ${min_speed}x)"
			failed=1
		fi
		if ((helm_b < min_memory * ours_b)); then
			log "ChartVersions allocates only ${memory}x fewer bytes than Helm's loader (target ${min_memory}x)"
			failed=1
		fi
	else
		printf 'JSON: Helm / ChartVersions = %sx the time, %sx the bytes allocated (no target)\n' "$speed" "$memory"
	fi
done
((failed == 0)) || die "a target is missed"
