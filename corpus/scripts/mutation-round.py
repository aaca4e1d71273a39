#!/usr/bin/env python3
"""A mutation round: mutated real inputs through every btfkit command, as an attacker would.

Each run is a whole `btfkit` process under a 20 s limit. A run is a finding when it
  - exits 70 or prints a Java trace / "internal error" / "Exception" (a crash),
  - is killed by the time limit (a hang) or peaks above the RSS bound (a bomb),
  - prints an error that is not one line starting with "btfkit: ",
  - exits 0 without writing the output it was asked for, or
  - changes its input file.
Usage: corpus/scripts/mutation-round.py [--runs N] [--seed S] [--jobs J] [--out DIR] [--commands a,b]
Findings are copied to DIR/findings/ with the command line; a summary is printed (and is what
docs/FUZZING.md records).
"""
import argparse
import collections
import concurrent.futures
import hashlib
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SHARED = os.path.abspath(os.path.join(ROOT, "..", "shared"))
GOLDEN = os.path.join(SHARED, "golden")
BASE = os.path.join(GOLDEN, "vmlinux-6.1.0-56.btf")
OTHER_BASE = os.path.join(GOLDEN, "vmlinux-6.1.0-47.btf")
TIME_LIMIT = 20
RSS_LIMIT_KB = 1024 * 1024

INTERESTING32 = [0, 1, 0x7F, 0x80, 0xFF, 0x100, 0xFFFF, 0x10000, 0x7FFFFFFF, 0x80000000,
                 0xFFFFFFFF, 0xFFFFFFFE, 0x00FFFFFF]


def seeds():
    """(kind, path) of the real inputs mutated: split module BTF, standalone BTF, objects, text."""
    out = []
    mods = sorted(os.listdir(os.path.join(GOLDEN, "modules")))
    for m in mods[:12]:
        out.append(("split", os.path.join(GOLDEN, "modules", m)))
    for d in sorted(os.listdir(os.path.join(GOLDEN, "distill")))[:6]:
        if d.endswith(".base"):
            out.append(("standalone", os.path.join(GOLDEN, "distill", d)))
    for sub in ("bpf", "gcc", "elf", "compressed"):
        p = os.path.join(ROOT, "corpus", "samples", sub)
        for f in sorted(os.listdir(p)):
            if f.endswith((".o", ".exec", ".gz", ".xz", ".zst")):
                out.append(("object", os.path.join(p, f)))
    for d in sorted(os.listdir(os.path.join(GOLDEN, "distill")))[:12]:
        if d.endswith(".split"):
            out.append(("distsplit", os.path.join(GOLDEN, "distill", d)))
    # bpftool-style raw text of small inputs, for asm (written once, next to the findings)
    for t in text_seeds():
        out.append(("text", t))
    out.append(("vmlinux", os.path.join(GOLDEN, "vmlinux-6.1.0-56-cloud.btf")))
    return out


def text_seeds():
    """Raw-text dumps of a few samples and modules (made with btfkit dump), the asm command's input."""
    d = os.path.join(tempfile.gettempdir(), "btfkit-mutation-text")
    os.makedirs(d, exist_ok=True)
    made = []
    srcs = [(os.path.join(ROOT, "corpus", "samples", "gcc", "job.o"), []),
            (os.path.join(ROOT, "corpus", "samples", "bpf", "task_trace.bpf.o"), []),
            (os.path.join(GOLDEN, "distill", "roles.base"), [])]
    for src, extra in srcs:
        t = os.path.join(d, os.path.basename(src) + ".txt")
        if not os.path.exists(t):
            with open(t, "wb") as fh:
                subprocess.run([os.path.join(ROOT, "btfkit"), "dump", src] + extra, stdout=fh, check=True)
        made.append(t)
    return made


def btf_types(b):
    """(start, end) of the type section of the first BTF header in b (raw or in an ELF), or None."""
    at = b.find(b"\x9f\xeb\x01")
    if at < 0 or at + 24 > len(b):
        return None
    hdr_len = int.from_bytes(b[at + 4:at + 8], "little")
    type_off = int.from_bytes(b[at + 8:at + 12], "little")
    type_len = int.from_bytes(b[at + 12:at + 16], "little")
    start = at + hdr_len + type_off
    end = min(len(b), start + type_len)
    return (start, end) if start < end else None


