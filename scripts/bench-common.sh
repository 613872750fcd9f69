# Shared by the bench-*.sh scripts: sourced after `cd` to the repository root
# with $bench set to the script's short name. Defines log, die, now_us, ms,
# creates $work (removed on exit), builds bin/catalogist and sets $helm to
# the Helm 4 CLI.

log() { printf '%s: %s\n' "$bench" "$*" >&2; }
die() { log "error: $*"; exit 1; }

# now_us prints the wall clock in microseconds. EPOCHREALTIME uses the
# locale's decimal separator, hence the [.,].
now_us() { local t=$EPOCHREALTIME; printf '%s\n' "${t/[.,]/}"; }

# ms US prints microseconds as milliseconds with one decimal.
ms() { printf '%d.%d' $(($1 / 1000)) $(($1 % 1000 / 100)); }

[ -n "${EPOCHREALTIME:-}" ] || die "bash 5 or later is required (EPOCHREALTIME)"

work=$(mktemp -d "${TMPDIR:-/tmp}/$bench.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

log "building bin/catalogist"
go build -pgo=cmd/catalogist/release.pgo -o bin/catalogist ./cmd/catalogist

# The Helm 4 CLI: $HELM4 when it points at a binary (make exports it), else
# the pinned one, installed on first use.
helm=${HELM4:-}
if [ -z "$helm" ] || [ ! -x "$helm" ]; then
	helm=$(bash scripts/install-tools.sh helm4 | tail -n 1)
fi
[ -x "$helm" ] || die "no Helm 4 binary at '$helm'"
log "peer: $helm ($("$helm" version --short))"
