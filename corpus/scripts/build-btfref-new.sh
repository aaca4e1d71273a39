#!/usr/bin/env bash
# Builds ../shared/tools/btfref against a newer libbpf than Debian 12's 1.1 (which lacks
# btf__distill_base and btf__relocate): the libbpf-dev package of Debian 13 (trixie),
# downloaded with apt-get (nothing is installed) and linked statically.
#   corpus/scripts/build-btfref-new.sh [OUT]     (default OUT: target/btfref-new)
# BTFREF_SUITE=sid takes sid's libbpf instead (1.7.0 in November 2026).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$root/target/btfref-new}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/lists/partial" "$(dirname "$out")"
echo "deb http://deb.debian.org/debian ${BTFREF_SUITE:-trixie} main" > "$work/sources.list"
apt_opts=(-o Dir::Etc::sourcelist="$work/sources.list" -o Dir::Etc::sourceparts=- -o Dir::State::Lists="$work/lists")
apt-get "${apt_opts[@]}" update >/dev/null
(cd "$work" && apt-get "${apt_opts[@]}" download libbpf-dev >/dev/null 2>&1)
dpkg-deb -x "$work"/libbpf-dev_*.deb "$work/root"
# trixie's libbpf.a calls glibc 2.38's C23 entry points; Debian 12's glibc has the classic ones
cat > "$work/shim.c" <<'C'
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
int __isoc23_sscanf(const char *s, const char *f, ...) { va_list a; va_start(a, f); int r = vsscanf(s, f, a); va_end(a); return r; }
int __isoc23_fscanf(FILE *s, const char *f, ...) { va_list a; va_start(a, f); int r = vfscanf(s, f, a); va_end(a); return r; }
unsigned long long __isoc23_strtoull(const char *s, char **e, int b) { return strtoull(s, e, b); }
long __isoc23_strtol(const char *s, char **e, int b) { return strtol(s, e, b); }
unsigned long __isoc23_strtoul(const char *s, char **e, int b) { return strtoul(s, e, b); }
C
gcc -O2 -I "$work/root/usr/include" -o "$out" "$root/../shared/tools/btfref/btfref.c" "$work/shim.c" \
  "$work/root/usr/lib/x86_64-linux-gnu/libbpf.a" -lelf -lz
echo "built $out ($(dpkg-deb -f "$work"/libbpf-dev_*.deb Version))"
