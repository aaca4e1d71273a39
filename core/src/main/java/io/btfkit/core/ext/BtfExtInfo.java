package io.btfkit.core.ext;

import java.util.Arrays;
import java.util.Objects;
import java.util.function.IntUnaryOperator;

/**
 * One subsection of {@code .BTF.ext} (func_info, line_info or core_relo): a record size, then
 * per ELF section a block {@code sec_name_off, num_info, records...}.
 *
 * <p>Columnar: all records are one {@code int[]} of words in file order, {@link #recordWords()}
 * words each; per block its name offset and first record index. Record sizes are taken from the
 * data and may exceed the struct btfkit knows (newer producers may append fields): the extra
 * words are kept as they are and written back unchanged. Immutable.
 */
public final class BtfExtInfo {
    /** The three subsections, with the size of the record each one needs at least. */
    public enum Kind {
        FUNC_INFO("func_info", 8),
        LINE_INFO("line_info", 16),
        CORE_RELO("core_relo", 16);

        private final String label;
        private final int minRecordSize;

        Kind(String label, int minRecordSize) {
            this.label = label;
            this.minRecordSize = minRecordSize;
        }

        public String label() {
            return label;
        }

        /** Size of the record struct btfkit knows ({@code bpf_func_info}, {@code bpf_line_info}, {@code bpf_core_relo}). */
        public int minRecordSize() {
            return minRecordSize;
        }
    }

    /** A func_info record: the function starting at {@code insnOff} (bytes) has FUNC type {@code typeId}. */
    public record FuncInfo(int insnOff, int typeId) {
    }

    /** A line_info record; {@code lineCol} packs the line (upper 22 bits) and column (lower 10 bits). */
    public record LineInfo(int insnOff, int fileNameOff, int lineOff, int lineCol) {
        public int line() {
            return lineCol >>> 10;
        }

        public int column() {
            return lineCol & 0x3ff;
        }
    }

    /** A CO-RE relocation record: the access {@code accessStrOff} ("0:1:2") on {@code typeId}, of kind {@code kind}. */
    public record CoreRelo(int insnOff, int typeId, int accessStrOff, int kind) {
    }

    private final Kind kind;
    private final int recordSize;
    private final int[] secNameOffs;
    private final int[] secStarts;
    private final int[] words;

    BtfExtInfo(Kind kind, int recordSize, int[] secNameOffs, int[] secStarts, int[] words) {
        this.kind = Objects.requireNonNull(kind);
        this.recordSize = recordSize;
        this.secNameOffs = secNameOffs;
        this.secStarts = secStarts;
        this.words = words;
    }

    /** A subsection that is not there (length 0 in the header). */
    public static BtfExtInfo absent(Kind kind) {
        return new BtfExtInfo(kind, 0, new int[0], new int[] {0}, new int[0]);
    }

    public Kind kind() {
        return kind;
    }

    /** Whether the subsection is in the file (its header length is not 0). */
    public boolean isPresent() {
        return recordSize != 0;
    }

    /** Record size in bytes, as stored (0 when absent). */
    public int recordSize() {
        return recordSize;
    }

    /** Words per record. */
    public int recordWords() {
        return recordSize / 4;
    }

    /** Number of per-section blocks. */
    public int sectionCount() {
        return secNameOffs.length;
    }

    /** String offset (in the .BTF string section) of block {@code s}'s ELF section name. */
    public int sectionNameOff(int s) {
        return secNameOffs[s];
    }

    /** Index of block {@code s}'s first record among all records of this subsection. */
    public int sectionStart(int s) {
        return secStarts[s];
    }

    /** Number of records in block {@code s}. */
    public int recordCount(int s) {
        return secStarts[s + 1] - secStarts[s];
    }

    /** Number of records in all blocks. */
    public int recordCount() {
        return secStarts[secStarts.length - 1];
    }

    /** Word {@code w} of record {@code r} (a global record index). */
    public int word(int r, int w) {
        Objects.checkIndex(w, recordWords());
        return words[r * recordWords() + w];
    }

    /** Instruction offset (bytes into the ELF section) of record {@code r}. */
    public int insnOff(int r) {
        return word(r, 0);
    }

    public FuncInfo funcInfo(int r) {
        expect(Kind.FUNC_INFO);
        return new FuncInfo(word(r, 0), word(r, 1));
    }

    public LineInfo lineInfo(int r) {
        expect(Kind.LINE_INFO);
        return new LineInfo(word(r, 0), word(r, 1), word(r, 2), word(r, 3));
    }

