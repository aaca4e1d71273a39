#!/usr/bin/env bash
# Fetches a Debian kernel image package (apt-get download: nothing is installed) and
# extracts its BTF for tests and benchmarks:
#   OUTDIR/vmlinux.btf    the vmlinux BTF, read by btfkit straight from the bzImage
#   OUTDIR/modules/*.ko   every module (each module's .BTF is split BTF on vmlinux.btf)
#
# Usage: corpus/scripts/fetch-debian-kernel.sh [PACKAGE [OUTDIR]]
#   PACKAGE defaults to linux-image-6.1.0-56-amd64 (the kernel of ../shared/golden);
#   OUTDIR to corpus/target/debian/PACKAGE.
# Used by the opt-in real-corpus test (BTFKIT_DEBIAN_KERNEL=OUTDIR mvn verify) and by
# corpus/scripts/bench-modules.sh.
set -euo pipefail
pkg=${1:-linux-image-6.1.0-56-amd64}
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${2:-$root/corpus/target/debian/$pkg}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "fetch: downloading $pkg" >&2
(cd "$tmp" && apt-get download "$pkg" >/dev/null 2>&1) || {
  echo "fetch: apt-get download $pkg failed (is it in your apt sources?)" >&2
  exit 2
}
dpkg-deb -x "$tmp"/*.deb "$tmp/root"
mkdir -p "$out/modules"
"$root/btfkit" convert "$tmp"/root/boot/vmlinuz-* -o "$out/vmlinux.btf"
find "$tmp/root/lib/modules" -name '*.ko' -o -name '*.ko.xz' -o -name '*.ko.zst' | while read -r ko; do
  cp "$ko" "$out/modules/"
done
echo "fetch: $out/vmlinux.btf and $(find "$out/modules" -type f | wc -l) modules" >&2
