#!/usr/bin/env bash
# Module installation: a root module calling N registry modules, each the
# head of a chain DEPTH deep (N×DEPTH distinct packages, default 10×3 =
# 30), from the local fake (bench/cmd/fakemodules), once per latency in
# DELAYS (added by a loopback proxy to every response chunk; default
# "0ms 50ms"). Compares, in the same run:
#
#   tfdeps cold     empty .terraform and empty module cache
#   tfdeps warm     empty .terraform, module cache filled by the cold run
#                   (a fresh root of a monorepo)
#   tfdeps again    init in the directory just initialised (calls unchanged)
#   one at a time   TFDEPS_MODULE_PARALLELISM=0, no cache: OpenTofu's way
#                   (one package after the other, in walk order)
#   tofu cold       the reference binary, when TFDEPS_REFERENCE_TOFU is set
#   tofu again      tofu init in the directory it just initialised
#
# Each is `init -backend=false`, run RUNS times; it reports the median wall
# time, the median CPU time (user+sys of the command), and the registry
# requests (versions, download locations) and archives of the last run.
# Wall time is noisy on a loaded machine; CPU time and counts are not.
#
# Usage: bench/modules.sh [N] [DEPTH] [RUNS] [DELAYS]
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
n=${1:-10} depth=${2:-3} runs=${3:-5} delays=${4:-0ms 50ms}
bench_init
go build -o "$work/tfdeps" ./cmd/tfdeps
go build -o "$work/fakemodules" ./bench/cmd/fakemodules
export HOME="$work/home" TF_IN_AUTOMATION=1
mkdir -p "$HOME" "$work/root"
{
	for i in $(seq -f '%02g' 1 "$n"); do
		printf 'module "t%s" {\n  source  = "bench/t%s/aws"\n  version = "~> 1.0"\n}\n\n' "$i" "$i"
	done
} >"$work/root/main.tf"

counter() { curl -s --cacert "$SSL_CERT_FILE" "https://$FAKE_REGISTRY_HOST/_$1"; }
median() { sort -n | awk '{a[NR]=$1} END {m=a[int((NR+1)/2)]; printf "%d", m}'; }

# measure LABEL SETUP COMMAND...: runs SETUP (not timed) then COMMAND in
# the root, $runs times; prints the medians and the last run's counts.
measure() {
	local label=$1 setup=$2
	shift 2
	local walls=() cpus=() r0 a0 r1 a1
	for _ in $(seq 1 "$runs"); do
		eval "$setup"
		r0=$(counter requests) a0=$(counter archives)
		(cd "$work/root" && /usr/bin/time -f '%e %U %S' -o "$work/time" "$@" >"$work/out" 2>&1) || {
			cat "$work/out"
			exit 1
		}
		r1=$(counter requests) a1=$(counter archives)
		read -r wall user sys <"$work/time"
		walls+=("$(awk "BEGIN { print int($wall * 1000) }")")
		cpus+=("$(awk "BEGIN { print int(($user + $sys) * 1000) }")")
	done
	local wall cpu
	wall=$(printf '%s\n' "${walls[@]}" | median)
	cpu=$(printf '%s\n' "${cpus[@]}" | median)
	printf '%-14s %6d ms  %5d ms CPU  %3d registry requests  %3d archives\n' "$label" "$wall" "$cpu" "$((r1 - r0))" "$((a1 - a0))"
	eval "wall_${label// /_}=$wall"
}

fresh() { rm -rf "$work/root/.terraform"; }
cache="$work/cache"
for delay in $delays; do
	fake="$work/fake-$delay"
	start_fake "$fake" "$work/fakemodules" -dir "$fake" -n "$n" -depth "$depth" -delay "$delay"
	set -a
	. "$fake/env"
	set +a
	echo "modules: $n chains x $depth deep = $((n * depth)) packages, ${delay} per response chunk, median of $runs"
	measure "tfdeps cold" 'fresh; rm -rf "$cache"' env TFDEPS_MODULE_CACHE_DIR="$cache" "$work/tfdeps" init -backend=false
	measure "tfdeps warm" 'fresh' env TFDEPS_MODULE_CACHE_DIR="$cache" "$work/tfdeps" init -backend=false
	measure "tfdeps again" ':' env TFDEPS_MODULE_CACHE_DIR="$cache" "$work/tfdeps" init -backend=false
	measure "one at a time" 'fresh' env TFDEPS_MODULE_CACHE_DIR=off TFDEPS_MODULE_PARALLELISM=0 "$work/tfdeps" init -backend=false
	if [ -n "${TFDEPS_REFERENCE_TOFU:-}" ]; then
		measure "tofu cold" 'fresh' "$TFDEPS_REFERENCE_TOFU" init -backend=false
		measure "tofu again" ':' "$TFDEPS_REFERENCE_TOFU" init -backend=false
	fi
	echo "cold speed-up over one at a time: $(awk "BEGIN { printf \"%.1fx\", $wall_one_at_a_time / $wall_tfdeps_cold }")"
	echo
done
