#!/usr/bin/env bash
# Benchmark of `tfdeps providers lock`: N providers × 4 platforms × SIZE MB
# from the fake registry (internal/registrytest) over loopback.
#   opentofu-way  - every package downloaded and hashed one at a time, no
#                   cache, registry hashes ignored
#                   (-download-all -parallelism=1 -no-hash-cache);
#   cold          - empty hash cache, registry with the packages map and a
#                   signed SHA256SUMS: nothing is downloaded;
#   cold-nopkgs   - empty hash cache, registry without the packages map:
#                   every package downloaded, 4 requests per host at once;
#   warm          - another root module, hash cache filled by cold-nopkgs:
#                   nothing is downloaded.
# Every run writes the same lock file (checked). Wall time: best of RUNS.
#
# Usage: bench/lock.sh [N_PROVIDERS] [SIZE_MB] [RUNS]   (default 5 50 3)
set -euo pipefail

cd "$(dirname "$0")/.."
n=${1:-5}
mb=${2:-50}
runs=${3:-3}
platforms=(linux_amd64 linux_arm64 darwin_arm64 windows_amd64)
# shellcheck source=bench/lib.sh
. bench/lib.sh
bench_init

go build -o "$work/tfdeps" ./cmd/tfdeps
go build -o "$work/fakeserver" ./bench/cmd/fakeserver

# start_server NAME FLAGS...: a fake registry whose files go to $work/NAME.
start_server() {
	local name=$1
	shift
	start_fake "$work/$name" "$work/fakeserver" -dir "$work/$name" -n "$n" -mb "$mb" "$@"
}
start_server pkgs
start_server nopkgs -nopackages

write_config "$n" "$work/config"
pflags=()
for p in "${platforms[@]}"; do pflags+=("-platform=$p"); done

# run SERVER CACHE_DIR FLAGS...: providers lock in a fresh copy of the
# configuration; prints the wall time in seconds.
run() {
	local server=$1 cache=$2
	shift 2
	rm -rf "$work/wd" && cp -r "$work/config" "$work/wd"
	local start end
	start=$(date +%s.%N)
	(
		set -a
		# shellcheck disable=SC1090
		. "$work/$server/env"
		set +a
		export HOME="$work/home" TFDEPS_HASH_CACHE_DIR="$cache" ${BENCH_TMPDIR:+TMPDIR="$BENCH_TMPDIR"}
		cd "$work/wd" && "$work/tfdeps" providers lock "${pflags[@]}" "$@" >"$work/out" 2>&1
	) || { cat "$work/out" >&2; exit 1; }
	end=$(date +%s.%N)
	echo "$end - $start" | bc -l
}

# measure NAME SERVER CACHE_MODE FLAGS...: best of RUNS; CACHE_MODE is
# "empty" (fresh cache per run) or "warm" (the shared warm cache).
measure() {
	local name=$1 server=$2 mode=$3 best=""
	shift 3
	for _ in $(seq 1 "$runs"); do
		local cache="$work/cache-warm"
		if [ "$mode" = empty ]; then rm -rf "$work/cache-empty"; cache="$work/cache-empty"; fi
		local t
		t=$(run "$server" "$cache" "$@")
		cp "$work/wd/.terraform.lock.hcl" "$work/lock-$name.hcl"
		if [ -z "$best" ] || [ "$(echo "$t < $best" | bc -l)" = 1 ]; then best=$t; fi
	done
	printf '%-14s %8.3f s\n' "$name" "$best"
	eval "result_${name//-/_}=$best"
}

echo "providers lock: $n providers x ${#platforms[@]} platforms x $mb MB, best of $runs, $(nproc) CPUs"
measure opentofu-way pkgs empty -download-all -parallelism=1 -no-hash-cache
measure cold pkgs empty
measure cold-nopkgs nopkgs empty
run nopkgs "$work/cache-warm" >/dev/null
measure warm nopkgs warm
for name in cold cold-nopkgs warm; do
	cmp -s "$work/lock-opentofu-way.hcl" "$work/lock-$name.hcl" || { echo "lock file of $name differs" >&2; exit 1; }
done
echo "lock files identical"
printf 'speed-up cold (packages map): %.1fx\n' "$(echo "$result_opentofu_way / $result_cold" | bc -l)"
printf 'speed-up cold (no packages map): %.1fx\n' "$(echo "$result_opentofu_way / $result_cold_nopkgs" | bc -l)"
printf 'speed-up warm: %.1fx\n' "$(echo "$result_opentofu_way / $result_warm" | bc -l)"
