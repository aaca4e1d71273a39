package io.btfkit.core.text;

import io.btfkit.core.ByteSink;
import java.io.OutputStream;

/** The byte sink of the JSON printer (see {@link ByteSink}). */
final class ByteOut extends ByteSink<ByteOut> {
    ByteOut(OutputStream os) {
        super(os);
    }
}
