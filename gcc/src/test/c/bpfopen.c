// bpfopen: the BTF of a BPF object as libbpf's object open leaves it.
//
//   bpfopen OBJ OUT
//
// Opens OBJ with bpf_object__open_file (which fills in DATASEC sizes and variable offsets from
// the ELF, btf_fixup_datasec) and writes the object's BTF as raw BTF to OUT. Nothing is loaded
// into the kernel. Used by btfkit's tests as the reference for BpfObjectFixup; needs libbpf-dev.
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	const struct btf *btf;
	struct bpf_object *obj;
	const void *raw;
	__u32 size;
	FILE *f;

	if (argc != 3) {
		fprintf(stderr, "usage: bpfopen OBJ OUT\n");
		return 2;
	}
	obj = bpf_object__open_file(argv[1], NULL);
	if (!obj || libbpf_get_error(obj)) {
		fprintf(stderr, "bpfopen: libbpf cannot open %s\n", argv[1]);
		return 1;
	}
	btf = bpf_object__btf(obj);
	raw = btf ? btf__raw_data(btf, &size) : NULL;
	if (!raw) {
		fprintf(stderr, "bpfopen: %s has no BTF\n", argv[1]);
		return 1;
	}
	f = fopen(argv[2], "wb");
	if (!f || fwrite(raw, 1, size, f) != size || fclose(f)) {
		perror(argv[2]);
		return 2;
	}
	bpf_object__close(obj);
	return 0;
}
