package io.btfkit.corpus;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * Random small CO-RE programs and kernels for the differential test against libbpf
 * ({@link CoreDifferentialTest}): a C source whose relocations clang emits, and a target BTF in
 * raw text, made from one model so that the two meet where CO-RE is hard. The program has a root
 * struct family or two ({@code s}, {@code t}) in one or two local flavours ({@code s},
 * {@code s___l}) with int, bitfield, pointer, array, nested-struct, enum and anonymous-union
 * fields; it reads them with {@code __builtin_preserve_field_info} (every field kind), direct loads
 * and stores, and asks about types ({@code type_exists}, {@code type_size}, type ids) and
 * enumerators. The kernel has zero to three flavours of each family ({@code s}, {@code s___1}, ...),
 * each derived from a local one with fields dropped, added, reordered, resized, re-signed, turned
 * into or out of bitfields, and sometimes an exact duplicate of another flavour — so candidates
 * match partly, several at once (agreeing or not), or not at all.
 */
final class CoreCases {
    /** A generated case: the programs' C sources (one object each, same types) and the kernel's BTF as text. */
    record Case(List<String> sources, String target) {
        @Override
        public String toString() {
            StringBuilder sb = new StringBuilder();
            for (String s : sources) {
                sb.append("--- program ---\n").append(s);
            }
            return sb.append("--- target ---\n").append(target).toString();
        }
    }

    /** The integer types, in C and in the target (ids 1..: the target's first types). */
    private record IntT(String c, String btf, int size, String encoding) {
    }

    private static final IntT[] INTS = {
        new IntT("int", "int", 4, "SIGNED"),
        new IntT("unsigned int", "unsigned int", 4, "(none)"),
        new IntT("short", "short", 2, "SIGNED"),
        new IntT("unsigned short", "short unsigned int", 2, "(none)"),
        new IntT("long", "long", 8, "SIGNED"),
        new IntT("unsigned long", "long unsigned int", 8, "(none)"),
        new IntT("signed char", "signed char", 1, "SIGNED"),
        new IntT("unsigned char", "unsigned char", 1, "(none)"),
        new IntT("char", "char", 1, "(none)"),
        new IntT("_Bool", "_Bool", 1, "BOOL"),
    };

    /** A field's type. */
    private sealed interface Ty permits IntTy, PtrTy, ArrTy, NestedTy, EnumTy, UnionTy, HoleTy {
    }

    private record IntTy(int intT, int bits) implements Ty {
    }

    private record PtrTy() implements Ty {
    }

    private record ArrTy(int intT, int n) implements Ty {
    }

    /** A {@code struct in} member. */
    private record NestedTy() implements Ty {
    }

    /** An {@code enum e} member. */
    private record EnumTy() implements Ty {
    }

    /** An anonymous union of fields (accessed in C as if they were the struct's own). */
    private record UnionTy(List<Field> fields) implements Ty {
    }

    /** Room for a field a kernel's flavour lacks, at the place the field has in another flavour. */
    private record HoleTy(Ty of) implements Ty {
    }

    private record Field(String name, Ty type) {
    }

    private record Struct(String name, List<Field> fields) {
    }

    private static final String[] ENUMERATORS = {"E_A", "E_B", "E_C", "E_D"};

    private final Random r;
    private final StringBuilder statements0 = new StringBuilder();
    private final StringBuilder statements1 = new StringBuilder();
    private int outs;
    /** The local type most field accesses use. */
    private Struct focus;

    private CoreCases(long seed) {
        this.r = new Random(seed);
    }

    /**
     * One case: {@code families} root struct families (1-2), {@code objects} programs (1-2) of the
     * same types, each with up to {@code accesses} relocations.
     */
    static Case generate(long seed, int families, int accesses, int objects) {
        return new CoreCases(seed).make(families, accesses, objects);
    }

    private Case make(int families, int accesses, int objects) {
        Struct in = new Struct("in", fields(List.of("x", "y", "z"), false));
        List<List<Struct>> local = new ArrayList<>();
        String[] familyNames = {"s", "t"};
        for (int f = 0; f < families; f++) {
            List<Struct> flavours = new ArrayList<>();
            flavours.add(new Struct(familyNames[f], fields(List.of("a", "b", "c", "d", "e", "f"), true)));
            if (r.nextInt(3) > 0) {
                flavours.add(new Struct(familyNames[f] + "___l", fields(List.of("a", "b", "c", "d", "e", "f"), true)));
            }
            local.add(flavours);
        }
        // most field accesses go to one local type: they share its candidate list
        List<Struct> focusFamily = local.get(r.nextInt(local.size()));
        focus = focusFamily.get(r.nextInt(focusFamily.size()));
        String target = target(in, local);
        List<String> sources = new ArrayList<>();
        for (int o = 0; o < objects; o++) {
            statements0.setLength(0);
            statements1.setLength(0);
            int programs = 1 + r.nextInt(2);
            statements(local, in, accesses, programs);
            sources.add(source(in, local, programs));
        }
        return new Case(sources, target);
    }

