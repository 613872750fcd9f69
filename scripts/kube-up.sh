#!/usr/bin/env bash
# Starts a local Kubernetes API server for the launcher tests: etcd plus a
# kube-apiserver, both on loopback, with token authentication and RBAC.
#
#   scripts/kube-up.sh [STATE_DIR]
#
# STATE_DIR (default $CATALOGIST_CLUSTER_DIR, else ~/.cache/catalogist-cluster)
# holds everything: certificates and keys (pki/), the token file, etcd's data,
# the logs (*.log), the PID files scripts/kube-down.sh reads, and the
# kubeconfig. The kubeconfig has two contexts:
#
#   admin       (current) user "admin", group system:masters: may do anything
#   restricted  user "restricted", no group but system:authenticated: RBAC
#               forbids it everything until a test binds it to a role
#
# The path of the kubeconfig is the LAST line of standard output; progress
# goes to standard error. Running it again while that cluster is up and ready
# only prints the path. Ports are picked free on 127.0.0.1 at each start, so
# clusters in different state directories run side by side.
#
# There is no controller manager, scheduler or kubelet: the API server's own
# bootstrap creates the default namespaces and the built-in ClusterRoles
# (admin, edit, view, ...), but no ServiceAccounts, and namespaces never
# finish deleting. The one controller run besides is the ClusterRole
# aggregation controller (clusterrole-aggregator), which gives admin, edit
# and view their rules.
#
# Tools: $CATALOGIST_ETCD and $CATALOGIST_KUBE_APISERVER, else the paths
# scripts/install-tools.sh installs them at (`make tools`);
# clusterrole-aggregator is taken from the kube-apiserver's directory.
# Readiness timeout: $CATALOGIST_KUBE_UP_TIMEOUT seconds (default 180).
#
# With $CATALOGIST_CLUSTER_OWNER_PID set (tests set it to their own PID), a
# small watcher stops the cluster once that process is gone, so a test binary
# killed by its timeout leaves nothing running; with
# CATALOGIST_CLUSTER_OWNER_PURGE=1 too, it also removes STATE_DIR then.
set -euo pipefail

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
STATE_DIR=${1:-${CATALOGIST_CLUSTER_DIR:-$HOME/.cache/catalogist-cluster}}
TIMEOUT=${CATALOGIST_KUBE_UP_TIMEOUT:-180}
SERVICE_CIDR=10.0.0.0/24

log() { printf 'kube-up: %s\n' "$*" >&2; }
die() { log "error: $*"; exit 1; }

need() {
	command -v "$1" >/dev/null 2>&1 || die "'$1' is required but not on PATH"
}

# tool ENV NAME: the path of a tool from ENV, else from install-tools.sh.
tool() {
	local env=$1 name=$2 bin
	bin=${!env:-}
	[ -n "$bin" ] || bin=$(bash "$SCRIPT_DIR/install-tools.sh" --print "$name")
	[ -x "$bin" ] || die "$name not found at $bin: run \`make tools\` (or scripts/install-tools.sh $name)"
	printf '%s\n' "$bin"
}


. "$(dirname "${BASH_SOURCE[0]}")/kube-proc.sh"

# ready URL TOKEN: true when the API server at URL answers /readyz with "ok".
ready() {
	local out
	out=$(curl -fsS --max-time 5 --cacert "$STATE_DIR/pki/ca.crt" \
		-H "Authorization: Bearer $2" "$1/readyz" 2>/dev/null) || return 1
	[ "$out" = ok ]
}

# etcd_healthy PORT: true when etcd on PORT reports itself healthy.
etcd_healthy() { curl -fsS --max-time 2 "http://127.0.0.1:$1/health" >/dev/null 2>&1; }

# edit_aggregated URL TOKEN: true when the ClusterRole "edit" has rules.
edit_aggregated() {
	curl -fsS --max-time 5 --cacert "$STATE_DIR/pki/ca.crt" -H "Authorization: Bearer $2" \
		"$1/apis/rbac.authorization.k8s.io/v1/clusterroles/edit" 2>/dev/null | grep -q '"rules": *\['
}

# await WHAT DEADLINE "PROCS" CHECK...: runs CHECK until it succeeds. Fails
# when one of PROCS (names of processes started here) has exited, with 2 if
# its port was taken (the start is then retried on other ports), or once
# SECONDS passes DEADLINE.
await() {
	local what=$1 deadline=$2 procs=$3 p
	shift 3
	until "$@"; do
		for p in $procs; do
			if ! proc_matches "$STATE_DIR/$p.pid"; then
				grep -q 'address already in use' "$STATE_DIR/$p.log" && return 2
				log "$p exited"
				return 1
			fi
		done
		[ $SECONDS -lt "$deadline" ] || { log "$what not ready in time"; return 1; }
		sleep 0.2
	done
}

