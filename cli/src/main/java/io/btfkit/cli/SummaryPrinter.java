package io.btfkit.cli;

import io.btfkit.core.Btf;
import io.btfkit.core.Kind;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * {@code dump --format summary}: one line per type, {@code [id] KIND 'name'} plus its size
 * (or referenced type) and member count, without member lines, so the output greps well.
 */
final class SummaryPrinter {
    private SummaryPrinter() {
    }

    static void print(Btf btf, int from, OutputStream os) throws IOException {
        StringBuilder sb = new StringBuilder(256);
        for (int id = from; id < btf.typeCount(); id++) {
            int kind = btf.kind(id);
            String name = btf.strings().latin1(btf.nameOff(id));
            sb.setLength(0);
            sb.append('[').append(id).append("] ").append(Kind.name(kind)).append(" '")
                    .append(name == null ? "(invalid)" : name.isEmpty() ? "(anon)" : name).append('\'');
            if (Kind.hasSize(kind)) {
                sb.append(" size=").append(Integer.toUnsignedString(btf.sizeOrType(id)));
            } else if (Kind.hasTypeRef(kind) || kind == Kind.ARRAY) {
                sb.append(" type_id=").append(Integer.toUnsignedString(kind == Kind.ARRAY ? btf.extra(id, 0) : btf.sizeOrType(id)));
            }
            if (btf.vlen(id) > 0 && kind != Kind.FUNC) {
                sb.append(" vlen=").append(btf.vlen(id));
            }
            sb.append('\n');
            os.write(sb.toString().getBytes(StandardCharsets.ISO_8859_1));
        }
    }
}
