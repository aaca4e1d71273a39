#!/usr/bin/env python3
"""A mutation round: mutated real inputs through every btfkit command, as an attacker would.

Each run is a whole `btfkit` process under a 20 s limit. A run is a finding when it
  - exits 70 or prints a Java trace / "internal error" / "Exception" (a crash),
  - is killed by the time limit (a hang) or peaks above the RSS bound (a bomb),
  - prints an error that is not one line starting with "btfkit: ",
  - exits 0 without writing the output it was asked for, or
  - changes its input file.
Usage: corpus/scripts/mutation-round.py [--runs N] [--shapes N] [--seed S] [--jobs J] [--out DIR] [--commands a,b]
--shapes N adds N runs on hostile shapes (hostile_shapes.py, issue 23) drawn with random sizes,
half of them then mutated: nested anonymous members and prototype fan-outs through core-check and
minimize, shared anonymous subtrees and prototype spellings through diff, blob floods and huge
names (xz, gzip, zstd) through every reader, ambiguous distilled bases through relocate. For
these a run is also a finding when it prints more than 64 MB in all, or a line over 64 KiB (on
stdout: except in JSON, which puts each entry on one line), or exits 0 with an -o output that
`btfkit stats` calls malformed (exit 2).
Findings are copied to DIR/findings/ with the command line, every run is logged in DIR/runs.tsv
(verdict, exit, seconds, MB, command); a summary is printed (and is what docs/FUZZING.md records).
"""
import argparse
import collections
import concurrent.futures
import gzip
import hashlib
import lzma
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hostile_shapes  # noqa: E402  (beside this script)

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SHARED = os.path.abspath(os.path.join(ROOT, "..", "shared"))
GOLDEN = os.path.join(SHARED, "golden")
BASE = os.path.join(GOLDEN, "vmlinux-6.1.0-56.btf")
OTHER_BASE = os.path.join(GOLDEN, "vmlinux-6.1.0-47.btf")
TIME_LIMIT = 20
RSS_LIMIT_KB = 1024 * 1024
LINE_LIMIT = 64 << 10
OUTPUT_LIMIT = 64 << 20

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


def compress(data, rng):
    """The data as is, or xz / gzip / zstd (zstd only when the tool is there): (suffix, bytes)."""
    choice = rng.randrange(4)
    if choice == 1:
        return ".xz", lzma.compress(data, preset=6)
    if choice == 2:
        return ".gz", gzip.compress(data, 6)
    if choice == 3 and shutil.which("zstd"):
        return ".zst", subprocess.run(["zstd", "-q", "-c", "-19"], input=data, stdout=subprocess.PIPE, check=True).stdout
    return "", data


_FAN_PROGRAMS = {}
_FAN_LOCK = threading.Lock()


def fan_program(levels, params, matches):
    with _FAN_LOCK:
        return _fan_program(levels, params, matches)


