#!/usr/bin/env bash
# Benchmark of `tfdeps serve`.
#
# Cold: a server on an empty store, in front of a fake upstream without the
# `packages` map (so VERSION.json also needs the archives), gets COLD_CLIENTS
# concurrent clients at once, each with its own connection, asking for the
# index.json, VERSION.json and every platform's archive (COLD_MB MB) of 4
# providers (several dozen clients for each URL). Checked: no client error,
# and each archive fetched from the upstream exactly once (counted by the
# fake upstream); reported: wall time, throughput and latencies, next to
# the same clients once more on the now warm store.
#
# Warm: 100 concurrent clients fetching
#   json     - index.json and VERSION.json of the mirror (requests/s, and
#              the 50th/99th percentile latency);
#   archive  - SIZE MB archives of the mirror (MB/s);
# next to the floors measured in the same run on the same files:
#   disk     - the stored archives read by 100 goroutines (page cache);
#   loopback - the same files from net/http's static file server.
# The upstream is the fake registry (internal/registrytest) over loopback;
# serve fills its storage (a local directory) once before timing.
#
# Usage: bench/serve.sh [SIZE_MB] [JSON_REQUESTS] [ARCHIVE_REQUESTS] [CLIENTS] [COLD_CLIENTS] [COLD_MB]
#        (default 50 20000 200 100 1000 4)
# SERVE_BENCH_STATS=FILE keeps the fake upstream's request counts of the
# cold phase ("COUNT PATH" lines). Exits 1 when a cold check failed.
set -euo pipefail

cd "$(dirname "$0")/.."
mb=${1:-50}
jsonreq=${2:-20000}
archreq=${3:-200}
clients=${4:-100}
coldclients=${5:-1000}
coldmb=${6:-4}
n=2
coldn=4
platforms=(linux_amd64 linux_arm64 darwin_arm64 windows_amd64)
pl_csv=$(IFS=,; echo "${platforms[*]}")
# shellcheck source=bench/lib.sh
. bench/lib.sh
bench_init

go build -o "$work/tfdeps" ./cmd/tfdeps
go build -o "$work/fakeserver" ./bench/cmd/fakeserver
go build -o "$work/serveload" ./bench/cmd/serveload

# start_serve UPDIR STORE LOG: runs tfdeps serve in front of the fake in
# UPDIR and sets $base (its URL) and $serve_pid.
start_serve() {
	local up=$1 store=$2 log=$3 port
	port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
	(
		set -a
		# shellcheck disable=SC1090
		. "$up/env"
		set +a
		export HOME="$work/home"
		exec "$work/tfdeps" serve -listen="127.0.0.1:$port" -storage="$store" \
			-upstream=registry.opentofu.org -log-format=text 2>"$log"
	) &
	serve_pid=$!
	bench_pids+=("$serve_pid")
	base="http://127.0.0.1:$port"
	for _ in $(seq 1 100); do
		curl -fs "$base/healthz" >/dev/null 2>&1 && return 0
		sleep 0.1
	done
	echo "tfdeps serve did not start (log: $(cat "$log"))" >&2
	exit 1
}

# Cold.
start_fake "$work/coldup" "$work/fakeserver" -dir "$work/coldup" -n "$coldn" -mb "$coldmb" \
	-platforms "$pl_csv" -nopackages
start_serve "$work/coldup" "$work/coldstore" "$work/coldserve.log"
cold=()
for i in $(seq -f '%02g' 1 "$coldn"); do
	cold+=("$base/registry.opentofu.org/bench/p$i/index.json" "$base/registry.opentofu.org/bench/p$i/1.0.0.json")
	for pl in "${platforms[@]}"; do
		cold+=("$base/registry.opentofu.org/bench/p$i/terraform-provider-p${i}_1.0.0_$pl.zip")
	done
