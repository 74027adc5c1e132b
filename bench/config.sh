#!/usr/bin/env bash
# Loading a large configuration: a root module calling MODULES local modules
# (default 120), FILES files each (default 16), about 8.5 KB a file (1,921
# files, 15 MB by default), read as `providers` reads it after `get` has
# recorded the modules. Prints wall and CPU time (best of 3) and peak RSS
# (largest of 3) of `tfdeps providers` and, when TFDEPS_REFERENCE_TOFU
# names a reference OpenTofu, of `tofu providers` on the same tree.
# TFDEPS_BASELINE may name another tfdeps binary to compare with (e.g. one
# built from an older commit).
#
#   bench/config.sh [MODULES] [FILES]
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
modules=${1:-120}
files=${2:-16}
bench_init
go build -o "$work/tfdeps" ./cmd/tfdeps

python3 - "$work/tree" "$modules" "$files" <<'EOF'
import os, sys
root, modules, files = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
os.makedirs(root)
res = []
for i in range(40):
    res.append('resource "aws_instance" "r%d" {\n  ami           = "ami-%08d"\n  instance_type = var.size\n  tags = {\n    Name  = "r%d-${local.suffix}"\n    Index = %d\n  }\n  lifecycle {\n    ignore_changes = [tags]\n  }\n}\n' % (i, i, i, i))
body = "".join(res)
with open(os.path.join(root, "main.tf"), "w") as f:
    for m in range(modules):
        f.write('module "m%03d" {\n  source = "./modules/m%03d"\n  size   = "t3.micro"\n}\n\n' % (m, m))
for m in range(modules):
    d = os.path.join(root, "modules", "m%03d" % m)
    os.makedirs(d)
    with open(os.path.join(d, "variables.tf"), "w") as f:
        f.write('variable "size" {\n  type = string\n}\n\nlocals {\n  suffix = "m%03d"\n}\n' % m)
    for n in range(files - 1):
        with open(os.path.join(d, "r%02d.tf" % n), "w") as f:
            f.write(body.replace('"r', '"f%02dr' % n))
EOF
size=$(du -sb "$work/tree" | cut -f1)
count=$(find "$work/tree" -name '*.tf' | wc -l)
echo "tree: $count files, $((size / 1000000)) MB, $modules modules"

# three runs of one command in the tree: the best wall and CPU (user +
# system) seconds, and the largest peak RSS of the three (the peak depends
# on when the collector runs; on a loaded machine trust CPU over wall)
measure() {
	local best_t=999999 best_c=999999 max_m=0
	for _ in 1 2 3; do
		/usr/bin/time -o "$work/time.out" -f '%e %U %S %M' "$@" >/dev/null 2>&1 || true
		local t u s m c
		read -r t u s m < <(tail -1 "$work/time.out")
		c=$(awk "BEGIN{print $u + $s}")
		if awk "BEGIN{exit !($t < $best_t)}"; then best_t=$t; fi
		if awk "BEGIN{exit !($c < $best_c)}"; then best_c=$c; fi
		if [ "$m" -gt "$max_m" ]; then max_m=$m; fi
	done
	printf '%-22s %6.2f s wall  %6.2f s CPU  %6d MB peak RSS\n' "$label" "$best_t" "$best_c" $((max_m / 1024))
}

cd "$work/tree"
export HOME=$work TF_CLI_CONFIG_FILE=$work/empty.tfrc
: >"$TF_CLI_CONFIG_FILE"
"$work/tfdeps" get >/dev/null
label="tfdeps providers" measure "$work/tfdeps" providers -no-color
if [ -n "${TFDEPS_BASELINE:-}" ]; then
	label="baseline providers" measure "$TFDEPS_BASELINE" providers
fi
if [ -n "${TFDEPS_REFERENCE_TOFU:-}" ]; then
	label="tofu providers" measure "$TFDEPS_REFERENCE_TOFU" providers -no-color
fi
