#!/usr/bin/env python3
"""Hostile BTF shapes of issue 23, written as files: small inputs that ask for exponential work or
amplify into huge outputs unless every bound holds. Used by mutation-round.py (its "shape" seeds) and
by hand:

    corpus/scripts/hostile_shapes.py SHAPE OUT [N]      # e.g. nested-anon /tmp/t.btf 16

Shapes (N: the size knob):
  nested-anon   task_struct with 4 anonymous members of an anonymous struct that has 4 of the next,
                N levels (CO-RE member search: 4^N paths), no pid at the bottom
  proto-fanout  typedef int f0_t; typedef void (*fK_t)(fK-1_t x4) up to N (type comparison and
                spelling: 4^N)
  diff-shared   N named structs, each with one anonymous member into one shared 4-level tree of
                16 anonymous members (65,536 leaf paths); -b grows every top struct; -c/-d: 3 levels,
                the leaf moved (every path changes); -e/-f: one more member, renamed
  spell-a/b     prototypes N deep that return and take pointers to the previous level: a spelling
                holds the whole chain of return types inline (2^N text unless bounded)
  blob-flood    N empty 25-byte BTF blobs back to back (xz-compress it for the real attack)
  huge-name     a struct, its members and a typedef sharing one N-byte name
  ambiguous     N structs 's' of size 4 (a distilled base; the new base is the same shape)
  unknown-kind  a 129-byte BTF whose layout section describes 21 kinds, one type of kind 20
  ring          N structs 's' and one 't' in a ring through PTRs: every type its own class, found one
                step a round by Moore's refinement (N/2 rounds over the ring)
  rings         N rings of 100 structs named 's' or 't' at random (seed 1): each new ring was walked
                against every earlier class of its root's shape (N^2)
  ring-lengths  N rings of 100, 101, ... structs, each with one 't': rings that differ only in length
  rings-shared  rings, each struct also pointing to one shared cyclic list_head (an outside
                reference to an older group)
Only the standard library; output is little-endian raw BTF.
"""
import struct
import sys

KIND = {"INT": 1, "PTR": 2, "ARRAY": 3, "STRUCT": 4, "UNION": 5, "ENUM": 6, "FWD": 7, "TYPEDEF": 8,
        "VOLATILE": 9, "CONST": 10, "RESTRICT": 11, "FUNC": 12, "FUNC_PROTO": 13}


class Btf:
    """A tiny raw BTF writer: types appended in id order, strings interned."""

    def __init__(self):
        self.strings = bytearray(b"\0")
        self.offsets = {"": 0}
        self.types = []          # bytes per type

    def s(self, name):
        if name is None:
            return 0
        if isinstance(name, str):
            name = name.encode()
        key = name.decode("latin-1")
        if key not in self.offsets:
            self.offsets[key] = len(self.strings)
            self.strings += name + b"\0"
        return self.offsets[key]

    def add(self, kind, name, vlen, size_or_type, extra=b"", kflag=0):
        info = (kflag << 31) | (KIND[kind] << 24) | vlen
        self.types.append(struct.pack("<III", self.s(name), info, size_or_type) + extra)
        return len(self.types)

    def int(self, name, size, signed=True):
        return self.add("INT", name, 0, size, struct.pack("<I", (1 if signed else 0) << 24 | size * 8))

    def ptr(self, t):
        return self.add("PTR", None, 0, t)

    def typedef(self, name, t):
        return self.add("TYPEDEF", name, 0, t)

    def const(self, t):
        return self.add("CONST", None, 0, t)

    def array(self, elem, index, n):
        return self.add("ARRAY", None, 0, 0, struct.pack("<III", elem, index, n))

    def struct(self, name, size, members, union=False):
        """members: (name, type, bit_offset)."""
        extra = b"".join(struct.pack("<III", self.s(n), t, off) for n, t, off in members)
        return self.add("UNION" if union else "STRUCT", name, len(members), size, extra)

    def proto(self, ret, params):
        extra = b"".join(struct.pack("<II", self.s(n), t) for n, t in params)
        return self.add("FUNC_PROTO", None, len(params), ret, extra)

    def func(self, name, proto):
        return self.add("FUNC", name, 1, proto)

    def next_id(self):
        return len(self.types) + 1

    def bytes(self):
        types = b"".join(self.types)
        hdr = struct.pack("<HBBIIIII", 0xEB9F, 1, 0, 24, 0, len(types), len(types), len(self.strings))
        return hdr + types + bytes(self.strings)