done
coldout=$("$work/serveload" get -c "$coldclients" -n "$coldclients" -timeout 10m "${cold[@]}")
echo "cold      $coldclients clients, ${#cold[@]} URLs ($coldn providers × ${#platforms[@]} platforms × $coldmb MB, no packages map): $coldout"
stats_url=$(sed -n 's/^FAKE_STATS_URL=//p' "$work/coldup/env")
curl -fs "$stats_url" >"$work/coldstats"
archives_want=$((coldn * ${#platforms[@]}))
fetches=$(awk '$2 ~ /\.zip$/ {print $1}' "$work/coldstats" | sort -n | uniq -c | awk '{printf "%s%d archive(s) fetched %d time(s)", sep, $1, $2; sep="; "}')
echo "cold      upstream: $fetches (of $archives_want archives); other upstream requests: $(awk '$2 !~ /\.zip$/ {s += $1; k++; if ($1 > m) m = $1} END {printf "%d for %d URLs, at most %d for one", s, k, m}' "$work/coldstats")"
if [ -n "${SERVE_BENCH_STATS:-}" ]; then cp "$work/coldstats" "$SERVE_BENCH_STATS"; fi
fail=0
if ! grep -q ' errors=0 ' <<<"$coldout"; then
	echo "FAIL: cold clients got errors" >&2
	fail=1
fi
if [ "$(awk '$2 ~ /\.zip$/ && $1 == 1' "$work/coldstats" | wc -l)" -ne "$archives_want" ] ||
	[ "$(awk '$2 ~ /\.zip$/' "$work/coldstats" | wc -l)" -ne "$archives_want" ]; then
	echo "FAIL: not every archive was fetched from upstream exactly once:" >&2
	grep '\.zip$' "$work/coldstats" >&2
	fail=1
fi
if grep -q 'level=ERROR' "$work/coldserve.log"; then
	echo "FAIL: the cold server logged errors:" >&2
	grep 'level=ERROR' "$work/coldserve.log" | head -5 >&2
	fail=1
fi
echo "cold      the same $coldclients clients again, store now warm: $("$work/serveload" get -c "$coldclients" -n "$coldclients" -timeout 10m "${cold[@]}")"
kill "$serve_pid"

# Warm.
start_fake "$work/up" "$work/fakeserver" -dir "$work/up" -n "$n" -mb "$mb" -platforms "$pl_csv"
start_serve "$work/up" "$work/store" "$work/serve.log"

json=()
archives=()
files=()
for i in $(seq -f '%02g' 1 "$n"); do
	json+=("$base/registry.opentofu.org/bench/p$i/index.json" "$base/registry.opentofu.org/bench/p$i/1.0.0.json")
	for pl in "${platforms[@]}"; do
		archives+=("$base/registry.opentofu.org/bench/p$i/terraform-provider-p${i}_1.0.0_$pl.zip")
		files+=("mirror/registry.opentofu.org/bench/p$i/1.0.0/$pl.zip")
	done
done

# Warm: every JSON document and archive pulled through once.
start=$(date +%s.%N)
"$work/serveload" get -c 8 -n "${#archives[@]}" "${archives[@]}" >/dev/null
end=$(date +%s.%N)
echo "cold pull-through of ${#archives[@]} × $mb MB archives (8 clients): $(echo "$end - $start" | bc -l | xargs printf '%.2f') s"
"$work/serveload" get -c 1 -n "${#json[@]}" "${json[@]}" >/dev/null

"$work/serveload" static -dir "$work/store" >"$work/static.addr" &
bench_pids+=($!)
for _ in $(seq 1 100); do
	[ -s "$work/static.addr" ] && break
	sleep 0.1
done
addr=$(cat "$work/static.addr")
static=()
for f in "${files[@]}"; do static+=("http://$addr/$f"); done
abs=()
for f in "${files[@]}"; do abs+=("$work/store/$f"); done

echo "json      $clients clients: $("$work/serveload" get -c "$clients" -n "$jsonreq" "${json[@]}")"
echo "archive   $clients clients: $("$work/serveload" get -c "$clients" -n "$archreq" "${archives[@]}")"
echo "disk      $clients readers: $("$work/serveload" read -c "$clients" -n "$archreq" "${abs[@]}")"
echo "loopback  $clients clients: $("$work/serveload" get -c "$clients" -n "$archreq" "${static[@]}")"
echo "upstream archive downloads during the run: $(grep -c 'stored package from upstream' "$work/serve.log")"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
exit "$fail"
