package io.btfkit.cheader;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Random BTF in raw text that exercises the C printer: structs and unions with random gaps,
 * bitfields, packing and trailing padding, anonymous members, arrays, pointers (some to named
 * structs defined later, making cycles), function prototypes with varargs, typedefs,
 * qualifiers, type tags, enums of every size and signedness, FWDs, and a small name pool so
 * names clash. Types never embed themselves, so libbpf can print every input.
 */
final class RandomCTypes {
    private static final String[] NAMES = {"a", "b", "c", "foo", "bar", "X", "Y", "A", "s"};
    private static final String[] KINDS = {"PTR", "PTR", "CONST", "VOLATILE", "TYPEDEF", "TYPEDEF", "ARRAY", "PROTO",
        "STRUCT", "STRUCT", "STRUCT", "UNION", "ENUM", "ENUM64", "FWD", "TAG", "RESTRICT"};
    private static final String LATE = "LATE";

    private final Random r;
    private final List<String> lines = new ArrayList<>();
    private final List<int[]> info = new ArrayList<>(); // per type: size, align, sized (0/1)
    private final List<String> kinds = new ArrayList<>();
    private final List<Boolean> named = new ArrayList<>();

    private RandomCTypes(long seed) {
        this.r = new Random(seed);
    }

    /** The raw text of one random BTF. */
    static String generate(long seed) {
        return new RandomCTypes(seed).build();
    }

    private int add(String text, int size, int align, String kind, boolean isNamed, boolean sized) {
        info.add(new int[] {size, align, sized ? 1 : 0});
        kinds.add(kind);
        named.add(isNamed);
        lines.add(text.replace("@", Integer.toString(info.size())));
        return info.size();
    }

    private int pick(boolean sized, boolean allowVoid) {
        if (allowVoid && r.nextDouble() < 0.2) {
            return 0;
        }
        List<Integer> c = new ArrayList<>();
        for (int i = 0; i < info.size(); i++) {
            if (info.get(i)[2] == 1 || !sized) {
                c.add(i + 1);
            }
        }
        return c.get(r.nextInt(c.size()));
    }

    private int[] of(int id) {
        return id == 0 ? new int[] {0, 0, 0} : info.get(id - 1);
    }

    private String build() {
        String[][] ints = {{"char", "1", "(none)"}, {"short", "2", "SIGNED"}, {"int", "4", "SIGNED"},
            {"unsigned int", "4", "(none)"}, {"long", "8", "SIGNED"}, {"_Bool", "1", "BOOL"},
            {"long long unsigned int", "8", "(none)"}};
        for (String[] i : ints) {
            int s = Integer.parseInt(i[1]);
            add("[@] INT '" + i[0] + "' size=" + s + " bits_offset=0 nr_bits=" + s * 8 + " encoding=" + i[2], s, s, "INT", true, true);
        }
        add("[@] FLOAT 'double' size=8", 8, 8, "FLOAT", true, true);
        int n = 10 + r.nextInt(51);
        for (int k = 0; k < n; k++) {
            String kind = KINDS[r.nextInt(KINDS.length)];
            switch (kind) {
                case "PTR" -> {
                    if (r.nextDouble() < 0.35) {
                        add("[@] PTR '(anon)' type_id=" + LATE, 8, 8, "PTR", false, true);
                    } else {
                        add("[@] PTR '(anon)' type_id=" + pick(false, true), 8, 8, "PTR", false, true);
                    }
                }
                case "CONST", "VOLATILE", "RESTRICT", "TAG", "TYPEDEF" -> modifier(kind);
                case "ARRAY" -> {
                    int elem = pick(true, false);
                    int ne = new int[] {0, 1, 2, 3, 5}[r.nextInt(5)];
                    add("[@] ARRAY '(anon)' type_id=" + elem + " index_type_id=3 nr_elems=" + ne, of(elem)[0] * ne, of(elem)[1],
                            "ARRAY", false, true);
                }
                case "PROTO" -> proto();
                case "STRUCT", "UNION" -> composite(kind.equals("STRUCT"));
                case "ENUM", "ENUM64" -> enumeration(kind.equals("ENUM64"));
                default -> add("[@] FWD '" + name() + "' fwd_kind=" + (r.nextBoolean() ? "struct" : "union"), 0, 0, "FWD", true, false);
            }
        }
        List<Integer> namedComposites = new ArrayList<>();
        for (int i = 0; i < kinds.size(); i++) {
            if ((kinds.get(i).equals("STRUCT") || kinds.get(i).equals("UNION")) && named.get(i)) {
                namedComposites.add(i + 1);
            }
        }
        StringBuilder sb = new StringBuilder();
        for (String line : lines) {
            while (line.contains(LATE)) {
                int target = namedComposites.isEmpty() ? 0 : namedComposites.get(r.nextInt(namedComposites.size()));
                line = line.replaceFirst(LATE, Integer.toString(target));
            }
            sb.append(line).append('\n');
        }
        return sb.toString();
    }

    private String name() {
        return NAMES[r.nextInt(NAMES.length)];
    }

