#!/usr/bin/env bash
# Times `catalogist build` against the peer, a chart-releaser style loop of
# `helm package` per chart plus `helm repo index` with the Helm 4 CLI:
#
#   (a) cold build of a generated catalog of BENCH_CHARTS charts (default 100)
#   (b) incremental rebuild after one chart changed, also compared with the
#       cold build above process start: each less the time of
#       `catalogist --help`, which loads the binary and initialises its
#       packages as every run does (target: 20 times less work)
#   (c) merging one new version into a published index of BENCH_INDEX
#       versions (default 15000) and writing it, against
#       `helm repo index --merge`, which is Helm's own load, merge and write
#
#   scripts/bench-build.sh        # or: make bench-build
#
# catalogist runs BENCH_RUNS times (default 5, median); the helm loop runs
# HELM_RUNS times (default 2, best). Timing uses bash's EPOCHREALTIME.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

charts=${BENCH_CHARTS:-100}
entries=${BENCH_INDEX:-15000}
runs=${BENCH_RUNS:-5}
helm_runs=${HELM_RUNS:-2}

bench=bench-build
. scripts/bench-common.sh
# ratio A B prints A/B with two decimals.
ratio() { local r=$(($1 * 100 / ($2 > 0 ? $2 : 1))); printf '%d.%02d' $((r / 100)) $((r % 100)); }
median() { printf '%s\n' "$@" | sort -n | sed -n "$((($# + 1) / 2))p"; }
minimum() { printf '%s\n' "$@" | sort -n | head -n 1; }

catalog=$work/catalog
log "generating a $charts-chart catalog"
go run ./scripts/gencatalog -n "$charts" -out "$catalog"
export SOURCE_DATE_EPOCH=1767225600

# (a) cold builds: a fresh output each time.
cold=()
for ((i = 1; i <= runs; i++)); do
	# A cold build has no previous output and no recorded state beside it.
	rm -rf "$work/out" "$work"/.catalogist-*
	start=$(now_us)
	bin/catalogist build "$catalog" --out "$work/out" >/dev/null 2>"$work/err" || { cat "$work/err" >&2; die "catalogist build failed"; }
	end=$(now_us)
	cold+=($((end - start)))
	log "catalogist cold build $i/$runs: $(ms $((end - start))) ms"
done
cold_us=$(median "${cold[@]}")

