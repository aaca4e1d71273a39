# The JVM flags of every btfkit launcher: ./btfkit sources this file; install.sh and the Debian
# package copy it into the launcher they install. It sets the array `jvm` from BTFKIT_JAVA_OPTS
# (added last, so the user's options win where the JVM lets a later flag override an earlier one).
#
# C1 only: on 2 cores C2's compile time exceeded its gains in every measured command.
# The serial collector: btfkit's data is a few huge int arrays (no pointers to trace), so even a
# full collection of a 500 MB heap takes 25 ms, and it keeps the heap close to the live data —
# the parallel collector's larger young generation and bolder growth cost 25-60% more memory
# (link of 300 units 253 -> 190 MB, of 3,000 units 715 -> 592 MB, dedup of vmlinux 126 -> 108 MB)
# for no measured speed. -Xmn8m: garbage between collections stays small, and a large link's
# peak is its old generation's live data plus the whole young one (16m: module link 181 -> 172 MB,
# link of 300 units 165 -> 156 MB, the same time and CPU over 7 alternated pairs); arrays of
# 256 KB and more (type columns) go straight to the old generation instead of being copied out
# of the young one; Min/MaxHeapFreeRatio 10/30: the heap grows only 10-30% past the live data;
# -Xms24m spares a small run most of the collections that would grow the heap step by step,
# where 64m let a dedup of vmlinux fill (and touch) the whole initial heap with garbage before
# its first full collection (101 -> 71 MB of peak memory), and 32m did the same with an 8m
# young generation (vmlinux 66 -> 70 MB; 24m: 66 MB).
# -XX:-UsePerfData: no hsperfdata file per run (jps does not list btfkit; jcmd PID still works):
# vmlinux dedup 0.49 -> 0.47 s (11 alternating runs).
# Tier3BackEdgeThreshold=2000: a loop over millions of types run once is compiled (on-stack)
# after 2,000 iterations instead of 60,000 (dedup of vmlinux 0.63 -> 0.51 s).
# Measurements: docs/BENCHMARKS.md.
#
# btfkit_jvm_flags takes btfkit's command line (none: no rule that depends on it applies).
#
# A heap the user sizes (-Xmx/-Xms in BTFKIT_JAVA_OPTS) is theirs: -Xms24m is left out when they
# give an initial heap or a maximum under 64 MiB (the JVM refuses an initial heap above the
# maximum: BTFKIT_JAVA_OPTS=-Xmx20m failed to start), and -Xmn8m when either is under 64 MiB
# (the JVM warns when the young generation does not fit).
btfkit_jvm_flags() {
  jvm=(-XX:+UseSerialGC -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=30 -XX:PretenureSizeThreshold=256k
       -XX:-UsePerfData -XX:TieredStopAtLevel=1 -XX:Tier3BackEdgeThreshold=2000 -Xss16m -Xshare:auto)
  local o size initial=no small=no
  for o in ${BTFKIT_JAVA_OPTS:-}; do
    case "$o" in
      -Xmx*|-XX:MaxHeapSize=*) ;;
      -Xms*|-XX:InitialHeapSize=*) initial=yes ;;
      *) continue ;;
    esac
    size="${o#-Xm[sx]}"; size="${size#*=}"
    [ "$(btfkit_mib "$size")" -lt 64 ] && small=yes
  done
  [ "$initial" = no ] && [ "$small" = no ] && jvm+=(-Xms24m)
  [ "$small" = no ] && jvm+=(-Xmn8m)
  btfkit_thp "$@"
  # (word splitting on purpose: BTFKIT_JAVA_OPTS holds several options)
  # shellcheck disable=SC2206
  jvm+=(${BTFKIT_JAVA_OPTS:-})
}

# Transparent huge pages (-XX:+UseTransparentHugePages: the JVM asks for them for its heap) for
# link and the batch modes (--out-dir), when the kernel gives them on request ([madvise] in
# BTFKIT_THP_SETTING, by default the kernel's setting): their hash tables and type arrays are
# read at random, and on these VMs a random read that misses the TLB took 200-740 ns with 4 KB
# pages, by the hour, and 160-175 ns with 2 MB ones (corpus MemoryProbe). In a slow hour module
# link 5.13 -> 2.81 s, 300 units 3.73 -> 2.24 s, gcc objects 2.55 -> 1.71 s; in a fast one
# 1.78 -> 1.69 s, 1.54 -> 1.28 s, 1.17 -> 1.03 s; 2-6 MB more (docs/BENCHMARKS.md, "Evening
# series"). Not for the other commands: a dedup of vmlinux alone (0.94 -> 0.61 s in the slow
# hour) goes 61 -> 68 MB, past the 64 MB it is held to. With [always] every heap
# gets them anyway; with [never] the JVM would print a warning.
btfkit_thp() {
  local a setting="" wanted=no
  [ "${1:-}" = link ] && wanted=yes
  for a in "$@"; do
    case "$a" in --out-dir|--out-dir=*) wanted=yes ;; esac
  done
  [ "$wanted" = yes ] || return 0
  { read -r setting < "${BTFKIT_THP_SETTING:-/sys/kernel/mm/transparent_hugepage/enabled}"; } 2>/dev/null || true
  case "$setting" in *"[madvise]"*) jvm+=(-XX:+UseTransparentHugePages) ;; esac
  return 0
}

# A JVM size (2g, 512M, 65536k, bytes) in MiB, rounded down; 0 when it is not a size.
btfkit_mib() {
  local n="${1%[kKmMgGtT]}" unit="${1##*[0-9]}"
  case "$n" in ''|*[!0-9]*) echo 0; return ;; esac
  case "$unit" in
    k|K) echo $((n / 1024)) ;;
    m|M) echo "$n" ;;
    g|G) echo $((n * 1024)) ;;
    t|T) echo $((n * 1048576)) ;;
    *) echo $((n / 1048576)) ;;
  esac
}

# The class-data-sharing archive for the command, in the array `cds`: dedup and link map their
# own, smaller archive (btfkit-core.jsa), the other commands the archive of all (btfkit.jsa); none
# when it was not made. The JVM keeps every page of the archive it maps, so a smaller one is a
# smaller peak: a vmlinux dedup took 67 MB with the archive of all commands, 60 MB with the core
# one, at the same speed (io.btfkit.cli.CdsTraining).
# The archive is mapped where it was dumped (ArchiveRelocationMode=0, a diagnostic flag since
# JDK 14): JDK 17.0.15 maps it elsewhere by default and then rewrites every pointer in it, a
# copy-on-write fault per page of its 12 MB: 8-40 ms of each start (2-3% of a 300-unit link's
# CPU). Where that address is taken, the JVM still relocates, as before.
btfkit_cds() {
  local dir="$1" name=btfkit
  case "${2:-}" in
    dedup|link) [ -f "$dir/btfkit-core.jsa" ] && name=btfkit-core ;;
  esac
  cds=()
  [ -f "$dir/$name.jsa" ] && cds=(-XX:SharedArchiveFile="$dir/$name.jsa" -Xlog:cds=off -Xlog:cds+dynamic=off
    -XX:+UnlockDiagnosticVMOptions -XX:ArchiveRelocationMode=0)
  return 0
}
