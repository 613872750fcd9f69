#!/usr/bin/env bash
# Times `catalogist lint` against the peer, a `helm lint` loop with the Helm 4
# CLI, on a generated catalog of BENCH_CHARTS charts (default 100).
#
#   scripts/bench-lint.sh                 # or: make bench-lint
#   BENCH_CHARTS=300 BENCH_RUNS=9 scripts/bench-lint.sh
#
# catalogist runs BENCH_RUNS times (default 5) and the median is reported; the
# helm loop runs HELM_RUNS times (default 2) and the fastest run is reported.
# Timing uses bash's EPOCHREALTIME, so nothing beyond bash and coreutils is needed.
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

# (a) catalogist: exit 0 = clean, 1 = findings reported (still a full run),
# anything else (2 = usage error) aborts the benchmark.
findings=false
cat_times=()
for ((i = 1; i <= runs; i++)); do
	start=$(now_us)
	rc=0
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
	log "catalogist run $i/$runs: $(ms $((end - start))) ms"
done
mapfile -t sorted < <(printf '%s\n' "${cat_times[@]}" | sort -n)
cat_us=${sorted[$((runs / 2))]}
if $findings; then
	log "warning: catalogist reported findings on the generated catalog (exit status 1); see its JSON output:"
	head -c 2000 "$work/catalogist.json" >&2
	printf '\n' >&2
fi

# (b) the peer: one `helm lint` per chart, as a catalog's CI would run it.
helm_failed=0
helm_us=
for ((i = 1; i <= helm_runs; i++)); do
	failed=0
	start=$(now_us)
	for c in "$catalog"/charts/*; do
		"$helm" lint "$c" >/dev/null 2>&1 || failed=$((failed + 1))
	done
	end=$(now_us)
	t=$((end - start))
	log "helm lint loop run $i/$helm_runs: $(ms $t) ms ($failed charts failed)"
	helm_failed=$failed
	if [ -z "$helm_us" ] || [ "$t" -lt "$helm_us" ]; then helm_us=$t; fi
done
[ "$helm_failed" -eq 0 ] || log "warning: helm lint failed on $helm_failed generated charts"

# (c) for reference, Helm's best case: one process linting every chart, which
# saves Helm's start-up per chart but is not how chart-testing runs it.
start=$(now_us)
"$helm" lint "$catalog"/charts/* >/dev/null 2>&1 || log "warning: helm lint of all charts at once failed"
end=$(now_us)
helm_one_us=$((end - start))
log "helm lint of all charts in one process: $(ms $helm_one_us) ms"

ratio=$((helm_us * 100 / (cat_us > 0 ? cat_us : 1)))
ratio_one=$((helm_one_us * 100 / (cat_us > 0 ? cat_us : 1)))
printf '\nLint of a generated catalog: %d charts, %d KB of values.schema.json\n\n' "$charts" $((schema_bytes / 1024))
printf '%-44s %12s %14s\n' "tool" "wall (ms)" "per chart (ms)"
printf '%-44s %12s %14s\n' "catalogist lint --format json (median of $runs)" "$(ms "$cat_us")" "$(ms $((cat_us / charts)))"
printf '%-44s %12s %14s\n' "helm lint, one per chart (best of $helm_runs)" "$(ms "$helm_us")" "$(ms $((helm_us / charts)))"
printf '%-44s %12s %14s\n' "helm lint, all charts in one process" "$(ms "$helm_one_us")" "$(ms $((helm_one_us / charts)))"
printf '\nratio helm loop / catalogist: %d.%02dx\n' $((ratio / 100)) $((ratio % 100))
printf 'ratio helm in one process / catalogist: %d.%02dx\n' $((ratio_one / 100)) $((ratio_one % 100))
