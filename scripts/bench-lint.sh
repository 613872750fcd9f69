#!/usr/bin/env bash
# Times `catalogist lint`, which renders every chart with each set of values
# and judges the manifests, against the peer, the Helm 4 CLI's `helm lint`:
# a loop of one `helm lint` per chart (as CI loops run it), and one
# `helm lint` of every chart in one process (Helm's best case), on a
# generated catalog of BENCH_CHARTS charts (default 100). Then measures
# catalogist's peak memory on catalogs of BENCH_CHARTS and BENCH_MEM_CHARTS
# (default 4 times as many) charts: it must stay flat, as charts are linted
# one at a time per core.
#
#   scripts/bench-lint.sh                 # or: make bench-lint
#   BENCH_CHARTS=300 BENCH_RUNS=9 scripts/bench-lint.sh
#
# catalogist and Helm in one process run BENCH_RUNS times (default 5) and
# their medians are reported; the helm loop runs HELM_RUNS times (default 2)
# and the fastest run is reported.
# Timing uses bash's EPOCHREALTIME, so nothing beyond bash and coreutils is
# needed; memory, scripts/maxrss. The targets (20 times the loop, twice Helm's
# one process, memory within 1.5 times at 4 times the charts) are printed
# met or missed; the exit status is 0 either way, as a busy machine can miss
# them.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

charts=${BENCH_CHARTS:-100}
runs=${BENCH_RUNS:-5}
helm_runs=${HELM_RUNS:-2}

bench=bench-lint
. scripts/bench-common.sh

catalog=$work/catalog
log "generating a $charts-chart catalog"
go run ./scripts/gencatalog -n "$charts" -out "$catalog"
chart_dirs=("$catalog"/charts/*)
[ ${#chart_dirs[@]} -eq "$charts" ] || die "generated ${#chart_dirs[@]} charts, want $charts"
schema_bytes=$(cat "$catalog"/charts/*/values.schema.json | wc -c)

# The three runs are interleaved, round after round, so that the machine's
# speed, which drifts by a third over minutes on a shared 2-core machine,
# weighs on each alike: each round runs catalogist, Helm in one process
# and, in the first HELM_RUNS rounds, the helm loop.
#
# (a) catalogist: exit 0 = clean, 1 = findings reported (still a full run),
# anything else (2 = usage error) aborts the benchmark.
lint_catalogist() {
	local rc=0 start end
	start=$(now_us)
	bin/catalogist lint --format json "$catalog" >"$work/catalogist.json" 2>"$work/catalogist.err" || rc=$?
	end=$(now_us)
	case $rc in
	0) ;;
	1) findings=true ;;
	*)
		cat "$work/catalogist.err" >&2
		die "catalogist lint exited with status $rc"
		;;
	esac
	cat_times+=($((end - start)))
	log "catalogist run ${#cat_times[@]}/$runs: $(ms $((end - start))) ms"
}

