#!/usr/bin/env bash
# Compares tfdeps' provider download (stream to disk + zh: hash in one pass,
# then authentication: package data, SHA256SUMS line, checksum, OpenPGP
# signature) with `curl -k` fetching the same archive from the same fake
# registry followed by `sha256sum` of the file.
#
# Usage: bench/download.sh [SIZE_MB]   (default 200)
#
# Prints the best of three wall-clock times of each, the throughput, the
# ratio (target: tfdeps >= 80% of curl+sha256sum) and the peak RSS of the
# tfdeps client process (/usr/bin/time -v, when available).
set -euo pipefail

cd "$(dirname "$0")/.."
mb=${1:-200}
# shellcheck source=bench/lib.sh
. bench/lib.sh
bench_init

go build -o "$work/fakeregistry" ./bench/cmd/fakeregistry
start_fake "$work" "$work/fakeregistry" serve -mb "$mb" -dir "$work"
# shellcheck disable=SC1091
. "$work/env"

curl_once() {
	curl -sk -o "$work/curl.zip" "$ARCHIVE_URL"
	got=$(sha256sum "$work/curl.zip" | cut -d' ' -f1)
	rm -f "$work/curl.zip"
	[ "$got" = "$SHA256" ] || { echo "curl: checksum mismatch" >&2; exit 1; }
}

best=""
for _ in 1 2 3; do
	start=$(date +%s.%N)
	curl_once
	end=$(date +%s.%N)
	t=$(echo "$end - $start" | bc -l)
	if [ -z "$best" ] || [ "$(echo "$t < $best" | bc -l)" = 1 ]; then best=$t; fi
done
curl_time=$best

rss=""
if [ -x /usr/bin/time ]; then
	tfdeps_time=$(/usr/bin/time -v -o "$work/time.txt" "$work/fakeregistry" fetch -dir "$work" -n 3)
	rss=$(awk -F: '/Maximum resident set size/ {gsub(/ /, "", $2); print $2}' "$work/time.txt")
else
	tfdeps_time=$("$work/fakeregistry" fetch -dir "$work" -n 3)
fi

mbps() { echo "scale=1; $SIZE / 1048576 / $1" | bc -l; }
printf 'package size:          %d bytes\n' "$SIZE"
printf 'curl -k + sha256sum:   %.3f s  (%s MiB/s)\n' "$curl_time" "$(mbps "$curl_time")"
printf 'tfdeps download+auth:  %.3f s  (%s MiB/s)\n' "$tfdeps_time" "$(mbps "$tfdeps_time")"
printf 'tfdeps speed / curl:   %s%%\n' "$(echo "scale=0; 100 * $curl_time / $tfdeps_time" | bc -l)"
[ -n "$rss" ] && printf 'tfdeps peak RSS:       %s KiB\n' "$rss"
