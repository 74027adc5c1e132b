#!/usr/bin/env bash
# Module installation: a root module calling N registry modules, each the
# head of a chain DEPTH deep (N×DEPTH distinct packages, default 10×3 =
# 30), from the local fake (bench/cmd/fakemodules) with DELAY per response
# (latency added by a loopback proxy to every response chunk, default 50ms). Compares, in the same run:
#
#   tfdeps cold        empty .terraform and empty module cache
#   tfdeps warm        empty .terraform, module cache filled by the cold run
#   one at a time      TFDEPS_MODULE_PARALLELISM=0, no cache: OpenTofu's way
#                      (one package after the other, in walk order)
#   tofu               the reference binary, when TFDEPS_REFERENCE_TOFU is set
#
# and reports wall time (best of RUNS) and the archives each run fetched.
#
# Usage: bench/modules.sh [N] [DEPTH] [DELAY] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
n=${1:-10} depth=${2:-3} delay=${3:-50ms} runs=${4:-3}
bench_init
go build -o "$work/tfdeps" ./cmd/tfdeps
go build -o "$work/fakemodules" ./bench/cmd/fakemodules
start_fake "$work/fake" "$work/fakemodules" -dir "$work/fake" -n "$n" -depth "$depth" -delay "$delay"
set -a
. "$work/fake/env"
set +a
export HOME="$work/home" TF_IN_AUTOMATION=1
mkdir -p "$HOME" "$work/root"
{
	for i in $(seq -f '%02g' 1 "$n"); do
		printf 'module "t%s" {\n  source  = "bench/t%s/aws"\n  version = "~> 1.0"\n}\n\n' "$i" "$i"
	done
} >"$work/root/main.tf"

archives() { curl -s --cacert "$SSL_CERT_FILE" "https://$FAKE_REGISTRY_HOST/_archives"; }

# measure LABEL SETUP COMMAND...: best wall time of $runs runs; SETUP runs
# before each (not timed); prints the archives fetched by the last run.
measure() {
	local label=$1 setup=$2
	shift 2
	local best="" before after
	for _ in $(seq 1 "$runs"); do
		eval "$setup"
		before=$(archives)
		local t0 t1
		t0=$(date +%s%N)
		(cd "$work/root" && "$@" >"$work/out" 2>&1) || { cat "$work/out"; exit 1; }
		t1=$(date +%s%N)
		after=$(archives)
		local ms=$(((t1 - t0) / 1000000))
		if [ -z "$best" ] || [ "$ms" -lt "$best" ]; then best=$ms; fi
	done
	printf '%-16s %6d ms  %3d archives fetched\n' "$label" "$best" "$((after - before))"
	eval "res_${label// /_}=$best"
}

fresh() { rm -rf "$work/root/.terraform"; }
echo "modules: $n chains x $depth deep = $((n * depth)) packages, ${delay} per response, best of $runs"
measure "tfdeps cold" 'fresh; rm -rf "$work/cache"' env TFDEPS_MODULE_CACHE_DIR="$work/cache" "$work/tfdeps" get
measure "tfdeps warm" 'fresh' env TFDEPS_MODULE_CACHE_DIR="$work/cache" "$work/tfdeps" get
measure "one at a time" 'fresh' env TFDEPS_MODULE_CACHE_DIR=off TFDEPS_MODULE_PARALLELISM=0 "$work/tfdeps" get
if [ -n "${TFDEPS_REFERENCE_TOFU:-}" ]; then
	measure "tofu" 'fresh' "$TFDEPS_REFERENCE_TOFU" get
fi
echo "cold speed-up over one at a time: $(awk "BEGIN { printf \"%.1fx\", $res_one_at_a_time / $res_tfdeps_cold }")"
