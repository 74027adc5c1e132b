#!/usr/bin/env bash
# Side-by-side benchmark of tfdeps and, when TFDEPS_REFERENCE_TOFU names an
# OpenTofu binary, the same work done by it, on large providers: N providers
# (default 10) whose executable is SIZE MB (default 150) of content that
# deflates about 3:1, for 4 platforms, from a local TLS registry (the fake of
# internal/registrytest, packages generated before timing; nothing is
# committed). Rows:
#
#   init cold                 no .terraform, no lock file, no plugin cache
#   init cold, no pkgs map    the same from a registry without "packages"
#   init cold, fill cache     empty plugin cache (TF_PLUGIN_CACHE_DIR)
#   init, first after cold    init again right after a cold init
#   init warm                 .terraform and lock file present
#   init, full cache, no lock new working directory, plugin cache filled
#   lock, packages map        providers lock, 4 platforms, no lock file
#   lock, no packages map     the same from a registry without "packages"
#   lock, complete lock       no packages map, lock file already complete
#
# and the floor measured in the same run: `unzip -p | sha256sum` of every
# linux_amd64 package (inflate + hash, what a cold init cannot avoid), and
# plain `sha256sum` of the same zips (2 at a time: the machine's cores).
# tfdeps runs with an empty hash cache (TFDEPS_HASH_CACHE_DIR) for every
# providers lock. Times are wall seconds, best of RUNS, with user+system
# CPU seconds of that run.
#
# SIDEBYSIDE_ROWS, when set, is a bash regular expression: only the rows
# whose name matches it run (the floor always does).
#
# Usage: [TFDEPS_REFERENCE_TOFU=/path/to/tofu] bench/sidebyside.sh [N] [SIZE_MB] [RUNS]
set -euo pipefail

cd "$(dirname "$0")/.."
n=${1:-10}
mb=${2:-150}
runs=${3:-3}
tofu=${TFDEPS_REFERENCE_TOFU:-}
platforms=(linux_amd64 linux_arm64 darwin_arm64 windows_amd64)
# shellcheck source=bench/lib.sh
. bench/lib.sh
bench_init

go build -o "$work/tfdeps" ./cmd/tfdeps
go build -o "$work/fakeserver" ./bench/cmd/fakeserver
pl_csv=$(
	IFS=,
	echo "${platforms[*]}"
)
start_fake "$work/pkgs" "$work/fakeserver" -dir "$work/pkgs" -n "$n" -mb "$mb" -deflate -platforms "$pl_csv"
start_fake "$work/nopkgs" "$work/fakeserver" -dir "$work/nopkgs" -n "$n" -mb "$mb" -deflate -platforms "$pl_csv" -nopackages
write_config "$n" "$work/config"
pflags=()
for p in "${platforms[@]}"; do pflags+=("-platform=$p"); done

# in_env SERVER CMD...: runs CMD with the server's CA and CLI configuration,
# a private HOME, and no plugin cache unless $cache is set.
in_env() {
	local server=$1
	shift
	(
		set -a
		# shellcheck disable=SC1090
		. "$work/$server/env"
		set +a
		export HOME="$work/home" TF_IN_AUTOMATION=1 CI=1 CHECKPOINT_DISABLE=1
		unset TF_PLUGIN_CACHE_DIR
		if [ -n "${cache:-}" ]; then export TF_PLUGIN_CACHE_DIR="$cache"; fi
		export TFDEPS_HASH_CACHE_DIR="$work/hashcache"
		"$@"
	)
}

# timed SERVER BIN ARGS...: runs BIN ARGS in $work/wd; sets t (wall) and c
# (CPU seconds).
timed() {
	local server=$1
	shift
	rm -rf "$work/hashcache"
	in_env "$server" sh -c 'cd "$0" && exec /usr/bin/time -f "%e %U %S" -o ../time "$@" >../out 2>&1' \
		"$work/wd" "$@" || {
		cat "$work/out" >&2
		exit 1
	}
	local u s
	read -r t u s <"$work/time"
	c=$(awk "BEGIN{print $u + $s}")
}

fresh_wd() { rm -rf "$work/wd" && cp -r "$work/config" "$work/wd"; }
untimed() { timed "$@"; }

