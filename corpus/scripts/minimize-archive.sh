#!/usr/bin/env bash
# A BTF archive of N kernels with distinct content for `btfkit minimize --out-dir` (issue 16):
# the golden kernels (vmlinux 6.18, 6.1.0-47, 6.1.0-56, 6.1.0-56-cloud), each as it is and in
# random type orders (`btfkit permute --id-map`, seeded: the same files every time). Every copy
# is a whole kernel to load and resolve, and its minimized BTF differs from the others' (the
# kept types come out in the copy's id order).
#
#   corpus/scripts/minimize-archive.sh DIR [N]     N kernels (default 104) into DIR/kernels/
#   corpus/scripts/minimize-archive.sh DIR N check  also: btfkit's batch against one bpftool
#                                                   gen min_core_btf per kernel, byte for byte
#
# The BPF objects are corpus/samples/bpf/*.bpf.o. Needs python3 and the built launcher;
# check needs bpftool (BPFTOOL=/usr/sbin/bpftool by default).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
shared=${BTFKIT_SHARED:-$root/../shared}
dir=${1:?usage: minimize-archive.sh DIR [N] [check]}
n=${2:-104}
bpftool=${BPFTOOL:-/usr/sbin/bpftool}
kernels=("$shared/corpus/vmlinux-6.18.btf" "$shared/golden/vmlinux-6.1.0-47.btf"
         "$shared/golden/vmlinux-6.1.0-56.btf" "$shared/golden/vmlinux-6.1.0-56-cloud.btf")
mkdir -p "$dir/kernels"
for ((i = 0; i < n; i++)); do
  src=${kernels[i % 4]}
  name=$(basename "$src" .btf)-$((i / 4)).btf
  out="$dir/kernels/$name"
  [ -f "$out" ] && continue
  if ((i < 4)); then
    cp "$src" "$out"
    continue
  fi
  count=$("$root/btfkit" stats "$src" | sed -n 's/^types: *\([0-9]*\) .*/\1/p')
  # picocli reads an @file as arguments: an id map of 126,000 numbers is too long for argv
  python3 -c "
import random, sys
n, seed = int(sys.argv[1]), int(sys.argv[2])
ids = list(range(1, n + 1))
random.Random(seed).shuffle(ids)
print('--id-map')
print('0,' + ','.join(map(str, ids)))" "$count" "$i" > "$dir/idmap.args"
  "$root/btfkit" permute "$src" @"$dir/idmap.args" -o "$out"
done
rm -f "$dir/idmap.args"
echo "$dir/kernels: $(ls "$dir/kernels" | wc -l) kernels"

if [ "${3:-}" = check ]; then
  rm -rf "$dir/btfkit" "$dir/bpftool"
  mkdir -p "$dir/btfkit" "$dir/bpftool"
  "$root/btfkit" minimize -q --out-dir "$dir/btfkit" "$dir"/kernels/*.btf "$root"/corpus/samples/bpf/*.bpf.o
  for k in "$dir"/kernels/*.btf; do
    "$bpftool" gen min_core_btf "$k" "$dir/bpftool/$(basename "$k")" "$root"/corpus/samples/bpf/*.bpf.o
  done
  differ=0
  for k in "$dir"/kernels/*.btf; do
    cmp -s "$dir/bpftool/$(basename "$k")" "$dir/btfkit/$(basename "$k")" || { echo "differs: $k"; differ=$((differ + 1)); }
  done
  echo "$(ls "$dir/kernels" | wc -l) kernels, $differ outputs differ from bpftool's"
  [ "$differ" -eq 0 ]
fi
