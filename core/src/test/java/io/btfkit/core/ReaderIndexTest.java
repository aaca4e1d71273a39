package io.btfkit.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * The reader's type index starts sized for types of eight words and doubles when that is
 * short: sections of three-word types (far more types than the first guess) and of one large
 * type (far fewer) read back exactly.
 */
class ReaderIndexTest {
    @Test
    void manySmallTypesOutgrowTheFirstGuess() {
        BtfBuilder b = new BtfBuilder();
        int prev = b.addInt("int", 4, Kind.INT_SIGNED);
        for (int i = 0; i < 5000; i++) {
            prev = i % 2 == 0 ? b.addPtr(prev) : b.addConst(prev);
        }
        Btf built = b.build();
        Btf read = BtfReader.read(BtfWriter.write(built));
        assertEquals(built.typeCount(), read.typeCount());
        assertArrayEquals(built.starts(), read.starts());
        for (int id = 2; id < read.typeCount(); id++) {
            assertEquals(id - 1, read.words()[read.startOf(id) + 2], "type " + id + " references the one before");
        }
    }

    @Test
    void oneLargeTypeNeedsNoGrowth() {
        BtfBuilder b = new BtfBuilder();
        int i = b.addInt("int", 4, Kind.INT_SIGNED);
        b.addStruct("big", 4 * 3000);
        for (int m = 0; m < 3000; m++) {
            b.addMember("m" + m, i, 32 * m, 0);
        }
        Btf built = b.build();
        Btf read = BtfReader.read(BtfWriter.write(built));
        assertEquals(3, read.typeCount());
        assertArrayEquals(built.starts(), read.starts());
        assertEquals(3000, Kind.vlenOf(read.info(2)));
    }
}
