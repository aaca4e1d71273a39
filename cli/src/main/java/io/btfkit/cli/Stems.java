package io.btfkit.cli;

import java.nio.file.Path;

/** Output names in batch mode: the input's file name without .xz/.zst/.gz, then .tar, then .btf/.o/.ko. */
final class Stems {
    private Stems() {
    }

    static String stem(Path input) {
        String n = input.getFileName().toString();
        for (String ext : new String[] {".xz", ".zst", ".gz"}) {
            if (n.endsWith(ext) && n.length() > ext.length()) {
                n = n.substring(0, n.length() - ext.length());
                break;
            }
        }
        if (n.endsWith(".tar") && n.length() > 4) {
            n = n.substring(0, n.length() - 4); // BTFHub's KERNEL.btf.tar.xz
        }
        for (String ext : new String[] {".btf", ".o", ".ko"}) {
            if (n.endsWith(ext) && n.length() > ext.length()) {
                return n.substring(0, n.length() - ext.length());
            }
        }
        return n;
    }

    /** The name without compression suffix (for ELF outputs, which keep their extension). */
    static String uncompressedName(Path input) {
        String n = input.getFileName().toString();
        for (String ext : new String[] {".xz", ".zst", ".gz"}) {
            if (n.endsWith(ext) && n.length() > ext.length()) {
                return n.substring(0, n.length() - ext.length());
            }
        }
        return n;
    }
}
