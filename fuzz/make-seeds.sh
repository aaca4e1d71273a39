#!/usr/bin/env bash
# Regenerates the fuzz seed corpora under src/test/resources/io/btfkit/fuzz/*Inputs/ from the
# shipped samples (corpus/samples), libbpf's distilled module BTF and per-CU slices of the 6.18
# vmlinux (../shared). Seeds are committed; run this only to rebuild them. Hand-written seeds
# (*.txt written below, and crash-* reproducers Jazzer adds) live beside the generated ones.
#
# Needs: llvm-objcopy, bpftool, clang, xz, gzip, zstd, java; the corpus module compiled
# (mvn -q -pl corpus -am compile) for the vmlinux slices; ./btfkit for the minimized kernel seeds.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
samples=$root/corpus/samples
shared=${BTFKIT_SHARED:-$root/../shared}
res=$here/src/test/resources/io/btfkit/fuzz
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

dir() { mkdir -p "$res/$1"; echo "$res/$1"; }
raw=$(dir RawBtfFuzzTestInputs/standalone)
split=$(dir RawBtfFuzzTestInputs/split)
elf=$(dir ElfFuzzTestInputs/elf)
ext=$(dir BtfExtFuzzTestInputs/ext)
text=$(dir RawTextFuzzTestInputs/text)
comp=$(dir CompressedInputFuzzTestInputs/compressed)
wrap=$(dir CompressedInputFuzzTestInputs/wrapped)
val=$(dir ValidatorFuzzTestInputs/validate)
dedup=$(dir DedupFuzzTestInputs/dedup)

