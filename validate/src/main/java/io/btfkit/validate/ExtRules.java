package io.btfkit.validate;

import io.btfkit.core.Btf;
import io.btfkit.core.Kind;
import io.btfkit.core.ext.BtfExt;
import io.btfkit.core.ext.BtfExtInfo;

/**
 * The {@code .BTF.ext} record rules (libbpf's and the kernel's {@code check_btf_func},
 * {@code check_btf_line}, CO-RE relocation checks) against the object's {@code .BTF}: every
 * string offset names a string, func_info records name FUNCs in increasing instruction order,
 * line_info offsets do not go back, CO-RE relocations name existing types. Findings are about
 * the whole BTF (type id -1) and say which subsection, section and record.
 */
final class ExtRules {
    private ExtRules() {
    }

    static void check(Btf btf, BtfExt ext, Findings out) {
        for (BtfExtInfo.Kind k : BtfExtInfo.Kind.values()) {
            BtfExtInfo info = ext.info(k);
            if (info.isPresent()) {
                check(btf, k, info, out);
            }
        }
    }

    private static void check(Btf btf, BtfExtInfo.Kind k, BtfExtInfo info, Findings out) {
        for (int s = 0; s < info.sectionCount() && !out.done(); s++) {
            int secName = info.sectionNameOff(s);
            String sec = btf.strings().isValid(secName) ? btf.strings().forMessage(secName) : "#" + s;
            if (!btf.strings().isValid(secName)) {
                out.add(-1, Rule.EXT_STRING, k.label() + " section " + s + ": name offset "
                        + Integer.toUnsignedString(secName) + " is not a string");
            }
            long prev = -1;
            for (int r = info.sectionStart(s), i = 0; r < info.sectionStart(s) + info.recordCount(s); r++, i++) {
                String where = k.label() + " section '" + sec + "' record " + i;
                long insn = info.word(r, 0) & 0xffffffffL;
                switch (k) {
                    case FUNC_INFO: {
                        int t = info.word(r, 1);
                        if (!btf.isValidId(t) || btf.kind(t) != Kind.FUNC) {
                            out.add(-1, Rule.EXT_FUNC_TYPE, where + ": type " + Integer.toUnsignedString(t)
                                    + (btf.isValidId(t) ? " is a " + Kind.name(btf.kind(t)) : " does not exist"));
                        }
                        if (insn <= prev) {
                            out.add(-1, Rule.EXT_INSN_ORDER, where + ": insn_off " + insn + " after " + prev);
                        }
                        break;
                    }
                    case LINE_INFO:
                        for (int w = 1; w <= 2; w++) {
                            int off = info.word(r, w);
                            if (!btf.strings().isValid(off)) {
                                out.add(-1, Rule.EXT_STRING, where + ": " + (w == 1 ? "file name" : "source line")
                                        + " offset " + Integer.toUnsignedString(off) + " is not a string");
                            }
                        }
                        if (insn < prev) {
                            out.add(-1, Rule.EXT_INSN_ORDER, where + ": insn_off " + insn + " before " + prev);
                        }
                        break;
                    default: {
                        int t = info.word(r, 1);
                        if (!btf.isValidId(t)) {
                            out.add(-1, Rule.EXT_CORE_TYPE, where + ": type " + Integer.toUnsignedString(t)
                                    + " does not exist");
                        }
                        int access = info.word(r, 2);
                        if (!btf.strings().isValid(access)) {
                            out.add(-1, Rule.EXT_STRING, where + ": access string offset "
                                    + Integer.toUnsignedString(access) + " is not a string");
                        }
                    }
                }
                prev = insn;
            }
        }
    }
}