    private void statements(List<List<Struct>> local, Struct in, int accesses, int programs) {
        for (int i = 0; i < accesses; i++) {
            StringBuilder into = programs == 2 && r.nextBoolean() ? statements1 : statements0;
            int what = r.nextInt(20);
            if (what < 15) {
                List<Struct> fam = local.get(r.nextInt(local.size()));
                fieldAccess(into, r.nextInt(5) < 3 ? focus : fam.get(r.nextInt(fam.size())), in);
            } else if (what < 18) {
                List<Struct> fam = local.get(r.nextInt(local.size()));
                String type = r.nextInt(5) == 0 ? "struct in" : "struct " + fam.get(r.nextInt(fam.size())).name();
                if (r.nextBoolean()) {
                    into.append("\tout[").append(out()).append("] = __builtin_preserve_type_info(*(").append(type).append(" *)0, ")
                            .append(r.nextInt(2)).append(");\n");
                } else {
                    into.append("\tout[").append(out()).append("] = __builtin_btf_type_id(*(").append(type).append(" *)0, ")
                            .append(r.nextInt(2)).append(");\n");
                }
            } else {
                boolean flavoured = r.nextBoolean();
                String e = flavoured ? "enum e___l" : "enum e";
                String v = flavoured ? (r.nextBoolean() ? "E_A___l" : "E_D___l") : ENUMERATORS[r.nextInt(3)];
                into.append("\tout[").append(out()).append("] = __builtin_preserve_enum_value(*(").append(e).append(" *)").append(v)
                        .append(", ").append(r.nextInt(2)).append(");\n");
            }
        }
    }

    private int out() {
        return outs++ % 64;
    }

    /** 2-5 (nested: 1-3) fields named from {@code names}, each of a random type. */
    private List<Field> fields(List<String> names, boolean root) {
        List<String> pool = new ArrayList<>(names);
        Collections.shuffle(pool, r);
        int n = root ? 2 + r.nextInt(4) : 1 + r.nextInt(3);
        List<Field> out = new ArrayList<>();
        for (int i = 0; i < n && i < pool.size(); i++) {
            String name = pool.get(i);
            int k = r.nextInt(100);
            Ty t;
            if (!root) {
                t = k < 75 ? new IntTy(r.nextInt(INTS.length), 0) : new ArrTy(r.nextInt(INTS.length - 1), 1 + r.nextInt(4));
            } else if (k < 50) {
                t = new IntTy(r.nextInt(INTS.length), 0);
            } else if (k < 60) {
                t = new IntTy(r.nextInt(2), 1 + r.nextInt(12));
            } else if (k < 66) {
                t = new PtrTy();
            } else if (k < 76) {
                t = new ArrTy(r.nextInt(INTS.length - 1), 1 + r.nextInt(4));
            } else if (k < 86) {
                t = new NestedTy();
            } else if (k < 92) {
                t = new EnumTy();
            } else {
                t = new UnionTy(List.of(new Field(name + "1", new IntTy(r.nextInt(INTS.length), 0)),
                        new Field(name + "2", new IntTy(r.nextInt(INTS.length), 0))));
            }
            out.add(new Field(name, t));
        }
        return out;
    }

    // ---- the program ----