# Row setups: each prepares $work/wd (and $cache), given the tool binary.
setup_cold() { fresh_wd; cache=; }
setup_fill() {
	fresh_wd
	cache="$work/cache"
	rm -rf "$cache" && mkdir -p "$cache"
}
setup_after_cold() {
	fresh_wd
	cache=
	untimed pkgs "$1" init
}
# once TOOL: true the first time it is called in a row for TOOL.
once() {
	[ -f "$work/prepared" ] && return 1
	touch "$work/prepared"
}
setup_warm() {
	cache=
	if once; then
		fresh_wd
		untimed pkgs "$1" init
		untimed pkgs "$1" init
		sleep 1.1 # past the racy-timestamp margin of tfdeps' h1 memo
	fi
}
setup_fullcache() {
	fresh_wd
	cache="$work/cache"
	if once; then
		rm -rf "$cache" && mkdir -p "$cache"
		untimed pkgs "$1" init
		fresh_wd
	fi
}
setup_lock() { fresh_wd; cache=; }
setup_complete() {
	fresh_wd
	cache=
	cp "$work/complete.hcl" "$work/wd/.terraform.lock.hcl"
}

# row NAME SETUP SERVER ARGS...: best of RUNS for tfdeps and tofu.
row() {
	local name=$1 setup=$2 server=$3
	shift 3
	if [ -n "${SIDEBYSIDE_ROWS:-}" ] && ! [[ $name =~ $SIDEBYSIDE_ROWS ]]; then return; fi
	local line tool bin
	line=$(printf '%-28s' "$name")
	for tool in tfdeps tofu; do
		bin="$work/tfdeps"
		if [ "$tool" = tofu ]; then
			[ -n "$tofu" ] || continue
			bin=$tofu
		fi
		rm -f "$work/prepared"
		local best="" bestc=""
		for _ in $(seq 1 "$runs"); do
			$setup "$bin"
			timed "$server" "$bin" "$@"
			if [ -z "$best" ] || awk "BEGIN{exit !($t < $best)}"; then best=$t bestc=$c; fi
		done
		eval "best_$tool=$best"
		line+=$(printf ' %7.2f s (%5.1f CPU)' "$best" "$bestc")
	done
	if [ -n "$tofu" ]; then
		line+=$(awk "BEGIN{printf \"   %5.2fx\", $best_tofu / $best_tfdeps}")
	fi
	echo "$line"
}

# The lock file made by providers lock for all platforms, used as the
# complete lock.
fresh_wd
cache=
untimed nopkgs "$work/tfdeps" providers lock "${pflags[@]}"
cp "$work/wd/.terraform.lock.hcl" "$work/complete.hcl"

header=$(printf '%-28s %22s' "row" "tfdeps")
[ -n "$tofu" ] && header+=$(printf ' %22s   %s' "OpenTofu" "speed-up")
echo "$n providers x ${#platforms[@]} platforms, executables of $mb MB (deflated ~3:1), best of $runs, $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "$header"
row "init cold" setup_cold pkgs init
row "init cold, no pkgs map" setup_cold nopkgs init
row "init cold, fill cache" setup_fill pkgs init
row "init, first after cold" setup_after_cold pkgs init
row "init warm" setup_warm pkgs init
row "init, full cache, no lock" setup_fullcache pkgs init
row "lock, packages map" setup_lock pkgs providers lock "${pflags[@]}"
row "lock, no packages map" setup_lock nopkgs providers lock "${pflags[@]}"
row "lock, complete lock" setup_complete nopkgs providers lock "${pflags[@]}"

# The floor: the linux_amd64 zips, fetched once.
mkdir -p "$work/zips"
. "$work/pkgs/env"
for i in $(seq -f '%02g' 1 "$n"); do
	curl -sf --cacert "$SSL_CERT_FILE" -o "$work/zips/p$i.zip" \
		"${FAKE_REGISTRY_URL%/v1/providers/}/files/bench/p$i/1.0.0/terraform-provider-p${i}_1.0.0_linux_amd64.zip"
done
floor() {
	local name=$1 cmd=$2 best="" bestc=""
	for _ in $(seq 1 "$runs"); do
		/usr/bin/time -f '%e %U %S' -o "$work/time" sh -c \
			"ls '$work'/zips/*.zip | xargs -P $(nproc) -I{} sh -c '$cmd' >/dev/null"
		read -r t u s <"$work/time"
		if [ -z "$best" ] || awk "BEGIN{exit !($t < $best)}"; then best=$t bestc=$(awk "BEGIN{print $u + $s}"); fi
	done
	printf '%-28s %7.2f s (%5.1f CPU)\n' "$name" "$best" "$bestc"
}
floor "floor: unzip -p | sha256sum" 'unzip -p {} | sha256sum'
floor "floor: sha256sum of zips" 'sha256sum {}'
