#!/usr/bin/env bash
# Split dedup of every module of a Debian kernel against its vmlinux, btfkit and libbpf side by
# side, compared byte for byte: `btfref dedup-each --inplace` (btf__dedup on each parsed module)
# and one `btfkit dedup --base --out-dir` batch. Prints the modules whose bytes differ (with
# both type counts) and a summary line.
#   corpus/scripts/compare-modules.sh BTFREF [KERNEL_DIR]
# BTFREF: a btfref binary (../shared/tools/btfref/build.sh, build-btfref-new.sh,
# build-btfref-head.sh); KERNEL_DIR: the output of fetch-debian-kernel.sh (default: its
# default, corpus/target/debian/linux-image-6.1.0-56-amd64). Needs ./btfkit built.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
ref=${1:?usage: compare-modules.sh BTFREF [KERNEL_DIR]}
kdir=${2:-$root/corpus/target/debian/linux-image-6.1.0-56-amd64}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/libbpf" "$work/btfkit"
"$ref" dedup-each --base "$kdir/vmlinux.btf" --inplace -d "$work/libbpf" "$kdir/modules" > "$work/libbpf.tsv" 2>/dev/null
"$root/btfkit" dedup --base "$kdir/vmlinux.btf" --out-dir "$work/btfkit" "$kdir"/modules/*.ko* >/dev/null
total=0 same=0
while IFS=$'\t' read -r name _ out _; do
  [ "$name" = name ] && continue
  total=$((total + 1))
  mine="$work/btfkit/${name%%.ko*}.btf"
  if cmp -s "$work/libbpf/$name" "$mine"; then
    same=$((same + 1))
  else
    echo "$name: libbpf $out types, btfkit $("$root/btfkit" stats --base "$kdir/vmlinux.btf" "$mine" 2>/dev/null \
      | awk '/^types/ {print $2; exit}') types"
  fi
done < "$work/libbpf.tsv"
echo "$same of $total modules byte-identical"
