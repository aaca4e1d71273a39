#!/usr/bin/env bash
# Runs every fuzz target of the fuzz module in fuzzing mode for a fixed time each, one JVM per
# target (Jazzer fuzzes one target per process), and prints executions per target.
#
#   fuzz/run-fuzz.sh [SECONDS] [TARGET...]      e.g. fuzz/run-fuzz.sh 60
#                                                     fuzz/run-fuzz.sh 30 ElfFuzzTest#elf
#
# SECONDS is the fuzzing time per target (default 60; JVM start and seed loading come on top).
# TARGETs are Class#method names (default: all). Headless, no terminal needed.
# FUZZ_JVM_OPTS adds JVM options, e.g. FUZZ_JVM_OPTS=-Dbtfkit.fuzz.oneLineMessages=true.
# BTFKIT_FUZZ_SEED=N fixes libFuzzer's random seed (CI does, so a CI run can be replayed: the same
# seed from the same seeds explores the same inputs in the same order); unset, every run differs.
#
# The generated corpus grows in fuzz/.cifuzz-corpus/ (git-ignored) and is reused by later runs.
# A finding (any throwable other than a BtfException with a one-line message, a per-input
# timeout, an OutOfMemoryError in the 1 GB heap) stops that target; its input is saved as
# fuzz/target/fuzz-findings/<target>/crash-<sha1> with a Java reproducer beside it, and the
# script exits 1 after the other targets ran. To keep a finding as a regression test, copy the
# crash file into src/test/resources/io/btfkit/fuzz/<Class>Inputs/<method>/.
set -uo pipefail

seconds=${1:-60}
shift || true
case $seconds in ''|*[!0-9]*) echo "usage: $0 [SECONDS] [Class#method...]" >&2; exit 2 ;; esac

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
all_targets=(
    RawBtfFuzzTest#standalone
    RawBtfFuzzTest#split
    ElfFuzzTest#elf
    BtfExtFuzzTest#ext
    BtfExtFuzzTest#remap
    RawTextFuzzTest#text
    CompressedInputFuzzTest#compressed
    CompressedInputFuzzTest#wrapped
    CompressedInputFuzzTest#kernelImage
    ValidatorFuzzTest#validate
    DedupFuzzTest#dedup
    CyclicShapesFuzzTest#linkDedup
    CHeaderFuzzTest#cdump
    DiffFuzzTest#diff
    CoreReloFuzzTest#relos
    CoreReloFuzzTest#local
    CoreReloFuzzTest#kernel
)
if [ $# -gt 0 ]; then targets=("$@"); else targets=("${all_targets[@]}"); fi

# compile once (reactor build, nothing installed) and record the test class path
mkdir -p "$here/target"
if ! (cd "$root" && mvn -B -q -pl fuzz -am test-compile dependency:build-classpath \
        -Dmdep.outputFile=target/fuzz.cp -Dmdep.includeScope=test) > "$here/target/fuzz-build.log" 2>&1; then
    cat "$here/target/fuzz-build.log" >&2
    echo "run-fuzz: build failed" >&2
    exit 2
fi
cp="$here/target/test-classes:$(cat "$here/target/fuzz.cp")"

logs=$here/target/fuzz-logs
findings_root=$here/target/fuzz-findings
mkdir -p "$logs"
failed=0
summary=()
cd "$here" || exit 2
for t in "${targets[@]}"; do
    cls=${t%%#*}
    method=${t#*#}
    log=$logs/$cls.$method.log
    out=$findings_root/$cls.$method
    mkdir -p "$out"
    # -timeout: one input running 10 s is a hang; -rss_limit_mb=0: the JVM heap cap (-Xmx) decides
    # what is too much memory, not the process size; -max_len: the largest seeds (ELF files).
    seed_opt=()
    if [ -n "${BTFKIT_FUZZ_SEED:-}" ]; then seed_opt=(-seed="$BTFKIT_FUZZ_SEED"); fi
    # shellcheck disable=SC2086
    java -Xmx1g -Xss8m -XX:-OmitStackTraceInFastThrow -XX:+UseParallelGC ${FUZZ_JVM_OPTS:-} -cp "$cp" \
        com.code_intelligence.jazzer.Jazzer \
        --target_class="io.btfkit.fuzz.$cls" --target_method="$method" \
        --instrumentation_includes='io.btfkit.**' --custom_hook_includes='io.btfkit.**' \
        --reproducer_path="$out" \
        -artifact_prefix="$out/" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=0 -max_len=16384 \
        "${seed_opt[@]}" > "$log" 2>&1
    rc=$?
    runs=$(sed -n 's/^Done \([0-9]*\) runs in \([0-9]*\) second.*/\1/p' "$log" | tail -1)
    secs=$(sed -n 's/^Done \([0-9]*\) runs in \([0-9]*\) second.*/\2/p' "$log" | tail -1)
    if [ "$rc" -eq 0 ] && [ -n "$runs" ]; then
        result=ok
    elif grep -q -e '== Java Exception' -e 'ERROR: libFuzzer: timeout' "$log"; then
        result="FINDING (exit $rc, see $log and $out)"
        failed=1
        # the run count at the finding is on libFuzzer's last status line
        runs=${runs:-$(grep -o '^#[0-9]*' "$log" | tail -1 | tr -d '#')}
        grep -m1 -A8 -e '== Java Exception' -e 'ERROR: libFuzzer: timeout' "$log" >&2
    else
        result="ERROR (exit $rc, no finding reported: see $log)"
        failed=1
    fi
    line=$(printf '%-40s %10s runs in %4s s  %s' "$t" "${runs:-?}" "${secs:-?}" "$result")
    echo "$line"
    summary+=("$line")
done

echo
echo "fuzzing summary (${seconds}s per target):"
printf '%s\n' "${summary[@]}"
exit $failed
