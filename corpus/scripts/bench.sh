#!/usr/bin/env bash
# Whole-command benchmarks, btfkit and libbpf (btfref) side by side on the same inputs,
# run alternately (A B A B ...) so machine drift hits both; prints each run's wall time and
# peak RSS (GNU time), then the medians and the btfkit/libbpf ratio.
#
#   corpus/scripts/bench.sh WORKLOAD [RUNS]
#     link300   link of a 300-unit split of ../shared/corpus/vmlinux-6.18.btf
#     link3000  the same at 3,000 units (linkN: any N)
#     dedup-modules     split dedup of every module of a Debian kernel (fetch-debian-kernel.sh)
#     distill-modules   distill of every module
#     relocate-modules  relocation of every distilled module back onto its vmlinux
#     dedup-vmlinux     dedup of vmlinux 6.18 alone
#
# Needs: the built launcher (mvn -B package), target/btfref (../shared/tools/btfref/build.sh
# target/btfref) and, for distill/relocate, target/btfref-new (corpus/scripts/build-btfref-new.sh).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
shared=${BTFKIT_SHARED:-$root/../shared}
work=${BTFKIT_BENCH_DIR:-$root/corpus/target/bench}
kernel=${BTFKIT_DEBIAN_KERNEL:-$root/corpus/target/debian/linux-image-6.1.0-56-amd64}
runs=${2:-5}
btfkit=("$root/btfkit")   # the launcher, with the JVM flags users get
mkdir -p "$work"

units() { # N: a split of vmlinux 6.18 into N units, made once
  local n=$1 dir="$work/units$1"
  if [ ! -f "$dir/.done" ]; then
    rm -rf "$dir"
    java -Xmx8g -cp "$root/corpus/target/benchmarks.jar" io.btfkit.corpus.CuSplitter \
      "$shared/corpus/vmlinux-6.18.btf" "$dir" "$n" 1 0.5
    rm -f "$dir"/*.truth && touch "$dir/.done"
  fi
  echo "$dir"
}

case "${1:-}" in
  link[0-9]*)
    n=${1#link}; dir=$(units "$n")
    a=("${btfkit[@]}" link "$dir"/unit-*.btf -o "$work/link.btfkit.btf")
    b=("$root/target/btfref" dedup -o "$work/link.libbpf.btf" "$dir") ;;
  dedup-modules)
    a=("${btfkit[@]}" dedup -q --base "$kernel/vmlinux.btf" --out-dir "$work/dd" "$kernel"/modules/*.ko)
    b=("$root/target/btfref" dedup-each --inplace --base "$kernel/vmlinux.btf" -d "$work/ddref" "$kernel/modules") ;;
  distill-modules)
    a=("${btfkit[@]}" distill -q --base "$kernel/vmlinux.btf" --out-dir "$work/dist" "$kernel"/modules/*.ko)
    b=("$root/target/btfref-new" distill-each --base "$kernel/vmlinux.btf" -d "$work/distref" "$kernel/modules") ;;
  relocate-modules)
    [ -d "$work/dist" ] || "${btfkit[@]}" distill -q --base "$kernel/vmlinux.btf" --out-dir "$work/dist" "$kernel"/modules/*.ko
    [ -d "$work/distref" ] || { mkdir -p "$work/distref"; "$root/target/btfref-new" distill-each --base "$kernel/vmlinux.btf" -d "$work/distref" "$kernel/modules" >/dev/null 2>&1; }
    a=("${btfkit[@]}" relocate -q --base "$kernel/vmlinux.btf" --out-dir "$work/rel" "$work"/dist/*.split.btf)
    b=("$root/target/btfref-new" relocate-each --base "$kernel/vmlinux.btf" -d "$work/relref" "$work/distref") ;;
  dedup-vmlinux)
    a=("${btfkit[@]}" dedup "$shared/corpus/vmlinux-6.18.btf" -o "$work/v.btfkit.btf")
    b=("$root/target/btfref" dedup -o "$work/v.libbpf.btf" "$shared/corpus/vmlinux-6.18.btf") ;;
  *) sed -n '2,16p' "$0"; exit 2 ;;
esac
mkdir -p "$work/dd" "$work/ddref" "$work/distref" "$work/relref"

run() { # label cmd...: prints "wall_s rss_kb"
  local label=$1; shift
  /usr/bin/time -f "%e %M" -o "$work/time.$label" "$@" >/dev/null 2>"$work/err.$label" || true
  cat "$work/time.$label"
}
ta=(); tb=(); ra=(); rb=()
for i in $(seq 1 "$runs"); do
  read -r w m < <(run btfkit "${a[@]}"); ta+=("$w"); ra+=("$m"); echo "run $i btfkit ${w}s ${m}KB"
  read -r w m < <(run libbpf "${b[@]}"); tb+=("$w"); rb+=("$m"); echo "run $i libbpf ${w}s ${m}KB"
done
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END {print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }
ma=$(median "${ta[@]}"); mb=$(median "${tb[@]}")
echo "$1: btfkit median ${ma}s (peak RSS $(median "${ra[@]}") KB), libbpf median ${mb}s (peak RSS $(median "${rb[@]}") KB), ratio $(awk -v a="$ma" -v b="$mb" 'BEGIN {printf "%.2f", a/b}')"
