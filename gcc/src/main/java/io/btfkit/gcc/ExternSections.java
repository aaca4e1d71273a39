package io.btfkit.gcc;

import io.btfkit.core.Btf;
import io.btfkit.core.Kind;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The extern sections of a BPF object as libbpf's object open lays them out
 * ({@code bpf_object__collect_externs}), before it loads the BTF: clang lists a program's
 * {@code extern ... __kconfig} variables in DATASEC {@code .kconfig} and its {@code __ksym}
 * variables and kernel functions in DATASEC {@code .ksyms}, all with linkage {@code extern} at
 * offset 0 in a section of size 0, which the kernel refuses.
 * <ul>
 * <li>{@code .kconfig}: each extern variable gets an offset in the map libbpf fills from the
 * kernel's configuration — ordered by alignment (largest first), then size, then name, each at
 * the next multiple of its alignment — and linkage {@code global}; the DATASEC's size is the
 * end of the last. Only bool, char, integers of 1, 2, 4 or 8 bytes, char arrays and
 * {@code enum libbpf_tristate} can be configuration values.
 * <li>{@code .ksyms}: each entry becomes a 4-byte slot at 4 × its index: a variable becomes an
 * allocated global {@code int} (the first 32-bit INT; libbpf resolves the symbol itself), a
 * function's entry becomes a variable {@code dummy_ksym} (appended once, when there is a
 * function) and the FUNC itself global, its unnamed parameters named {@code dummy_ksym}.
 * </ul>
 * The externs are the object's undefined global symbols without a type, each found as the VAR
 * or FUNC of its name. Where libbpf refuses to open the object (an extern without BTF or in
 * another section, a function under {@code .kconfig}, a weak function under {@code .ksyms}, a
 * configuration value of another type) {@link #layOut} says why and changes nothing.
 */
final class ExternSections {
    private static final String KCONFIG = ".kconfig";
    private static final String KSYMS = ".ksyms";
    private static final String DUMMY = "dummy_ksym";

    private ExternSections() {
    }

    private record Kconfig(int var, String name, long size, long align) {
    }

    /**
     * Lays out the extern DATASECs of {@code u} in {@code r}; returns how many were laid out
     * (word arrays of new DATASECs go to {@code r}), or throws {@link Refused}.
     */
    static int layOut(Btf u, UnitRewriter r, ObjectSymbols syms) {
        int kconfig = datasec(u, KCONFIG);
        int ksyms = datasec(u, KSYMS);
        if (kconfig < 0 && ksyms < 0) {
            return 0;
        }
        Map<Integer, Integer> sectionOf = new HashMap<>();
        for (int sec : new int[] {kconfig, ksyms}) {
            for (int k = 0; sec >= 0 && k < u.vlen(sec); k++) {
                sectionOf.putIfAbsent(entry(u, sec, k, 0), sec);
            }
        }
        List<Kconfig> values = new ArrayList<>();
        java.util.Set<String> externNames = new java.util.HashSet<>();
        for (ObjectSymbols.Symbol s : syms.externs()) {
            externNames.add(s.name());
            int id = externType(u, s.name());
            Integer sec = id < 0 ? null : sectionOf.get(id);
            if (id < 0 || sec == null) {
                throw new Refused("extern '" + s.name() + "' has no " + (id < 0 ? "extern VAR or FUNC" : "DATASEC .kconfig or .ksyms"));
            }
            boolean func = u.kind(id) == Kind.FUNC;
            if (sec == kconfig) {
                if (func) {
                    throw new Refused("extern function '" + s.name() + "' under .kconfig");
                }
                long[] sizeAlign = kconfigValue(u, u.sizeOrType(id));
                if (sizeAlign == null) {
                    throw new Refused("extern '" + s.name() + "' under .kconfig is of a type no configuration value has");
                }
                values.add(new Kconfig(id, s.name(), sizeAlign[0], sizeAlign[1]));
            } else if (func && s.bind() == ObjectSymbols.STB_WEAK) {
                throw new Refused("extern weak function '" + s.name() + "' under .ksyms");
            }
        }
        int done = 0;
        if (kconfig >= 0) {
            values.sort(Comparator.comparingLong((Kconfig v) -> -v.align).thenComparingLong(v -> v.size)
                    .thenComparing(v -> v.name));
            Map<Integer, Long> offset = new HashMap<>();
            long end = 0;
            for (Kconfig v : values) {
                long at = (end + v.align - 1) / v.align * v.align;
                offset.put(v.var, at);
                end = at + v.size;
            }
            int n = u.vlen(kconfig);
            long[][] entries = new long[n][];
            for (int k = 0; k < n; k++) {
                int var = entry(u, kconfig, k, 0);
                if (!offset.containsKey(var)) {
                    throw new Refused("entry " + k + " of .kconfig, '" + u.name(var) + "', is no extern of the object");
                }
                r.setWord(var, 3, Kind.LINKAGE_GLOBAL);
                entries[k] = new long[] {var, offset.get(var), entry(u, kconfig, k, 2) & 0xffffffffL};
            }
            r.replace(kconfig, words(u, kconfig, end, entries));
            done++;
        }
        if (ksyms >= 0) {
            int n = u.vlen(ksyms);
            int intType = firstInt32(u);
            int dummy = -1;
            int dummyName = -1;
            long[][] entries = new long[n][];
            for (int k = 0; k < n; k++) {
                int t = entry(u, ksyms, k, 0);
                if (t < u.firstId() || t >= u.typeCount() || u.kind(t) != Kind.VAR && u.kind(t) != Kind.FUNC
                        || !externNames.contains(u.name(t))) {
                    throw new Refused("entry " + k + " of .ksyms, '" + u.name(t) + "', is no extern of the object");
                }
                if (u.kind(t) == Kind.FUNC) {
                    if (dummy < 0) {
                        dummyName = r.string(DUMMY);
                        dummy = r.append(new int[] {dummyName, Kind.info(Kind.VAR, 0, false), intType, Kind.LINKAGE_GLOBAL});
                    }
                    nameParameters(u, r, u.sizeOrType(t), dummyName);
                    r.setWord(t, 1, Kind.info(Kind.FUNC, Kind.LINKAGE_GLOBAL, false));
                    entries[k] = new long[] {dummy, 4L * k, 4};
                } else {
                    r.setWord(t, 2, intType);
                    r.setWord(t, 3, Kind.LINKAGE_GLOBAL);
                    entries[k] = new long[] {t, 4L * k, 4};
                }
            }
            r.replace(ksyms, words(u, ksyms, 4L * n, entries));
            done++;
        }
        return done;
    }

    /** Why libbpf would refuse to open the object. */
    static final class Refused extends RuntimeException {
        Refused(String why) {
            super(why, null, false, false);
        }
    }

    private static int datasec(Btf u, String name) {
        for (int id = u.firstId(); id < u.typeCount(); id++) {
            if (u.kind(id) == Kind.DATASEC && name.equals(u.name(id))) {
                return id;
            }
        }
        return -1;
    }

    /** Word {@code w} (0 type, 1 offset, 2 size) of entry {@code k} of DATASEC {@code sec}. */
    private static int entry(Btf u, int sec, int k, int w) {
        return u.extra(sec, 3 * k + w);
    }

    /** libbpf's {@code find_extern_btf_id}: the first VAR or FUNC of the name, which must be extern; -1 if none. */
    private static int externType(Btf u, String name) {
        for (int id = u.firstId(); id < u.typeCount(); id++) {
            int kind = u.kind(id);
            if ((kind == Kind.VAR || kind == Kind.FUNC) && name.equals(u.name(id))) {
                boolean extern = kind == Kind.VAR ? u.extra(id, 0) == Kind.LINKAGE_EXTERN : u.vlen(id) == Kind.LINKAGE_EXTERN;
                return extern ? id : -1;
            }
        }
        return -1;
    }

    /** Size and alignment of a configuration value of type {@code id}, or null when no configuration value has it. */
    private static long[] kconfigValue(Btf u, int id) {
        int t = skipModifiers(u, id);
        if (t <= 0) {
            return null;
        }
        int kind = u.kind(t);
        long size = u.sizeOrType(t) & 0xffffffffL;
        if (kind == Kind.INT) {
            boolean bool = (u.extra(t, 0) >>> 24 & Kind.INT_BOOL) != 0;
            boolean ok = bool ? size == 1 : size == 1 || size == 2 || size == 4 || size == 8;
            return ok ? new long[] {size, size} : null;
        }
        if (kind == Kind.ENUM) {
            return size == 4 && "libbpf_tristate".equals(u.name(t)) ? new long[] {4, 4} : null;
        }
        if (kind == Kind.ARRAY) {
            int elem = skipModifiers(u, u.extra(t, 0));
            long n = u.extra(t, 2) & 0xffffffffL;
            boolean chars = elem > 0 && u.kind(elem) == Kind.INT && u.sizeOrType(elem) == 1
                    && (u.extra(elem, 0) >>> 24 & Kind.INT_BOOL) == 0;
            return n > 0 && chars ? new long[] {n, 1} : null;
        }
        return null;
    }

    private static int skipModifiers(Btf u, int id) {
        for (int hops = 0; id > 0 && id < u.typeCount() && hops < 64; hops++) {
            int kind = u.kind(id);
            if (kind != Kind.TYPEDEF && kind != Kind.CONST && kind != Kind.VOLATILE && kind != Kind.RESTRICT
                    && kind != Kind.TYPE_TAG) {
                return id;
            }
            id = u.sizeOrType(id);
        }
        return -1;
    }

    /** libbpf's {@code find_int_btf_id}: the first INT of 32 bits, or 0. */
    private static int firstInt32(Btf u) {
        for (int id = 1; id < u.typeCount(); id++) {
            if (u.kind(id) == Kind.INT && (u.extra(id, 0) & 0xff) == 32) {
                return id;
            }
        }
        return 0;
    }

    /** A kernel function's unnamed parameters (not a trailing vararg) get {@code dummy_ksym}'s name. */
    private static void nameParameters(Btf u, UnitRewriter r, int proto, int name) {
        if (proto < u.firstId() || proto >= u.typeCount() || u.kind(proto) != Kind.FUNC_PROTO) {
            return;
        }
        for (int k = 0; k < u.vlen(proto); k++) {
            if (u.extra(proto, 2 * k) == 0 && u.extra(proto, 2 * k + 1) != 0) {
                r.setWord(proto, 3 + 2 * k, name);
            }
        }
    }

    private static int[] words(Btf u, int sec, long size, long[][] entries) {
        java.util.Arrays.sort(entries, Comparator.comparingLong(e -> e[1]));
        int[] w = new int[3 + 3 * entries.length];
        w[0] = u.nameOff(sec);
        w[1] = u.info(sec);
        w[2] = (int) size;
        for (int k = 0; k < entries.length; k++) {
            w[3 + 3 * k] = (int) entries[k][0];
            w[4 + 3 * k] = (int) entries[k][1];
            w[5 + 3 * k] = (int) entries[k][2];
        }
        return w;
    }
}