    public CoreRelo coreRelo(int r) {
        expect(Kind.CORE_RELO);
        return new CoreRelo(word(r, 0), word(r, 1), word(r, 2), word(r, 3));
    }

    /** Bytes this subsection takes when written: record size word, then each block (0 when absent). */
    public long encodedLength() {
        if (!isPresent()) {
            return 0;
        }
        return 4 + 8L * sectionCount() + (long) recordCount() * recordSize;
    }

    /** A copy with every type id and string offset this subsection holds passed through the functions. */
    public BtfExtInfo remap(IntUnaryOperator typeIds, IntUnaryOperator strings) {
        int[] names = secNameOffs.clone();
        for (int s = 0; s < names.length; s++) {
            names[s] = strings.applyAsInt(names[s]);
        }
        int[] w = words.clone();
        int rw = recordWords();
        for (ExtField f : ExtField.values()) {
            if (f.kind() != kind) {
                continue;
            }
            IntUnaryOperator op = f.isTypeId() ? typeIds : strings;
            for (int p = f.word(); p < w.length; p += rw) {
                w[p] = op.applyAsInt(w[p]);
            }
        }
        return new BtfExtInfo(kind, recordSize, names, secStarts, w);
    }

    /** Calls {@code v} for every section name, type id and string offset, in file order. */
    public void forEachReference(ExtField.Visitor v) {
        int rw = recordWords();
        for (int s = 0; s < secNameOffs.length; s++) {
            v.visit(kind, ExtField.SEC_NAME, s, -1, secNameOffs[s]);
            for (int r = secStarts[s]; r < secStarts[s + 1]; r++) {
                for (ExtField f : ExtField.values()) {
                    if (f.kind() == kind) {
                        v.visit(kind, f, s, r - secStarts[s], words[r * rw + f.word()]);
                    }
                }
            }
        }
    }

    /** Words of all records (read-only; for the writer). */
    int[] words() {
        return words;
    }

    private void expect(Kind k) {
        if (kind != k) {
            throw new IllegalStateException("this is " + kind.label() + ", not " + k.label());
        }
    }

    /** Builds a subsection block by block (tests, tools that assemble .BTF.ext). */
    public static final class Builder {
        private final Kind kind;
        private final int recordSize;
        private int[] names = new int[4];
        private int[] starts = new int[5];
        private int sections;
        private int[] words = new int[64];
        private int used;

        /** @param recordSize bytes per record: at least the kind's minimum, a multiple of 4 */
        public Builder(Kind kind, int recordSize) {
            if (recordSize < kind.minRecordSize() || recordSize % 4 != 0) {
                throw new IllegalArgumentException(kind.label() + " record size " + recordSize);
            }
            this.kind = kind;
            this.recordSize = recordSize;
        }

        public Builder(Kind kind) {
            this(kind, kind.minRecordSize());
        }

        /** Starts the block of the ELF section named by string offset {@code nameOff}. */
        public Builder section(int nameOff) {
            if (sections == names.length) {
                names = Arrays.copyOf(names, sections * 2);
                starts = Arrays.copyOf(starts, sections * 2 + 1);
            }
            names[sections] = nameOff;
            starts[sections] = used / (recordSize / 4);
            sections++;
            starts[sections] = starts[sections - 1];
            return this;
        }

        /** Adds a record to the current block: exactly {@code recordSize / 4} words. */
        public Builder record(int... recordWords) {
            if (sections == 0) {
                throw new IllegalStateException("record before the first section");
            }
            if (recordWords.length != recordSize / 4) {
                throw new IllegalArgumentException("a " + kind.label() + " record here has " + recordSize / 4 + " words");
            }
            if (used + recordWords.length > words.length) {
                words = Arrays.copyOf(words, Math.max(words.length * 2, used + recordWords.length));
            }
            System.arraycopy(recordWords, 0, words, used, recordWords.length);
            used += recordWords.length;
            starts[sections] = used / (recordSize / 4);
            return this;
        }

        /**
         * The subsection; absent when no block was started. Every block must hold a record
         * (libbpf and the kernel reject empty blocks).
         */
        public BtfExtInfo build() {
            if (sections == 0) {
                return absent(kind);
            }
            for (int s = 0; s < sections; s++) {
                if (starts[s + 1] == starts[s]) {
                    throw new IllegalStateException(kind.label() + " block " + s + " has no records");
                }
            }
            return new BtfExtInfo(kind, recordSize, Arrays.copyOf(names, sections), Arrays.copyOf(starts, sections + 1),
                    Arrays.copyOf(words, used));
        }
    }
}
