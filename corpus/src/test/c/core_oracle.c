/* core_oracle.c - asks libbpf how it resolves a BPF object's CO-RE relocations against a
 * BTF file: opens OBJECT with btf_custom_path = TARGET and loads it with libbpf's debug log
 * on stdout. libbpf computes and logs every relocation ("relo #N: ... patched insn #K ...
 * imm A -> B", "matching candidate", "substituting insn #K w/ invalid insn") before it asks
 * the kernel to load a program, so the log is the oracle even when the load itself fails
 * (no privileges, no such kprobe). Used by CoreOracleTest; not part of btfkit.
 * Build: gcc -O1 -o core_oracle core_oracle.c -lbpf */
#include <stdarg.h>
#include <stdio.h>
#include <bpf/libbpf.h>

static int print_all(enum libbpf_print_level level, const char *fmt, va_list args)
{
	(void)level;
	return vfprintf(stdout, fmt, args);
}

int main(int argc, char **argv)
{
	struct bpf_object *obj;
	int err;

	if (argc != 3) {
		fprintf(stderr, "usage: core_oracle OBJECT TARGET_BTF\n");
		return 2;
	}
	libbpf_set_print(print_all);
	LIBBPF_OPTS(bpf_object_open_opts, opts, .btf_custom_path = argv[2]);
	obj = bpf_object__open_file(argv[1], &opts);
	if (!obj) {
		fprintf(stderr, "core_oracle: cannot open %s\n", argv[1]);
		return 2;
	}
	err = bpf_object__load(obj);
	printf("core_oracle: load %d\n", err);
	bpf_object__close(obj);
	return 0;
}
