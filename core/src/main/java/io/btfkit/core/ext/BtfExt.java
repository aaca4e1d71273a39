package io.btfkit.core.ext;

import io.btfkit.core.Btf;
import io.btfkit.core.BtfFormatException;
import io.btfkit.core.OperationException;
import java.nio.ByteOrder;
import java.util.Objects;
import java.util.function.IntConsumer;
import java.util.function.IntUnaryOperator;

/**
 * The {@code .BTF.ext} section of a BPF object: per ELF section, function records (func_info),
 * source line records (line_info) and CO-RE relocation records (core_relo), each referring into
 * the object's {@code .BTF} by type id or string offset (see {@link ExtField}).
 *
 * <p>Immutable. Keeps what the encoding needs to come out byte-identical: byte order, header
 * length (24 without core_relo, 32 or more with it) and each subsection's record size.
 * {@link #remap} is what deduplication uses so a rewritten object's {@code .BTF.ext} still refers
 * to the right types and strings.
 */
public final class BtfExt {
    private final ByteOrder order;
    private final int headerLength;
    private final BtfExtInfo funcInfo;
    private final BtfExtInfo lineInfo;
    private final BtfExtInfo coreRelo;

    /**
     * @param headerLength 24, or at least 32 (needed when core_relo is present)
     */
    public BtfExt(ByteOrder order, int headerLength, BtfExtInfo funcInfo, BtfExtInfo lineInfo, BtfExtInfo coreRelo) {
        this.order = Objects.requireNonNull(order);
        this.funcInfo = expect(funcInfo, BtfExtInfo.Kind.FUNC_INFO);
        this.lineInfo = expect(lineInfo, BtfExtInfo.Kind.LINE_INFO);
        this.coreRelo = expect(coreRelo, BtfExtInfo.Kind.CORE_RELO);
        if (headerLength != BtfExtHeader.BASE_LENGTH && headerLength < BtfExtHeader.CORE_RELO_LENGTH) {
            throw new IllegalArgumentException(".BTF.ext header length " + headerLength);
        }
        if (headerLength < BtfExtHeader.CORE_RELO_LENGTH && coreRelo.isPresent()) {
            throw new IllegalArgumentException("core_relo needs the 32-byte .BTF.ext header");
        }
        this.headerLength = headerLength;
    }

    /** Little-endian, with the shortest header that can hold these subsections. */
    public static BtfExt of(BtfExtInfo funcInfo, BtfExtInfo lineInfo, BtfExtInfo coreRelo) {
        return new BtfExt(ByteOrder.LITTLE_ENDIAN, coreRelo.isPresent() ? BtfExtHeader.CORE_RELO_LENGTH
                : BtfExtHeader.BASE_LENGTH, funcInfo, lineInfo, coreRelo);
    }

    private static BtfExtInfo expect(BtfExtInfo info, BtfExtInfo.Kind kind) {
        if (info.kind() != kind) {
            throw new IllegalArgumentException("expected " + kind.label() + ", got " + info.kind().label());
        }
        return info;
    }

    public ByteOrder order() {
        return order;
    }

    public int headerLength() {
        return headerLength;
    }

    public BtfExtInfo funcInfo() {
        return funcInfo;
    }

    public BtfExtInfo lineInfo() {
        return lineInfo;
    }

    public BtfExtInfo coreRelo() {
        return coreRelo;
    }

    public BtfExtInfo info(BtfExtInfo.Kind kind) {
        switch (kind) {
            case FUNC_INFO:
                return funcInfo;
            case LINE_INFO:
                return lineInfo;
            default:
                return coreRelo;
        }
    }

    /**
     * A copy in which every type id (func_info and core_relo {@code type_id}) goes through
     * {@code typeIds} and every string offset ({@code sec_name_off}, line_info
     * {@code file_name_off} and {@code line_off}, core_relo {@code access_str_off}) through
     * {@code strings}. Nothing else changes: same sizes, same order, same extra record bytes.
     */
    public BtfExt remap(IntUnaryOperator typeIds, IntUnaryOperator strings) {
        return new BtfExt(order, headerLength, funcInfo.remap(typeIds, strings), lineInfo.remap(typeIds, strings),
                coreRelo.remap(typeIds, strings));
    }

