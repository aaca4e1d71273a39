package io.btfkit.core.text;

import io.btfkit.core.Btf;
import io.btfkit.core.ByteSink;
import io.btfkit.core.Kind;
import java.io.OutputStream;

/**
 * Prints BTF as {@code bpftool btf dump file F format raw} does, byte for byte (see
 * {@code FORMAT-RAW-TEXT.md}): one header line per type, TAB-indented member lines, a newline
 * after every line. Names are written as their raw bytes.
 *
 * <pre>
 * [7] STRUCT 's1' size=8 vlen=2
 * 	'f1' type_id=1 bits_offset=0
 * 	'f2' type_id=1 bits_offset=32 bitfield_size=16
 * </pre>
 */
public final class RawTextPrinter {
    private final Btf btf;
    private final TextOut out;

    private RawTextPrinter(Btf btf, OutputStream os) {
        this.btf = btf;
        this.out = new TextOut(os);
    }

    /** Prints the own types of {@code btf} (for split BTF, only the split part). */
    public static void print(Btf btf, OutputStream os) {
        print(btf, btf.firstId(), btf.typeCount(), os);
    }

    /** Prints the base types, then the own types. */
    public static void printWithBase(Btf btf, OutputStream os) {
        print(btf, 1, btf.typeCount(), os);
    }

    /** Prints types {@code [from, to)}. */
    public static void print(Btf btf, int from, int to, OutputStream os) {
        RawTextPrinter p = new RawTextPrinter(btf, os);
        for (int id = from; id < to; id++) {
            p.type(id);
        }
        p.out.flush();
    }

    /** The text of types {@code [from, to)} as a string (one char per byte). */
    public static String toText(Btf btf, int from, int to) {
        java.io.ByteArrayOutputStream bos = new java.io.ByteArrayOutputStream();
        print(btf, from, to, bos);
        return bos.toString(java.nio.charset.StandardCharsets.ISO_8859_1);
    }

    public static String toText(Btf btf) {
        return toText(btf, btf.firstId(), btf.typeCount());
    }

