package io.btfkit.gcc;

import io.btfkit.core.Btf;
import io.btfkit.core.Kind;
import io.btfkit.core.elf.ElfFile;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The DATASECs of one unit rebuilt from its object's ELF tables, as a loader would lay them
 * out: each variable a DATASEC lists goes to the DATASEC of the section its symbol is defined
 * in (gcc 12 sometimes files a variable under the wrong section, e.g. a const table in
 * {@code .data} that the object keeps in {@code .rodata}), at the symbol's offset; each
 * DATASEC's size is its section's size. Variables without storage in the object — extern
 * declarations (undefined symbol) and statics the compiler dropped (no symbol) — are taken out,
 * as are variables of size 0 (an empty struct: no bytes to describe, and the kernel refuses
 * empty entries), and a DATASEC left without variables (a section the object does not have, such as
 * {@code .data..percpu} when the unit only declares per-cpu variables) is removed.
 *
 * <p>Correct because nothing is guessed: the plan is made only when every listed variable has at
 * most one defining symbol, in a section of the object, and every rebuilt DATASEC passes the
 * kernel's rules (entries sorted, inside the section, not overlapping); otherwise {@link #plan}
 * says why not and the unit's DATASECs stay as they are.
 *
 * <pre>
 * [5] DATASEC '.bss' size=0 vlen=2                 [5] DATASEC '.bss' size=16 vlen=2
 *         type_id=3 offset=0 size=8   (ps)    -->          type_id=4 offset=0 size=4
 *         type_id=4 offset=0 size=4   (n)                  type_id=3 offset=8 size=8
 * </pre>
 */
final class DatasecLayout {
    /**
     * What to do with the unit's DATASECs.
     *
     * @param replace  DATASEC id to its new words (ids in the unit's numbering)
     * @param remove   DATASECs left without variables
     * @param add      new DATASECs: section name to words whose name word is still 0
     * @param fixed    DATASECs given a size and offsets (the original ones kept or removed)
     * @param externs  entries taken out because the variable is only declared here
     * @param moved    entries that moved to the DATASEC of another section
     * @param firstExtern the first extern VAR taken out, or -1
     * @param firstMoved  the first VAR moved, or -1
     * @param problem  why there is no plan, or null
     */
    record Plan(Map<Integer, int[]> replace, List<Integer> remove, Map<String, int[]> add, int fixed, int externs,
                int moved, int firstExtern, int firstMoved, String problem) {
        static Plan none(String problem) {
            return new Plan(Map.of(), List.of(), Map.of(), 0, 0, 0, -1, -1, problem);
        }
    }

    private record Entry(int var, long offset, int size) {
    }

    private DatasecLayout() {
    }

    /** The plan for every DATASEC of {@code u} ({@code w}: its current words, same layout). */
    static Plan plan(Btf u, int[] w, ObjectSymbols symbols) {
        Map<Integer, List<Entry>> bySection = new LinkedHashMap<>();
        Map<Integer, Integer> datasecOfSection = new LinkedHashMap<>();
        List<Integer> datasecs = new ArrayList<>();
        int externs = 0;
        int moved = 0;
        int firstExtern = -1;
        int firstMoved = -1;
        for (int id = u.firstId(); id < u.typeCount(); id++) {
            int s = u.startOf(id);
            if (Kind.kindOf(w[s + 1]) != Kind.DATASEC) {
                continue;
            }
            if (w[s + 2] != 0) {
                return Plan.none("DATASEC [" + id + "] already has a size");
            }
            datasecs.add(id);
            String secName = u.strings().latin1(w[s]);
            List<ElfFile.Section> own = symbols.sectionsNamed(secName);
            if (own.size() > 1) {
                return Plan.none("the object has " + own.size() + " sections named " + secName);
            }
            if (own.size() == 1 && datasecOfSection.put(own.get(0).index(), id) != null) {
                return Plan.none("two DATASECs are named " + secName);
            }
            for (int k = 0, e = s + 3; k < Kind.vlenOf(w[s + 1]); k++, e += 3) {
                int var = w[e];
                String name = u.kind(var) == Kind.VAR ? u.strings().latin1(u.nameOff(var)) : null;
                if (name == null) {
                    return Plan.none("entry " + k + " of DATASEC [" + id + "] is not a VAR");
                }
                ObjectSymbols.Symbol sym = null;
                for (ObjectSymbols.Symbol c : symbols.named(name)) {
                    if (!c.isUndefined() && isVariable(c)) {
                        if (sym != null || !c.isInSection()) {
                            return Plan.none("variable " + name + " has no single symbol in a section of the object");
                        }
                        sym = c;
                    }
                }
                if (sym == null) {
                    if (symbols.isOnlyUndefined(name)) {
                        externs++;
                        firstExtern = firstExtern < 0 ? var : firstExtern;
                    }
                    continue;
                }
                if (own.size() != 1 || own.get(0).index() != sym.section()) {
                    moved++;
                    firstMoved = firstMoved < 0 ? var : firstMoved;
                }
                List<Entry> list = bySection.computeIfAbsent(sym.section(), k2 -> new ArrayList<>());
                int size = w[e + 2];
                if (size != 0 && list.stream().noneMatch(x -> x.var == var)) {
                    list.add(new Entry(var, sym.offset(), size));
                }
            }
        }
        Map<Integer, int[]> replace = new LinkedHashMap<>();
        Map<String, int[]> add = new LinkedHashMap<>();
        for (Map.Entry<Integer, List<Entry>> g : bySection.entrySet()) {
            ElfFile.Section sec = symbols.section(g.getKey());
            List<Entry> list = g.getValue();
            list.sort(Comparator.comparingLong(Entry::offset));
            long end = 0;
            for (Entry x : list) {
                if (x.offset < end || x.offset + Integer.toUnsignedLong(x.size) > sec.size() || sec.size() > 0xffffffffL) {
                    return Plan.none("in section " + io.btfkit.core.Printable.name(sec.name()) + ", the variable at offset " + x.offset + " (" + x.size
                            + " bytes) overlaps another or runs past the section's " + sec.size() + " bytes");
                }
                end = x.offset + Integer.toUnsignedLong(x.size);
            }
            Integer target = datasecOfSection.get(g.getKey());
            int[] words = words(target == null ? 0 : w[u.startOf(target)], (int) sec.size(), list);
            if (target != null) {
                replace.put(target, words);
            } else if (add.put(sec.name(), words) != null) {
                return Plan.none("the object has two sections named " + io.btfkit.core.Printable.name(sec.name()));
            }
        }
        List<Integer> remove = new ArrayList<>();
        for (int id : datasecs) {
            if (!replace.containsKey(id)) {
                remove.add(id);
            }
        }
        return new Plan(replace, remove, add, datasecs.size(), externs, moved, firstExtern, firstMoved, null);
    }

    private static boolean isVariable(ObjectSymbols.Symbol s) {
        return s.type() == ObjectSymbols.STT_OBJECT || s.type() == ObjectSymbols.STT_NOTYPE || s.type() == ObjectSymbols.STT_TLS;
    }

    private static int[] words(int nameOff, int size, List<Entry> list) {
        int[] out = new int[3 + 3 * list.size()];
        out[0] = nameOff;
        out[1] = Kind.info(Kind.DATASEC, list.size(), false);
        out[2] = size;
        int p = 3;
        for (Entry x : list) {
            out[p++] = x.var;
            out[p++] = (int) x.offset;
            out[p++] = x.size;
        }
        return out;
    }
}
