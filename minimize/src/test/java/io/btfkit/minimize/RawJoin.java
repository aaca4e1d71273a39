package io.btfkit.minimize;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Joins a raw base BTF and a raw split BTF on it into one standalone raw BTF: the base's types
 * then the split's, the base's strings then the split's. Split ids continue the base's and split
 * string offsets continue the base's string section, so the split's words stay valid as they
 * are. Classic 24-byte little-endian headers only (what minimize writes).
 */
public final class RawJoin {
    private RawJoin() {
    }

    public static byte[] join(byte[] base, byte[] split) {
        ByteBuffer b = ByteBuffer.wrap(base).order(ByteOrder.LITTLE_ENDIAN);
        ByteBuffer s = ByteBuffer.wrap(split).order(ByteOrder.LITTLE_ENDIAN);
        int bt = b.getInt(12);
        int bs = b.getInt(20);
        int st = s.getInt(12);
        int ss = s.getInt(20);
        ByteBuffer out = ByteBuffer.allocate(24 + bt + st + bs + ss).order(ByteOrder.LITTLE_ENDIAN);
        out.putShort((short) 0xeb9f).put((byte) 1).put((byte) 0).putInt(24);
        out.putInt(0).putInt(bt + st).putInt(bt + st).putInt(bs + ss);
        out.put(base, 24 + b.getInt(8), bt).put(split, 24 + s.getInt(8), st);
        out.put(base, 24 + b.getInt(16), bs).put(split, 24 + s.getInt(16), ss);
        return out.array();
    }
}
