#!/usr/bin/env bash
# `tfdeps outdated` of one root module requiring P providers (default 20)
# and calling a chain of M registry modules (default 20: module.m01,
# module.m01.module.next, ...), all from the local fake registry
# (bench/cmd/fakefleet, as registry.opentofu.org), after one `tfdeps init`.
# Prints each run's wall time and the archives downloaded during the
# `outdated` runs (none expected), then the median. The request count (one
# versions request per provider and module) is checked by
# `go test ./upgrade -bench BenchmarkOutdated` (requests/op) and the
# script outdated_basic.
#
# Usage: bench/outdated.sh [P] [M] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
providers=${1:-20}
modules=${2:-20}
runs=${3:-5}

bench_init
go build -o "$work/tfdeps" ./cmd/tfdeps
go build -o "$work/fakefleet" ./bench/cmd/fakefleet
start_fake "$work/fake" "$work/fakefleet" -dir "$work/fake" -providers "$providers" -mb 1 -modules "$modules"
set -a
# shellcheck disable=SC1091
. "$work/fake/env"
set +a
export HOME="$work/home" TF_IN_AUTOMATION=1 CI=1 TFDEPS_MODULE_CACHE_DIR=off
unset TF_PLUGIN_CACHE_DIR TF_DATA_DIR
mkdir -p "$HOME"
archives() { curl -sf --cacert "$SSL_CERT_FILE" "https://$FAKE_REGISTRY_HOST/_archives"; }

write_config "$providers" "$work/root"
cat >>"$work/root/main.tf" <<'TF'

module "m01" {
  source  = "bench/m01/aws"
  version = "~> 1.0"
}
TF
(cd "$work/root" && "$work/tfdeps" init >/dev/null)

before=$(archives)
times=()
for _ in $(seq 1 "$runs"); do
	start=$(date +%s.%N)
	(cd "$work/root" && "$work/tfdeps" outdated >"$work/out")
	end=$(date +%s.%N)
	times+=("$(echo "$end - $start" | bc)")
done
after=$(archives)
echo "outdated, $providers providers, $modules registry modules: runs ${times[*]} s"
printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {printf "median %.3f s\n", a[int((NR+1)/2)]}'
echo "archives downloaded by outdated: $((after - before))"
grep -c '^bench/p' "$work/out" | sed 's/^/providers listed: /'
grep -c '^module\.' "$work/out" | sed 's/^/modules listed: /'
