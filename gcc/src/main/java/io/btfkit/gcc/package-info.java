/**
 * gcc 12's {@code -gbtf} encodings ({@link io.btfkit.gcc.GccQuirk}) read for what they mean:
 * {@link io.btfkit.gcc.GccNormalizer} rewrites, unit by unit, what has one meaning (by default
 * in {@code link}) and, with {@code --fix}, what the kernel would refuse (SIGNED|CHAR, anonymous
 * FUNCs, DATASECs rebuilt from the ELF symbol table). libbpf has no counterpart: it reads gcc's
 * BTF as written, and pahole never sees it. {@link io.btfkit.gcc.BpfObjectFixup} is the same
 * kind of repair for clang's BPF objects, matching libbpf's object open ({@code btf_fixup_datasec}):
 * DATASEC sizes and variable offsets from the ELF tables. Rules: docs/GCC.md.
 */
package io.btfkit.gcc;