# (b) the peer: one `helm lint` per chart, as a catalog's CI would run it.
lint_helm_loop() {
	local failed=0 start end t
	start=$(now_us)
	for c in "$catalog"/charts/*; do
		"$helm" lint "$c" >/dev/null 2>&1 || failed=$((failed + 1))
	done
	end=$(now_us)
	t=$((end - start))
	log "helm lint loop run: $(ms $t) ms ($failed charts failed)"
	helm_failed=$failed
	if [ -z "$helm_us" ] || [ "$t" -lt "$helm_us" ]; then helm_us=$t; fi
}

# (c) Helm's best case: one process linting every chart, which saves Helm's
# start-up per chart but is not how chart-testing runs it.
lint_helm_once() {
	local start end
	start=$(now_us)
	"$helm" lint "$catalog"/charts/* >/dev/null 2>&1 || log "warning: helm lint of all charts at once failed"
	end=$(now_us)
	one_times+=($((end - start)))
	log "helm lint of all charts in one process: $(ms $((end - start))) ms"
}

findings=false
helm_failed=0
helm_us=
cat_times=()
one_times=()
for ((i = 1; i <= runs; i++)); do
	lint_catalogist
	lint_helm_once
	if [ "$i" -le "$helm_runs" ]; then lint_helm_loop; fi
done
median() { printf '%s\n' "$@" | sort -n | sed -n "$((($# + 1) / 2))p"; }
cat_us=$(median "${cat_times[@]}")
helm_one_us=$(median "${one_times[@]}")
if $findings; then
	log "warning: catalogist reported findings on the generated catalog (exit status 1); see its JSON output:"
	head -c 2000 "$work/catalogist.json" >&2
	printf '\n' >&2
fi
[ "$helm_failed" -eq 0 ] || log "warning: helm lint failed on $helm_failed generated charts"

# (d) memory: the peak resident set of one lint of this catalog and of one
# BENCH_MEM_CHARTS charts large.
mem_charts=${BENCH_MEM_CHARTS:-$((charts * 4))}
big=$work/big
log "generating a $mem_charts-chart catalog"
go run ./scripts/gencatalog -n "$mem_charts" -out "$big"
go build -o "$work/maxrss" ./scripts/maxrss
maxrss() {
	local rc=0
	"$work/maxrss" bin/catalogist lint --format json "$1" >/dev/null 2>"$work/maxrss.err" || rc=$?
	[ "$rc" -le 1 ] || { cat "$work/maxrss.err" >&2; die "catalogist lint exited with status $rc"; }
	sed -n 's/^maxrss: //p' "$work/maxrss.err" | tail -n 1
}
mem_small=$(maxrss "$catalog")
mem_big=$(maxrss "$big")
log "peak memory: $((mem_small / 1024)) MiB for $charts charts, $((mem_big / 1024)) MiB for $mem_charts"

ratio=$((helm_us * 100 / (cat_us > 0 ? cat_us : 1)))
ratio_one=$((helm_one_us * 100 / (cat_us > 0 ? cat_us : 1)))
ratio_mem=$((mem_big * 100 / (mem_small > 0 ? mem_small : 1)))
verdict() { if [ "$1" -ge "$2" ]; then echo met; else echo missed; fi; }
printf '\nLint of a generated catalog: %d charts, %d KB of values.schema.json\n\n' "$charts" $((schema_bytes / 1024))
printf '%-44s %12s %14s\n' "tool" "wall (ms)" "per chart (ms)"
printf '%-44s %12s %14s\n' "catalogist lint --format json (median of $runs)" "$(ms "$cat_us")" "$(ms $((cat_us / charts)))"
printf '%-44s %12s %14s\n' "helm lint, one per chart (best of $helm_runs)" "$(ms "$helm_us")" "$(ms $((helm_us / charts)))"
printf '%-44s %12s %14s\n' "helm lint, all charts in one process (median)" "$(ms "$helm_one_us")" "$(ms $((helm_one_us / charts)))"
printf '%-44s %12s\n' "catalogist peak memory, $charts charts" "$((mem_small / 1024)) MiB"
printf '%-44s %12s\n' "catalogist peak memory, $mem_charts charts" "$((mem_big / 1024)) MiB"
printf '\nratio helm loop / catalogist: %d.%02dx (target 20x: %s)\n' $((ratio / 100)) $((ratio % 100)) "$(verdict "$ratio" 2000)"
printf 'ratio helm in one process / catalogist: %d.%02dx (target 2x: %s)\n' $((ratio_one / 100)) $((ratio_one % 100)) "$(verdict "$ratio_one" 200)"
printf 'memory at %d charts / at %d: %d.%02dx (target at most 1.5x: %s)\n' "$mem_charts" "$charts" $((ratio_mem / 100)) $((ratio_mem % 100)) "$(verdict 150 "$ratio_mem")"
