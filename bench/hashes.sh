#!/usr/bin/env bash
# Benchmarks the h1: and zh: hashes of realistic provider zips against the
# floor of sha256sum over the same bytes, and measures peak memory.
#
# Usage: bench/hashes.sh [SIZE_MB...]   (default: 50 200)
#
# For each size it builds the zip once (deterministic content, written by the
# TestWriteBenchZip helper of package hashes), times sha256sum of it (best of
# three, wall and CPU time), runs BenchmarkHashZip on that file (MB/s, peak-heap-MB) and reports
# the peak RSS of the benchmark process for h1 and zh separately
# (/usr/bin/time -v, when available).
set -euo pipefail

cd "$(dirname "$0")/.."
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(50 200)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go test -c -o "$work/hashes.test" ./hashes

# best_of_three prints "WALL CPU" in seconds: the best of three runs of "$@"
# (CPU = user + system; the machine may be shared, which inflates wall time).
best_of_three() {
	local best="" bestcpu=""
	for _ in 1 2 3; do
		local start end t cpu
		start=$(date +%s.%N)
		cpu=$( { /usr/bin/env time -f '%U %S' "$@" >/dev/null; } 2>&1 | awk '{print $1 + $2}')
		end=$(date +%s.%N)
		t=$(echo "$end - $start" | bc -l)
		if [ -z "$best" ] || [ "$(echo "$t < $best" | bc -l)" = 1 ]; then best=$t; fi
		if [ -z "$bestcpu" ] || [ "$(echo "$cpu < $bestcpu" | bc -l)" = 1 ]; then bestcpu=$cpu; fi
	done
	echo "$best $bestcpu"
}

for mb in "${sizes[@]}"; do
	zip="$work/package-${mb}MB.zip"
	TFDEPS_BENCH_ZIP_OUT="$zip" TFDEPS_BENCH_ZIP_MB="$mb" "$work/hashes.test" -test.run '^TestWriteBenchZip$' >/dev/null
	bytes=$(stat -c %s "$zip")
	echo "== zip of ${mb} MB target: $bytes bytes"

	cat "$zip" >/dev/null # warm the page cache
	read -r t cpu < <(best_of_three sha256sum "$zip")
	printf 'sha256sum (floor): %.3f s wall, %.1f MB/s; %.3f s CPU, %.1f MB/cpu-s\n' \
		"$t" "$(echo "$bytes / 1048576 / $t" | bc -l)" "$cpu" "$(echo "$bytes / 1048576 / ($cpu + 0.001)" | bc -l)"

	for scheme in h1 zh; do
		bench=(env TFDEPS_BENCH_ZIP="$zip" "$work/hashes.test" -test.run '^$'
			-test.bench "^BenchmarkHashZip/size=fileMB/${scheme}\$" -test.benchtime 3x)
		if [ -x /usr/bin/time ]; then
			/usr/bin/time -v "${bench[@]}" >"$work/out" 2>"$work/time"
			rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$work/time")
			grep '^Benchmark' "$work/out" | sed 's/^/  /'
			echo "  peak RSS of the benchmark process: $((rss / 1024)) MB"
		else
			"${bench[@]}" | grep '^Benchmark' | sed 's/^/  /'
		fi
	done
done
