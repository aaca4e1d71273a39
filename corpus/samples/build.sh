#!/bin/sh
# Rebuilds the sample binaries in corpus/samples from the sources beside them.
# The committed binaries are what the tests read; this script documents (and
# reproduces, given the same compiler versions) how they were made. See README.md.
set -eu
cd "$(dirname "$0")"

GCC=${GCC:-gcc}
CLANG=${CLANG:-clang}
OBJCOPY=${OBJCOPY:-objcopy}

# gcc 12 orders the VARs of its BTF by a pointer hash, so the output changes with
# address-space randomisation; running it with ASLR off makes the objects reproducible.
if setarch "$(uname -m)" -R true 2>/dev/null; then
	GCC="setarch $(uname -m) -R $GCC"
fi

# Keep build paths out of the DWARF so the output does not depend on the checkout.
CLANG_BPF="$CLANG -g -O2 -Wall -fdebug-prefix-map=$PWD=."

# gcc/: x86-64 relocatable objects with a .BTF section, one per C file; the types of
# sched.h repeat in every object (the input of `btfkit link`).
for f in queue job worker main; do
	(cd gcc && $GCC -gbtf -c -O2 -Wall "$f.c" -o "$f.o")
done

# bpf/: BPF objects with .BTF and .BTF.ext (func_info, line_info, CO-RE relocations),
# little-endian, plus a big-endian build of one of them.
for f in task_trace net_stats; do
	(cd bpf && $CLANG_BPF -target bpf -c "$f.c" -o "$f.bpf.o")
done
(cd bpf && $CLANG_BPF -target bpfeb -c task_trace.c -o task_trace.bpfeb.o)

# elf/: other ELF shapes.
# - ELF32 little-endian object with .BTF (i386).
(cd elf && $GCC -m32 -gbtf -c -O2 -Wall ../gcc/queue.c -o queue.i386.o)
# - ELF32 big-endian object without BTF (MIPS), for byte order / class coverage.
(cd elf && $CLANG -target mips-linux-gnu -O2 -Wall -c ../gcc/queue.c -o queue.mips.o)
# - ET_EXEC with program headers and a non-alloc .BTF (like a gcc -gbtf executable).
# - ET_EXEC whose .BTF is SHF_ALLOC inside a PT_LOAD segment (like vmlinux).
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd elf && $GCC -gbtf -c -O2 -Wall tiny.c -o "$tmp/tiny.o")
$GCC -nostdlib -static -no-pie -O2 -o elf/tiny.exec "$tmp/tiny.o"
$OBJCOPY --set-section-flags .BTF=alloc,readonly,contents "$tmp/tiny.o" "$tmp/tiny-alloc.o"
$GCC -nostdlib -static -no-pie -O2 -o elf/tiny-btf-alloc.exec "$tmp/tiny-alloc.o"

# compressed/: one object compressed three ways (input detection tests).
mkdir -p compressed
xz -9 -c bpf/task_trace.bpf.o >compressed/task_trace.bpf.o.xz
zstd -19 -q -c bpf/task_trace.bpf.o >compressed/task_trace.bpf.o.zst
gzip -9 -n -c bpf/task_trace.bpf.o >compressed/task_trace.bpf.o.gz
