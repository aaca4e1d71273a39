#!/usr/bin/env bash
# Builds ../shared/tools/btfref against libbpf as its master branch dedups split BTF: Debian
# sid's libbpf source (1.7.0 in November 2026, fetched with `apt-get source` through a temporary
# deb-src list; nothing is installed) with the one split-dedup change upstream made after 1.7.0,
# "libbpf: Fix deduplication of typedef with base definitions" (April 2026): base TYPEDEFs are
# hashed the way the struct pass looks typedefs up, so a module's typedef is compared with the
# base's (before, it never found it). The edit is made here by this script; libbpf is compiled
# from that source (static) and btfref linked to it. See docs/DEDUP.md ("libnvdimm").
#   corpus/scripts/build-btfref-head.sh [OUT]     (default OUT: target/btfref-head)
# BTFREF_UNPATCHED=1 builds the same source without the change (plain 1.7.0, for comparison).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$root/target/btfref-head}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/lists/partial" "$(dirname "$out")"
echo "deb-src http://deb.debian.org/debian ${BTFREF_SUITE:-sid} main" > "$work/sources.list"
apt_opts=(-o Dir::Etc::sourcelist="$work/sources.list" -o Dir::Etc::sourceparts=- -o Dir::State::Lists="$work/lists")
apt-get "${apt_opts[@]}" update >/dev/null
(cd "$work" && apt-get "${apt_opts[@]}" source --download-only libbpf >/dev/null 2>&1)
tar xzf "$work"/libbpf_*.orig.tar.gz -C "$work"
src=$(echo "$work"/libbpf-*/src)
if [ -z "${BTFREF_UNPATCHED:-}" ]; then
  # in the base-preparation pass, take TYPEDEF out of the group hashed by name, info and size
  # and give it the typedef hash (name and info) that the struct pass uses for its lookups
  python3 - "$src/btf.c" <<'PY'
import re, sys
path = sys.argv[1]
text = open(path).read()
start = text.index("static int btf_dedup_prep(struct btf_dedup *d)\n{")  # the definition
end = text.index("\n}\n", start)
body = text[start:end]
if "btf_hash_typedef" in body:
    sys.exit("btf.c: the base pass already hashes typedefs as the struct pass does")
group = re.search(r"\n(\t+)case BTF_KIND_TYPEDEF:\n", body)
if not group:
    sys.exit("btf.c: no TYPEDEF case in btf_dedup_prep")
indent = group.group(1)
body = body.replace(group.group(0), "\n", 1)
anchor = "\n" + indent + "case BTF_KIND_INT:\n"
if anchor not in body:
    sys.exit("btf.c: btf_dedup_prep has an unexpected shape")
body = body.replace(anchor, "\n" + indent + "case BTF_KIND_TYPEDEF:\n" + indent
                    + "\th = btf_hash_typedef(t);\n" + indent + "\tbreak;" + anchor, 1)
open(path, "w").write(text[:start] + body + text[end:])
PY
fi
make -C "$src" BUILD_STATIC_ONLY=1 OBJDIR="$work/obj" DESTDIR="$work/inst" -j2 install >/dev/null
gcc -O2 -I "$work/inst/usr/include" -o "$out" "$root/../shared/tools/btfref/btfref.c" \
  "$(find "$work/inst" -name libbpf.a | head -1)" -lelf -lz
echo "built $out (libbpf $(basename "$(dirname "$src")" | sed 's/^libbpf-//')${BTFREF_UNPATCHED:+, unpatched})"
