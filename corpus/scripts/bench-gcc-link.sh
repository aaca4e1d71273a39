#!/usr/bin/env bash
# Whole-command timings of linking gcc -gbtf objects: btfkit link (as written, normalised,
# --fix) and libbpf's btf__add_btf + btf__dedup (btfref) on the raw objects and on copies
# repaired with `btfkit convert --fix` (the comparison on copies normalised as link does needs
# the API: GccKernelSubsetTest).
# Prints one markdown table row per run: inputs, tool, output types, wall seconds, peak RSS.
#
# Usage: corpus/scripts/bench-gcc-link.sh OBJDIR [LIST]
#   OBJDIR: directory of the objects (e.g. OUTDIR/objects of build-gcc-kernel-subset.sh)
#   LIST:   their paths relative to OBJDIR, one per line (default: OBJDIR/../objects.list)
#   BTFREF: the libbpf helper (default: target/btfref, else btfref on PATH)
# Needs GNU time (/usr/bin/time) for the peak RSS column.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
objdir=$(cd "$1" && pwd)
list=${2:-$objdir/../objects.list}
btfkit="$root/btfkit"
btfref=${BTFREF:-$root/target/btfref}
[ -x "$btfref" ] || btfref=$(command -v btfref || true)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

sed "s|^|$objdir/|" "$list" > "$work/raw.list"
n=$(wc -l < "$work/raw.list")
"$btfkit" stats "$(head -n 1 "$work/raw.list")" >/dev/null # build the jar first if needed

run() { # LABEL TOOL OUT CMD...
  local label=$1 tool=$2 out=$3
  shift 3
  /usr/bin/time -f '%e %M' -o "$work/time" "$@" >/dev/null 2>"$work/err" || { cat "$work/err" >&2; return 1; }
  local types
  types=$("$btfkit" stats "$out" | sed -n 's/^types: *\([0-9]*\).*/\1/p')
  read -r secs rss < "$work/time"
  printf '| %s | %s | %s | %s | %s MB |\n' "$label" "$tool" "$types" "$secs" "$((rss / 1024))"
}

# repaired copies, one convert per object (batch names by stem would collide: kernel/*/main.o)
mkdir -p "$work/fixed"
while read -r o; do
  "$btfkit" convert --fix -q "$o" -o "$work/fixed/$(echo "${o#"$objdir"/}" | tr / _).btf"
done < "$work/raw.list"
ls "$work"/fixed/*.btf > "$work/fixed.list"

echo "$n objects, $(cat "$work/raw.list" | xargs "$btfkit" link --as-written --no-dedup --no-verify -q -o "$work/all.btf" && "$btfkit" stats "$work/all.btf" | sed -n 's/^types: *\([0-9]*\).*/\1/p') input types"
echo
echo "| inputs | tool | output types | seconds | peak RSS |"
echo "|---|---|---|---|---|"
run "raw objects" "btfkit link --as-written --no-verify" "$work/a.btf" \
  "$btfkit" link --as-written --no-verify -q -o "$work/a.btf" $(cat "$work/raw.list")
run "raw objects" "btfkit link" "$work/b.btf" "$btfkit" link -q -o "$work/b.btf" $(cat "$work/raw.list")
run "raw objects" "btfkit link --fix" "$work/c.btf" "$btfkit" link --fix -q -o "$work/c.btf" $(cat "$work/raw.list")
run "convert --fix copies" "btfkit link" "$work/d.btf" "$btfkit" link -q -o "$work/d.btf" $(cat "$work/fixed.list")
if [ -n "$btfref" ]; then
  run "raw objects" "libbpf (btfref dedup)" "$work/e.btf" "$btfref" dedup -o "$work/e.btf" -L "$work/raw.list"
  run "convert --fix copies" "libbpf (btfref dedup)" "$work/f.btf" "$btfref" dedup -o "$work/f.btf" -L "$work/fixed.list"
else
  echo "(btfref not found: set BTFREF)" >&2
fi
