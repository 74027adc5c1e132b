#!/usr/bin/env bash
# A monorepo initialised whole: N root modules (default 40) under one
# directory, each requiring the same P providers (default 3, executables
# of MB MB deflating ~3:1) and calling the same chain of M registry
# modules (default 4) and one local module, all from the local fake
# registry (bench/cmd/fakefleet, as registry.opentofu.org). Cold: no
# .terraform, no lock files, empty caches. Rows:
#
#   tfdeps, root after root     `tfdeps init` in each root, one at a time
#   tofu, root after root       `tofu init` in each root, one at a time
#   tofu, 8 parallel + cache    8 `tofu init`s at a time, one shared
#                               plugin cache (TF_PLUGIN_CACHE_DIR)
#   tfdeps -recursive           one `tfdeps init -recursive` at the top
#   tfdeps -recursive, warm     the same again, nothing changed
#   tfdeps -recursive, warm again  and once more
#
# FLEET_ROWS, when set, is a bash regular expression: only the rows whose
# name matches it run.
#
# The tofu rows run when TFDEPS_REFERENCE_TOFU names an OpenTofu binary;
# the -recursive rows when `tfdeps init` has the flag. Each row is run
# RUNS times (default 3) from a fresh copy of the repository; the median
# wall time is printed with that run's CPU seconds (user+sys of every
# process), the provider and module archives it downloaded, the largest
# resident set of any one process, and its speed-up over tofu root after
# root.
#
# Usage: [TFDEPS_REFERENCE_TOFU=/path/to/tofu] bench/fleet.sh [N] [P] [MB] [M] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-40} providers=${2:-3} mb=${3:-10} modules=${4:-4} runs=${5:-3}
tofu=${TFDEPS_REFERENCE_TOFU:-}
# shellcheck source=bench/lib.sh
. bench/lib.sh
bench_init
go build -o "$work/tfdeps" ./cmd/tfdeps
go build -o "$work/fakefleet" ./bench/cmd/fakefleet
start_fake "$work/fake" "$work/fakefleet" -dir "$work/fake" -providers "$providers" -mb "$mb" -modules "$modules"
set -a
# shellcheck disable=SC1091
. "$work/fake/env"
set +a
export HOME="$work/home" TF_IN_AUTOMATION=1 CI=1 CHECKPOINT_DISABLE=1
unset TF_PLUGIN_CACHE_DIR TF_DATA_DIR
mkdir -p "$HOME"

# The repository: rootNN/main.tf and modules/shared (called by every
# root, so not a root itself).
repo="$work/repo"
mkdir -p "$repo/modules/shared"
printf 'variable "name" {}\n\noutput "name" {\n  value = var.name\n}\n' >"$repo/modules/shared/main.tf"
for i in $(seq -f '%03g' 1 "$n"); do
	mkdir -p "$repo/root$i"
	{
		echo 'terraform {'
		echo '  required_providers {'
		for p in $(seq -f '%02g' 1 "$providers"); do
			echo "    p$p = { source = \"bench/p$p\" }"
		done
		echo '  }'
		echo '}'
		printf '\nmodule "chain" {\n  source  = "bench/m01/aws"\n  version = "~> 1.0"\n}\n'
		printf '\nmodule "shared" {\n  source = "../modules/shared"\n  name   = "root%s"\n}\n' "$i"
	} >"$repo/root$i/main.tf"
done

archives() { curl -sf --cacert "$SSL_CERT_FILE" "https://$FAKE_REGISTRY_HOST/_archives"; }

# fresh: a new copy of the repository in $work/wd, and empty caches.
fresh() {
	rm -rf "$work/wd" "$work/caches"
	cp -r "$repo" "$work/wd"
	mkdir -p "$work/caches/plugins"
}
cache_env() {
	export TFDEPS_MODULE_CACHE_DIR="$work/caches/modules" TFDEPS_HASH_CACHE_DIR="$work/caches/hashes"
}

# The rows' commands, run in $work/wd.
seq_tfdeps() { for d in root*/; do (cd "$d" && "$work/tfdeps" init -input=false) || return 1; done; }
seq_tofu() { for d in root*/; do (cd "$d" && "$tofu" init -input=false) || return 1; done; }
par_tofu() {
	TF_PLUGIN_CACHE_DIR="$work/caches/plugins" && export TF_PLUGIN_CACHE_DIR
	printf '%s\n' root*/ | xargs -P 8 -I{} sh -c 'cd "$1" && exec "$2" init -input=false' _ {} "$tofu"
}
recursive_tfdeps() { "$work/tfdeps" init -input=false -recursive; }
export -f seq_tfdeps seq_tofu par_tofu recursive_tfdeps
export work tofu


# row NAME SETUP FUNCTION: median of $runs runs of FUNCTION in $work/wd
# after SETUP (not timed).
row() {
	local name=$1 setup=$2 fn=$3 lines=()
	if [ -n "${FLEET_ROWS:-}" ] && ! [[ $name =~ $FLEET_ROWS ]]; then
		return
	fi
	for _ in $(seq 1 "$runs"); do
		$setup
		local a0 a1
		a0=$(archives)
		(cd "$work/wd" && cache_env && /usr/bin/time -f '%e %U %S %M' -o "$work/time" bash -c "$fn" >"$work/out" 2>&1) || {
			tail -20 "$work/out" >&2
			echo "$name failed" >&2
			exit 1
		}
		a1=$(archives)
		read -r wall user sys rss <"$work/time"
		lines+=("$wall $(awk "BEGIN{print $user + $sys}") $((a1 - a0)) $rss")
	done
	local med
	med=$(printf '%s\n' "${lines[@]}" | sort -n | awk '{a[NR]=$0} END {print a[int((NR+1)/2)]}')
	read -r wall cpu arch rss <<<"$med"
	local line
	line=$(printf '%-28s %8.2f s  %7.1f s CPU  %4d archives  %6.0f MiB' "$name" "$wall" "$cpu" "$arch" "$(awk "BEGIN{print $rss / 1024}")")
	if [ -n "${base_tofu:-}" ]; then
		line+=$(awk "BEGIN{printf \"   %6.1fx\", $base_tofu / $wall}")
	fi
	echo "$line"
	last_wall=$wall
}

# warm: the previous row's working directory, left as it is.
warm() { :; }

echo "$n roots x ($providers providers of $mb MB + $modules registry modules + 1 local), median of $runs, $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-28s %10s  %11s  %13s  %10s   %s\n' row wall CPU downloads "peak RSS" "vs tofu root after root"
if [ -n "$tofu" ]; then
	row "tofu, root after root" fresh seq_tofu
	base_tofu=$last_wall
	row "tofu, 8 parallel + cache" fresh par_tofu
else
	echo "(tofu rows skipped: set TFDEPS_REFERENCE_TOFU)"
fi
row "tfdeps, root after root" fresh seq_tfdeps
if "$work/tfdeps" init -help 2>&1 | grep -- '-recursive' >/dev/null; then
	row "tfdeps -recursive" fresh recursive_tfdeps
	row "tfdeps -recursive, warm" warm recursive_tfdeps
	row "tfdeps -recursive, warm again" warm recursive_tfdeps
else
	echo "(tfdeps -recursive rows skipped: this tfdeps init has no -recursive flag yet)"
fi
