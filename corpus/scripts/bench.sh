#!/usr/bin/env bash
# Whole-command benchmarks, btfkit and libbpf (btfref) side by side on the same inputs, run
# alternately (A B A B ...) so that drift of the machine hits both.
usage() {
  cat <<'EOF'
usage: corpus/scripts/bench.sh WORKLOAD... [RUNS]
  RUNS paired runs per workload (default 5; also RUNS=N in the environment). Each run's wall
  time, user+sys CPU and peak RSS (GNU time) go to stderr; stdout gets one markdown row per
  workload: medians and the btfkit/libbpf ratios of time, CPU and peak RSS, and both tools'
  output type counts. The medians also go to BENCH_DIR/WORKLOAD/medians.

The workloads of issue 24's table (`all` runs these six):
  link-modules  btfkit link --base VMLINUX MODULES/*.ko -o OUT
                libbpf: btfref dedup --base VMLINUX -o OUT MODULES (add_btf of each, one dedup)
  link300       link of a 300-unit split of vmlinux 6.18 (CuSplitter VMLINUX DIR 300 1 0.5)
                btfkit link DIR/unit-*.btf -o OUT; libbpf: btfref dedup -o OUT DIR
  ref300        the same on a reference split (CuSplitter VMLINUX DIR 300 1 0.3 reference:
                functions and unreferenced types are roots of their unit, 1.8 M types)
  ref3000       the reference split at 3,000 units (12.2 M types)
  gcc           gcc -gbtf kernel objects (build-gcc-kernel-subset.sh): btfkit link --fix of
                the objects as gcc wrote them; libbpf: btfref dedup of copies repaired with
                `btfkit convert --fix` (made once, not timed). Same types out of both.
  dedup-vmlinux btfkit dedup VMLINUX-6.18 -o OUT; libbpf: btfref dedup -o OUT VMLINUX-6.18
Other workloads:
  linkN, refN   any number of units N (split once under BENCH_DIR, or taken from the env below)
  gcc-link      btfkit link (default: gcc 12 encodings normalised, not repaired, so its output
                differs from libbpf's) of the objects; libbpf as in `gcc`
  gcc-copies    btfkit link of the repaired copies, the very files libbpf reads in `gcc`
  dedup-modules     btfkit dedup --out-dir of every module; libbpf: btfref dedup-each --inplace
  distill-modules   distill of every module; libbpf: btfref distill-each
  relocate-modules  relocation of every distilled module back onto its vmlinux

Environment (defaults are inside the repository):
  BTFREF                 libbpf helper (default target/btfref-head: libbpf 1.7 with upstream's
                         split-dedup typedef fix, static; corpus/scripts/build-btfref-head.sh)
  BTFKIT                 btfkit command (default: this checkout's ./btfkit launcher)
  BTFKIT_BENCH_DIR       outputs, logs and the splits made on demand (corpus/target/bench)
  BTFKIT_SHARED          the shared directory holding corpus/vmlinux-6.18.btf (../shared)
  BTFKIT_DEBIAN_KERNEL   VMLINUX and MODULES: a directory with vmlinux.btf and modules/*.ko
                         (corpus/target/debian/linux-image-6.1.0-56-amd64; fetch-debian-kernel.sh)
  BTFKIT_BENCH_UNITSn    an existing CuSplitter ... n 1 0.5 split for linkn (unit-*.btf)
  BTFKIT_BENCH_REFn      an existing CuSplitter ... n 1 0.3 reference split for refn
  BTFKIT_GCC_KERNEL      output directory of build-gcc-kernel-subset.sh (corpus/target/gcc-kernel)
e.g. BTFKIT_DEBIAN_KERNEL=/work/data/debian BTFKIT_BENCH_UNITS300=/work/data/u300 \
     BTFKIT_BENCH_REF300=/work/data/r300 BTFKIT_BENCH_REF3000=/work/data/r3000 \
     BTFKIT_GCC_KERNEL=/work/data/gcc-kernel corpus/scripts/bench.sh all 7
Needs GNU time (/usr/bin/time), the built jars (mvn -B -DskipTests package: the launcher's jar
and corpus/target/benchmarks.jar for the splits) and the libbpf helper.
EOF
}
set -euo pipefail
export LC_ALL=C # globs and btfref's directory listing in the same (byte) order
root=$(cd "$(dirname "$0")/../.." && pwd)
shared=${BTFKIT_SHARED:-$root/../shared}
vmlinux618=$shared/corpus/vmlinux-6.18.btf
bench=${BTFKIT_BENCH_DIR:-$root/corpus/target/bench}
kernel=${BTFKIT_DEBIAN_KERNEL:-$root/corpus/target/debian/linux-image-6.1.0-56-amd64}
gcckernel=${BTFKIT_GCC_KERNEL:-$root/corpus/target/gcc-kernel}
btfref=${BTFREF:-$root/target/btfref-head}
read -r -a btfkit <<<"${BTFKIT:-$root/btfkit}" # the launcher, with the JVM flags users get

workloads=()
runs=${RUNS:-5}
for arg in "$@"; do
  case "$arg" in
    -h|--help) usage; exit 0 ;;
    all) workloads+=(link-modules link300 ref300 ref3000 gcc dedup-vmlinux) ;;
    *[!0-9]*) workloads+=("$arg") ;;
    *) runs=$arg ;;
  esac
done
[ ${#workloads[@]} -gt 0 ] || { usage >&2; exit 2; }
die() { echo "bench: $*" >&2; exit 2; }
[ -x /usr/bin/time ] || die "GNU time is missing (apt-get install time)"
[ -x "$btfref" ] || die "no libbpf helper at $btfref (corpus/scripts/build-btfref-head.sh, or set BTFREF)"

split() { # KIND N P [reference]: a CuSplitter split of vmlinux 6.18, from the env or made once
  local kind=$1 n=$2 var dir
  var=BTFKIT_BENCH_${kind^^}$n
  if [ -n "${!var:-}" ]; then
    [ -f "${!var}/unit-00000.btf" ] || die "$var=${!var} holds no unit-*.btf"
    echo "${!var}"; return
  fi
  dir=$bench/${kind/ref/refunits}$n
  if [ ! -f "$dir/.done" ]; then
    rm -rf "$dir"
    echo "bench: splitting vmlinux 6.18 into $n units ($*) in $dir" >&2
    java -Xmx12g -cp "$root/corpus/target/benchmarks.jar" io.btfkit.corpus.CuSplitter \
      "$vmlinux618" "$dir" "$n" 1 "${@:3}" >&2
    rm -f "$dir"/*.truth && touch "$dir/.done"
  fi
  echo "$dir"
}

modules() { # the Debian kernel's vmlinux.btf and modules/
  [ -f "$kernel/vmlinux.btf" ] && [ -d "$kernel/modules" ] ||
    die "no $kernel/{vmlinux.btf,modules}: set BTFKIT_DEBIAN_KERNEL (corpus/scripts/fetch-debian-kernel.sh)"
}

gcc_inputs() { # sets raw and fixed: list files of the objects and their repaired copies, in one order
  local objdir=$gcckernel/objects list=$gcckernel/objects.list dir=$bench/gcc-fixed
  [ -f "$list" ] || die "no $list: set BTFKIT_GCC_KERNEL (corpus/scripts/build-gcc-kernel-subset.sh)"
  raw=$bench/gcc-raw.list fixed=$dir/fixed.list
  sed "s|^|$objdir/|" "$list" > "$raw"
  if [ "$(cat "$dir/.done" 2>/dev/null)" != "$objdir" ] || [ "$list" -nt "$dir/.done" ]; then
    # one batch convert; names flattened (kernel/bpf/main.o -> kernel_bpf_main), since batch
    # outputs are named by stem and kernel/*/main.o would collide
    echo "bench: repairing $(wc -l < "$list") objects with btfkit convert --fix into $dir" >&2
    rm -rf "$dir" && mkdir -p "$dir/in"
    while read -r o; do ln -s "$objdir/$o" "$dir/in/$(tr / _ <<<"${o%.o}").o"; done < "$list"
    "${btfkit[@]}" convert --fix -q --out-dir "$dir" "$dir"/in/*.o >&2
    # input types: the sum over the objects
    while read -r o; do "$btfref" stats "$o" | sed -n 's/^types=\([0-9]*\).*/\1/p'; done < "$raw" |
      awk '{s += $1} END {print s}' > "$dir/raw.types"
    echo "$objdir" > "$dir/.done"
  fi
  while read -r o; do echo "$dir/$(tr / _ <<<"${o%.o}").btf"; done < "$list" > "$fixed"
  echo "bench: gcc: $(wc -l < "$raw") objects, $(cat "$dir/raw.types") input types ($gcckernel)" >&2
}