def nested_anon(levels=16, width=4, leaf=None):
    b = Btf()
    i = b.int("int", 4)
    inner = b.struct(None, 4, [(leaf or "nothing", i, 0)])
    for _ in range(levels):
        inner = b.struct(None, 4 * width, [(None, inner, 32 * m) for m in range(width)])
    b.struct("task_struct", 4 * width, [(None, inner, 32 * m) for m in range(width)])
    return b.bytes()


def proto_fanout(levels=16, params=4):
    b = Btf()
    i = b.int("int", 4)
    prev = b.typedef("f0_t", i)
    for k in range(1, levels + 1):
        proto = b.proto(0, [(None, prev)] * params)
        prev = b.typedef("f%d_t" % k, b.ptr(proto))
    b.func("use_f", b.proto(0, [("f", prev)]))
    return b.bytes()


def diff_shared(n=300, grow=False, levels=4, width=16, leaf_at=0, extra=None):
    b = Btf()
    i = b.int("int", 4)
    inner = b.struct(None, 4, [("leaf", i, leaf_at)])
    for _ in range(levels):
        inner = b.struct(None, 4, [(None, inner, 0) for _ in range(width)])
    for k in range(n):
        b.struct("s%d" % k, 8 if grow else 4, [(None, inner, 0)] + ([(extra, i, 0)] if extra else []))
    return b.bytes()


def spell(levels=20, params=2, variant=0):
    """Prototypes returning and taking pointers to the previous level: each spelling holds the
    previous one's parameter list and, inline, its whole return-type chain (2^levels text)."""
    b = Btf()
    i = b.int("int", 4)
    c = b.int("char", 1)
    prev = i
    for k in range(levels):
        proto = b.proto(prev, [(None, prev)] * params + ([(None, c)] if variant else []))
        prev = b.ptr(proto)
    b.typedef("top_t", prev)
    b.func("f", b.proto(c, [("x", prev)]))
    return b.bytes()


def blob_flood(n=1000):
    one = struct.pack("<HBBIIIII", 0xEB9F, 1, 0, 24, 0, 0, 0, 1) + b"\0"
    return one * n


def huge_name(n=1 << 20):
    b = Btf()
    name = b"n" * n
    i = b.int("int", 4)
    # a member offset past the size: a finding that quotes the name
    b.struct(name, 4, [(name, i, 0), (name, i, 64)])
    b.typedef(name, i)
    return b.bytes()


def ambiguous(n=1000):
    b = Btf()
    for _ in range(n):
        b.struct("s", 4, [])
    return b.bytes()


def pointer_split(to=1):
    """Split BTF (on any base) of one PTR to base type {@code to}: the input relocate maps."""
    types = struct.pack("<III", 0, KIND["PTR"] << 24, to)
    strings = b""
    hdr = struct.pack("<HBBIIIII", 0xEB9F, 1, 0, 24, 0, len(types), len(types), len(strings))
    return hdr + types + strings


def unknown_kind():
    """32-byte header, a layout section of 21 kinds (kind 20: info 0, elem 0), one type of kind 20."""
    # (info_sz, elem_sz) of kinds 0..19 as the uapi header defines them, then kind 20: 0, 0
    sizes = [(0, 0), (4, 0), (0, 0), (12, 0), (0, 12), (0, 12), (0, 8), (0, 0), (0, 0), (0, 0), (0, 0),
             (0, 0), (0, 0), (0, 8), (4, 0), (0, 12), (0, 0), (4, 0), (0, 0), (0, 12), (0, 0)]
    layout = b"".join(struct.pack("<BBH", info, elem, 0) for info, elem in sizes)
    types = struct.pack("<III", 0, 20 << 24, 0)
    strings = b"\0"
    # header: magic, version, flags, hdr_len, type_off, type_len, str_off, str_len, layout_off, layout_len
    hdr = struct.pack("<HBBIIIIIII", 0xEB9F, 1, 0, 32, 0, len(types), len(types) + len(layout), len(strings),
                      len(types), len(layout))
    return hdr + types + layout + strings


