package io.btfkit.minimize;

import io.btfkit.core.Btf;
import io.btfkit.core.ext.BtfExt;
import io.btfkit.core.ext.BtfExtInfo;
import java.util.ArrayList;
import java.util.List;

/**
 * One CO-RE relocation record of a BPF object, parsed on the object's own BTF: where it is
 * (ELF section, record number within it as libbpf numbers "relo #N", instruction offset),
 * its kind, and its local spec — or why the record cannot be parsed. Parsed once, resolved
 * against any number of targets by {@link CoreRelocator}.
 *
 * @param rawKind the kind number of the record (kept when it is unknown: {@code kind} is then null)
 * @param spec    the local spec, or null when {@code error} says why there is none
 */
public record LocalRelo(String section, int index, int insnOff, int rawKind, ReloKind kind, int typeId, String access,
                        CoreSpec spec, String error) {

    /** Instruction index (insn_off / 8), as libbpf's log numbers instructions. */
    public int insnIndex() {
        return insnOff / 8;
    }

    /**
     * Every core_relo record of {@code ext}, section by section in file order.
     *
     * @throws io.btfkit.core.BtfFormatException when a record names a type or string {@code local} does not have
     */
    public static List<LocalRelo> parseAll(Btf local, BtfExt ext) {
        ext.checkAgainst(local);
        BtfExtInfo info = ext.coreRelo();
        List<LocalRelo> out = new ArrayList<>(info.recordCount());
        for (int s = 0; s < info.sectionCount(); s++) {
            String section = local.string(info.sectionNameOff(s));
            for (int r = 0; r < info.recordCount(s); r++) {
                BtfExtInfo.CoreRelo rec = info.coreRelo(info.sectionStart(s) + r);
                out.add(parse(local, section, r, rec.insnOff(), rec.typeId(), local.string(rec.accessStrOff()), rec.kind()));
            }
        }
        return out;
    }

    /** One relocation of {@code local}'s type {@code typeId} with access string {@code access}. */
    public static LocalRelo parse(Btf local, String section, int index, int insnOff, int typeId, String access, int rawKind) {
        ReloKind kind = ReloKind.of(rawKind);
        if (kind == null) {
            return new LocalRelo(section, index, insnOff, rawKind, null, typeId, access, null,
                    "unknown relocation kind " + Integer.toUnsignedString(rawKind));
        }
        if (typeId <= 0 || !local.isValidId(typeId)) {
            return new LocalRelo(section, index, insnOff, rawKind, kind, typeId, access, null,
                    "type id " + Integer.toUnsignedString(typeId) + " is not a type");
        }
        try {
            CoreSpec spec = SpecParser.parse(local, typeId, access, kind);
            return new LocalRelo(section, index, insnOff, rawKind, kind, typeId, access, spec, null);
        } catch (ReloFailure e) {
            return new LocalRelo(section, index, insnOff, rawKind, kind, typeId, access, null,
                    "parsing [" + typeId + "] " + TypeOps.describe(local, typeId) + " + " + access + " failed: " + e.getMessage());
        }
    }

    /** The local spec as C with its path, or the local type and access string when it did not parse. */
    public String describeLocal(Btf local) {
        if (spec != null) {
            return spec.describe();
        }
        return (typeId > 0 && local.isValidId(typeId) ? TypeOps.describe(local, typeId) : "[" + Integer.toUnsignedString(typeId) + "]")
                + " (" + access + ")";
    }
}