    /**
     * Checks that every reference names something of {@code btf}: each type id (func_info and
     * core_relo {@code type_id}) a type, each string offset a string. A pass that remaps the
     * records (dedup, permute) calls this first: an id past the end would index past its maps,
     * or — negative as an int — pass through unmapped into an output that points nowhere.
     *
     * @throws BtfFormatException naming the first reference that does not resolve, e.g.
     *         {@code .BTF.ext func_info record 3 (section 'tp/x'): type id 9999 past the last type 51}
     */
    public void checkAgainst(Btf btf) {
        int count = btf.typeCount();
        forEachReference((kind, field, section, record, value) -> {
            boolean ok = field.isTypeId() ? Integer.compareUnsigned(value, count) < 0 : btf.strings().isValid(value);
            if (ok) {
                return;
            }
            BtfExtInfo info = info(kind);
            int secName = info.sectionNameOff(section);
            String sec = btf.strings().isValid(secName) ? "section '" + btf.strings().forMessage(secName, java.nio.charset.StandardCharsets.ISO_8859_1) + "'"
                    : "section block " + section;
            String where = ".BTF.ext " + kind.label() + (record < 0 ? " " + sec + " name" : " record " + record + " (" + sec + ")");
            throw new BtfFormatException(where + ": " + (field.isTypeId()
                    ? "type id " + Integer.toUnsignedString(value) + " past the last type " + (count - 1)
                    : field.fieldName() + " " + Integer.toUnsignedString(value) + " is not a string of the .BTF string section ("
                    + btf.strings().end() + " bytes)"));
        });
    }

    /** Every reference with its place, subsection by subsection, in file order. */
    public void forEachReference(ExtField.Visitor v) {
        funcInfo.forEachReference(v);
        lineInfo.forEachReference(v);
        coreRelo.forEachReference(v);
    }

    /** Every type id referenced (func_info, then core_relo), in file order, with repeats. */
    public void forEachTypeId(IntConsumer out) {
        forEachReference((kind, field, section, record, value) -> {
            if (field.isTypeId()) {
                out.accept(value);
            }
        });
    }

    /** Every string offset referenced (section names and record fields), in file order, with repeats. */
    public void forEachStringOffset(IntConsumer out) {
        forEachReference((kind, field, section, record, value) -> {
            if (!field.isTypeId()) {
                out.accept(value);
            }
        });
    }

    /**
     * The same records in another byte order. Refused when a record size exceeds the struct btfkit
     * knows: the layout of the extra bytes is unknown, so they cannot be byte-swapped safely.
     */
    public BtfExt withOrder(ByteOrder newOrder) {
        if (newOrder.equals(order)) {
            return this;
        }
        for (BtfExtInfo.Kind k : BtfExtInfo.Kind.values()) {
            BtfExtInfo info = info(k);
            if (info.isPresent() && info.recordSize() != k.minRecordSize()) {
                throw new OperationException(".BTF.ext " + k.label() + " records are " + info.recordSize()
                        + " bytes, longer than the known " + k.minRecordSize() + ": cannot convert their byte order");
            }
        }
        return new BtfExt(newOrder, headerLength, funcInfo, lineInfo, coreRelo);
    }

    /** The same records with another header length (24 is refused when core_relo is present). */
    public BtfExt withHeaderLength(int newLength) {
        return new BtfExt(order, newLength, funcInfo, lineInfo, coreRelo);
    }

    @Override
    public String toString() {
        return ".BTF.ext (" + (order == ByteOrder.LITTLE_ENDIAN ? "LE" : "BE") + ", header " + headerLength + "): "
                + funcInfo.recordCount() + " func_info, " + lineInfo.recordCount() + " line_info, "
                + coreRelo.recordCount() + " core_relo";
    }
}