setup() { # WORKLOAD: sets a (btfkit), b (libbpf), outs (outputs to count: btfkit libbpf) and base
  local w=$1 dir n
  out=$bench/$w
  a=(); b=(); outs=(); base=
  mkdir -p "$out" && rm -f "$out/btfkit.btf" "$out/libbpf.btf" # no output of an earlier series counted
  case "$w" in
    link-modules)
      modules; base=$kernel/vmlinux.btf
      a=("${btfkit[@]}" link --base "$base" "$kernel"/modules/*.ko -o "$out/btfkit.btf")
      b=("$btfref" dedup --base "$base" -o "$out/libbpf.btf" "$kernel/modules") ;;
    link[0-9]*|ref[0-9]*)
      n=${w##*[a-z]}
      if [ "${w%%[0-9]*}" = link ]; then dir=$(split units "$n" 0.5); else dir=$(split ref "$n" 0.3 reference); fi
      a=("${btfkit[@]}" link "$dir"/unit-*.btf -o "$out/btfkit.btf")
      b=("$btfref" dedup -o "$out/libbpf.btf" "$dir") ;;
    gcc|gcc-link|gcc-copies)
      gcc_inputs
      case "$w" in
        gcc) a=("${btfkit[@]}" link --fix -q -o "$out/btfkit.btf" $(cat "$raw")) ;;
        gcc-link) a=("${btfkit[@]}" link -q -o "$out/btfkit.btf" $(cat "$raw")) ;;
        gcc-copies) a=("${btfkit[@]}" link -q -o "$out/btfkit.btf" $(cat "$fixed")) ;;
      esac
      b=("$btfref" dedup -o "$out/libbpf.btf" -L "$fixed") ;;
    dedup-vmlinux)
      a=("${btfkit[@]}" dedup "$vmlinux618" -o "$out/btfkit.btf")
      b=("$btfref" dedup -o "$out/libbpf.btf" "$vmlinux618") ;;
    dedup-modules)
      modules; mkdir -p "$out/ddref"
      a=("${btfkit[@]}" dedup -q --base "$kernel/vmlinux.btf" --out-dir "$out/dd" "$kernel"/modules/*.ko)
      b=("$btfref" dedup-each --inplace --base "$kernel/vmlinux.btf" -d "$out/ddref" "$kernel/modules") ;;
    distill-modules)
      modules; mkdir -p "$out/distref"
      a=("${btfkit[@]}" distill -q --base "$kernel/vmlinux.btf" --out-dir "$out/dist" "$kernel"/modules/*.ko)
      b=("$btfref" distill-each --base "$kernel/vmlinux.btf" -d "$out/distref" "$kernel/modules") ;;
    relocate-modules)
      modules
      [ -d "$out/dist" ] || "${btfkit[@]}" distill -q --base "$kernel/vmlinux.btf" --out-dir "$out/dist" "$kernel"/modules/*.ko
      mkdir -p "$out/relref"
      [ -d "$out/distref" ] || { mkdir -p "$out/distref"; "$btfref" distill-each --base "$kernel/vmlinux.btf" -d "$out/distref" "$kernel/modules" >/dev/null 2>&1; }
      a=("${btfkit[@]}" relocate -q --base "$kernel/vmlinux.btf" --out-dir "$out/rel" "$out"/dist/*.split.btf)
      b=("$btfref" relocate-each --base "$kernel/vmlinux.btf" -d "$out/relref" "$out/distref") ;;
    *) usage >&2; exit 2 ;;
  esac
  case "${a[*]}" in *" -o $out/btfkit.btf"*) outs=("$out/btfkit.btf" "$out/libbpf.btf") ;; esac
}

run() { # TOOL CMD...: one timed run; prints "wall cpu rss_kb status"
  local tool=$1 status=0
  shift
  /usr/bin/time -f "%e %U %S %M" -o "$out/time.$tool" "$@" >"$out/out.$tool" 2>"$out/err.$tool" || status=$?
  awk -v s="$status" '{printf "%s %.2f %s %s\n", $1, $2 + $3, $4, s}' "$out/time.$tool"
}
median() { printf '%s\n' "$@" | sort -g | awk '{v[NR] = $1} END {print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2)}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf (b > 0 ? "%.2f×" : "—"), (b > 0 ? a / b : 0)}'; }
types() { # OUT: type count of a raw BTF output (split part only when there is a base)
  local args=(); [ -n "$base" ] && args=(--base "$base")
  [ -f "$1" ] && "$btfref" stats "${args[@]}" "$1" | sed -n 's/^types=\([0-9]*\).*/\1/p' | sed ':a;s/\B[0-9]\{3\}\>/,&/;ta'
}
dump() { # OUT: bpftool's raw text of an output (ids, names, fields; not the string order)
  local args=(); [ -n "$base" ] && args=(--base "$base")
  "$btfref" dump "${args[@]}" "$1"
}
mb() { awk -v k="$1" 'BEGIN {printf "%d MB", k / 1024 + 0.5}'; }

