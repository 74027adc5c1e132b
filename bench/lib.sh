# Shared by the benchmark scripts: source it after `cd` to the repository.
#
#   bench_init              makes $work (removed at exit, with every server
#                           started by start_fake)
#   start_fake DIR CMD...   runs CMD in the background and waits until it has
#                           written DIR/env (a fake registry is ready)
#   write_config N DIR      writes DIR/main.tf requiring bench/p01..pNN

bench_init() {
	work=$(mktemp -d)
	bench_pids=()
	trap 'for p in "${bench_pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"' EXIT
}

start_fake() {
	local dir=$1
	shift
	mkdir -p "$dir"
	"$@" &
	bench_pids+=($!)
	for _ in $(seq 1 1200); do
		[ -f "$dir/env" ] && return 0
		sleep 0.1
	done
	echo "fake registry in $dir did not start" >&2
	exit 1
}

write_config() {
	local n=$1 dir=$2
	mkdir -p "$dir"
	{
		echo 'terraform {'
		echo '  required_providers {'
		for i in $(seq -f '%02g' 1 "$n"); do
			echo "    p$i = { source = \"bench/p$i\" }"
		done
		echo '  }'
		echo '}'
	} >"$dir/main.tf"
}