# free_port: a TCP port nobody listens on at 127.0.0.1, below the ephemeral
# range so outgoing connections do not take it meanwhile. A race with another
# process is caught when the server fails to bind (the start is retried).
free_port() {
	local port i
	for ((i = 0; i < 100; i++)); do
		port=$((20000 + RANDOM % 12000))
		if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
			printf '%s\n' "$port"
			return 0
		fi
	done
	die "no free port found on 127.0.0.1"
}

# launch NAME LOG CMD...: runs CMD in its own session, detached from this
# script (stdin, stdout and stderr redirected, the lock closed), and records
# "PID STARTTIME NAME" in STATE_DIR/NAME.pid. The command writes its own PID
# before exec, so the record is right even if setsid has to fork. A command
# that has already exited is recorded with start time 0, which matches no
# process.
launch() {
	local name=$1 logfile=$2 pidfile="$STATE_DIR/$1.pid"
	shift 2
	rm -f "$pidfile.new"
	LAUNCHING=$name
	# shellcheck disable=SC2016 # expanded by the child shell
	setsid bash -c 'echo $$ >"$0.tmp" && mv "$0.tmp" "$0" && exec "$@"' "$pidfile.new" "$@" \
		</dev/null >>"$logfile" 2>&1 9>&- &
	record "$name" || return 1
}

# LAUNCHING names the process launch has started but not yet recorded.
LAUNCHING=