"${btfkit[@]}" --version >/dev/null # the launcher builds its jar now, not in a timed run
echo "| workload | btfkit | libbpf | time | btfkit CPU | libbpf CPU | CPU | btfkit RSS | libbpf RSS | RSS | output types (btfkit / libbpf) |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
failed=0
for w in "${workloads[@]}"; do
  setup "$w"
  # inputs into the page cache once, so that the first run does not pay for the disk alone
  for f in "${a[@]}"; do if [ -f "$f" ]; then cat "$f"; fi; done >/dev/null
  wa=(); wb=(); ca=(); cb=(); ra=(); rb=(); pairs=(); bad=
  for i in $(seq 1 "$runs"); do
    for tool in btfkit libbpf; do
      if [ $tool = btfkit ]; then read -r wall cpu rss st < <(run btfkit "${a[@]}")
      else read -r wall cpu rss st < <(run libbpf "${b[@]}"); fi
      echo "bench: $w run $i $tool: ${wall} s wall, ${cpu} s CPU, $((rss / 1024)) MB peak RSS" >&2
      if [ "$st" != 0 ]; then
        echo "bench: $w: $tool failed (exit $st): $(head -c 300 "$out/err.$tool")" >&2
        bad="$bad $tool failed (exit $st);"
      fi
      if [ $tool = btfkit ]; then wa+=("$wall"); ca+=("$cpu"); ra+=("$rss")
      else wb+=("$wall"); cb+=("$cpu"); rb+=("$rss"); pairs+=("$(ratio "${wa[-1]}" "$wall")"); fi
    done
  done
  read -r t1 c1 r1 t2 c2 r2 <<<"$(median "${wa[@]}") $(median "${ca[@]}") $(median "${ra[@]}") $(median "${wb[@]}") $(median "${cb[@]}") $(median "${rb[@]}")"
  echo "$t1 $c1 $r1 $t2 $c2 $r2" > "$out/medians" # wall, CPU, RSS KB: btfkit, then libbpf
  echo "bench: $w: time ratio per pair: ${pairs[*]}; btfkit ${wa[*]} s, libbpf ${wb[*]} s" >&2
  result=${bad:-—}
  if [ -z "$bad" ] && [ ${#outs[@]} -gt 0 ]; then
    result="$(types "${outs[0]}") / $(types "${outs[1]}")"
    if cmp -s "${outs[0]}" "${outs[1]}"; then result="$result (same bytes)"
    elif cmp -s <(dump "${outs[0]}") <(dump "${outs[1]}"); then result="$result (same types, other bytes)"; fi
    echo "bench: $w: btfkit output $(sha256sum < "${outs[0]}" | cut -c1-16)… ($(stat -c %s "${outs[0]}") bytes)" >&2
  fi
  [ -n "$bad" ] && failed=1
  printf '| `%s` | %.2f s | %.2f s | **%s** | %.2f s | %.2f s | %s | %s | %s | %s | %s |\n' "$w" \
    "$t1" "$t2" "$(ratio "$t1" "$t2")" "$c1" "$c2" "$(ratio "$c1" "$c2")" \
    "$(mb "$r1")" "$(mb "$r2")" "$(ratio "$r1" "$r2")" "$result"
done
exit $failed