peer=()
for ((i = 1; i <= helm_runs; i++)); do
	rm -rf "$work/helm-out"
	mkdir -p "$work/helm-out"
	start=$(now_us)
	for c in "$catalog"/charts/*; do
		"$helm" package "$c" --destination "$work/helm-out" >/dev/null
	done
	"$helm" repo index "$work/helm-out"
	end=$(now_us)
	peer+=($((end - start)))
	log "helm package loop + repo index $i/$helm_runs: $(ms $((end - start))) ms"
done
peer_us=$(minimum "${peer[@]}")

# (b) incremental: change one chart, rebuild into the same output.
incr=()
first=$(ls "$catalog/charts" | head -n 1)
for ((i = 1; i <= runs; i++)); do
	printf '# change %d\n' "$i" >>"$catalog/charts/$first/values.yaml"
	start=$(now_us)
	bin/catalogist build "$catalog" --out "$work/out" >"$work/incr.txt" 2>"$work/err" || { cat "$work/err" >&2; die "incremental build failed"; }
	end=$(now_us)
	grep -q ' 1 packaged' "$work/incr.txt" || die "incremental build repackaged more than one chart: $(cat "$work/incr.txt")"
	incr+=($((end - start)))
	log "catalogist incremental build $i/$runs: $(ms $((end - start))) ms"
done
incr_us=$(median "${incr[@]}")

# Process start, which every run pays before any work: `catalogist --help`.
starts=()
for ((i = 1; i <= runs; i++)); do
	start=$(now_us)
	bin/catalogist --help >/dev/null
	end=$(now_us)
	starts+=($((end - start)))
done
start_us=$(median "${starts[@]}")
log "catalogist --help (process start): $(ms "$start_us") ms"
# The work of each build: its time above process start, at least 0.1 ms.
cold_work=$((cold_us > start_us + 100 ? cold_us - start_us : 100))
incr_work=$((incr_us > start_us + 100 ? incr_us - start_us : 100))
met="met"
((cold_work >= 20 * incr_work)) || met="NOT met"

# (c) one new version merged into a big published index.
log "generating a published index of $entries versions"
mkdir -p "$work/published" "$work/one/charts"
go run ./scripts/gencatalog -index "$entries" -out "$work/published/index.yaml"
cp -r "$catalog/charts/$first" "$work/one/charts/"
cp "$catalog/catalog.yaml" "$work/one/"
merge=()
for ((i = 1; i <= runs; i++)); do
	rm -rf "$work/merged"
	start=$(now_us)
	bin/catalogist build "$work/one" --out "$work/merged" --merge "$work/published/index.yaml" >/dev/null 2>"$work/err" || { cat "$work/err" >&2; die "merge build failed"; }
	end=$(now_us)
	merge+=($((end - start)))
	log "catalogist build of one chart merged into $entries versions $i/$runs: $(ms $((end - start))) ms"
done
merge_us=$(median "${merge[@]}")
go test -run '^$' -bench 'BenchmarkMerge15000$' -benchtime 5x ./internal/output/repoindex/ | tee "$work/gobench.txt" >&2
go_merge_ns=$(awk '/^BenchmarkMerge15000/ { print $3 }' "$work/gobench.txt")

hmerge=()
for ((i = 1; i <= helm_runs; i++)); do
	rm -rf "$work/helm-one"
	mkdir -p "$work/helm-one"
	"$helm" package "$work/one/charts/$first" --destination "$work/helm-one" >/dev/null
	start=$(now_us)
	"$helm" repo index "$work/helm-one" --merge "$work/published/index.yaml"
	end=$(now_us)
	hmerge+=($((end - start)))
	log "helm repo index --merge ($entries versions) $i/$helm_runs: $(ms $((end - start))) ms"
done
hmerge_us=$(minimum "${hmerge[@]}")
grep -c 'version:' "$work/merged/index.yaml" >/dev/null

printf '\nBuild of a generated catalog: %d charts; merge into a %d-version index\n\n' "$charts" "$entries"
printf '%-58s %10s\n' "step" "wall (ms)"
printf '%-58s %10s\n' "catalogist build, cold (median of $runs)" "$(ms "$cold_us")"
printf '%-58s %10s\n' "helm package loop + helm repo index (best of $helm_runs)" "$(ms "$peer_us")"
printf '%-58s %10s\n' "catalogist build, one chart changed (median of $runs)" "$(ms "$incr_us")"
printf '%-58s %10s\n' "catalogist --help, process start (median of $runs)" "$(ms "$start_us")"
printf '%-58s %10s\n' "catalogist build of 1 chart --merge $entries (median)" "$(ms "$merge_us")"
printf '%-58s %10s\n' "  of which index load+merge+write (Go benchmark)" "$(ms $((${go_merge_ns%.*} / 1000)))"
printf '%-58s %10s\n' "helm repo index --merge $entries (best of $helm_runs)" "$(ms "$hmerge_us")"
printf '\ncold: helm loop / catalogist = %sx (target >= 3)\n' "$(ratio "$peer_us" "$cold_us")"
printf 'incremental: cold / incremental = %sx, whole processes\n' "$(ratio "$cold_us" "$incr_us")"
printf 'incremental work: (cold - start) / (incremental - start) = %sx (target >= 20): %s\n' "$(ratio "$cold_work" "$incr_work")" "$met"
printf 'merge: helm / catalogist = %sx (target: catalogist under 1000 ms)\n' "$(ratio "$hmerge_us" "$merge_us")"
