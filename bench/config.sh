#!/usr/bin/env bash
# Loading a large configuration: a root module calling MODULES local modules
# (default 120), FILES files each (default 16), about 8.5 KB a file (2,000
# files, 17 MB by default), read as `providers` reads it after `get` has
# recorded the modules. Prints wall time and peak RSS of `tfdeps providers`
# (best of 3) and, when TFDEPS_REFERENCE_TOFU names a reference OpenTofu,
# of `tofu providers` on the same tree. TFDEPS_BASELINE may name another
# tfdeps binary to compare with (e.g. one built from an older commit).
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

# best of 3: wall seconds and peak RSS (MB) of one command in the tree
measure() {
	local best_t=999999 best_m=0
	for _ in 1 2 3; do
		/usr/bin/time -o "$work/time.out" -f '%e %M' "$@" >/dev/null 2>&1 || true
		local out t m
		out=$(tail -1 "$work/time.out")
		t=${out% *} m=${out#* }
		if awk "BEGIN{exit !($t < $best_t)}"; then best_t=$t best_m=$m; fi
	done
	printf '%-28s %6.2f s  %6d MB\n' "$label" "$best_t" $((best_m / 1024))
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
