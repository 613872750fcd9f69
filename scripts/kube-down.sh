#!/usr/bin/env bash
# Stops the cluster scripts/kube-up.sh started from a state directory.
#
#   scripts/kube-down.sh [--purge] [STATE_DIR]
#
# STATE_DIR defaults as for kube-up.sh ($CATALOGIST_CLUSTER_DIR, else
# ~/.cache/catalogist-cluster). Only the processes recorded in its PID files
# are signalled, and only while they are still the processes kube-up.sh
# started (same PID and start time), so a recycled PID is never killed. Each
# gets SIGTERM, then SIGKILL if it has not exited after
# $CATALOGIST_KUBE_DOWN_TIMEOUT seconds (default 20). The state directory
# (certificates, etcd's data, logs) is kept, so the next kube-up.sh reuses it,
# unless --purge is given. The owner watcher kube-up.sh may have started is
# stopped too.
set -euo pipefail

TIMEOUT=${CATALOGIST_KUBE_DOWN_TIMEOUT:-20}

log() { printf 'kube-down: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

. "$(dirname "${BASH_SOURCE[0]}")/kube-proc.sh"


# stop_one NAME: stops the process recorded in STATE_DIR/NAME.pid.
stop_one() {
	local name=$1 pidfile="$STATE_DIR/$1.pid" pid deadline
	[ -f "$pidfile" ] || return 0
	read -r pid _ <"$pidfile" || true
	if [ "$pid" = $$ ]; then
		# The owner watcher of kube-up.sh runs this script in its own
		# process once the owner is gone.
		rm -f "$pidfile"
		return 0
	fi
	if ! proc_matches "$pidfile"; then
		log "$name is not running"
		rm -f "$pidfile"
		return 0
	fi
	log "stopping $name (pid $pid)"
	kill -TERM "$pid" 2>/dev/null || true
	deadline=$((SECONDS + TIMEOUT))
	while proc_matches "$pidfile"; do
		if [ $SECONDS -ge $deadline ]; then
			log "$name did not exit after ${TIMEOUT}s; killing it"
			kill -KILL "$pid" 2>/dev/null || true
			deadline=$((SECONDS + 10))
			while proc_matches "$pidfile"; do
				[ $SECONDS -lt $deadline ] || die "$name (pid $pid) did not die"
				sleep 0.1
			done
			break
		fi
		sleep 0.1
	done
	rm -f "$pidfile"
}

main() {
	local purge=false
	while [ $# -gt 0 ]; do
		case $1 in
		--purge) purge=true ;;
		-*) die "unknown option $1 (usage: kube-down.sh [--purge] [STATE_DIR])" ;;
		*) break ;;
		esac
		shift
	done
	STATE_DIR=${1:-${CATALOGIST_CLUSTER_DIR:-$HOME/.cache/catalogist-cluster}}
	if ! [ -d "$STATE_DIR" ]; then
		log "no cluster state in $STATE_DIR"
		return 0
	fi
	STATE_DIR=$(cd "$STATE_DIR" && pwd)
	[ -f "$STATE_DIR/.catalogist-cluster" ] ||
		die "$STATE_DIR was not made by kube-up.sh"

	# kube-up.sh calls this script with its lock already held.
	if [ -z "${_CATALOGIST_CLUSTER_LOCKED:-}" ]; then
		exec 9>>"$STATE_DIR/.lock"
		flock 9
	fi

	# Clients of the API server first, etcd last, so that none spends its
	# last seconds retrying a vanished server.
	stop_one watcher
	stop_one clusterrole-aggregator
	stop_one kube-apiserver
	stop_one etcd

	if $purge; then
		log "removing $STATE_DIR"
		rm -rf "$STATE_DIR"
	fi
}

main "$@"