    private void type(int id) {
        Btf owner = btf.owner(id);
        int[] w = owner.words();
        int s = owner.starts()[id - owner.firstId()];
        int info = w[s + 1];
        int kind = Kind.kindOf(info);
        int vlen = Kind.vlenOf(info);
        boolean kflag = info < 0;
        out.ch('[').u32(id).str("] ").str(Kind.name(kind)).str(" '").name(w[s]).ch('\'');
        switch (kind) {
            case Kind.INT: {
                int enc = w[s + 3];
                out.str(" size=").u32(w[s + 2]).str(" bits_offset=").u32((enc >>> 16) & 0xff)
                        .str(" nr_bits=").u32(enc & 0xff).str(" encoding=").str(intEncoding((enc >>> 24) & 0x0f));
                break;
            }
            case Kind.PTR:
            case Kind.CONST:
            case Kind.VOLATILE:
            case Kind.RESTRICT:
            case Kind.TYPEDEF:
            case Kind.TYPE_TAG:
                out.str(" type_id=").u32(w[s + 2]);
                break;
            case Kind.ARRAY:
                out.str(" type_id=").u32(w[s + 3]).str(" index_type_id=").u32(w[s + 4]).str(" nr_elems=").u32(w[s + 5]);
                break;
            case Kind.STRUCT:
            case Kind.UNION:
                out.str(" size=").u32(w[s + 2]).str(" vlen=").u32(vlen);
                for (int i = 0, m = s + 3; i < vlen; i++, m += 3) {
                    int off = w[m + 2];
                    int bitOff = kflag ? off & 0xffffff : off;
                    int bitSize = kflag ? off >>> 24 : 0;
                    out.str("\n\t'").name(w[m]).str("' type_id=").u32(w[m + 1]).str(" bits_offset=").u32(bitOff);
                    if (bitSize != 0) {
                        out.str(" bitfield_size=").u32(bitSize);
                    }
                }
                break;
            case Kind.ENUM:
                out.str(" encoding=").str(kflag ? "SIGNED" : "UNSIGNED").str(" size=").u32(w[s + 2]).str(" vlen=").u32(vlen);
                for (int i = 0, m = s + 3; i < vlen; i++, m += 2) {
                    out.str("\n\t'").name(w[m]).str("' val=");
                    if (kflag) {
                        out.dec(w[m + 1]);
                    } else {
                        out.u32(w[m + 1]);
                    }
                }
                break;
            case Kind.ENUM64:
                out.str(" encoding=").str(kflag ? "SIGNED" : "UNSIGNED").str(" size=").u32(w[s + 2]).str(" vlen=").u32(vlen);
                for (int i = 0, m = s + 3; i < vlen; i++, m += 3) {
                    long v = ((long) w[m + 2] << 32) | (w[m + 1] & 0xffffffffL);
                    out.str("\n\t'").name(w[m]).str("' val=");
                    if (kflag) {
                        out.dec(v).str("LL");
                    } else {
                        out.str(Long.toUnsignedString(v)).str("ULL");
                    }
                }
                break;
            case Kind.FWD:
                out.str(" fwd_kind=").str(kflag ? "union" : "struct");
                break;
            case Kind.FUNC:
                out.str(" type_id=").u32(w[s + 2]).str(" linkage=").str(funcLinkage(vlen));
                break;
            case Kind.FUNC_PROTO:
                out.str(" ret_type_id=").u32(w[s + 2]).str(" vlen=").u32(vlen);
                for (int i = 0, p = s + 3; i < vlen; i++, p += 2) {
                    out.str("\n\t'").name(w[p]).str("' type_id=").u32(w[p + 1]);
                }
                break;
            case Kind.VAR:
                out.str(" type_id=").u32(w[s + 2]).str(", linkage=").str(varLinkage(w[s + 3]));
                break;
            case Kind.DATASEC:
                out.str(" size=").u32(w[s + 2]).str(" vlen=").u32(vlen);
                for (int i = 0, v = s + 3; i < vlen; i++, v += 3) {
                    int t = w[v];
                    out.str("\n\ttype_id=").u32(t).str(" offset=").u32(w[v + 1]).str(" size=").u32(w[v + 2]);
                    if (Integer.compareUnsigned(t, btf.typeCount()) < 0) {
                        out.str(" (").str(Kind.name(btf.kind(t))).str(" '").name(btf.nameOff(t)).str("')");
                    }
                }
                break;
            case Kind.FLOAT:
                out.str(" size=").u32(w[s + 2]);
                break;
            case Kind.DECL_TAG:
                out.str(" type_id=").u32(w[s + 2]).str(" component_idx=").dec(w[s + 3]);
                break;
            default:
                break;
        }
        out.ch('\n');
    }

    static String intEncoding(int enc) {
        switch (enc) {
            case 0:
                return "(none)";
            case Kind.INT_SIGNED:
                return "SIGNED";
            case Kind.INT_CHAR:
                return "CHAR";
            case Kind.INT_BOOL:
                return "BOOL";
            default:
                return "UNKN";
        }
    }

    static String funcLinkage(int l) {
        switch (l) {
            case Kind.LINKAGE_STATIC:
                return "static";
            case Kind.LINKAGE_GLOBAL:
                return "global";
            case Kind.LINKAGE_EXTERN:
                return "extern";
            default:
                return "(unknown)";
        }
    }

    static String varLinkage(int l) {
        return funcLinkage(l);
    }

    /** The raw-text byte sink: {@link ByteSink} plus bpftool's rendering of names. */
    private final class TextOut extends ByteSink<TextOut> {
        TextOut(OutputStream os) {
            super(os);
        }

        /** The name at {@code off} as bpftool writes it: raw bytes, "(anon)" for 0, "(invalid)". */
        TextOut name(int off) {
            if (off == 0) {
                return str("(anon)");
            }
            if (!btf.strings().isValid(off)) {
                return str("(invalid)");
            }
            return bytesAt(btf.strings(), off);
        }
    }
}