    /** A relocated use of one field path of {@code s}: field info of any kind, or a load or store. */
    private void fieldAccess(StringBuilder into, Struct s, Struct in) {
        Field f = s.fields().get(r.nextInt(s.fields().size()));
        StringBuilder path = new StringBuilder();
        Ty t = f.type();
        if (t instanceof UnionTy u) {
            f = u.fields().get(r.nextInt(u.fields().size()));
            t = f.type();
        }
        path.append("->").append(f.name());
        if (t instanceof NestedTy && r.nextInt(5) < 3) {
            Field g = in.fields().get(r.nextInt(in.fields().size()));
            path.append('.').append(g.name());
            t = g.type();
        }
        if (t instanceof ArrTy a && r.nextInt(5) < 3) {
            path.append('[').append(r.nextInt(a.n() + (r.nextInt(10) == 0 ? 1 : 0))).append(']');
            t = new IntTy(a.intT(), 0);
        }
        String lvalue = "((struct " + s.name() + " *)ctx)" + path;
        boolean scalar = t instanceof IntTy || t instanceof EnumTy;
        List<Integer> kinds = new ArrayList<>(List.of(0, 1, 2));
        if (scalar) {
            kinds.addAll(List.of(3, 4, 5));
        }
        int op = r.nextInt(10);
        boolean bitfield = t instanceof IntTy i && i.bits() > 0;
        if (op < 3 && !bitfield && (scalar || t instanceof PtrTy)) {
            into.append("\tout[").append(out()).append("] = (u64)").append(lvalue).append(";\n");
        } else if (op < 4 && !bitfield && t instanceof IntTy) {
            into.append('\t').append(lvalue).append(" = 3;\n");
        } else {
            into.append("\tout[").append(out()).append("] = __builtin_preserve_field_info(").append(lvalue).append(", ")
                    .append(kinds.get(r.nextInt(kinds.size()))).append(");\n");
        }
    }

    private String source(Struct in, List<List<Struct>> local, int programs) {
        StringBuilder c = new StringBuilder();
        c.append("#define SEC(n) __attribute__((section(n), used))\n");
        c.append("typedef unsigned long long u64;\n");
        c.append("enum e { E_A = 1, E_B = 2, E_C = 3 };\n");
        c.append("enum e___l { E_A___l = 1, E_D___l = 4 };\n");
        c.append("#pragma clang attribute push (__attribute__((preserve_access_index)), apply_to = record)\n");
        cStruct(c, in);
        for (List<Struct> fam : local) {
            for (Struct s : fam) {
                cStruct(c, s);
            }
        }
        c.append("#pragma clang attribute pop\n");
        c.append("u64 out[64];\n");
        c.append("char LICENSE[] SEC(\"license\") = \"GPL\";\n");
        for (int p = 0; p < programs; p++) {
            c.append("SEC(\"kprobe/p").append(p).append("\")\nint p").append(p).append("(void *ctx)\n{\n");
            c.append(p == 0 ? statements0 : statements1);
            c.append("\treturn 0;\n}\n");
        }
        return c.toString();
    }

    private static void cStruct(StringBuilder c, Struct s) {
        c.append("struct ").append(s.name()).append(" {");
        for (Field f : s.fields()) {
            c.append(' ').append(cField(f)).append(';');
        }
        c.append(" };\n");
    }

    private static String cField(Field f) {
        Ty t = f.type();
        if (t instanceof IntTy i) {
            return INTS[i.intT()].c() + " " + f.name() + (i.bits() > 0 ? " : " + i.bits() : "");
        }
        if (t instanceof PtrTy) {
            return "int *" + f.name();
        }
        if (t instanceof ArrTy a) {
            return INTS[a.intT()].c() + " " + f.name() + "[" + a.n() + "]";
        }
        if (t instanceof NestedTy) {
            return "struct in " + f.name();
        }
        if (t instanceof EnumTy) {
            return "enum e " + f.name();
        }
        StringBuilder sb = new StringBuilder("union {");
        for (Field x : ((UnionTy) t).fields()) {
            sb.append(' ').append(cField(x)).append(';');
        }
        return sb.append(" }").toString();
    }

    // ---- the kernel ----

    /** Raw text of the target, types numbered as added. */
    private final List<String> types = new ArrayList<>();
    private final java.util.Map<Integer, Long> enumSizes = new java.util.HashMap<>();

    private int add(String line) {
        types.add(line);
        return types.size();
    }

