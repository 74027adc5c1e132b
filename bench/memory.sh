#!/usr/bin/env bash
# Peak RSS of `tfdeps config`, `providers` and `lock verify` on one
# configuration file of SIZE bytes (default 10 MiB) of each hostile or
# generated kind (issue #14: any input up to 10 MB within 2 GB), and on
# files of each dense kind just under config.MaxFileTokens, the worst a
# file that is not refused can be. bench/memory_gen.py writes the inputs.
# Prints kind, bytes, command, peak RSS (/usr/bin/time -v), CPU seconds,
# exit status and the first error.
#
#   bench/memory.sh [SIZE] [KIND...]     (SKIP_LIMIT=1: not the files at the limit)
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
size=${1:-10485760}
shift || true
kinds=${*:-bracket brace paren tuple-wide tuple-empty object-wide attrs operators binops json-deep json-deep-obj json-wide json-wide-obj json-templates blocks blocks-labeled string templates template-dirs cdktf cdktf-json}
bench_init
go build -o "$work/tfdeps" ./cmd/tfdeps

run() { # run KIND DIR
	for cmd in config providers "lock verify"; do
		/usr/bin/time -v -o "$work/time" "$work/tfdeps" -chdir="$2" $cmd -no-color >"$work/out" 2>&1 && rc=0 || rc=$?
		printf '%-16s %9d %-12s %6d MB %6ss exit=%d %s\n' "$1" "$(cat "$2"/* | wc -c)" "$cmd" \
			"$(awk '/Maximum resident/{print int($6/1024)}' "$work/time")" \
			"$(awk '/User time/{u=$4}/System time/{s=$4}END{print u+s}' "$work/time")" \
			"$rc" "$(grep -m1 '^Error' "$work/out" || true)"
	done
}
for k in $kinds; do
	python3 bench/memory_gen.py "$k" "$size" "$work/$k" >/dev/null
	run "$k" "$work/$k"
done
# At the token limit (3,000,000): sizes for each kind's tokens per byte.
[ -n "${SKIP_LIMIT:-}" ] && exit 0
for ks in bracket:2990000 operators:2990000 json-deep:2990000 json-wide:2990000 templates:3990000 blocks:7490000; do
	python3 bench/memory_gen.py "${ks%%:*}" "${ks#*:}" "$work/limit-${ks%%:*}" >/dev/null
	run "limit-${ks%%:*}" "$work/limit-${ks%%:*}"
done
