#!/usr/bin/env bash
# realworld.sh TFDEPS REFERENCE GITDIR...
#
# Published modules, side by side: for every directory holding .tf files under
# examples/, modules/ and wrappers/ of each repository (a git directory, e.g. a
# snapshot of terraform-aws-modules/terraform-aws-vpc), run `get` and then
# `providers -no-color` with tfdeps and with a reference program (tofu, or
# terraform), each on its own copy of the repository, and compare exit codes,
# Error/Warning summaries and output. The reference prints the module tree in
# random order, so the output is compared as sorted lines with the tree drawing
# removed. Prints one line per difference and a summary; nothing is kept.
# Registry sources need the network for both tools; without it both fail alike.
#
# REALWORLD_TFDEPS_FLAGS: flags put before tfdeps' command, e.g.
#   -compat=terraform when REFERENCE is terraform.
# REALWORLD_ALL_DIRS=1: every directory holding .tf files, the repository's
#   root included (test files sit beside a module's root).
set -u
[ $# -ge 3 ] || { echo "usage: realworld.sh TFDEPS REFERENCE GITDIR..." >&2; exit 2; }
tfdeps=$(realpath "$1"); ref=$(realpath "$2"); shift 2
read -r -a flags <<<"${REALWORLD_TFDEPS_FLAGS:-}"
work=$(mktemp -d "${TMPDIR:-/tmp}/realworld.XXXXXX")
trap 'rm -rf "$work"' EXIT
norm() { perl -Mutf8 -CSD -pe 's/[├└│]─+ *//; s/^[ │\x{a0}]*//' "$1" | sort; }
summaries() { grep -E '^(Error|Warning): ' "$1"; }
run() { # NAME DIR COMMAND...
  local name=$1 dir=$2; shift 2
  rm -rf "${work:?}/$name"; cp -a "$src" "$work/$name"
  ( cd "$work/$name/$dir" || exit
    env -u TF_CLI_CONFIG_FILE HOME="$work/home" CHECKPOINT_DISABLE=1 timeout "${REALWORLD_TIMEOUT:-300}" "$@" get -no-color >/dev/null 2>&1
    env -u TF_CLI_CONFIG_FILE HOME="$work/home" CHECKPOINT_DISABLE=1 timeout "${REALWORLD_TIMEOUT:-300}" "$@" providers -no-color >"$work/$name.out" 2>&1
    echo $? >"$work/$name.rc" )
}
dirs() {
  if [ "${REALWORLD_ALL_DIRS:-}" = 1 ]; then
    find . -name .terraform -prune -o -name '*.tf' -printf '%h\n' | sed 's|^\./||' | sort -u
  else
    find examples modules wrappers -name '*.tf' -printf '%h\n' 2>/dev/null | sort -u
  fi
}
n=0; same_exit=0; same_diags=0; same_out=0; worse=0
for gitdir in "$@"; do
  name=$(basename "$(dirname "$gitdir")")
  src=$work/src-$name; mkdir -p "$src"
  # Large binary blobs may be absent from a snapshot: leave archives out.
  git --git-dir="$gitdir" archive HEAD -- . ':(exclude)*.zip' 2>/dev/null | tar -x -C "$src" 2>/dev/null
  for dir in $(cd "$src" && dirs); do
    n=$((n+1))
    run ref "$dir" "$ref"; run tfdeps "$dir" "$tfdeps" "${flags[@]}"
    a=$(cat "$work/ref.rc"); b=$(cat "$work/tfdeps.rc")
    if [ "$a" = "$b" ]; then same_exit=$((same_exit+1)); else echo "exit differs: $name/$dir: reference $a, tfdeps $b"; fi
    [ "$a" = 0 ] && [ "$b" != 0 ] && worse=$((worse+1))
    if diff <(summaries "$work/ref.out") <(summaries "$work/tfdeps.out") >/dev/null; then
      same_diags=$((same_diags+1))
    else
      echo "diagnostics differ: $name/$dir"; diff <(summaries "$work/ref.out") <(summaries "$work/tfdeps.out") | head -"${REALWORLD_DIFF_LINES:-8}"
    fi
    if diff <(norm "$work/ref.out") <(norm "$work/tfdeps.out") >/dev/null; then
      same_out=$((same_out+1))
    else
      echo "output differs: $name/$dir"; diff <(norm "$work/ref.out") <(norm "$work/tfdeps.out") | head -"${REALWORLD_DIFF_LINES:-8}"
    fi
  done
done
echo "realworld: $n directories, same exit code $same_exit, same diagnostics $same_diags, same output $same_out, tfdeps exits 1 where the reference exits 0: $worse"