def mutate_types(b, rng, span):
    """Rewrites one aligned u32 of the type section: a type id near the old one or small, a
    kind/vlen word, a size — the shapes (cycles, bad references, huge sizes) readers must refuse."""
    start, end = span
    p = start + (rng.randrange(end - start) & ~3)
    if p + 4 > end:
        return
    v = int.from_bytes(b[p:p + 4], "little")
    choice = rng.randrange(5)
    if choice == 0:
        v = rng.randrange(0, 64)                      # a low type id: loops and self references
    elif choice == 1:
        v = (v + rng.choice([-3, -2, -1, 1, 2, 3])) & 0xFFFFFFFF
    elif choice == 2:
        v = (v & 0xFFFF) | (rng.randrange(32) << 24) | (rng.randrange(2) << 31)   # kind byte
    elif choice == 3:
        v = (v & 0xFFFF0000) | rng.choice([0, 1, 0xFFFF, rng.randrange(0x10000)])  # vlen
    else:
        v = rng.choice(INTERESTING32)
    b[p:p + 4] = v.to_bytes(4, "little")


def mutate_text(data, rng):
    """1-4 changes to lines of raw text: a number replaced (ids, sizes, offsets), a line dropped,
    duplicated or swapped — ids that skip, loop or point past the end."""
    lines = data.split(b"\n")
    for _ in range(rng.randint(1, 4)):
        i = rng.randrange(len(lines))
        op = rng.randrange(4)
        if op == 0:
            words = lines[i].split(b"=")
            if len(words) > 1:
                j = rng.randrange(1, len(words))
                tail = words[j].lstrip(b"0123456789")
                words[j] = str(rng.choice([0, 1, 2, 3, rng.randrange(100), 0xFFFFFFFF, 2 ** 31])).encode() + tail
                lines[i] = b"=".join(words)
        elif op == 1:
            del lines[i]
        elif op == 2:
            lines.insert(i, lines[i])
        else:
            k = rng.randrange(len(lines))
            lines[i], lines[k] = lines[k], lines[i]
        if not lines:
            lines = [b""]
    return b"\n".join(lines)


def mutate(data, rng):
    """One to four mutations: half rewrite a u32 of the BTF type section, half are byte-level,
    biased towards the headers that BTF and ELF read as u32."""
    b = bytearray(data)
    span = btf_types(b)
    if span is not None and rng.random() < 0.5:
        for _ in range(rng.randint(1, 4)):
            mutate_types(b, rng, span)
        return bytes(b)
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(7)
        if not b:
            b = bytearray(rng.randbytes(rng.randint(1, 64)))
            continue
        # header-heavy: half the positions fall in the first 256 bytes
        pos = rng.randrange(min(len(b), 256)) if rng.random() < 0.25 else rng.randrange(len(b))
        if op == 0:
            b[pos] ^= 1 << rng.randrange(8)
        elif op == 1:
            b[pos] = rng.choice([0, 0xFF, 0x7F, 0x80, rng.randrange(256)])
        elif op == 2:
            p4 = pos & ~3
            v = rng.choice(INTERESTING32)
            b[p4:p4 + 4] = v.to_bytes(4, rng.choice(["little", "big"]))[:len(b[p4:p4 + 4])]
        elif op == 3:
            del b[rng.randrange(len(b)):]
        elif op == 4:
            n = rng.randint(1, min(64, len(b)))
            s = rng.randrange(len(b) - n + 1)
            b[pos:pos] = b[s:s + n]
        elif op == 5:
            n = rng.randint(1, min(64, len(b)))
            del b[pos:pos + n]
        else:
            p4 = pos & ~3
            v = int.from_bytes(b[p4:p4 + 4].ljust(4, b"\0"), "little")
            v = (v + rng.choice([-1, 1, 4, -4, 12, 0x1000])) & 0xFFFFFFFF
            b[p4:p4 + 4] = v.to_bytes(4, "little")[:len(b[p4:p4 + 4])]
    return bytes(b)


