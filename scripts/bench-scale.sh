#!/usr/bin/env bash
# Measures how `catalogist lint` and `catalogist build` scale with the
# number of charts: on generated catalogs of BENCH_SMALL (default 1,000)
# and BENCH_LARGE (default 10,000) small charts (gencatalog -small: four
# options and one template each, so that what grows is the number of
# charts, not their size), it prints each command's wall time, CPU time
# and peak memory, the per-chart figures and the ratio between the sizes.
#
#   scripts/bench-scale.sh            # or: make bench-scale
#   BENCH_SMALL=200 BENCH_LARGE=2000 scripts/bench-scale.sh
#
# Targets, printed met or missed (the exit status is 0 either way, as a
# busy machine can miss them): peak memory under 1 GiB at the large size,
# for lint and build; CPU time per chart at the large size within 1.5
# times that at the small one. Per-chart CPU time is compared rather than
# wall time, which a shared machine's load moves by more than the target.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

small=${BENCH_SMALL:-1000}
large=${BENCH_LARGE:-10000}

bench=bench-scale
. scripts/bench-common.sh

go build -o "$work/maxrss" ./scripts/maxrss
export SOURCE_DATE_EPOCH=1767225600

# measure CMD... runs a command under maxrss and sets wall_us, cpu_us and
# rss_kib. CPU time is the children's user and system time from bash's
# `times`, before and after.
cpu_total_us() {
	# times prints two lines: the shell's and its children's user and
	# system times as XmY.ZZZs; the children's line is the second. It runs
	# in this shell (a command substitution would count a subshell's).
	local line u s
	times >"$work/times"
	line=$(tail -n 1 "$work/times")
	u=${line%% *}
	s=${line##* }
	echo $(($(to_us "$u") + $(to_us "$s")))
}
to_us() {
	local t=$1 m sec
	m=${t%%m*}
	sec=${t#*m}
	sec=${sec%s}
	local whole=${sec%[.,]*} frac=${sec#*[.,]}
	frac=$(printf '%-6s' "$frac" | tr ' ' 0)
	echo $((m * 60000000 + 10#$whole * 1000000 + 10#${frac:0:6}))
}
measure() {
	local rc=0 start end c0 c1
	cpu_total_us >"$work/c0"
	start=$(now_us)
	"$work/maxrss" "$@" >/dev/null 2>"$work/err" || rc=$?
	end=$(now_us)
	cpu_total_us >"$work/c1"
	c0=$(cat "$work/c0")
	c1=$(cat "$work/c1")
	[ "$rc" -le 1 ] || { tail -n 20 "$work/err" >&2; die "$* exited with status $rc"; }
	wall_us=$((end - start))
	cpu_us=$((c1 - c0))
	rss_kib=$(sed -n 's/^maxrss: //p' "$work/err" | tail -n 1)
}

declare -A wall cpu rss
for n in "$small" "$large"; do
	log "generating a catalog of $n small charts"
	go run ./scripts/gencatalog -small -n "$n" -out "$work/c$n"
	log "lint of $n charts"
	measure bin/catalogist lint --format json "$work/c$n"
	wall[lint$n]=$wall_us cpu[lint$n]=$cpu_us rss[lint$n]=$rss_kib
	log "build of $n charts"
	rm -rf "$work/out$n"
	measure bin/catalogist build --cache-dir "$work/cache" --out "$work/out$n" "$work/c$n"
	wall[build$n]=$wall_us cpu[build$n]=$cpu_us rss[build$n]=$rss_kib
	rm -rf "$work/c$n" "$work/out$n"
done

verdict() { if [ "$1" -le "$2" ]; then echo met; else echo missed; fi; }
printf '\nScale: generated catalogs of %d and %d small charts\n\n' "$small" "$large"
printf '%-8s %8s %11s %11s %14s %12s\n' command charts "wall (ms)" "CPU (ms)" "CPU/chart (ms)" "peak (MiB)"
for c in lint build; do
	for n in "$small" "$large"; do
		printf '%-8s %8d %11s %11s %14s %12d\n' "$c" "$n" "$(ms "${wall[$c$n]}")" "$(ms "${cpu[$c$n]}")" \
			"$(ms $((cpu[$c$n] / n)))" $((rss[$c$n] / 1024))
	done
done
printf '\n'
for c in lint build; do
	# per-chart CPU at the large size over that at the small size, x100
	r=$((cpu[$c$large] * small * 100 / (cpu[$c$small] * large)))
	printf '%s: CPU per chart at %d / at %d = %d.%02dx (target at most 1.5x: %s); peak memory at %d: %d MiB (target under 1024 MiB: %s)\n' \
		"$c" "$large" "$small" $((r / 100)) $((r % 100)) "$(verdict "$r" 150)" "$large" $((rss[$c$large] / 1024)) "$(verdict $((rss[$c$large] / 1024)) 1023)"
done
