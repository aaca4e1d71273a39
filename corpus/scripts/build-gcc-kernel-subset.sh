#!/usr/bin/env bash
# Builds a few directories of Debian's linux-source-6.1 with `gcc -gbtf` (defconfig,
# KCFLAGS=-gbtf) and collects the objects for the opt-in kernel-subset test and the benchmarks:
#   OUTDIR/objects/<dir>/<file>.o   every object of the chosen directories that has a .BTF
#   OUTDIR/objects.list             their paths relative to OUTDIR/objects, sorted
#   OUTDIR/composite/part.o         an `ld -r` of a few of them (one BTF blob per object, back to back)
#   OUTDIR/composite/parts.list     the objects it was made from, in order
#   OUTDIR/VERSIONS                 package and tool versions used
#
# Usage: corpus/scripts/build-gcc-kernel-subset.sh [OUTDIR]
#   OUTDIR defaults to corpus/target/gcc-kernel; BTFKIT_GCC_DIRS (default "kernel mm fs/ext4 net/ipv4")
#   picks the directories, BTFKIT_JOBS the make parallelism (default: nproc).
# Needs: apt-get (Debian sources), gcc 12, make, bc, flex, bison, libelf-dev, libssl-dev.
#   apt-get install bc flex bison libelf-dev libssl-dev
# Takes about 10 minutes on 2 cores for the default directories (378 objects, ~900,000 BTF types).
# Then: BTFKIT_GCC_KERNEL=OUTDIR mvn -B -pl corpus -am test -Dtest=GccKernelSubsetTest -Dsurefire.failIfNoSpecifiedTests=false
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$root/corpus/target/gcc-kernel}
dirs=${BTFKIT_GCC_DIRS:-kernel mm fs/ext4 net/ipv4}
jobs=${BTFKIT_JOBS:-$(nproc)}
pkg=linux-source-6.1

missing=()
for t in gcc make bc flex bison ld readelf dpkg-deb apt-get; do
  command -v "$t" >/dev/null || missing+=("$t")
done
[ -e /usr/include/libelf.h ] || missing+=(libelf-dev)
[ -e /usr/include/openssl/ssl.h ] || missing+=(libssl-dev)
if [ ${#missing[@]} -gt 0 ]; then
  echo "build-gcc-kernel-subset: missing: ${missing[*]} (apt-get install bc flex bison libelf-dev libssl-dev)" >&2
  exit 2
fi
case "$(gcc -dumpversion)" in
  12*) ;;
  *) echo "build-gcc-kernel-subset: warning: gcc $(gcc -dumpversion); the test bed documents gcc 12's encodings" >&2 ;;
esac

mkdir -p "$out"
src=$out/src
if [ ! -f "$src/linux/Makefile" ]; then
  rm -rf "$src" && mkdir -p "$src/deb"
  echo "build-gcc-kernel-subset: downloading $pkg" >&2
  (cd "$src/deb" && apt-get download "$pkg" >/dev/null 2>&1) || {
    echo "build-gcc-kernel-subset: apt-get download $pkg failed (is Debian bookworm in your apt sources?)" >&2
    exit 2
  }
  dpkg-deb -x "$src"/deb/*.deb "$src/root"
  tar -xJf "$src"/root/usr/src/linux-source-6.1.tar.xz -C "$src"
  mv "$src/linux-source-6.1" "$src/linux"
  rm -rf "$src/root"
fi
kdir=$src/linux
echo "build-gcc-kernel-subset: make defconfig; make KCFLAGS=-gbtf $dirs (-j$jobs)" >&2
make -C "$kdir" -s defconfig >/dev/null
targets=()
for d in $dirs; do targets+=("${d%/}/"); done
make -C "$kdir" -s -j"$jobs" KCFLAGS=-gbtf "${targets[@]}"

rm -rf "$out/objects" "$out/composite"
mkdir -p "$out/objects" "$out/composite"
(cd "$kdir" && for d in $dirs; do find "${d%/}" -name '*.o' ! -name '*.mod.o'; done) | sort | while read -r o; do
  if readelf -SW "$kdir/$o" 2>/dev/null | grep -q ' \.BTF '; then
    mkdir -p "$out/objects/$(dirname "$o")"
    cp "$kdir/$o" "$out/objects/$o"
    echo "$o"
  fi
done > "$out/objects.list"

# A relocatable object made by ld -r holds the .BTF of each part back to back (kbuild makes
# multi-object modules this way). Three objects of the first directory.
first=$(head -n 1 <<<"$(tr ' ' '\n' <<<"$dirs")")
grep "^${first%/}/[^/]*\.o$" "$out/objects.list" | head -n 3 > "$out/composite/parts.list"
(cd "$out/objects" && ld -r $(cat "$out/composite/parts.list") -o "$out/composite/part.o")

{
  echo "package: $(dpkg-deb -f "$src"/deb/*.deb Package Version | tr '\n' ' ')"
  echo "gcc: $(gcc --version | head -n 1)"
  echo "ld: $(ld --version | head -n 1)"
  echo "config: defconfig ($(uname -m)), KCFLAGS=-gbtf"
  echo "directories: $dirs"
} > "$out/VERSIONS"
echo "build-gcc-kernel-subset: $(wc -l < "$out/objects.list") objects in $out/objects, composite $out/composite/part.o" >&2
