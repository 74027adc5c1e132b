#!/usr/bin/env bash
# Benchmark of `tfdeps serve` warm: 100 concurrent clients fetching
#   json     - index.json and VERSION.json of the mirror (requests/s);
#   archive  - SIZE MB archives of the mirror (MB/s);
# next to the floors measured in the same run on the same files:
#   disk     - the stored archives read by 100 goroutines (page cache);
#   loopback - the same files from net/http's static file server.
# The upstream is the fake registry (internal/registrytest) over loopback;
# serve fills its storage (a local directory) once before timing.
#
# Usage: bench/serve.sh [SIZE_MB] [JSON_REQUESTS] [ARCHIVE_REQUESTS] [CLIENTS]
#        (default 50 20000 200 100)
set -euo pipefail

cd "$(dirname "$0")/.."
mb=${1:-50}
jsonreq=${2:-20000}
archreq=${3:-200}
clients=${4:-100}
n=2
platforms=(linux_amd64 linux_arm64 darwin_arm64 windows_amd64)
# shellcheck source=bench/lib.sh
. bench/lib.sh
bench_init

go build -o "$work/tfdeps" ./cmd/tfdeps
go build -o "$work/fakeserver" ./bench/cmd/fakeserver
go build -o "$work/serveload" ./bench/cmd/serveload

start_fake "$work/up" "$work/fakeserver" -dir "$work/up" -n "$n" -mb "$mb" \
	-platforms "$(IFS=,; echo "${platforms[*]}")"

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
(
	set -a
	# shellcheck disable=SC1090
	. "$work/up/env"
	set +a
	export HOME="$work/home"
	exec "$work/tfdeps" serve -listen="127.0.0.1:$port" -storage="$work/store" \
		-upstream=registry.opentofu.org -log-format=text 2>"$work/serve.log"
) &
bench_pids+=($!)
base="http://127.0.0.1:$port"
for _ in $(seq 1 100); do
	curl -fs "$base/healthz" >/dev/null 2>&1 && break
	sleep 0.1
done

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
