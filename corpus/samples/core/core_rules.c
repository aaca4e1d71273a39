/* core_rules.c - BPF sample for the two CO-RE rules libbpf applies beyond matching one
 * relocation at a time, to be resolved against core_rules.kernel.txt (docs/CORE-RELO.md):
 * - one candidate list per local type for the whole object: reading s.x matches both kernel
 *   flavours s___1 {x} and s___2 {x, y}, and the list keeps both, so s.y then finds s___2;
 * - a load of a field whose size changed: t.a (int) is a short in the kernel, a signed field,
 *   so libbpf poisons the load; t.b (unsigned int) is an unsigned long there, so the load
 *   is widened to 8 bytes.
 * Build: clang -target bpf -g -O2 -c core_rules.c -o core_rules.bpf.o */
#include "../bpf/bpf_defs.h"

struct s {
	int x;
	int y;
};

struct t {
	int a;
	unsigned int b;
} __attribute__((preserve_access_index));

__u64 out[4];
char LICENSE[] SEC("license") = "GPL";

SEC("kprobe/do_exit")
int flavours(void *ctx)
{
	struct s *p = ctx;
	int v;

	BPF_CORE_READ_INTO(&v, p, x);
	out[0] = v;
	BPF_CORE_READ_INTO(&v, p, y);
	out[1] = v;
	return 0;
}

SEC("kprobe/do_fork")
int resized(struct t *p)
{
	out[2] = p->a;
	out[3] = p->b;
	return 0;
}
