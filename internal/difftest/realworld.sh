#!/usr/bin/env bash
# realworld.sh TFDEPS TOFU GITDIR...
#
# Published modules, side by side: for every directory holding .tf files under
# examples/, modules/ and wrappers/ of each repository (a git directory, e.g. a
# snapshot of terraform-aws-modules/terraform-aws-vpc), run `get` and then
# `providers -no-color` with tfdeps and with a reference OpenTofu, each on its own
# copy of the repository, and compare exit codes and output. tofu prints the module
# tree in random order, so the output is compared as sorted lines with the tree
# drawing removed. Prints one line per difference and a summary; nothing is kept.
# Registry sources need the network for both tools; without it both fail alike.
set -u
[ $# -ge 3 ] || { echo "usage: realworld.sh TFDEPS TOFU GITDIR..." >&2; exit 2; }
tfdeps=$(realpath "$1"); tofu=$(realpath "$2"); shift 2
work=$(mktemp -d "${TMPDIR:-/tmp}/realworld.XXXXXX")
trap 'rm -rf "$work"' EXIT
norm() { sed 's/[├└│]──* *//; s/^[ │]*//' "$1" | sort; }
run() { # TOOL BIN DIR
  rm -rf "$work/$1"; cp -a "$src" "$work/$1"
  ( cd "$work/$1/$3" || exit
    env -u TF_CLI_CONFIG_FILE HOME="$work/home" timeout "${REALWORLD_TIMEOUT:-300}" "$2" get -no-color >/dev/null 2>&1
    env -u TF_CLI_CONFIG_FILE HOME="$work/home" timeout "${REALWORLD_TIMEOUT:-300}" "$2" providers -no-color >"$work/$1.out" 2>&1
    echo $? >"$work/$1.rc" )
}
n=0; same_exit=0; same_out=0; worse=0
for gitdir in "$@"; do
  name=$(basename "$(dirname "$gitdir")")
  src=$work/src-$name; mkdir -p "$src"
  # Large binary blobs may be absent from a snapshot: leave archives out.
  git --git-dir="$gitdir" archive HEAD -- . ':(exclude)*.zip' 2>/dev/null | tar -x -C "$src" 2>/dev/null
  for dir in $(cd "$src" && find examples modules wrappers -name '*.tf' -printf '%h\n' 2>/dev/null | sort -u); do
    n=$((n+1))
    run tofu "$tofu" "$dir"; run tfdeps "$tfdeps" "$dir"
    a=$(cat "$work/tofu.rc"); b=$(cat "$work/tfdeps.rc")
    if [ "$a" = "$b" ]; then same_exit=$((same_exit+1)); else echo "exit differs: $name/$dir: tofu $a, tfdeps $b"; fi
    [ "$a" = 0 ] && [ "$b" != 0 ] && worse=$((worse+1))
    if diff <(norm "$work/tofu.out") <(norm "$work/tfdeps.out") >/dev/null; then
      same_out=$((same_out+1))
    else
      echo "output differs: $name/$dir"; diff <(norm "$work/tofu.out") <(norm "$work/tfdeps.out") | head -"${REALWORLD_DIFF_LINES:-8}"
    fi
  done
done
echo "realworld: $n directories, same exit code $same_exit, same output $same_out, tfdeps exits 1 where tofu exits 0: $worse"
