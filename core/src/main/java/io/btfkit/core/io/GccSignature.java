package io.btfkit.core.io;

import io.btfkit.core.Btf;
import io.btfkit.core.Kind;

/**
 * The encodings only {@code gcc -gbtf} (gcc 12) writes: a FWD with a non-zero type word, an INT
 * that is SIGNED|CHAR, an anonymous FUNC, an ARRAY whose index type is void. The reader needs the
 * test to keep a gcc blob standalone when a base is given; the normaliser ({@code io.btfkit.gcc})
 * rewrites what it finds.
 */
public final class GccSignature {
    private GccSignature() {
    }

    /** Whether {@code u} shows an encoding only gcc 12 writes. */
    public static boolean isGccEncoded(Btf u) {
        int[] w = u.words();
        int[] st = u.starts();
        for (int i = 0; i + 1 < st.length; i++) {
            int s = st[i];
            int info = w[s + 1];
            switch (Kind.kindOf(info)) {
                case Kind.FWD:
                    if (w[s + 2] != 0) {
                        return true;
                    }
                    break;
                case Kind.INT:
                    if (encoding(w[s + 3]) == (Kind.INT_SIGNED | Kind.INT_CHAR)) {
                        return true;
                    }
                    break;
                case Kind.FUNC:
                    if (w[s] == 0) {
                        return true;
                    }
                    break;
                case Kind.ARRAY:
                    if (w[s + 4] == 0) {
                        return true;
                    }
                    break;
                default:
                    break;
            }
        }
        return false;
    }

    /** The encoding bits of an INT's data word. */
    public static int encoding(int intWord) {
        return (intWord >>> 24) & 0xf;
    }
}