# record NAME: waits for the PID a launched command writes, and records it.
record() {
	local name=$1 pidfile="$STATE_DIR/$1.pid" i pid stat rest f start=0
	for ((i = 0; i < 200; i++)); do
		[ -f "$pidfile.new" ] && break
		sleep 0.05
	done
	if ! read -r pid <"$pidfile.new" 2>/dev/null; then
		log "$name did not start"
		return 1
	fi
	if stat=$(cat "/proc/$pid/stat" 2>/dev/null); then
		rest=${stat##*) }
		read -ra f <<<"$rest"
		start=${f[19]}
	fi
	printf '%s %s %s\n' "$pid" "$start" "$name" >"$pidfile"
	rm -f "$pidfile.new"
	LAUNCHING=
}

# interrupted: the signal handler while the lock is held; stops whatever has
# been started, including a process being launched.
interrupted() {
	trap - INT TERM HUP
	log "interrupted"
	[ -z "$LAUNCHING" ] || record "$LAUNCHING" || true
	stop
	exit 130
}

# show_logs: the end of both logs, for a failed start.
show_logs() {
	local f
	for f in "$STATE_DIR/etcd.log" "$STATE_DIR/kube-apiserver.log" "$STATE_DIR/clusterrole-aggregator.log"; do
		[ -f "$f" ] || continue
		log "last lines of $f:"
		tail -n 25 "$f" | sed 's/^/    /' >&2
	done
}

# stop: stops whatever this state directory has running (the lock is held).
stop() {
	_CATALOGIST_CLUSTER_LOCKED=1 bash "$SCRIPT_DIR/kube-down.sh" "$STATE_DIR" >&2 || true
}

# start_watcher PID: runs scripts/kube-down.sh on this state directory
# (with --purge if CATALOGIST_CLUSTER_OWNER_PURGE=1) once process PID (the
# same one: start time checked) has exited.
start_watcher() {
	local owner=$1 stat rest f purge=
	[ "${CATALOGIST_CLUSTER_OWNER_PURGE:-}" != 1 ] || purge=--purge
	if ! stat=$(cat "/proc/$owner/stat" 2>/dev/null); then
		log "owner process $owner has exited; stopping"
		stop
		[ -z "$purge" ] || rm -rf "$STATE_DIR"
		exit 1
	fi
	rest=${stat##*) }
	read -ra f <<<"$rest"
	# shellcheck disable=SC2016 # expanded by the watcher's shell
	launch watcher /dev/null bash -c '
		owner=$1 start=$2
		alive() {
			local stat rest f
			stat=$(cat "/proc/$owner/stat" 2>/dev/null) || return 1
			rest=${stat##*) }
			read -ra f <<<"$rest"
			[ "${f[0]}" != Z ] && [ "${f[19]}" = "$start" ]
		}
		while alive; do sleep 2; done
		exec bash "$3" $5 "$4"
	' watcher "$owner" "${f[19]}" "$SCRIPT_DIR/kube-down.sh" "$STATE_DIR" "$purge" || {
		stop
		die "could not start the owner watcher"
	}
}

gen_pki() {
	local pki="$STATE_DIR/pki"
	mkdir -p "$pki"
	[ -f "$pki/ca.crt" ] && [ -f "$pki/apiserver.crt" ] && [ -f "$pki/sa.pub" ] && return 0
	log "generating certificates and keys in $pki"
	rm -f "$pki"/*
	(
		umask 077
		cd "$pki"
		openssl req -x509 -new -nodes -days 3650 \
			-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 \
			-keyout ca.key -out ca.crt -subj "/CN=catalogist-test-ca" 2>/dev/null
		openssl req -new -nodes -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 \
			-keyout apiserver.key -out apiserver.csr -subj "/CN=kube-apiserver" 2>/dev/null
		printf '%s\n' \
			"basicConstraints=critical,CA:FALSE" \
			"keyUsage=critical,digitalSignature,keyEncipherment" \
			"extendedKeyUsage=serverAuth" \
			"subjectAltName=IP:127.0.0.1,DNS:localhost,IP:10.0.0.1,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc" \
			>apiserver.ext
		openssl x509 -req -in apiserver.csr -CA ca.crt -CAkey ca.key \
			-set_serial "0x$(openssl rand -hex 16)" -days 3650 \
			-extfile apiserver.ext -out apiserver.crt 2>/dev/null
		rm -f apiserver.csr apiserver.ext
		openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out sa.key 2>/dev/null
		openssl pkey -in sa.key -pubout -out sa.pub 2>/dev/null
	) || die "openssl failed"
}

gen_tokens() {
	local file="$STATE_DIR/tokens.csv"
	[ -s "$file" ] && return 0
	(
		umask 077
		# token,user,uid[,"group,..."]
		printf '%s,admin,admin,system:masters\n' "$(openssl rand -hex 32)" >"$file.new"
		printf '%s,restricted,restricted\n' "$(openssl rand -hex 32)" >>"$file.new"
		mv -f "$file.new" "$file"
	)
}

# token USER: the bearer token of USER from the token file.
token() { awk -F, -v u="$1" '$2 == u { print $1 }' "$STATE_DIR/tokens.csv"; }

write_kubeconfig() {
	local url=$1 ca user file="$STATE_DIR/kubeconfig"
	ca=$(base64 -w0 <"$STATE_DIR/pki/ca.crt")
	(
		umask 077
		{
			printf 'apiVersion: v1\nkind: Config\ncurrent-context: admin\nclusters:\n'
			for user in admin restricted; do
				printf -- '- name: %s\n  cluster:\n    server: %s\n    certificate-authority-data: %s\n' "$user" "$url" "$ca"
			done
			printf 'users:\n'
			for user in admin restricted; do
				printf -- '- name: %s\n  user:\n    token: %s\n' "$user" "$(token "$user")"
			done
			printf 'contexts:\n'
			for user in admin restricted; do
				printf -- '- name: %s\n  context:\n    cluster: %s\n    user: %s\n    namespace: default\n' "$user" "$user" "$user"
			done
		} >"$file.new"
		mv -f "$file.new" "$file"
	)
}

# start_once: one attempt at starting etcd and the API server on fresh ports.
# Returns 2 when a port was taken meanwhile (worth another attempt).
start_once() {
	# This runs as `start_once || ...`, where set -e does not apply: every
	# step checks for failure itself.
	local etcd_port peer_port api_port url deadline
	etcd_port=$(free_port) || return 1
	peer_port=$(free_port) || return 1
	api_port=$(free_port) || return 1
	while [ "$peer_port" = "$etcd_port" ]; do peer_port=$(free_port) || return 1; done
	while [ "$api_port" = "$etcd_port" ] || [ "$api_port" = "$peer_port" ]; do api_port=$(free_port) || return 1; done
	url="https://127.0.0.1:$api_port"
	: >"$STATE_DIR/etcd.log"
	: >"$STATE_DIR/kube-apiserver.log"

	# Debian's etcd (3.4) cannot be asked for watch progress, which the API
	# server's caches use to catch up on resources nobody writes; frequent
	# unprompted progress notifications stand in for it (otherwise such
	# reads wait for the 10-minute default, and the log fills with "Too
	# large resource version").
	log "starting etcd on 127.0.0.1:$etcd_port"
	launch etcd "$STATE_DIR/etcd.log" "$ETCD" \
		--name catalogist \
		--data-dir "$STATE_DIR/etcd-data" \
		--listen-client-urls "http://127.0.0.1:$etcd_port" \
		--advertise-client-urls "http://127.0.0.1:$etcd_port" \
		--listen-peer-urls "http://127.0.0.1:$peer_port" \
		--initial-advertise-peer-urls "http://127.0.0.1:$peer_port" \
		--initial-cluster "catalogist=http://127.0.0.1:$peer_port" \
		--experimental-watch-progress-notify-interval 1s \
		--logger zap --log-outputs stderr --log-level warn || return 1

	await etcd $((SECONDS + 30)) etcd etcd_healthy "$etcd_port" || return

	log "starting kube-apiserver on $url"
	launch kube-apiserver "$STATE_DIR/kube-apiserver.log" "$KUBE_APISERVER" \
		--bind-address=127.0.0.1 \
		--advertise-address=127.0.0.1 \
		--secure-port="$api_port" \
		--etcd-servers="http://127.0.0.1:$etcd_port" \
		--authorization-mode=RBAC \
		--token-auth-file="$STATE_DIR/tokens.csv" \
		--anonymous-auth=false \
		--cert-dir="$STATE_DIR/pki" \
		--tls-cert-file="$STATE_DIR/pki/apiserver.crt" \
		--tls-private-key-file="$STATE_DIR/pki/apiserver.key" \
		--service-account-issuer=https://kubernetes.default.svc \
		--service-account-key-file="$STATE_DIR/pki/sa.pub" \
		--service-account-signing-key-file="$STATE_DIR/pki/sa.key" \
		--service-cluster-ip-range="$SERVICE_CIDR" \
		--endpoint-reconciler-type=none \
		--profiling=false \
		--v=0 || return 1

	printf '%s\n' "$url" >"$STATE_DIR/server" || return 1
	write_kubeconfig "$url" || return 1

	local admin
	admin=$(token admin)
	[ -n "$admin" ] || { log "no admin token in $STATE_DIR/tokens.csv"; return 1; }
	deadline=$((SECONDS + TIMEOUT))
	await kube-apiserver "$deadline" "etcd kube-apiserver" ready "$url" "$admin" || return

	log "starting clusterrole-aggregator"
	: >"$STATE_DIR/clusterrole-aggregator.log"
	launch clusterrole-aggregator "$STATE_DIR/clusterrole-aggregator.log" "$AGGREGATOR" \
		--kubeconfig "$STATE_DIR/kubeconfig" --context admin || return 1
	await "the aggregated ClusterRole edit" "$deadline" clusterrole-aggregator edit_aggregated "$url" "$admin"
}

main() {
	need curl
	need openssl
	need setsid
	need flock
	local owner=${CATALOGIST_CLUSTER_OWNER_PID:-}
	[ -z "$owner" ] || [[ $owner =~ ^[0-9]+$ ]] || die "CATALOGIST_CLUSTER_OWNER_PID=$owner is not a PID"
	mkdir -p "$STATE_DIR"
	chmod 700 "$STATE_DIR"
	STATE_DIR=$(cd "$STATE_DIR" && pwd)
	: >>"$STATE_DIR/.catalogist-cluster"

	# One kube-up or kube-down at a time per state directory. The servers are
	# started with the lock's descriptor closed, so they never hold it.
	exec 9>>"$STATE_DIR/.lock"
	flock 9
	# Interrupted: stop whatever has been started.
	trap interrupted INT TERM HUP

	# Already up and ready: nothing to do.
	if proc_matches "$STATE_DIR/etcd.pid" && proc_matches "$STATE_DIR/kube-apiserver.pid" &&
		proc_matches "$STATE_DIR/clusterrole-aggregator.pid" &&
		[ -f "$STATE_DIR/kubeconfig" ] && [ -f "$STATE_DIR/server" ] &&
		ready "$(cat "$STATE_DIR/server")" "$(token admin)"; then
		log "already running ($STATE_DIR)"
		printf '%s\n' "$STATE_DIR/kubeconfig"
		return 0
	fi
	# Left over from a run that died or was half stopped.
	if compgen -G "$STATE_DIR/*.pid" >/dev/null; then
		log "stopping what is left of a previous run"
		stop
	fi

	ETCD=$(tool CATALOGIST_ETCD etcd)
	KUBE_APISERVER=$(tool CATALOGIST_KUBE_APISERVER kube-apiserver)
	AGGREGATOR="$(dirname "$KUBE_APISERVER")/clusterrole-aggregator"
	[ -x "$AGGREGATOR" ] || die "$AGGREGATOR not found: run \`make tools\` (or scripts/install-tools.sh kube-apiserver)"
	gen_pki
	gen_tokens

	local attempt rc start=$SECONDS
	for attempt in 1 2 3; do
		rc=0
		start_once || rc=$?
		[ $rc -eq 0 ] && break
		if [ $rc -eq 2 ] && [ $attempt -lt 3 ]; then
			log "a port was taken meanwhile; retrying"
			stop
			continue
		fi
		show_logs
		stop
		die "the cluster did not start (state in $STATE_DIR)"
	done
	[ -z "$owner" ] || start_watcher "$owner"
	trap - INT TERM HUP
	log "ready in $((SECONDS - start))s; kubeconfig:"
	printf '%s\n' "$STATE_DIR/kubeconfig"
}

main "$@"
