package io.btfkit.cli;

import io.btfkit.core.Btf;
import java.nio.file.Path;

/**
 * The running kernel's BTF in sysfs, found as libbpf and bpftool find it: {@code
 * /sys/kernel/btf/vmlinux} is the kernel's, and every other file there is a loaded module's
 * split BTF on it — so an input named {@code /sys/kernel/btf/NAME} without {@code --base} is read
 * on {@code /sys/kernel/btf/vmlinux}, as {@code bpftool btf dump file} reads it.
 */
final class KernelBtf {
    private static volatile Path dir = Path.of("/sys/kernel/btf");
    /** The vmlinux read for module inputs, once per run (a batch of modules shares it). */
    private static Path readFrom;
    private static Btf vmlinux;

    private KernelBtf() {
    }

    /** The running kernel's BTF file. */
    static Path vmlinux() {
        return dir.resolve("vmlinux");
    }

    /** Whether {@code file} is a module's BTF in the kernel's BTF directory. */
    static boolean isModule(Path file) {
        if (file == null || Inputs.isStdin(file) || file.getFileName() == null) {
            return false;
        }
        Path abs = file.toAbsolutePath().normalize();
        return dir.equals(abs.getParent()) && !abs.getFileName().toString().equals("vmlinux");
    }

    /** The base a module's sysfs file is read on: the kernel's BTF, read once. */
    static synchronized Btf base() {
        Path v = vmlinux();
        if (!v.equals(readFrom)) {
            vmlinux = Inputs.base(v);
            readFrom = v;
        }
        return vmlinux;
    }

    /** Tests: another directory in place of {@code /sys/kernel/btf}; returns the previous one. */
    static Path useDirectory(Path d) {
        Path old = dir;
        dir = d.toAbsolutePath().normalize();
        return old;
    }
}