    private void modifier(String kind) {
        int target;
        if (kind.equals("RESTRICT")) {
            List<Integer> ptrs = new ArrayList<>();
            for (int i = 0; i < kinds.size(); i++) {
                if (kinds.get(i).equals("PTR")) {
                    ptrs.add(i + 1);
                }
            }
            if (ptrs.isEmpty()) {
                return;
            }
            target = ptrs.get(r.nextInt(ptrs.size()));
        } else {
            target = pick(false, true);
        }
        int[] t = of(target);
        String text = switch (kind) {
            case "TAG" -> "[@] TYPE_TAG 'tg" + r.nextInt(3) + "' type_id=" + target;
            case "TYPEDEF" -> "[@] TYPEDEF '" + name() + "_t' type_id=" + target;
            default -> "[@] " + kind + " '(anon)' type_id=" + target;
        };
        add(text, t[0], t[1], kind, kind.equals("TYPEDEF"), t[2] == 1);
    }

    private void proto() {
        int ret = pick(true, true);
        StringBuilder params = new StringBuilder();
        int count = r.nextInt(4);
        for (int i = 0; i < count; i++) {
            String pn = new String[] {"(anon)", "x", "y"}[r.nextInt(3)];
            params.append("\n\t'").append(pn).append("' type_id=").append(pick(true, false));
        }
        if (r.nextDouble() < 0.2) {
            params.append("\n\t'(anon)' type_id=0");
            count++;
        }
        add("[@] FUNC_PROTO '(anon)' ret_type_id=" + ret + " vlen=" + count + params, 0, 0, "PROTO", false, false);
    }

    private void composite(boolean isStruct) {
        boolean isNamed = r.nextDouble() < 0.6;
        int members = r.nextInt(6);
        boolean packed = r.nextDouble() < 0.15;
        long off = 0;
        long size = 0;
        int maxAlign = 1;
        boolean kflag = false;
        List<String> ms = new ArrayList<>();
        for (int i = 0; i < members; i++) {
            int mt = pick(true, false);
            int[] t = of(mt);
            String mname = "'" + "mnp".charAt(r.nextInt(3)) + i + "'";
            if (kinds.get(mt - 1).equals("INT") && r.nextDouble() < 0.3) {
                int bits = 1 + r.nextInt(t[0] * 8);
                if (r.nextBoolean()) {
                    off += r.nextInt(10);
                }
                long o = isStruct ? off : 0;
                ms.add("\t" + mname + " type_id=" + mt + " bits_offset=" + o + " bitfield_size=" + bits);
                kflag = true;
                if (isStruct) {
                    off = o + bits;
                }
                size = Math.max(size, o + bits);
                maxAlign = Math.max(maxAlign, t[1]);
                continue;
            }
            int al = packed ? 1 : Math.max(1, t[1]);
            if (r.nextDouble() < 0.2) {
                off += 8L * (1 + r.nextInt(12));
            }
            long o = isStruct ? (off + al * 8L - 1) / (al * 8L) * al * 8L : 0;
            boolean composite = kinds.get(mt - 1).equals("STRUCT") || kinds.get(mt - 1).equals("UNION");
            if (composite && r.nextDouble() < 0.15) {
                mname = "'(anon)'";
            }
            ms.add("\t" + mname + " type_id=" + mt + " bits_offset=" + o);
            if (isStruct) {
                off = o + t[0] * 8L;
            }
            size = Math.max(size, o + t[0] * 8L);
            maxAlign = Math.max(maxAlign, Math.max(1, t[1]));
        }
        int align = packed ? 1 : maxAlign;
        long bytes = (size + 7) / 8;
        bytes = (bytes + align - 1) / align * align;
        if (r.nextDouble() < 0.2) {
            bytes += 1 + r.nextInt(16);
        }
        StringBuilder sb = new StringBuilder("[@] " + (isStruct ? "STRUCT" : "UNION") + " '" + (isNamed ? name() : "(anon)")
                + "' size=" + bytes + " vlen=" + ms.size());
        for (String m : ms) {
            sb.append('\n').append(kflag && !m.contains("bitfield_size") ? m + " bitfield_size=0" : m);
        }
        add(sb.toString(), (int) bytes, align, isStruct ? "STRUCT" : "UNION", isNamed, true);
    }

    private void enumeration(boolean is64) {
        boolean isNamed = r.nextBoolean();
        int values = r.nextInt(4);
        boolean signed = r.nextDouble() < 0.4;
        int size = is64 ? 8 : new int[] {4, 4, 1, 2, 8}[r.nextInt(5)];
        StringBuilder sb = new StringBuilder("[@] " + (is64 ? "ENUM64" : "ENUM") + " '" + (isNamed ? name() : "(anon)")
                + "' encoding=" + (signed ? "SIGNED" : "UNSIGNED") + " size=" + size + " vlen=" + values);
        for (int i = 0; i < values; i++) {
            String v;
            if (!is64) {
                v = signed ? Integer.toString(r.nextInt(11) - 5)
                        : Long.toString(r.nextDouble() < 0.2 ? r.nextLong() & 0xffffffffL : r.nextInt(10));
            } else {
                v = signed ? Long.toString(r.nextLong() >> 23) : Long.toUnsignedString(r.nextBoolean() ? r.nextInt(10) : r.nextLong());
            }
            sb.append("\n\t'").append(new String[] {"A", "B", "X", "E1", "a_t"}[r.nextInt(5)]).append("' val=").append(v);
        }
        add(sb.toString(), size, Math.min(size, 8), is64 ? "ENUM64" : "ENUM", isNamed, true);
    }
}
