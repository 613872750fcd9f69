#!/usr/bin/env bash
# Gives each tracked file the time of the last commit that changed it, and
# each tracked directory the latest time of what it holds.
#
# Go's test cache keys a test's result on the size and modification time of
# every file of the module the test opened. A fresh clone stamps every file
# with the clone's time, so no test that reads its testdata is ever taken
# from the cache, however warm the machine. With times from the history, a
# file has the same time in every clone of a commit, and a different one
# once a commit changes it: CI reruns the tests whose inputs changed.
# Only for a clean checkout: a file edited since the last commit would get
# the commit's time.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
	echo "restore-mtime: the work tree has changes; leaving times as they are" >&2
	exit 0
fi
# The first time a path appears in the log, newest first, is its last change
# (a merge counts as changing what differs from its first parent, so that a
# file resolved in a merge gets the merge's time).
git -c core.quotePath=false log --format='@%ct' --name-only --no-renames --diff-merges=first-parent HEAD |
	awk -v tracked=<(git -c core.quotePath=false ls-files) '
	BEGIN { while ((getline p < tracked) > 0) want[p] = 1 }
	/^@[0-9]+$/ { t = substr($0, 2); next }
	$0 == "" { next }
	($0 in want) && !($0 in seen) {
		seen[$0] = 1
		print t "\t" $0
		# Directories: the latest time of anything under them.
		d = $0
		while (sub(/\/[^\/]*$/, "", d)) {
			if (!(d in dir) || dir[d] < t) dir[d] = t
		}
		if (!("." in dir) || dir["."] < t) dir["."] = t
	}
	END { for (d in dir) print dir[d] "\t" d }' |
	sort -t "$(printf '\t')" -k1,1 |
	awk -F '\t' '
	$1 != t { if (t != "") close(cmd); t = $1; cmd = "xargs -d \"\\n\" touch -h -m -d @" t }
	{ print $2 | cmd }'