    private String target(Struct localIn, List<List<Struct>> local) {
        for (IntT i : INTS) {
            int bits = i.size() * 8;
            add("INT '" + i.btf() + "' size=" + i.size() + " bits_offset=0 nr_bits=" + bits + " encoding=" + i.encoding());
        }
        int ptr = add("PTR '(anon)' type_id=1");
        // enum flavours: some of the enumerators, other values, sometimes 64-bit or signed
        List<Integer> enums = new ArrayList<>();
        List<String> enumNames = pick(List.of("e", "e___1", "e___2"), r.nextInt(3));
        for (String name : enumNames) {
            enums.add(enumType(name));
        }
        int memberEnum = enums.isEmpty() ? enumType("other") : enums.get(0);
        // struct in flavours (at least one: root members need one)
        List<Integer> ins = new ArrayList<>();
        List<long[]> inLayouts = new ArrayList<>();
        for (String name : pick(List.of("in", "in___1", "in___2"), 1 + r.nextInt(2))) {
            List<Field> fs = mutate(localIn.fields(), List.of("x", "y", "z", "w"), 5);
            long[] sizeAlign = new long[2];
            ins.add(struct(name, fs, ptr, -1, memberEnum, sizeAlign, null, new Random(r.nextLong())));
            inLayouts.add(sizeAlign);
        }
        String[][] flavourNames = {{"s", "s___1", "s___2", "s___3"}, {"t", "t___1", "t___2", "t___3"}};
        for (int f = 0; f < local.size(); f++) {
            List<Struct> fam = local.get(f);
            int k = r.nextInt(20);
            List<String> names = pick(List.of(flavourNames[f]), k < 2 ? 0 : k < 11 ? 1 : k < 17 ? 2 : 3);
            List<Field> previous = null;
            for (int n = 0; n < names.size(); n++) {
                long layout = r.nextLong();
                if (n + 1 < names.size() && r.nextInt(2) == 0) {
                    // a flavour that is another one less some fields, at the same offsets, and before it
                    Struct from = fam.contains(focus) ? focus : fam.get(r.nextInt(fam.size()));
                    List<Field> full = mutate(from.fields(), List.of("a", "b", "c", "d", "e", "f", "pad"), 8);
                    struct(names.get(n), holes(full), ptr, ins.get(0), memberEnum, new long[2], inLayouts.get(0), new Random(layout));
                    struct(names.get(++n), full, ptr, ins.get(0), memberEnum, new long[2], inLayouts.get(0), new Random(layout));
                    previous = full;
                    continue;
                }
                // often a duplicate of the one before; some flavours lack many fields
                List<Field> fs = previous != null && r.nextInt(10) < 4 ? previous
                        : mutate(fam.get(r.nextInt(fam.size())).fields(), List.of("a", "b", "c", "d", "e", "f", "pad"), r.nextBoolean() ? 5 : 2);
                struct(names.get(n), fs, ptr, ins.get(0), memberEnum, new long[2], inLayouts.get(0), new Random(layout));
                previous = fs;
            }
        }
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < types.size(); i++) {
            out.append('[').append(i + 1).append("] ").append(types.get(i)).append('\n');
        }
        return out.toString();
    }

    private List<String> pick(List<String> from, int n) {
        List<String> pool = new ArrayList<>(from);
        Collections.shuffle(pool, r);
        return new ArrayList<>(pool.subList(0, Math.min(n, pool.size())));
    }

    private int enumType(String name) {
        boolean wide = r.nextInt(6) == 0;
        boolean signed = r.nextInt(6) == 0;
        List<String> names = new ArrayList<>();
        for (String e : ENUMERATORS) {
            if (r.nextInt(3) > 0) {
                names.add(e + (r.nextInt(5) == 0 ? "___k" : ""));
            }
        }
        StringBuilder sb = new StringBuilder((wide ? "ENUM64 '" : "ENUM '") + name + "' encoding=" + (signed ? "SIGNED" : "UNSIGNED")
                + " size=" + (wide ? 8 : 4) + " vlen=" + names.size());
        for (String e : names) {
            long v = r.nextInt(4) == 0 ? -1 - r.nextInt(5) : r.nextInt(40);
            if (!signed && v < 0) {
                v = wide ? v : v & 0xffffffffL;
            }
            sb.append("\n\t'").append(e).append("' val=").append(wide && !signed && v < 0 ? Long.toUnsignedString(v) : Long.toString(v));
        }
        int id = add(sb.toString());
        enumSizes.put(id, wide ? 8L : 4L);
        return id;
    }

    /** A kernel's version of {@code fields}: one in {@code drop} dropped, some changed, added, reordered. */
    private List<Field> mutate(List<Field> fields, List<String> names, int drop) {
        List<Field> out = new ArrayList<>();
        for (Field f : fields) {
            if (r.nextInt(drop) == 0) {
                continue;
            }
            out.add(new Field(f.name(), mutate(f.type())));
        }
        if (r.nextInt(3) == 0) {
            String extra = names.get(r.nextInt(names.size()));
            if (out.stream().noneMatch(x -> x.name().equals(extra))) {
                out.add(r.nextInt(out.size() + 1), new Field(extra, new IntTy(r.nextInt(INTS.length), 0)));
            }
        }
        if (r.nextInt(4) == 0) {
            Collections.shuffle(out, r);
        }
        return out;
    }

    /** {@code fields} with some (not anonymous unions) turned into holes. */
    private List<Field> holes(List<Field> fields) {
        List<Field> out = new ArrayList<>();
        for (Field f : fields) {
            out.add(!(f.type() instanceof UnionTy) && r.nextInt(3) == 0 ? new Field(f.name(), new HoleTy(f.type())) : f);
        }
        return out;
    }

    private Ty mutate(Ty t) {
        if (t instanceof IntTy i) {
            int k = r.nextInt(10);
            if (i.bits() > 0) {
                return k < 2 ? new IntTy(i.intT(), 0) : k < 4 ? new IntTy(i.intT(), 1 + r.nextInt(12))
                        : k < 5 ? new IntTy(1 - i.intT(), i.bits()) : i;
            }
            return k < 3 ? new IntTy(r.nextInt(INTS.length), 0) : k < 4 ? new IntTy(r.nextInt(2), 1 + r.nextInt(12)) : i;
        }
        if (t instanceof ArrTy a) {
            return r.nextInt(3) == 0 ? new ArrTy(r.nextInt(INTS.length - 1), 1 + r.nextInt(4)) : a;
        }
        if (t instanceof UnionTy u) {
            return new UnionTy(u.fields().stream().map(f -> new Field(f.name(), mutate(f.type()))).toList());
        }
        return t;
    }

    /**
     * Adds a struct (or, with {@code name} null, an anonymous union) laid out naturally, members
     * referring to the int pool, a pointer, arrays, the nested struct and the enum; its size and
     * alignment go to {@code sizeAlign}.
     */
    private int struct(String name, List<Field> fields, int ptr, int nested, int enumId, long[] sizeAlign, long[] nestedLayout,
                       Random lr) {
        boolean union = name == null;
        StringBuilder members = new StringBuilder();
        long bit = 0;
        long maxEnd = 0;
        long align = 1;
        int vlen = 0;
        for (Field f : fields) {
            long size;
            long al;
            int type;
            int bits = 0;
            Ty t = f.type();
            boolean hole = t instanceof HoleTy;
            if (hole) {
                t = ((HoleTy) t).of();
            }
            if (t instanceof IntTy i) {
                size = INTS[i.intT()].size();
                al = size;
                type = i.intT() + 1;
                bits = i.bits();
            } else if (t instanceof PtrTy) {
                size = 8;
                al = 8;
                type = ptr;
            } else if (t instanceof ArrTy a) {
                size = (long) INTS[a.intT()].size() * a.n();
                al = INTS[a.intT()].size();
                type = hole ? 0 : add("ARRAY '(anon)' type_id=" + (a.intT() + 1) + " index_type_id=1 nr_elems=" + a.n());
            } else if (t instanceof NestedTy) {
                size = nestedLayout[0];
                al = nestedLayout[1];
                type = nested;
            } else if (t instanceof EnumTy) {
                size = enumSizes.get(enumId);
                al = size;
                type = enumId;
            } else {
                long[] ua = new long[2];
                type = struct(null, ((UnionTy) t).fields(), ptr, nested, enumId, ua, nestedLayout, lr);
                size = ua[0];
                al = ua[1];
            }
            long off;
            if (union) {
                off = 0;
            } else if (bits > 0) {
                long unit = size * 8;
                off = bit / unit == (bit + bits - 1) / unit ? bit : (bit + unit - 1) / unit * unit;
                if (lr.nextInt(8) == 0) {
                    off += 1 + r.nextInt(3); // a kernel may pack it otherwise
                }
            } else {
                long a = al * 8;
                off = (bit + a - 1) / a * a;
                if (lr.nextInt(6) == 0) {
                    off += a; // padding
                }
            }
            long end = off + (bits > 0 ? bits : size * 8);
            bit = union ? 0 : end;
            maxEnd = Math.max(maxEnd, end);
            align = Math.max(align, al);
            if (hole) {
                continue;
            }
            vlen++;
            members.append("\n\t'").append(t instanceof UnionTy ? "(anon)" : f.name()).append("' type_id=").append(type)
                    .append(" bits_offset=").append(off).append(bits > 0 ? " bitfield_size=" + bits : "");
        }
        long bytes = (maxEnd + 7) / 8;
        long size = Math.max(align, (bytes + align - 1) / align * align);
        sizeAlign[0] = size;
        sizeAlign[1] = align;
        String kind = union ? "UNION '(anon)'" : "STRUCT '" + name + "'";
        return add(kind + " size=" + size + " vlen=" + vlen + members);
    }
}
