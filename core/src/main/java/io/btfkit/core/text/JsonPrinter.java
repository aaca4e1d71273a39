package io.btfkit.core.text;

import io.btfkit.core.Btf;
import io.btfkit.core.Kind;
import io.btfkit.core.StringTable;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Prints BTF as {@code bpftool -j btf dump file F format raw} (bpftool 7.1) does, byte for byte:
 * {@code {"types":[{...},...]}} and a newline, compact, one object per type with the fields of
 * the raw text format in the same order ({@code id}, {@code kind}, {@code name}, then the kind's
 * fields; vlen elements as {@code members}, {@code values}, {@code params} or {@code vars}).
 *
 * <p>Why it matches: bpftool writes every field through its json_writer, so the rules are the
 * writer's. Numbers are decimal; ENUM and ENUM64 values and DECL_TAG's component_idx are
 * signed where the raw text prints them signed. One quirk is kept on purpose: bpftool widens an
 * UNSIGNED ENUM's 32-bit value as a signed int before printing it as unsigned 64-bit, so
 * {@code 0xffffffff} prints as {@code 18446744073709551615}. Strings are written as their raw
 * bytes with only {@code TAB, LF, CR, FF, BS} and {@code "} escaped ({@code \t \n \r \f \b \"}),
 * and a backslash written as {@code \n} (the writer's mapping in bpftool 7.1); other control
 * and non-ASCII bytes pass through unchanged.
 *
 * <pre>
 * {"types":[{"id":1,"kind":"INT","name":"int","size":4,"bits_offset":0,"nr_bits":32,"encoding":"SIGNED"}]}
 * </pre>
 *
 * <p>Pretty output is {@code bpftool -p}'s, byte for byte: its writer puts every name on a line of
 * its own, indented four spaces per open container, and a closing bracket on its own line only
 * when the container has elements; an element that opens an object follows the previous one's
 * comma on the same line, hence bpftool's {@code },{} between types.
 */
public final class JsonPrinter {
    private final Btf btf;
    private final ByteOut out;
    private final boolean pretty;
    /** Open containers (bpftool's json_writer depth). */
    private int depth;
    /** Whether the next element of the current container needs a comma before it. */
    private boolean comma;
    /** A name was just written: the container opened next is its value and takes no comma. */
    private boolean afterKey;

    private JsonPrinter(Btf btf, OutputStream os, boolean pretty) {
        this.btf = btf;
        this.out = new ByteOut(os);
        this.pretty = pretty;
    }

    /** Prints the own types of {@code btf} (for split BTF, only the split part, as bpftool does). */
    public static void print(Btf btf, OutputStream os) {
        print(btf, btf.firstId(), btf.typeCount(), os);
    }

    /** Prints the base types, then the own types. */
    public static void printWithBase(Btf btf, OutputStream os) {
        print(btf, 1, btf.typeCount(), os);
    }

    /** Prints types {@code [from, to)} as one {@code {"types":[...]}} document. */
    public static void print(Btf btf, int from, int to, OutputStream os) {
        print(btf, from, to, os, false);
    }

    /** Prints types {@code [from, to)}, compact ({@code bpftool -j}) or pretty ({@code bpftool -p}). */
    public static void print(Btf btf, int from, int to, OutputStream os, boolean pretty) {
        JsonPrinter p = new JsonPrinter(btf, os, pretty);
        p.open('{');
        p.key("types");
        p.open('[');
        for (int id = from; id < to; id++) {
            p.type(id);
        }
        p.close(']');
        p.close('}');
        p.out.ch('\n');
        p.out.flush();
    }

    /** The JSON of the own types as a string (one char per byte). */
    public static String toJson(Btf btf) {
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        print(btf, bos);
        return bos.toString(StandardCharsets.ISO_8859_1);
    }

    private void type(int id) {
        Btf owner = btf.owner(id);
        int[] w = owner.words();
        int s = owner.starts()[id - owner.firstId()];
        int info = w[s + 1];
        int kind = Kind.kindOf(info);
        int vlen = Kind.vlenOf(info);
        boolean kflag = info < 0;
        open('{');
        key("id").u32(id);
        key("kind");
        quoted(Kind.name(kind));
        key("name");
        name(w[s]);
        switch (kind) {
            case Kind.INT: {
                int enc = w[s + 3];
                key("size").u32(w[s + 2]);
                key("bits_offset").u32((enc >>> 16) & 0xff);
                key("nr_bits").u32(enc & 0xff);
                key("encoding");
                quoted(RawTextPrinter.intEncoding((enc >>> 24) & 0x0f));
                break;
            }
            case Kind.PTR:
            case Kind.CONST:
            case Kind.VOLATILE:
            case Kind.RESTRICT:
            case Kind.TYPEDEF:
            case Kind.TYPE_TAG:
                key("type_id").u32(w[s + 2]);
                break;
            case Kind.ARRAY:
                key("type_id").u32(w[s + 3]);
                key("index_type_id").u32(w[s + 4]);
                key("nr_elems").u32(w[s + 5]);
                break;
            case Kind.STRUCT:
            case Kind.UNION:
                sizeAndVlen(w[s + 2], vlen, "members");
                for (int i = 0, m = s + 3; i < vlen; i++, m += 3) {
                    int off = w[m + 2];
                    int bitSize = kflag ? off >>> 24 : 0;
                    open('{'); // vlen element i
                    key("name");
                    name(w[m]);
                    key("type_id").u32(w[m + 1]);
                    key("bits_offset").u32(kflag ? off & 0xffffff : off);
                    if (bitSize != 0) {
                        key("bitfield_size").u32(bitSize);
                    }
                    close('}');
                }
                close(']');
                break;
            case Kind.ENUM:
                key("encoding");
                quoted(kflag ? "SIGNED" : "UNSIGNED");
                sizeAndVlen(w[s + 2], vlen, "values");
                for (int i = 0, m = s + 3; i < vlen; i++, m += 2) {
                    open('{'); // vlen element i
                    key("name");
                    name(w[m]);
                    key("val");
                    if (kflag) {
                        out.dec(w[m + 1]);
                    } else {
                        out.u64(w[m + 1]); // sign-extended, as bpftool does
                    }
                    close('}');
                }
                close(']');
                break;
            case Kind.ENUM64:
                key("encoding");
                quoted(kflag ? "SIGNED" : "UNSIGNED");
                sizeAndVlen(w[s + 2], vlen, "values");
                for (int i = 0, m = s + 3; i < vlen; i++, m += 3) {
                    long v = ((long) w[m + 2] << 32) | (w[m + 1] & 0xffffffffL);
                    open('{'); // vlen element i
                    key("name");
                    name(w[m]);
                    key("val");
                    if (kflag) {
                        out.dec(v);
                    } else {
                        out.u64(v);
                    }
                    close('}');
                }
                close(']');
                break;
            case Kind.FWD:
                key("fwd_kind");
                quoted(kflag ? "union" : "struct");
                break;
            case Kind.FUNC:
                key("type_id").u32(w[s + 2]);
                key("linkage");
                quoted(RawTextPrinter.funcLinkage(vlen));
                break;
            case Kind.FUNC_PROTO:
                key("ret_type_id").u32(w[s + 2]);
                key("vlen").u32(vlen);
                key("params");
                open('[');
                for (int i = 0, p = s + 3; i < vlen; i++, p += 2) {
                    open('{'); // vlen element i
                    key("name");
                    name(w[p]);
                    key("type_id").u32(w[p + 1]);
                    close('}');
                }
                close(']');
                break;
            case Kind.VAR:
                key("type_id").u32(w[s + 2]);
                key("linkage");
                quoted(RawTextPrinter.varLinkage(w[s + 3]));
                break;
            case Kind.DATASEC:
                sizeAndVlen(w[s + 2], vlen, "vars");
                for (int i = 0, v = s + 3; i < vlen; i++, v += 3) {
                    open('{'); // vlen element i
                    key("type_id").u32(w[v]);
                    key("offset").u32(w[v + 1]);
                    key("size").u32(w[v + 2]);
                    close('}');
                }
                close(']');
                break;
            case Kind.FLOAT:
                key("size").u32(w[s + 2]);
                break;
            case Kind.DECL_TAG:
                key("type_id").u32(w[s + 2]);
                key("component_idx").dec(w[s + 3]);
                break;
            default:
                break;
        }
        close('}');
    }

    private void sizeAndVlen(int size, int vlen, String list) {
        key("size").u32(size);
        key("vlen").u32(vlen);
        key(list);
        open('[');
    }

    /** Opens an object or array: after the comma its previous sibling needs, on the same line. */
    private void open(char c) {
        if (comma && !afterKey) {
            out.ch(',');
        }
        out.ch(c);
        depth++;
        comma = false;
        afterKey = false;
    }

    /** Closes a container; pretty, on a line of its own unless it is empty. */
    private void close(char c) {
        depth--;
        if (comma) {
            newline();
        }
        out.ch(c);
        comma = true;
        afterKey = false;
    }

    /** A member's name, on a line of its own when pretty; its value follows. */
    private ByteOut key(String k) {
        if (comma) {
            out.ch(',');
        }
        newline();
        comma = true; // (the value written next needs none; what follows it does)
        afterKey = true;
        out.ch('"').str(k).ch('"').ch(':');
        return pretty ? out.ch(' ') : out;
    }

    private void newline() {
        if (pretty) {
            out.ch('\n');
            for (int i = 0; i < depth; i++) {
                out.str("    ");
            }
        }
    }

    private void quoted(String ascii) {
        out.ch('"').str(ascii).ch('"');
    }

    /** The name at {@code off} as a JSON string: "(anon)" for 0, "(invalid)" when unresolvable. */
    private void name(int off) {
        if (off == 0) {
            quoted("(anon)");
            return;
        }
        StringTable st = btf.strings();
        if (!st.isValid(off)) {
            quoted("(invalid)");
            return;
        }
        StringTable t = st.tableOf(off);
        byte[] d = t.bytes();
        out.ch('"');
        for (int i = off - t.start(); d[i] != 0; i++) {
            escaped(d[i]);
        }
        out.ch('"');
    }

    private void escaped(byte c) {
        switch (c) {
            case '\t':
                out.ch('\\').ch('t');
                break;
            case '\n':
            case '\\': // bpftool 7.1's json_writer maps a backslash to \n
                out.ch('\\').ch('n');
                break;
            case '\r':
                out.ch('\\').ch('r');
                break;
            case '\f':
                out.ch('\\').ch('f');
                break;
            case '\b':
                out.ch('\\').ch('b');
                break;
            case '"':
                out.ch('\\').ch('"');
                break;
            default:
                out.ch(c);
        }
    }
}