def ring(n=20000):
    """n structs, one named 't', the others 's', each pointing to the next through a PTR."""
    b = Btf()
    first = b.next_id()
    for i in range(n):
        # struct i is type first + 2i, its PTR first + 2i + 1 (to struct i + 1, the last to the first)
        b.struct("t" if i == 0 else "s", 8, [("p", first + 2 * i + 1, 0)])
        b.ptr(first + 2 * ((i + 1) % n))
    return b.bytes()


def rings(r=1000, length=100, seed=1):
    """r rings of length structs, each named 's' or 't' at random (a fixed seed): distinct rings of one shape."""
    import random
    rnd = random.Random(seed)
    b = Btf()
    for _ in range(r):
        first = b.next_id()
        for i in range(length):
            b.struct(rnd.choice("st"), 8, [("p", first + 2 * i + 1, 0)])
            b.ptr(first + 2 * ((i + 1) % length))
    return b.bytes()


def rings_shared(r=1000, length=100, seed=1):
    """rings(), each struct also pointing to one shared cyclic struct list_head {next, prev}."""
    import random
    rnd = random.Random(seed)
    b = Btf()
    head = b.next_id()
    b.struct("list_head", 16, [("next", head + 1, 0), ("prev", head + 1, 64)])
    b.ptr(head)
    for _ in range(r):
        first = b.next_id()
        for i in range(length):
            b.struct(rnd.choice("st"), 16, [("p", first + 2 * i + 1, 0), ("l", head + 1, 64)])
            b.ptr(first + 2 * ((i + 1) % length))
    return b.bytes()


def ring_lengths(r=300, shortest=100):
    """r rings of shortest, shortest + 1, ... structs, each with one 't': rings that differ only in length."""
    b = Btf()
    for k in range(r):
        n = shortest + k
        first = b.next_id()
        for i in range(n):
            b.struct("t" if i == 0 else "s", 8, [("p", first + 2 * i + 1, 0)])
            b.ptr(first + 2 * ((i + 1) % n))
    return b.bytes()


SHAPES = {
    "nested-anon": lambda n: nested_anon(n or 16),
    "proto-fanout": lambda n: proto_fanout(n or 16),
    "diff-shared-a": lambda n: diff_shared(n or 300),
    "diff-shared-b": lambda n: diff_shared(n or 300, grow=True),
    "diff-shared-c": lambda n: diff_shared(n or 5000, levels=3, leaf_at=8),
    "diff-shared-d": lambda n: diff_shared(n or 5000, levels=3),
    "diff-shared-e": lambda n: diff_shared(n or 300, extra="x"),
    "diff-shared-f": lambda n: diff_shared(n or 300, extra="y"),
    "spell-a": lambda n: spell(n or 20),
    "spell-b": lambda n: spell(n or 20, variant=1),
    "blob-flood": lambda n: blob_flood(n or 1000),
    "huge-name": lambda n: huge_name(n or 1 << 20),
    "ambiguous": lambda n: ambiguous(n or 1000),
    "unknown-kind": lambda n: unknown_kind(),
    "ring": lambda n: ring(n or 20000),
    "rings": lambda n: rings(n or 1000),
    "ring-lengths": lambda n: ring_lengths(n or 300),
    "rings-shared": lambda n: rings_shared(n or 1000),
}


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in SHAPES:
        sys.stderr.write(__doc__)
        return 2
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    with open(sys.argv[2], "wb") as fh:
        fh.write(SHAPES[sys.argv[1]](n))
    return 0


if __name__ == "__main__":
    sys.exit(main())
