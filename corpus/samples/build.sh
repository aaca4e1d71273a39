#!/bin/sh
# Rebuilds the sample binaries in corpus/samples from the sources beside them.
# The committed binaries are what the tests read; this script documents (and
# reproduces, given the same compiler versions) how they were made. See README.md.
set -eu
cd "$(dirname "$0")"
HERE=$PWD

GCC=${GCC:-gcc}
CLANG=${CLANG:-clang}
OBJCOPY=${OBJCOPY:-objcopy}

# gcc 12 orders the VARs of its BTF by a pointer hash, so the output changes with
# address-space randomisation; running it with ASLR off makes the objects reproducible.
if setarch "$(uname -m)" -R true 2>/dev/null; then
	GCC="setarch $(uname -m) -R $GCC"
fi

# gcc 12 stores the absolute path of the compiled file in the BTF string table whatever
# the prefix maps say, so the gcc sources are compiled in a fixed directory: the objects
# then do not depend on where the repository is checked out.
B=${BTFKIT_SAMPLES_BUILD:-/tmp/btfkit-samples}
rm -rf "$B"
mkdir -p "$B/gcc" "$B/elf"
trap 'rm -rf "$B"' EXIT
cp gcc/*.c gcc/*.h "$B/gcc/"
cp elf/tiny.c "$B/elf/"

# gcc/: x86-64 relocatable objects with a .BTF section, one per C file; the types of
# sched.h repeat in every object (the input of `btfkit link`).
for f in queue job worker main; do
	(cd "$B/gcc" && $GCC -gbtf -c -O2 -Wall "$f.c" -o "$HERE/gcc/$f.o")
done

# bpf/: BPF objects with .BTF and .BTF.ext (func_info, line_info, CO-RE relocations),
# little-endian, plus a big-endian build of one of them. The prefix map keeps the
# checkout's path out; it must map the directory clang runs in, because clang reads each
# source line back through the mapped name to store its text in line_info.
CLANG_BPF="$CLANG -g -O2 -Wall -fdebug-prefix-map=$HERE/bpf=."
for f in task_trace net_stats core_reads module_reads; do
	(cd bpf && $CLANG_BPF -target bpf -c "$f.c" -o "$f.bpf.o")
done
(cd bpf && $CLANG_BPF -target bpfeb -c task_trace.c -o task_trace.bpfeb.o)
# core/: the CO-RE rules sample and its kernel (kept apart from bpf/*.bpf.o, the benchmarks' set).
(cd core && $CLANG -g -O2 -Wall -fdebug-prefix-map=$HERE/core=. -target bpf -c core_rules.c -o core_rules.bpf.o)

# elf/: other ELF shapes.
# - ELF32 little-endian object with .BTF (i386).
(cd "$B/gcc" && $GCC -m32 -gbtf -c -O2 -Wall queue.c -o "$HERE/elf/queue.i386.o")
# - ELF32 big-endian object without BTF (MIPS), for byte order / class coverage.
(cd "$B/gcc" && $CLANG -target mips-linux-gnu -O2 -Wall -c queue.c -o "$HERE/elf/queue.mips.o")
# - ET_EXEC with program headers and a non-alloc .BTF (like a gcc -gbtf executable).
# - ET_EXEC whose .BTF is SHF_ALLOC inside a PT_LOAD segment (like vmlinux).
(cd "$B/elf" && $GCC -gbtf -c -O2 -Wall tiny.c -o tiny.o)
$GCC -nostdlib -static -no-pie -O2 -o elf/tiny.exec "$B/elf/tiny.o"
$OBJCOPY --set-section-flags .BTF=alloc,readonly,contents "$B/elf/tiny.o" "$B/elf/tiny-alloc.o"
$GCC -nostdlib -static -no-pie -O2 -o elf/tiny-btf-alloc.exec "$B/elf/tiny-alloc.o"

# compressed/: one object compressed three ways (input detection tests).
mkdir -p compressed
xz -9 -c bpf/task_trace.bpf.o >compressed/task_trace.bpf.o.xz
zstd -19 -q -c bpf/task_trace.bpf.o >compressed/task_trace.bpf.o.zst
gzip -9 -n -c bpf/task_trace.bpf.o >compressed/task_trace.bpf.o.gz

# ko/: kernel modules for docs/GUIDE.md's examples, made from golden modules' BTF (split BTF on
# ../shared/golden/vmlinux-6.1.0-56.btf): an empty object with that BTF as its .BTF section,
# which is all of a .ko that btfkit reads. Skipped when ../shared is not beside the checkout.
G=${BTFKIT_SHARED:-$HERE/../../../shared}/golden
if [ -d "$G/modules" ]; then
	mkdir -p ko
	(cd "$B" && printf '' | $GCC -c -x c - -o empty.o)
	for m in yurex roles; do
		$OBJCOPY -R .comment -R .note.GNU-stack --add-section .BTF="$G/modules/$m.btf" "$B/empty.o" "ko/$m.ko"
	done
fi
