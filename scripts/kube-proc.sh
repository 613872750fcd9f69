# Sourced by kube-up.sh and kube-down.sh: the check that a recorded PID is
# still the process they started.

# proc_matches PIDFILE: true when the process recorded in PIDFILE ("PID
# STARTTIME NAME") still runs with the recorded start time. A zombie counts
# as gone: it has exited, only its parent has not reaped it yet. The start
# time makes a recycled PID never match.
proc_matches() {
	local pid start name stat rest f
	[ -f "$1" ] || return 1
	read -r pid start name <"$1" || return 1
	[[ $pid =~ ^[0-9]+$ ]] || return 1
	stat=$(cat "/proc/$pid/stat" 2>/dev/null) || return 1
	rest=${stat##*) }
	read -ra f <<<"$rest"
	# f[0] is the state (field 3), f[19] the start time (field 22).
	[ "${f[0]}" != Z ] && [ "${f[19]}" = "$start" ]
}
