package io.btfkit.core.io;

import io.btfkit.core.BtfFormatException;
import java.util.Locale;

/**
 * The cap on the bytes one input may occupy once read: a file, and what a compressed file or a
 * kernel image payload decompresses to. It bounds the memory a hostile input can demand (a
 * whole kernel's BTF is ~6 MB, a vmlinux ELF with DWARF a few hundred MB) and is checked while
 * reading and decompressing, never after. Default {@value #DEFAULT} bytes (1 GiB); set with the
 * system property {@value #PROPERTY} or the environment variable {@value #ENV} (a byte count
 * with an optional K, M or G suffix), at most {@value #HARD_MAX} (a Java array's limit).
 */
public final class InputLimits {
    public static final String PROPERTY = "btfkit.maxInput";
    public static final String ENV = "BTFKIT_MAX_INPUT";
    public static final long DEFAULT = 1L << 30;
    public static final long HARD_MAX = Integer.MAX_VALUE - 8;

    private InputLimits() {
    }

    /** The cap in force: the system property, else the environment variable, else the default. */
    public static long maxBytes() {
        String p = System.getProperty(PROPERTY);
        if (p != null) {
            return parse(p, "-D" + PROPERTY);
        }
        String e = System.getenv(ENV);
        return e == null || e.isBlank() ? DEFAULT : parse(e, ENV);
    }

    /** The largest cap spelled in MiB ({@code 2047M}): what messages recommend, as 2G is past the array limit. */
    static final String LARGEST = (HARD_MAX >> 20) + "M";

    /** How to raise the cap, for messages. */
    static String howToRaise() {
        return "raise the cap with " + ENV + "=SIZE (at most " + LARGEST + ")";
    }

    static long parse(String text, String where) {
        String t = text.trim().toUpperCase(Locale.ROOT);
        long unit = 1;
        if (t.endsWith("K") || t.endsWith("M") || t.endsWith("G")) {
            unit = t.endsWith("K") ? 1L << 10 : t.endsWith("M") ? 1L << 20 : 1L << 30;
            t = t.substring(0, t.length() - 1);
        }
        long n;
        try {
            n = Long.parseLong(t);
        } catch (NumberFormatException ex) {
            throw new BtfFormatException(where + "=" + text + " is not a size (a byte count, or with K, M or G)");
        }
        if (n <= 0 || n > HARD_MAX / unit) {
            throw new BtfFormatException(where + "=" + text + " is out of range (1 to " + HARD_MAX + " bytes, i.e. at most "
                    + LARGEST + ": one input is held in one Java array)");
        }
        return n * unit;
    }

    /** {@code bytes} in MiB when it is a whole number of them, for messages. */
    static String size(long bytes) {
        return bytes % (1L << 20) == 0 ? (bytes >> 20) + " MiB" : bytes + " bytes";
    }
}
