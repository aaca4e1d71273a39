package io.btfkit.core.text;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfBuilder;
import io.btfkit.core.BtfFormatException;
import io.btfkit.core.Kind;
import it.unimi.dsi.fastutil.ints.IntArrayList;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reads the raw BTF text that {@code bpftool btf dump file F format raw} prints (and the BPF
 * selftests' spelling of it, see {@code FORMAT-RAW-TEXT.md}) back into a {@link Btf}.
 *
 * <p>Why it is exact: each header line gives a type's kind, name and every word of its fixed
 * part, and each member line one vlen element; the parser writes those words in BTF order and
 * adds names to the string section in first-use order (empty string first) through
 * {@link BtfBuilder}, so {@code parse(dump(x))} has the types of {@code x} (same kinds, names and
 * fields) and dumps to the same text. What the text does not show cannot come back: see the
 * notes below.
 *
 * <pre>
 * # a comment
 * [1] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
 * [2] STRUCT 's' size=8 vlen=2
 * 	'a' type_id=1 bits_offset=0
 * 	'b' type_id=1 bits_offset=32 bitfield_size=3
 * </pre>
 *
 * <h2>What is accepted</h2>
 * <ul>
 *   <li>Both spellings: ENUM64 values with or without {@code LL}/{@code ULL} (the suffix, when
 *       given, must match the encoding); VAR linkage {@code static}, {@code global} or
 *       {@code global-alloc} (1), {@code extern} (2); DATASEC entries with or without the
 *       trailing {@code (KIND 'NAME')}, which is ignored.</li>
 *   <li>Comment lines (first non-blank character {@code #}) and blank lines anywhere, also
 *       between member lines; a CR before the newline is ignored.</li>
 *   <li>Names are the bytes between the quote after the kind (or the TAB of a member line) and
 *       the last quote of the line (no field contains a quote), so names may hold spaces and
 *       quotes. {@code '(anon)'} and {@code ''} mean name_off 0 (a real name {@code (anon)}
 *       cannot be told apart, as in bpftool's output). {@code '(invalid)'} is read as that
 *       string.</li>
 *   <li>Standalone text starts at id 1; text read on a base starts at {@code base.typeCount()};
 *       ids are consecutive. A type id may refer forward but must be below the final type
 *       count.</li>
 * </ul>
 *
 * <h2>Kind flag and other things the bpftool format does not show</h2>
 * <ul>
 *   <li>STRUCT/UNION: a member line with {@code bitfield_size=} (even 0) sets kind_flag, and
 *       every member offset word is then {@code bitfield_size << 24 | bits_offset}. A STRUCT
 *       whose original had kind_flag set but no bitfield member prints like one without it;
 *       such text is read with kind_flag 0 (its members' words are the same either way).</li>
 *   <li>ENUM/ENUM64 {@code encoding=SIGNED} and FWD {@code fwd_kind=union} set kind_flag;
 *       FUNC linkage is stored in vlen.</li>
 *   <li>The kind_flag of DECL_TAG/TYPE_TAG (the "attribute" flavour) and of any other kind is
 *       not printed and reads back as 0, unless the extension below is used.</li>
 *   <li>INT {@code encoding=UNKN}, and FUNC/VAR {@code linkage=(unknown)}, do not say which
 *       value the type had: they are errors that point to the numeric extension below.</li>
 *   <li>The vlen of kinds without members, the INT word's bits outside encoding, offset and
 *       size, and the FWD size word are never printed and read back as 0 (the FWD word unless the
 *       extension below gives it).</li>
 * </ul>
 *
 * <h2>Extensions (bpftool never prints these; the printer stays byte-identical)</h2>
 * <ul>
 *   <li>A trailing {@code kind_flag=1} field on any header line sets kind_flag (it must agree
 *       with {@code encoding=} of ENUM/ENUM64 and {@code fwd_kind=} of FWD).</li>
 *   <li>INT {@code encoding=0xN}: the raw 4-bit encoding value.</li>
 *   <li>FUNC and VAR {@code linkage=N}: the raw linkage value in decimal.</li>
 *   <li>FWD {@code type=N} after {@code fwd_kind=}: the raw size/type word (0 when absent; gcc 12
 *       writes other values, see docs/GCC.md).</li>
 * </ul>
 *
 * <p>Every error is a {@link BtfFormatException} whose message starts with {@code "line N: "}.
 * The parser works on the bytes in place (no regex, no String per field).
 */
public final class RawTextParser {
    private static final byte[][] KIND_WORDS = new byte[Kind.MAX_KNOWN + 1][];

    static {
        for (int k = 1; k <= Kind.MAX_KNOWN; k++) {
            KIND_WORDS[k] = Kind.name(k).getBytes(StandardCharsets.US_ASCII);
        }
    }

    /** Codes of the type-id field names, for messages about references past the last type. */
    private static final String[] REF_FIELDS = {"type_id", "index_type_id", "ret_type_id"};

    private final byte[] d;
    private final BtfBuilder b;
    private final TextLine line = new TextLine();
    /** References to ids above the referring type: (line, id, field code) triples. */
    private final IntArrayList forwardRefs = new IntArrayList();

    // the type being read: its words so far and what its member lines must look like
    private int[] w = new int[64];
    private int n;
    private int kind = -1;
    private int id;
    private int headerLine;
    private int vlen;
    private int members;
    private boolean kflag;
    /** STRUCT/UNION: line of the first member whose bits_offset needs more than 24 bits, or 0. */
    private int wideOffsetLine;
    /** The type read last, for messages about stray member lines. */
    private int lastKind = -1;
    private int lastId;
    private int lastLine;
    private int lastVlen;

    private RawTextParser(byte[] d, Btf base) {
        this.d = d;
        this.b = new BtfBuilder(base);
    }

    /**
     * Parses raw text, one char per byte (decode files as ISO-8859-1 so names keep their bytes).
     *
     * @param base the base BTF for split text, or null
     * @throws BtfFormatException naming the line of the first error
     */
    public static Btf parse(String text, Btf base) {
        byte[] bytes = new byte[text.length()];
        int lineNo = 1;
        for (int i = 0; i < bytes.length; i++) {
            char c = text.charAt(i);
            if (c > 0xff) {
                throw TextLine.error(lineNo, String.format("character U+%04X is not a byte; raw text is read one "
                        + "char per byte (decode files as ISO-8859-1)", (int) c));
            }
            if (c == '\n') {
                lineNo++;
            }
            bytes[i] = (byte) c;
        }
        return parse(bytes, base);
    }

    /** Parses raw text given as the bytes of a file. */
    public static Btf parse(byte[] text, Btf base) {
        RawTextParser p = new RawTextParser(text, base);
        p.run();
        return p.b.build();
    }

    /**
     * Whether {@code data} looks like raw BTF text: its first line that is neither blank nor a
     * {@code #} comment starts with {@code [<digits>] }. Cheap: it reads only up to that line.
     */
    public static boolean looksLikeText(byte[] data) {
        int i = 0;
        while (i < data.length) {
            while (i < data.length && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r')) {
                i++;
            }
            if (i == data.length) {
                return false;
            }
            if (data[i] == '\n') {
                i++;
            } else if (data[i] == '#') {
                while (i < data.length && data[i] != '\n') {
                    i++;
                }
            } else {
                if (data[i] != '[') {
                    return false;
                }
                int j = i + 1;
                while (j < data.length && TextLine.isDigit(data[j])) {
                    j++;
                }
                return j > i + 1 && j + 1 < data.length && data[j] == ']' && data[j + 1] == ' ';
            }
        }
        return false;
    }

    private void run() {
        int lineNo = 0;
        int p = 0;
        while (p < d.length) {
            int e = p;
            while (e < d.length && d[e] != '\n') {
                e++;
            }
            lineNo++;
            int stop = e > p && d[e - 1] == '\r' ? e - 1 : e;
            line(p, stop, lineNo);
            p = e + 1;
        }
        if (kind >= 0) {
            throw memberCountError();
        }
        checkForwardRefs();
    }

    private void line(int start, int stop, int lineNo) {
        int i = start;
        while (i < stop && (d[i] == ' ' || d[i] == '\t')) {
            i++;
        }
        if (i == stop || d[i] == '#') {
            return; // blank or comment
        }
        line.reset(d, start, stop, lineNo);
        if (d[start] == '[') {
            if (kind >= 0) {
                throw memberCountError();
            }
            header();
        } else if (d[start] == '\t') {
            member();
        } else {
            throw line.error("expected a type line '[ID] KIND 'NAME' ...' or a member line starting with one TAB, found "
                    + (d[start] == ' ' ? "a space" : line.found(start)));
        }
    }

    // --- header lines ---

    private void header() {
        TextLine t = line;
        t.pos++;
        int s = t.pos;
        long got = 0;
        while (t.pos < t.end && TextLine.isDigit(d[t.pos])) {
            if (got <= TextLine.U32_MAX) {
                got = got * 10 + (d[t.pos] - '0');
            }
            t.pos++;
        }
        if (t.pos == s || t.pos >= t.end || d[t.pos] != ']') {
            throw t.error("expected a type id in decimal after '[', found " + t.found(s));
        }
        int expected = b.nextId();
        if (got != expected && b.typeCount() == 0 && b.base() != null && got > 1 && got <= TextLine.U32_MAX) {
            // split text names its strings, but its ids still say how many types its base had
            throw new io.btfkit.core.BaseMismatchException(b.base(), "line " + t.lineNo + ": its first type is [" + got
                    + "], so its base's last id was [" + (got - 1) + "]; this base's last is [" + (expected - 1) + "]");
        }
        if (got != expected) {
            String why = b.typeCount() > 0 ? "ids must be consecutive"
                    : b.base() == null ? "text without a base starts at [1]; is a base missing?"
                    : "split text starts right after the base, whose last id is " + (expected - 1);
            throw t.error("expected type id [" + expected + "], found [" + t.latin1(s, t.pos) + "] (" + why + ")");
        }
        t.pos++;
        t.expect(" ", "after [" + got + "]");
        int kw = t.wordEnd();
        int k = kindOf(t.pos, kw);
        if (k < 0) {
            String word = t.latin1(t.pos, kw);
            throw t.error("UNKNOWN".equals(word)
                    ? "kind UNKNOWN cannot be read back: the printer writes it for kinds whose layout it does not know"
                    : "unknown kind '" + word + "'");
        }
        t.pos = kw;
        t.context = Kind.name(k);
        if (!t.at(" '")) {
            throw t.error("expected the name in single quotes after the kind " + t.context + ", found " + t.found(t.pos));
        }
        t.pos += 2;
        int nameOff = name();
        t.prev = "the name";
        id = expected;
        headerLine = t.lineNo;
        kind = k;
        vlen = 0;
        members = 0;
        kflag = false;
        wideOffsetLine = 0;
        n = 0;
        push(nameOff);
        push(0); // info, set when the type is complete
        fields(k);
        if (t.optionalField("kind_flag")) {
            if (!t.at("1") || t.pos + 1 != t.wordEnd()) {
                throw t.error("kind_flag=" + t.token(t.pos) + " is not allowed; write kind_flag=1 or leave it out");
            }
            t.pos++;
            if ((k == Kind.ENUM || k == Kind.ENUM64 || k == Kind.FWD) && !kflag) {
                throw t.error("kind_flag=1 contradicts " + (k == Kind.FWD ? "fwd_kind=struct" : "encoding=UNSIGNED"));
            }
            kflag = true;
        }
        t.expectEnd();
        if (vlen == 0 || !hasMemberLines(k)) {
            finish();
        }
    }

    private static boolean hasMemberLines(int k) {
        return Kind.isComposite(k) || Kind.isEnum(k) || k == Kind.FUNC_PROTO || k == Kind.DATASEC;
    }

    private int kindOf(int s, int e) {
        for (int k = 1; k <= Kind.MAX_KNOWN; k++) {
            byte[] kw = KIND_WORDS[k];
            if (kw.length == e - s && Arrays.equals(kw, 0, kw.length, d, s, e)) {
                return k;
            }
        }
        return -1;
    }

    /** The header fields of kind {@code k} after the name: words 2.. of the type. */
    private void fields(int k) {
        TextLine t = line;
        switch (k) {
            case Kind.INT: {
                t.field("size");
                push((int) t.u32());
                t.field("bits_offset");
                int off = (int) t.unsigned(0xff);
                t.field("nr_bits");
                int bits = (int) t.unsigned(0xff);
                t.field("encoding");
                push(line.intEncoding() << 24 | off << 16 | bits);
                break;
            }
            case Kind.PTR:
            case Kind.CONST:
            case Kind.VOLATILE:
            case Kind.RESTRICT:
            case Kind.TYPEDEF:
            case Kind.TYPE_TAG:
                t.field("type_id");
                push(typeId(0));
                break;
            case Kind.ARRAY:
                push(0);
                t.field("type_id");
                push(typeId(0));
                t.field("index_type_id");
                push(typeId(1));
                t.field("nr_elems");
                push((int) t.u32());
                break;
            case Kind.STRUCT:
            case Kind.UNION:
            case Kind.DATASEC:
                t.field("size");
                push((int) t.u32());
                vlenField();
                break;
            case Kind.ENUM:
            case Kind.ENUM64:
                t.field("encoding");
                kflag = line.enumSigned();
                t.field("size");
                push((int) t.u32());
                vlenField();
                break;
            case Kind.FWD: {
                t.field("fwd_kind");
                int e = t.wordEnd();
                if (t.wordIs(e, "union")) {
                    kflag = true;
                } else if (!t.wordIs(e, "struct")) {
                    throw t.error("expected fwd_kind=struct or fwd_kind=union, found " + t.found(t.pos));
                }
                t.pos = e;
                push(t.optionalField("type") ? (int) t.u32() : 0);
                break;
            }
            case Kind.FUNC:
                t.field("type_id");
                push(typeId(0));
                t.field("linkage");
                vlen = line.linkage(false);
                break;
            case Kind.FUNC_PROTO:
                t.field("ret_type_id");
                push(typeId(2));
                vlenField();
                break;
            case Kind.VAR:
                t.field("type_id");
                push(typeId(0));
                t.expect(", linkage=", "after type_id of VAR (the comma is part of the format)");
                t.prev = "linkage";
                push(line.linkage(true));
                break;
            case Kind.FLOAT:
                t.field("size");
                push((int) t.u32());
                break;
            case Kind.DECL_TAG:
                t.field("type_id");
                push(typeId(0));
                t.field("component_idx");
                push(t.s32());
                break;
            default:
                throw new IllegalStateException("kind " + k);
        }
    }

    private void vlenField() {
        line.field("vlen");
        vlen = (int) line.unsigned(0xffffff);
    }

    /** A type id field; ids above the current type are checked once all types are known. */
    private int typeId(int field) {
        long v = line.u32();
        if (v > id) {
            forwardRefs.add(line.lineNo);
            forwardRefs.add((int) v);
            forwardRefs.add(field);
        }
        return (int) v;
    }

    /** The quoted name at the cursor (its opening quote consumed): its string offset. */
    private int name() {
        TextLine t = line;
        int s = t.pos;
        int q = t.end - 1;
        while (q >= s && d[q] != '\'') {
            q--;
        }
        if (q < s) {
            throw t.error("expected a closing ' after the name of " + t.context + ", found end of line");
        }
        t.pos = q + 1;
        int len = q - s;
        if (len == 0 || (len == 6 && t.at(s, "(anon)"))) {
            return 0;
        }
        for (int i = s; i < q; i++) {
            if (d[i] == 0) {
                throw t.error("a name of " + t.context + " contains a NUL byte (at column " + (i - t.start + 1)
                        + "); BTF strings end at NUL");
            }
        }
        return b.addString(Arrays.copyOfRange(d, s, q));
    }

    // --- member lines ---

    private void member() {
        TextLine t = line;
        if (kind < 0) {
            if (lastKind < 0) {
                throw t.error("member line before any type line");
            }
            throw t.error(hasMemberLines(lastKind)
                    ? "member line beyond vlen=" + lastVlen + " of [" + lastId + "] "
                            + Kind.name(lastKind) + " at line " + lastLine
                    : "member line after [" + lastId + "] " + Kind.name(lastKind) + " at line " + lastLine
                            + ", which has no members");
        }
        t.pos++;
        switch (kind) {
            case Kind.STRUCT:
            case Kind.UNION:
                structMember(t);
                break;
            case Kind.ENUM:
            case Kind.ENUM64:
                t.context = Kind.name(kind) + " value";
                openMemberName(t);
                t.field("val");
                if (kind == Kind.ENUM) {
                    push(kflag ? t.s32() : (int) t.u32());
                } else {
                    long v = t.s64OrU64(kflag);
                    push((int) v);
                    push((int) (v >>> 32));
                }
                break;
            case Kind.FUNC_PROTO:
                t.context = "FUNC_PROTO parameter";
                openMemberName(t);
                t.field("type_id");
                push(typeId(0));
                break;
            case Kind.DATASEC:
                t.context = "DATASEC entry";
                t.firstField("type_id");
                push(typeId(0));
                t.field("offset");
                push((int) t.u32());
                t.field("size");
                push((int) t.u32());
                if (t.pos < t.end) {
                    // bpftool's " (KIND 'NAME')" of the variable: ignored
                    if (!t.at(" (") || d[t.end - 1] != ')') {
                        t.expectEnd();
                    }
                    t.pos = t.end;
                }
                break;
            default:
                throw new IllegalStateException("kind " + kind);
        }
        t.expectEnd();
        if (++members == vlen) {
            finish();
        }
    }

    private void structMember(TextLine t) {
        t.context = Kind.name(kind) + " member";
        openMemberName(t);
        t.field("type_id");
        push(typeId(0));
        t.field("bits_offset");
        long off = t.u32();
        if (t.optionalField("bitfield_size")) {
            long size = t.unsigned(0xff);
            if (off > 0xffffff) {
                throw t.error("bits_offset=" + off + " does not fit in the 24 bits a member with bitfield_size has");
            }
            kflag = true;
            off |= size << 24;
        } else if (off > 0xffffff && wideOffsetLine == 0) {
            wideOffsetLine = t.lineNo;
        }
        push((int) off);
    }

    private void openMemberName(TextLine t) {
        if (!t.at("'")) {
            throw t.error("expected a name in single quotes at the start of a " + t.context + ", found " + t.found(t.pos));
        }
        t.pos++;
        push(name());
        t.prev = "the name";
    }

    private BtfFormatException memberCountError() {
        return TextLine.error(headerLine, "[" + id + "] " + Kind.name(kind) + " has vlen=" + vlen + " but "
                + (members == 0 ? "no member line follows" : members == 1 ? "only 1 member line follows"
                        : "only " + members + " member lines follow"));
    }

    /** Completes the type being read: its info word, then appends it. */
    private void finish() {
        if (kflag && wideOffsetLine != 0) {
            throw TextLine.error(wideOffsetLine, "bits_offset does not fit in 24 bits, but [" + id + "] "
                    + Kind.name(kind) + " has kind_flag (a bitfield_size or kind_flag=1), which keeps offsets in 24 bits");
        }
        w[1] = Kind.info(kind, vlen, kflag);
        b.addRaw(w, 0, n);
        lastKind = kind;
        lastId = id;
        lastLine = headerLine;
        lastVlen = vlen;
        kind = -1;
    }

    private void push(int word) {
        if (n == w.length) {
            w = Arrays.copyOf(w, n * 2);
        }
        w[n++] = word;
    }

    private void checkForwardRefs() {
        int count = b.nextId();
        for (int i = 0; i < forwardRefs.size(); i += 3) {
            int ref = forwardRefs.getInt(i + 1);
            if (Integer.compareUnsigned(ref, count) >= 0) {
                throw TextLine.error(forwardRefs.getInt(i), REF_FIELDS[forwardRefs.getInt(i + 2)] + "="
                        + Integer.toUnsignedString(ref) + " refers to no type (the last id is " + (count - 1) + ")");
            }
        }
    }
}
