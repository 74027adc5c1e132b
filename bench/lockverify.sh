#!/usr/bin/env bash
# lock verify over a monorepo: N root modules (default 100) under one
# directory, each requiring hashicorp/null with its lock file and its
# modules.json, calling K (default 5) of M shared local modules (default
# 20, two files each). Offline: no registry. Rows:
#
#   tfdeps, root after root   `tfdeps lock verify` in each root, one at a time
#   tfdeps -recursive         one `tfdeps lock verify -recursive` at the top,
#                             which parses each distinct file once for all
#                             roots (N + 2*M files; the count is asserted by
#                             internal/cli TestLockVerifyRecursiveParsesOnce
#                             and reported by BenchmarkLockVerifyRecursive)
#
# Each row is run RUNS times (default 5); the median wall time is printed
# with that run's CPU seconds (user+sys) and peak resident set.
#
# Usage: bench/lockverify.sh [N] [M] [K] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-100} modules=${2:-20} per=${3:-5} runs=${4:-5}
# shellcheck source=bench/lib.sh
. bench/lib.sh
bench_init
go build -o "$work/tfdeps" ./cmd/tfdeps
export HOME="$work/home" TF_IN_AUTOMATION=1 CI=1 CHECKPOINT_DISABLE=1
unset TF_DATA_DIR TF_CLI_CONFIG_FILE
mkdir -p "$HOME"

repo="$work/repo"
for m in $(seq 0 $((modules - 1))); do
	d=$(printf '%s/modules/m%02d' "$repo" "$m")
	mkdir -p "$d"
	printf 'terraform {\n  required_providers {\n    null = { source = "hashicorp/null" }\n  }\n}\n\nresource "null_resource" "r" {\n  triggers = { name = var.name }\n}\n\noutput "id" {\n  value = "m%02d-${var.name}"\n}\n' "$m" >"$d/main.tf"
	printf 'variable "name" {\n  type = string\n}\n' >"$d/variables.tf"
done
for r in $(seq 0 $((n - 1))); do
	d=$(printf '%s/envs/r%03d' "$repo" "$r")
	mkdir -p "$d/.terraform/modules"
	{
		printf '# root %03d\nterraform {\n  required_providers {\n    null = {\n      source  = "hashicorp/null"\n      version = "~> 3.1"\n    }\n  }\n}\n' "$r"
		for i in $(seq 0 $((per - 1))); do
			m=$(((r + i) % modules))
			printf '\nmodule "m%02d" {\n  source = "../../modules/m%02d"\n  name   = "r%03d"\n}\n' "$m" "$m" "$r"
		done
	} >"$d/main.tf"
	{
		printf '{"Modules":[{"Key":"","Source":"","Dir":"."}'
		for i in $(seq 0 $((per - 1))); do
			m=$(((r + i) % modules))
			printf ',{"Key":"m%02d","Source":"../../modules/m%02d","Dir":"../../modules/m%02d"}' "$m" "$m" "$m"
		done
		printf ']}\n'
	} >"$d/.terraform/modules/modules.json"
	printf 'provider "registry.opentofu.org/hashicorp/null" {\n  version     = "3.2.1"\n  constraints = "~> 3.1"\n}\n' >"$d/.terraform.lock.hcl"
done

seq_tfdeps() { for d in envs/*/; do (cd "$d" && "$work/tfdeps" lock verify >/dev/null); done; }
recursive_tfdeps() { "$work/tfdeps" lock verify -recursive >/dev/null; }
export work
export -f seq_tfdeps recursive_tfdeps

# row NAME FUNCTION: median of $runs runs of FUNCTION in the repository.
row() {
	local name=$1 fn=$2 lines=()
	for _ in $(seq 1 "$runs"); do
		(cd "$repo" && /usr/bin/time -f '%e %U %S %M' -o "$work/time" bash -c "$fn" >"$work/out" 2>&1) || {
			tail -20 "$work/out" >&2
			echo "$name failed" >&2
			exit 1
		}
		read -r wall user sys rss <"$work/time"
		lines+=("$wall $(awk "BEGIN{print $user + $sys}") $rss")
	done
	local med
	med=$(printf '%s\n' "${lines[@]}" | sort -n | awk '{a[NR]=$0} END {print a[int((NR+1)/2)]}')
	read -r wall cpu rss <<<"$med"
	printf '%-26s %8.2f s  %7.2f s CPU  %6.0f MiB\n' "$name" "$wall" "$cpu" "$(awk "BEGIN{print $rss / 1024}")"
}

echo "$n roots x $per of $modules local modules (2 files each), median of $runs, $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-26s %10s  %11s  %10s\n' row wall CPU "peak RSS"
row "tfdeps, root after root" seq_tfdeps
row "tfdeps -recursive" recursive_tfdeps
