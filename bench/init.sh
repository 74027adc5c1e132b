#!/usr/bin/env bash
# Benchmark of `tfdeps init`: 10 providers of 50 MB each (linux_amd64) from
# the fake registry over loopback, with a plugin cache:
#   cold  - empty plugin cache, no lock file, no .terraform;
#   warm, first reuse - one run right after the cold install: the h1
#           memos written at install time (in the user cache directory)
#           are trusted at once, so no package is read;
#   warm  - populated cache, new working directory, no lock file
#           (tfdeps reuses the cached packages without downloading them,
#           taking their h1 from the memo);
#   warm+lock - populated cache, new working directory, lock file present.
# Next to them, the floor: reading, inflating and hashing the same zips with
# standard tools (sha256sum + unzip), sequentially and 8 at a time.
# Wall time is the best of RUNS runs; peak RSS from /usr/bin/time -v.
#
# Usage: bench/init.sh [N_PROVIDERS] [SIZE_MB] [RUNS]   (default 10 50 3)
set -euo pipefail

cd "$(dirname "$0")/.."
n=${1:-10}
mb=${2:-50}
runs=${3:-3}
# shellcheck source=bench/lib.sh
. bench/lib.sh
bench_init

go build -o "$work/tfdeps" ./cmd/tfdeps
go build -o "$work/fakeserver" ./bench/cmd/fakeserver
start_fake "$work" "$work/fakeserver" -dir "$work" -n "$n" -mb "$mb" -platforms linux_amd64
set -a
# shellcheck disable=SC1091
. "$work/env"
set +a
export HOME="$work/home" TF_IN_AUTOMATION=1 CI=1
mkdir -p "$HOME"

write_config "$n" "$work/config"

# measure NAME SETUP [N]: runs SETUP then tfdeps init in a fresh copy of
# the configuration, N (default RUNS) times; prints the best wall time and
# its peak RSS.
measure() {
	local name=$1 setup=$2 n=${3:-$runs} best="" rss=""
	for _ in $(seq 1 "$n"); do
		rm -rf "$work/wd" && cp -r "$work/config" "$work/wd"
		eval "$setup"
		(cd "$work/wd" && /usr/bin/time -f '%e %M' -o "$work/time" "$work/tfdeps" init >"$work/out" 2>&1) ||
			{ cat "$work/out" >&2; exit 1; }
		read -r t m <"$work/time"
		if [ -z "$best" ] || awk "BEGIN{exit !($t < $best)}"; then best=$t; rss=$m; fi
	done
	printf '%-34s %8.2f s %8.1f MB\n' "$name" "$best" "$(awk "BEGIN{print $rss/1024}")"
}

export TF_PLUGIN_CACHE_DIR="$work/cache"
measure "tfdeps init, cold cache" 'rm -rf "$work/cache"; mkdir -p "$work/cache"'
cp "$work/wd/.terraform.lock.hcl" "$work/lock"
measure "tfdeps init, warm, first reuse" ':' 1
measure "tfdeps init, warm cache" ':'
measure "tfdeps init, warm cache + lock" 'cp "$work/lock" "$work/wd/.terraform.lock.hcl"'

# The floor: the same zips, read + hashed + inflated with standard tools.
mkdir -p "$work/zips"
for i in $(seq -f '%02g' 1 "$n"); do
	curl -sk -o "$work/zips/p$i.zip" "${FAKE_REGISTRY_URL%/v1/providers/}/files/bench/p$i/1.0.0/terraform-provider-p${i}_1.0.0_linux_amd64.zip"
done
floor() {
	local name=$1 par=$2 best="" rss=""
	for _ in $(seq 1 "$runs"); do
		rm -rf "$work/unz" && mkdir -p "$work/unz"
		/usr/bin/time -f '%e %M' -o "$work/time" sh -c \
			"ls '$work'/zips/*.zip | xargs -P $par -I{} sh -c 'sha256sum {} >/dev/null && unzip -q -o {} -d \"$work/unz/\$(basename {} .zip)\"'"
		read -r t m <"$work/time"
		if [ -z "$best" ] || awk "BEGIN{exit !($t < $best)}"; then best=$t; rss=$m; fi
	done
	printf '%-34s %8.2f s %8.1f MB\n' "$name" "$best" "$(awk "BEGIN{print $rss/1024}")"
}
floor "floor: sha256sum+unzip, sequential" 1
floor "floor: sha256sum+unzip, 8 parallel" 8
echo "($n providers x $mb MB, best of $runs, $(nproc) CPUs; targets: cold <= 1.3x floor, warm < 0.5 s)"
