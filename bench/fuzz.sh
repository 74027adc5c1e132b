#!/usr/bin/env bash
# Runs every fuzz target of the repository, one after another, each for the
# given time (default 60s), with -parallel=1 so that it shares the machine.
#
#   bench/fuzz.sh [FUZZTIME] [TARGET-REGEXP]
#
#   bench/fuzz.sh 10m              every target for ten minutes
#   bench/fuzz.sh 2m 'Nesting|Read' only the targets whose name matches
#
# A target that fails leaves its input in PKG/testdata/fuzz/TARGET/ (go test
# writes it there); the script goes on with the next target and exits 1 at
# the end if any failed. A summary line per target goes to stdout.
set -u
cd "$(dirname "$0")/.."

fuzztime=${1:-60s}
filter=${2:-.}
failed=0

# Every "func FuzzX(" in a _test.go file, with its package directory.
targets=$(grep -rl --include='*_test.go' '^func Fuzz' . | sort | while read -r file; do
	dir=$(dirname "$file")
	grep -o '^func Fuzz[A-Za-z0-9_]*' "$file" | sed 's/^func //' | while read -r name; do
		echo "$dir $name"
	done
done)

while read -r dir name; do
	[ -n "$dir" ] || continue
	echo "$name" | grep -Eq "$filter" || continue
	start=$(date +%s)
	log=$(mktemp)
	if go test -timeout 0 -run '^$' -fuzz "^${name}\$" -fuzztime "$fuzztime" -parallel=1 "$dir" >"$log" 2>&1; then
		status=ok
	else
		status=FAIL
		failed=1
	fi
	execs=$(grep -o 'execs: [0-9]*' "$log" | tail -1 | sed 's/execs: //')
	echo "$status $dir $name $(( $(date +%s) - start ))s execs=${execs:-?}"
	if [ "$status" = FAIL ]; then
		sed -n '/--- FAIL/,$p' "$log" | head -40
		# A worker that died (killed from outside, out of memory) leaves an
		# input that may not fail: say whether it does.
		input=$(grep -o 'Failing input written to testdata/fuzz/[^ ]*' "$log" | tail -1 | sed 's/.*testdata\/fuzz\/[^/]*\///')
		if [ -n "$input" ]; then
			if go test -run "^${name}/${input}\$" "$dir" >/dev/null 2>&1; then
				echo "   input $input does not fail when run again (the worker died: killed or out of memory?)"
			else
				echo "   input $input fails when run again"
			fi
		fi
	fi
	rm -f "$log"
done <<<"$targets"

exit "$failed"