def commands(kind, f, tmp):
    """The command lines to try on mutated file f of the given kind (one is picked per run)."""
    o = os.path.join(tmp, "out")
    base = ["--base", BASE] if kind == "split" else []
    cmds = [
        ["dump", f] + base + ["-o", o],
        ["dump", f] + base + ["--format", "c", "-o", o],
        ["dump", f] + base + ["--format", "json", "-o", o],
        ["stats", f] + base,
        ["stats", f] + base + ["--json"],
        ["validate", f] + base,
        ["dedup", f] + base + ["-o", o],
        ["convert", f] + base + ["-o", o],
        ["permute", f] + base + ["--sort", "name", "-o", o],
        ["diff", f, f] + (["--base-a", BASE, "--base-b", BASE] if kind == "split" else []),
        ["link", f, os.path.join(ROOT, "corpus", "samples", "gcc", "job.o")] + base + ["-o", o],
    ]
    if kind == "split":
        cmds.append(["distill", f, "--base", BASE, "-o", o, "--base-out", o + ".base"])
        cmds.append(["dump", f, "--base", OTHER_BASE, "-o", o])
    prog = os.path.join(ROOT, "corpus", "samples", "bpf", "core_reads.bpf.o")
    if kind == "split":
        cmds.append(["minimize", f, "--base", BASE, "--standalone", "-o", o, prog])
        cmds.append(["minimize", f, "--base", BASE, "--base-out", o + ".base", "-o", o, prog])
        cmds.append(["core-check", prog, "--btf", f, "--base", BASE])
        cmds.append(["minimize", "-q", "--out-dir", o + ".d", "-B", BASE, f, prog])
    if kind in ("standalone", "vmlinux"):
        cmds.append(["minimize", f, "-o", o, prog])
        cmds.append(["core-check", prog, "--btf", f])
        cmds.append(["minimize", "-q", "--out-dir", o + ".d", f, prog])
    if kind == "object":
        cmds.append(["dedup", f, "--out-format", "elf", "-o", o])
        cmds.append(["core-check", f, "--btf", BASE])
        cmds.append(["minimize", BASE, "-o", o, f])
        cmds.append(["minimize", "-q", "--out-dir", o + ".d", BASE, f, prog])
    if kind == "distsplit":
        dist = f.rsplit(".", 1)[0] + ".base"   # the golden .base, copied beside the mutated split
        cmds = [["relocate", f, "--dist-base", dist, "--base", OTHER_BASE, "-o", o],
                ["relocate", f, "--dist-base", dist, "--base", BASE, "-o", o],
                ["dump", f, "--base", dist, "-o", o],
                ["validate", f, "--base", dist]]
    if kind == "text":
        cmds = [["asm", f, "-o", o], ["dedup", f, "-o", o], ["dump", f, "--format", "c", "-o", o],
                ["validate", f], ["stats", f]]
    return cmds


