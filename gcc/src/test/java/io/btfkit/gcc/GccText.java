package io.btfkit.gcc;

import io.btfkit.core.Btf;
import io.btfkit.core.io.LoadedInput;
import io.btfkit.core.text.RawTextParser;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Hand-made gcc 12 style units in raw text, and the calls the tests make on them. */
final class GccText {
    /**
     * Eight types as gcc 12 starts a unit (ids 1..8), so FWD words of later types are in the
     * range where they mean something (see {@link FwdKinds}).
     */
    static final String PROLOGUE = """
            [1] INT 'long unsigned int' size=8 bits_offset=0 nr_bits=64 encoding=(none)
            [2] INT 'int' size=4 bits_offset=0 nr_bits=32 encoding=SIGNED
            [3] INT 'char' size=1 bits_offset=0 nr_bits=8 encoding=0x3
            [4] PTR '(anon)' type_id=3
            [5] CONST '(anon)' type_id=3
            [6] PTR '(anon)' type_id=5
            [7] INT 'unsigned int' size=4 bits_offset=0 nr_bits=32 encoding=(none)
            [8] INT 'short int' size=2 bits_offset=0 nr_bits=16 encoding=SIGNED
            """;

    private GccText() {
    }

    static Btf parse(String text) {
        return RawTextParser.parse(text, null);
    }

    static LoadedInput input(String name, Btf... units) {
        return new LoadedInput(Path.of(name), LoadedInput.Source.RAW, null, List.of(units), null, null, null);
    }

    /** Normalises the units as one link does. */
    static List<GccNormalizer.FileResult> link(GccNormalizer.Level level, Btf... units) {
        List<LoadedInput> ins = new ArrayList<>();
        for (int i = 0; i < units.length; i++) {
            ins.add(input("u" + i, units[i]));
        }
        return GccNormalizer.normalize(ins, level);
    }

    static GccNormalizer.UnitResult one(GccNormalizer.Level level, String text) {
        return link(level, parse(text)).get(0).units().get(0);
    }

    /** bpftool's raw dump of {@code btf}. */
    static String dump(Btf btf) {
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        io.btfkit.core.text.RawTextPrinter.print(btf, bos);
        return bos.toString(StandardCharsets.ISO_8859_1);
    }
}