# .BTF and .BTF.ext sections of the sample objects
for f in gcc/queue.o gcc/job.o gcc/worker.o gcc/main.o elf/queue.i386.o \
         bpf/task_trace.bpf.o bpf/net_stats.bpf.o bpf/task_trace.bpfeb.o; do
    stem=$(basename "$f" .o)
    llvm-objcopy --dump-section .BTF="$raw/$stem.btf" "$samples/$f" "$tmp/out.o"
    case $f in bpf/*) llvm-objcopy --dump-section .BTF.ext="$ext/$stem.btf.ext" "$samples/$f" "$tmp/out.o" ;; esac
done
cp "$raw"/queue.btf "$raw"/job.btf "$raw"/main.btf "$raw"/task_trace.bpf.btf "$val"/
cp "$raw"/queue.btf "$raw"/worker.btf "$raw"/main.btf "$raw"/net_stats.bpf.btf "$dedup"/

# whole ELF files (all a few KB)
for f in gcc/queue.o gcc/main.o bpf/net_stats.bpf.o bpf/task_trace.bpfeb.o elf/queue.i386.o \
         elf/queue.mips.o elf/tiny.exec; do
    cp "$samples/$f" "$elf/$(basename "$f")"
done

# libbpf's distilled bases with their split BTF: u32 LE base length, base, split
pair() { # NAME
    local b=$shared/golden/distill/$1.base s=$shared/golden/distill/$1.split
    [ -f "$b" ] || return 0
    python3 -c 'import struct,sys; sys.stdout.buffer.write(struct.pack("<I", int(sys.argv[1])))' \
        "$(stat -c %s "$b")" > "$split/$1.pair"
    cat "$b" "$s" >> "$split/$1.pair"
    cp "$b" "$raw/$1.base.btf"
}
for m in nls_cp932 dp83tc811 smsc serio_raw gameport yurex; do pair "$m"; done
# an object whose .BTF is split on a .BTF.base (the pahole distilled-base layout)
if [ -f "$shared/golden/distill/dp83tc811.base" ]; then
    llvm-objcopy --update-section .BTF="$shared/golden/distill/dp83tc811.split" \
        --add-section .BTF.base="$shared/golden/distill/dp83tc811.base" "$samples/gcc/queue.o" "$elf/distilled.o"
fi

# per-compilation-unit slices of the 6.18 vmlinux (CuSplitter, fixed seed): every kind vmlinux has
if [ -f "$shared/corpus/vmlinux-6.18.btf" ] && [ -d "$root/corpus/target/classes" ]; then
    fastutil=$(find ~/.m2/repository/it/unimi/dsi/fastutil-core -name 'fastutil-core-*.jar' | head -1)
    java -cp "$root/corpus/target/classes:$root/core/target/classes:$fastutil" io.btfkit.corpus.CuSplitter \
        "$shared/corpus/vmlinux-6.18.btf" "$tmp/units" 20000 7 1.0 > /dev/null
    for u in 14765 01931 16470 16660 11263; do
        cp "$tmp/units/unit-$u.btf" "$raw/vmlinux-unit-$u.btf"
        cp "$tmp/units/unit-$u.btf" "$dedup/vmlinux-unit-$u.btf"
    done
    cp "$tmp/units/unit-16470.btf" "$tmp/units/unit-01931.btf" "$val"/
    bpftool btf dump file "$tmp/units/unit-14765.btf" format raw > "$text/vmlinux-unit-14765.txt"
    bpftool btf dump file "$tmp/units/unit-16660.btf" format raw > "$dedup/vmlinux-unit-16660.txt"
fi

# bpftool's raw text of sample BTF
bpftool btf dump file "$samples/gcc/queue.o" format raw > "$text/queue.txt"
bpftool btf dump file "$samples/bpf/net_stats.bpf.o" format raw > "$text/net_stats.txt"
bpftool btf dump file "$samples/bpf/task_trace.bpf.o" format raw > "$val/task_trace.txt"

# compressed inputs: the shipped samples and compressed raw BTF
cp "$samples"/compressed/task_trace.bpf.o.{gz,xz,zst} "$comp"/
gzip -9 -n -c "$raw/queue.btf" > "$comp/queue.btf.gz"
xz -9 -c "$raw/queue.btf" > "$comp/queue.btf.xz"
zstd -19 -q -c "$raw/queue.btf" > "$comp/queue.btf.zst"
# wrapped: first byte picks gzip (0), xz (1), zstd (2) or none (3); the rest is compressed by the test
for fmt in 0 1 2 3; do
    { printf "\\x0$fmt"; cat "$raw/job.btf"; } > "$wrap/job.btf.$fmt"
done
{ printf '\x01'; cat "$text/queue.txt"; } > "$wrap/queue.txt.1"
{ printf '\x00'; cat "$samples/gcc/worker.o"; } > "$wrap/worker.o.0"

# CO-RE relocations (CoreReloFuzzTest; the fixed inputs are core_reads' .BTF, its .BTF.ext and
# kernel/min-6.18-all.btf): core_reads built as corpus/samples builds it (its .BTF and .BTF.ext are
# the relos/local seeds the target reads), big-endian, and with -mcpu=v3 (other instruction
# offsets; clang also orders two of its types the other way round, so its records name other
# kinds in the fixed .BTF); the .BTF as raw text; the kernel side as text and minimized on 6.1.
relos=$(dir CoreReloFuzzTestInputs/relos)
local_=$(dir CoreReloFuzzTestInputs/local)
kernel=$(dir CoreReloFuzzTestInputs/kernel)
cp "$samples/bpf/core_reads.c" "$samples/bpf/bpf_defs.h" "$tmp/"
for v in "bpf:bpf:" "bpfeb:bpfeb:" "bpf:v3.bpf:-mcpu=v3"; do
    IFS=: read -r target stem opt <<<"$v"
    # shellcheck disable=SC2086
    (cd "$tmp" && clang -g -O2 -Wall -fdebug-prefix-map="$tmp"=. -target "$target" $opt -c core_reads.c -o cr.o)
    llvm-objcopy --dump-section .BTF.ext="$relos/core_reads.$stem.btf.ext" "$tmp/cr.o" "$tmp/out.o"
    [ "$stem" = v3.bpf ] || llvm-objcopy --dump-section .BTF="$local_/core_reads.$stem.btf" "$tmp/cr.o" "$tmp/out.o"
done
bpftool btf dump file "$local_/core_reads.bpf.btf" format raw > "$local_/core_reads.txt"
bpftool btf dump file "$kernel/min-6.18-all.btf" format raw > "$kernel/min-6.18-all.txt"
for k in 6.1.0-47 6.1.0-56; do
    if [ -f "$shared/golden/vmlinux-$k.btf" ]; then
        "$root/btfkit" minimize "$shared/golden/vmlinux-$k.btf" "$samples/bpf/core_reads.bpf.o" -o "$kernel/min-$k-core_reads.btf"
    fi
done

echo "seeds written under $res"