def run_one(job):
    i, kind, seed_path, data, cmd_index, outdir = job
    tmp = tempfile.mkdtemp(prefix="mut-", dir=outdir)
    try:
        f = os.path.join(tmp, "in" + os.path.splitext(seed_path)[1])
        with open(f, "wb") as fh:
            fh.write(data)
        if kind == "distsplit":
            shutil.copy(seed_path.rsplit(".", 1)[0] + ".base", os.path.join(tmp, "in.base"))
        cmd = commands(kind, f, tmp)[cmd_index]
        argv = [os.path.join(ROOT, "btfkit")] + cmd
        t0 = time.monotonic()
        errf = os.path.join(tmp, "stderr")
        with open(errf, "wb") as eh:
            p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=eh, start_new_session=True)
        killer = threading.Timer(TIME_LIMIT, lambda: os.killpg(p.pid, signal.SIGKILL))
        killer.start()
        # wait4: the child's own rusage (ru_maxrss in KB; the launcher execs java, same process)
        _, status, usage = os.wait4(p.pid, 0)
        killer.cancel()
        timed_out = os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
        p.returncode = os.waitstatus_to_exitcode(status)
        rss = usage.ru_maxrss
        with open(errf, "rb") as eh:
            err = eh.read()
        os.remove(errf)
        elapsed = time.monotonic() - t0
        err = err.decode("utf-8", "replace")
        verdict = classify(p.returncode, err, timed_out, rss, cmd, f, data, tmp)
        if verdict != "ok":
            dst = os.path.join(outdir, "findings", "%05d-%s" % (i, verdict))
            os.makedirs(dst, exist_ok=True)
            shutil.copy(f, dst)
            with open(os.path.join(dst, "cmd.txt"), "w") as fh:
                fh.write(" ".join(cmd) + "\nseed " + seed_path + "\nexit %s\n" % p.returncode + err[-4000:])
        return verdict, p.returncode, elapsed, rss, cmd[0]
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def classify(rc, err, timed_out, rss, cmd, f, data, tmp):
    if timed_out:
        return "hang"
    if rss > RSS_LIMIT_KB:
        return "bomb"
    lines = [l for l in err.splitlines() if l.strip()]
    if rc == 70 or "Exception" in err or "\tat " in err or "internal error" in err or "Error:" in err:
        return "crash"
    if rc not in (0, 1, 2):
        return "crash"
    for l in lines:
        if not l.startswith("btfkit: "):
            return "message"
    with open(f, "rb") as fh:
        if fh.read() != data:
            return "input-changed"
    if rc == 0 and "-o" in cmd and not os.path.exists(cmd[cmd.index("-o") + 1]):
        return "no-output"
    if rc != 0 and "-o" in cmd and os.path.exists(cmd[cmd.index("-o") + 1]):
        return "output-on-failure"
    leftovers = [n for n in os.listdir(tmp) if n.startswith(".")]
    if leftovers:
        return "temp-left"
    return "ok"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", default=os.path.join(tempfile.gettempdir(), "btfkit-mutation-round"))
    ap.add_argument("--commands", default="", help="only these btfkit commands, comma-separated (e.g. minimize,core-check)")
    a = ap.parse_args()
    only = set(filter(None, a.commands.split(",")))
    rng = random.Random(a.seed)
    os.makedirs(a.out, exist_ok=True)
    shutil.rmtree(os.path.join(a.out, "findings"), ignore_errors=True)
    pool = seeds()
    blobs = {p: open(p, "rb").read() for _, p in pool}
    jobs = []
    for i in range(a.runs):
        kind, p = rng.choice(pool)
        if kind == "vmlinux" and rng.random() < 0.8:   # large: fewer of them
            kind, p = rng.choice(pool[:-1])
        data = mutate_text(blobs[p], rng) if kind == "text" else mutate(blobs[p], rng)
        wanted = [k for k, c in enumerate(commands(kind, "x", "t")) if not only or c[0] in only]
        if not wanted:
            continue
        jobs.append((i, kind, p, data, rng.choice(wanted), a.out))
    counts = collections.Counter()
    per_cmd = collections.Counter()
    exits = collections.Counter()
    max_rss = 0
    max_time = 0.0
    t0 = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
        for n, (verdict, rc, elapsed, rss, cmd) in enumerate(ex.map(run_one, jobs), 1):
            counts[verdict] += 1
            per_cmd[cmd] += 1
            exits[rc] += 1
            max_rss = max(max_rss, rss)
            max_time = max(max_time, elapsed)
            if n % 100 == 0:
                print("%d/%d %s" % (n, a.runs, dict(counts)), file=sys.stderr, flush=True)
    print("runs: %d in %.0f s (seed %d)" % (len(jobs), time.monotonic() - t0, a.seed))
    print("verdicts: " + ", ".join("%s %d" % kv for kv in sorted(counts.items())))
    print("exit status: " + ", ".join("%s %d" % kv for kv in sorted(exits.items())))
    print("per command: " + ", ".join("%s %d" % kv for kv in sorted(per_cmd.items())))
    print("max RSS: %d MB, slowest run: %.1f s" % (max_rss // 1024, max_time))
    print("findings in " + os.path.join(a.out, "findings"))
    return 0 if set(counts) <= {"ok"} else 1


if __name__ == "__main__":
    sys.exit(main())