def _fan_program(levels, params, matches):
    """A BPF object with one type_exists (or, patched, type_matches) relocation of a prototype
    fan-out fLEVELS_t (each level PARAMS parameters of the previous one), built once with clang;
    None without clang."""
    key = (levels, params, matches)
    if key in _FAN_PROGRAMS:
        return _FAN_PROGRAMS[key]
    clang = shutil.which("clang")
    path = None
    if clang:
        d = os.path.join(tempfile.gettempdir(), "btfkit-mutation-fan")
        os.makedirs(d, exist_ok=True)
        src = os.path.join(d, "fan-%d-%d.c" % (levels, params))
        lines = ['#include "bpf_defs.h"', "typedef int f0_t;"]
        for k in range(1, levels + 1):
            lines.append("typedef void (*f%d_t)(%s);" % (k, ", ".join(["f%d_t" % (k - 1)] * params)))
        lines.append('__u64 out[1];\nchar LICENSE[] SEC("license") = "GPL";\nSEC("kprobe/do_exit")\nint prog(void *ctx)\n{')
        lines.append("\tout[0] = __builtin_preserve_type_info(*(f%d_t *)0, 0);\n\treturn 0;\n}" % levels)
        with open(src, "w") as fh:
            fh.write("\n".join(lines) + "\n")
        obj = src[:-2] + ".bpf.o"
        r = subprocess.run([clang, "-target", "bpf", "-g", "-O2", "-I", os.path.join(ROOT, "corpus", "samples", "bpf"),
                            "-c", src, "-o", obj], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if r.returncode == 0:
            path = obj
            if matches:
                path = with_type_matches(obj)
    _FAN_PROGRAMS[key] = path
    return path


def with_type_matches(obj):
    """The object with its CO-RE records' type_exists (8) turned into type_matches (12), which
    clang 14 cannot write: the kind word of each record in .BTF.ext's core_relo part."""
    b = bytearray(open(obj, "rb").read())
    shoff = int.from_bytes(b[0x28:0x30], "little")
    shentsize, shnum, shstrndx = (int.from_bytes(b[o:o + 2], "little") for o in (0x3a, 0x3c, 0x3e))
    def sh(i):
        at = shoff + i * shentsize
        return int.from_bytes(b[at:at + 4], "little"), int.from_bytes(b[at + 0x18:at + 0x20], "little")
    names = sh(shstrndx)[1]
    for i in range(shnum):
        name_off, off = sh(i)
        if b[names + name_off:names + name_off + 9] != b".BTF.ext\0":
            continue
        hdr_len = int.from_bytes(b[off + 4:off + 8], "little")
        core_off = int.from_bytes(b[off + 24:off + 28], "little")
        core_len = int.from_bytes(b[off + 28:off + 32], "little")
        p = off + hdr_len + core_off
        end = p + core_len
        rec = int.from_bytes(b[p:p + 4], "little")
        p += 4
        while p + 8 <= end:
            n = int.from_bytes(b[p + 4:p + 8], "little")
            p += 8
            for _ in range(n):
                if int.from_bytes(b[p + 12:p + 16], "little") == 8:
                    b[p + 12] = 12
                p += rec
    out = obj[:-len(".bpf.o")] + "-m.bpf.o"
    with open(out, "wb") as fh:
        fh.write(bytes(b))
    return out


def shape_job(rng):
    """(shape name, {file name: bytes}, argv) of one hostile-shape run; {t} in argv is the run's directory."""
    prog = os.path.join(ROOT, "corpus", "samples", "bpf", "core_reads.bpf.o")
    pick = rng.randrange(10)
    if pick == 0:
        data = hostile_shapes.nested_anon(levels=rng.randint(4, 40), width=rng.randint(2, 8),
                                          leaf=rng.choice([None, "pid", "comm"]))
        cmd = rng.choice([["core-check", prog, "--btf", "{t}/t.btf"], ["minimize", "{t}/t.btf", "-o", "{t}/out", prog],
                          ["minimize", "-q", "--out-dir", "{t}/d", "{t}/t.btf", prog], ["diff", "{t}/t.btf", "{t}/t.btf"]])
        return "nested-anon", {"t.btf": data}, cmd
    if pick == 1:
        levels, params = rng.randint(4, 40), rng.randint(1, 6)
        data = hostile_shapes.proto_fanout(levels, params)
        obj = fan_program(min(levels, 34), params, rng.random() < 0.5)
        cmds = [["dump", "{t}/t.btf", "--format", "c", "-o", "{t}/out"], ["validate", "{t}/t.btf"],
                ["dedup", "{t}/t.btf", "-o", "{t}/out"]]
        if obj:
            cmds += [["core-check", obj, "--btf", obj], ["minimize", obj, "-o", "{t}/out", obj],
                     ["core-check", obj, "--btf", "{t}/t.btf"]]
        return "proto-fanout", {"t.btf": data}, rng.choice(cmds)
    if pick == 2:
        n, levels, width = rng.randint(10, 3000), rng.randint(2, 4), rng.choice([4, 8, 16])
        variant = rng.randrange(3)
        a = hostile_shapes.diff_shared(n, levels=levels, width=width, extra="x" if variant == 2 else None)
        b = hostile_shapes.diff_shared(n, grow=variant == 0, levels=levels, width=width, leaf_at=8 if variant == 1 else 0,
                                       extra="y" if variant == 2 else None)
        return "diff-shared", {"a.btf": a, "b.btf": b}, ["diff", "{t}/a.btf", "{t}/b.btf"] + rng.choice([[], ["--json"]])
    if pick == 3:
        levels, params = rng.randint(8, 40), rng.randint(1, 4)
        return "spell", {"a.btf": hostile_shapes.spell(levels, params, 0), "b.btf": hostile_shapes.spell(levels, params, 1)}, \
            rng.choice([["diff", "{t}/a.btf", "{t}/b.btf"], ["dump", "{t}/a.btf", "--format", "c", "-o", "{t}/out"]])
    if pick == 4:
        data = hostile_shapes.blob_flood(rng.choice([rng.randint(1, 70000), rng.randint(60000, 2700000)]))
        if rng.random() < 0.3:
            real = open(os.path.join(ROOT, "corpus", "samples", "gcc", "job.o"), "rb").read()
            span = btf_types(real)
            if span:
                at = real.find(b"\x9f\xeb\x01")
                blob_len = int.from_bytes(real[at + 4:at + 8], "little") + int.from_bytes(real[at + 16:at + 20], "little") \
                    + int.from_bytes(real[at + 20:at + 24], "little")
                data = real[at:at + blob_len] + data
        suffix, data = compress(data, rng)
        f = "{t}/flood.btf" + suffix
        return "blob-flood", {"flood.btf" + suffix: data}, rng.choice(
            [["validate", f], ["stats", f], ["link", f, "-o", "{t}/out"], ["dedup", f, "-o", "{t}/out"],
             ["convert", f, "-o", "{t}/out"], ["dump", f, "-o", "{t}/out"]])
    if pick == 5:
        suffix, data = compress(hostile_shapes.huge_name(rng.choice([300, 5000, 1 << 20, 8 << 20])), rng)
        f = "{t}/h.btf" + suffix
        return "huge-name", {"h.btf" + suffix: data}, rng.choice(
            [["validate", f], ["dedup", f, "-o", "{t}/out"], ["link", f, "-o", "{t}/out"], ["convert", f, "-o", "{t}/out"],
             ["permute", f, "--sort", "name", "-o", "{t}/out"], ["core-check", prog, "--btf", f], ["stats", f],
             ["diff", f, f], ["dump", f, "--format", "c", "--root", "1", "-o", "{t}/out"]])
    if pick == 6:
        n = rng.randint(100, 60000)
        dist = hostile_shapes.ambiguous(n)
        new = hostile_shapes.ambiguous(rng.choice([n, rng.randint(2, 60000)]))
        split = hostile_shapes.pointer_split(1)
        return "ambiguous", {"d.base.btf": dist, "n.btf": new, "d.split.btf": split}, \
            ["relocate", "{t}/d.split.btf", "--dist-base", "{t}/d.base.btf", "--base", "{t}/n.btf", "-o", "{t}/out"]
    if pick == 7:
        return "ring", {"r.btf": hostile_shapes.ring(rng.randint(64, 40000))}, rng.choice(
            [["dedup", "{t}/r.btf", "-o", "{t}/out"], ["link", "{t}/r.btf", "{t}/r.btf", "-o", "{t}/out"],
             ["validate", "{t}/r.btf"], ["stats", "{t}/r.btf"]])
    if pick == 8:
        pick = rng.randrange(3)
        if pick < 2:
            length = rng.randint(4, 200)
            make = hostile_shapes.rings if pick == 0 else hostile_shapes.rings_shared
            name, data = ("rings", "rings-shared")[pick], make(rng.randint(2, 100_000 // length), length, rng.randrange(1 << 30))
        else:
            name, data = "ring-lengths", hostile_shapes.ring_lengths(rng.randint(2, 600), rng.randint(2, 200))
        return name, {"r.btf": data}, rng.choice(
            [["dedup", "{t}/r.btf", "-o", "{t}/out"], ["link", "{t}/r.btf", "{t}/r.btf", "-o", "{t}/out"],
             ["validate", "{t}/r.btf"]])
    return "unknown-kind", {"u.btf": hostile_shapes.unknown_kind()}, rng.choice(
        [["convert", "{t}/u.btf", "--header", rng.choice(["classic", "layout"]), "-o", "{t}/out"],
         ["dedup", "{t}/u.btf", "-o", "{t}/out"], ["validate", "{t}/u.btf"], ["dump", "{t}/u.btf", "--format", "c"]])


def shape_files(seed):
    """A shape run's (name, files, command line), drawn from its own seed (made in the worker, so
    that the round's process stays small: a child forked from it counts its memory in its RSS)."""
    rng = random.Random(seed)
    name, files, cmd = shape_job(rng)
    if rng.random() < 0.5:
        # and mutated: the first file (a raw one: compressed ones would just fail to decompress)
        k = sorted(files)[0]
        if not k.endswith((".xz", ".gz", ".zst")):
            files = dict(files)
            files[k] = mutate(files[k], rng)
    return name, files, cmd


TIME = shutil.which("time") or ("/usr/bin/time" if os.path.exists("/usr/bin/time") else None)


def run_one(job):
    i, kind, seed_path, data, cmd_index, outdir = job
    tmp = tempfile.mkdtemp(prefix="mut-", dir=outdir)
    try:
        if kind == "shape":
            seed_path, data, cmd_index = shape_files(data)
            # seed_path: the shape's name; data: its files; cmd_index: its command line
            for name, b in data.items():
                with open(os.path.join(tmp, name), "wb") as fh:
                    fh.write(b)
            f = os.path.join(tmp, sorted(data)[0])
            cmd = [c.replace("{t}", tmp) for c in cmd_index]
        else:
            f = os.path.join(tmp, "in" + os.path.splitext(seed_path)[1])
            with open(f, "wb") as fh:
                fh.write(data)
            if kind == "distsplit":
                shutil.copy(seed_path.rsplit(".", 1)[0] + ".base", os.path.join(tmp, "in.base"))
            cmd = commands(kind, f, tmp)[cmd_index]
        argv = [os.path.join(ROOT, "btfkit")] + cmd
        rssf = os.path.join(tmp, "rss")
        if TIME:
            # GNU time's own child: forked from a small process, so its peak RSS is btfkit's alone
            argv = [TIME, "-f", "%M", "-o", rssf] + argv
        t0 = time.monotonic()
        errf = os.path.join(tmp, "stderr")
        outf = os.path.join(tmp, "stdout")
        with open(errf, "wb") as eh, open(outf, "wb") as oh:
            p = subprocess.Popen(argv, stdout=oh, stderr=eh, start_new_session=True)
        killer = threading.Timer(TIME_LIMIT, lambda: os.killpg(p.pid, signal.SIGKILL))
        killer.start()
        # wait4: the child's own rusage (ru_maxrss in KB; the launcher execs java, same process)
        _, status, usage = os.wait4(p.pid, 0)
        killer.cancel()
        timed_out = os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
        p.returncode = os.waitstatus_to_exitcode(status)
        rss = usage.ru_maxrss
        if TIME:
            try:
                with open(rssf) as fh:
                    rss = int(fh.read().split()[-1])
                os.remove(rssf)
            except (OSError, ValueError, IndexError):
                rss = 0   # killed: time wrote nothing
        with open(errf, "rb") as eh:
            err = eh.read()
        os.remove(errf)
        out_bytes = os.path.getsize(outf)
        with open(outf, "rb") as oh:
            out_longest = longest_line(oh)
        os.remove(outf)
        elapsed = time.monotonic() - t0
        err = err.decode("utf-8", "replace")
        if kind == "shape":
            verdict = classify_shape(p.returncode, err, timed_out, rss, cmd, data, tmp, out_bytes, out_longest)
        else:
            verdict = classify(p.returncode, err, timed_out, rss, cmd, f, data, tmp)
        if verdict != "ok":
            dst = os.path.join(outdir, "findings", "%05d-%s" % (i, verdict))
            os.makedirs(dst, exist_ok=True)
            for name in (data if kind == "shape" else [os.path.basename(f)]):
                shutil.copy(os.path.join(tmp, name), dst)
            with open(os.path.join(dst, "cmd.txt"), "w") as fh:
                fh.write(" ".join(cmd) + "\nseed " + seed_path + "\nexit %s\n" % p.returncode + err[-4000:])
        label = (seed_path + " " if kind == "shape" else "") + cmd[0]
        return verdict, p.returncode, elapsed, rss, label, " ".join(os.path.basename(c) if os.sep in c else c for c in cmd)
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
    if rc not in (0, 1, 2) and not (rc == 3 and cmd[0] == "core-check"):   # core-check: 3, instructions poisoned
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


def longest_line(fh):
    """The longest line of a file, read in chunks."""
    longest = cur = 0
    while True:
        chunk = fh.read(1 << 20)
        if not chunk:
            return max(longest, cur)
        parts = chunk.split(b"\n")
        cur += len(parts[0])
        for part in parts[1:]:
            longest = max(longest, cur)
            cur = len(part)


def classify_shape(rc, err, timed_out, rss, cmd, files, tmp, out_bytes, out_longest):
    """classify() for a shape run, its several inputs checked, plus the output bounds."""
    for name, b in files.items():
        with open(os.path.join(tmp, name), "rb") as fh:
            if fh.read() != b:
                return "input-changed"
    first = os.path.join(tmp, sorted(files)[0])
    verdict = classify(rc, err, timed_out, rss, cmd, first, files[sorted(files)[0]], tmp)
    if verdict != "ok":
        return verdict
    # JSON reports put one entry per line: a real one reaches 55 KB (diff 6.1 against 6.18), so
    # for them only the total counts
    json = "--json" in cmd or "json" in cmd or "-p" in cmd
    if out_bytes > OUTPUT_LIMIT or (out_longest > LINE_LIMIT and not json) or any(len(l) > LINE_LIMIT for l in err.splitlines()):
        return "flood"
    if rc == 0 and cmd[0] in REREAD and "-o" in cmd and not unreadable_ok(cmd):
        return "unreadable-output"
    return "ok"


# commands whose -o is BTF that btfkit must read back (a BTF no reader can read, written with exit 0, is wrong)
REREAD = {"convert", "dedup", "link", "permute", "relocate", "minimize"}


def unreadable_ok(cmd):
    """Whether the run's -o output reads back (btfkit stats does not call it malformed), on the run's
    --base if it had one."""
    out = cmd[cmd.index("-o") + 1]
    if not os.path.isfile(out) or "--out-format" in cmd:
        return True
    argv = [os.path.join(ROOT, "btfkit"), "stats", out]
    if "--base" in cmd and cmd[0] != "relocate":
        argv += ["--base", cmd[cmd.index("--base") + 1]]
    if cmd[0] == "relocate":
        argv += ["--base", cmd[cmd.index("--base") + 1]]
    # exit 2 is malformed; 1 is fine here (several blobs back to back, which stats declines to sum up)
    return subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode != 2


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=2000)
    ap.add_argument("--shapes", type=int, default=0, help="runs on hostile shapes (issue 23), after the mutations")
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
    for i in range(a.runs, a.runs + a.shapes):
        seed = rng.randrange(1 << 62)
        if only and shape_files(seed)[2][0] not in only:
            continue
        jobs.append((i, "shape", None, seed, None, a.out))
    counts = collections.Counter()
    per_cmd = collections.Counter()
    exits = collections.Counter()
    max_rss = 0
    max_time = 0.0
    t0 = time.monotonic()
    heaviest = []
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex, open(os.path.join(a.out, "runs.tsv"), "w") as log:
        for n, (verdict, rc, elapsed, rss, cmd, line) in enumerate(ex.map(run_one, jobs), 1):
            log.write("%s\t%d\t%.2f\t%d\t%s\n" % (verdict, rc, elapsed, rss // 1024, line))
            heaviest = sorted(heaviest + [(rss, elapsed, line)], reverse=True)[:3]
            counts[verdict] += 1
            per_cmd[cmd] += 1
            exits[rc] += 1
            max_rss = max(max_rss, rss)
            max_time = max(max_time, elapsed)
            if n % 100 == 0:
                print("%d/%d %s" % (n, len(jobs), dict(counts)), file=sys.stderr, flush=True)
    print("runs: %d in %.0f s (seed %d)" % (len(jobs), time.monotonic() - t0, a.seed))
    print("verdicts: " + ", ".join("%s %d" % kv for kv in sorted(counts.items())))
    print("exit status: " + ", ".join("%s %d" % kv for kv in sorted(exits.items())))
    print("per command: " + ", ".join("%s %d" % kv for kv in sorted(per_cmd.items())))
    print("max RSS: %d MB, slowest run: %.1f s" % (max_rss // 1024, max_time))
    for rss, elapsed, line in heaviest:
        print("  %d MB, %.1f s: %s" % (rss // 1024, elapsed, line[:120]))
    print("findings in " + os.path.join(a.out, "findings"))
    return 0 if set(counts) <= {"ok"} else 1


if __name__ == "__main__":
    sys.exit(main())
