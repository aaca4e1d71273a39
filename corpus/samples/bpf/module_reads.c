/* module_reads.c - BPF sample whose CO-RE relocations use a kernel module's types: those of
 * mlx4_core (split BTF on vmlinux, ../shared/golden/modules/mlx4_core.btf), and vmlinux types
 * reached from them (a module struct's member points to struct pci_dev) or used directly.
 * The target of its relocations is a split pair (vmlinux + module BTF), the input of
 * `btfkit minimize MODULE --base VMLINUX`.
 * Build: clang -target bpf -g -O2 -c module_reads.c -o module_reads.bpf.o */
#include "bpf_defs.h"

#pragma clang attribute push (__attribute__((preserve_access_index)), apply_to = record)
/* vmlinux */
struct pci_dev {
	unsigned int devfn;
	unsigned short vendor;
	unsigned int pme_support : 5;
};

struct task_struct {
	int pid;
};

/* mlx4_core */
struct mlx4_dev_persistent {
	struct pci_dev *pdev;
	int num_vfs;
	unsigned char state;
};

struct mlx4_caps {
	int num_ports;
	__u64 flags;
};

struct mlx4_dev {
	struct mlx4_dev_persistent *persist;
	unsigned long flags;
	struct mlx4_caps caps;
};

struct mlx4_priv {
	struct mlx4_dev dev;
	int removed;
};

/* a newer module's view: a member mlx4_core 6.1 does not have */
struct mlx4_dev___new {
	int no_such_member;
};
#pragma clang attribute pop

enum mlx4_port_type {
	MLX4_PORT_TYPE_ETH = 2,
};

#define FIELD(expr, kind) __builtin_preserve_field_info(expr, kind)

__u64 out[16];
char LICENSE[] SEC("license") = "GPL";

SEC("kprobe/mlx4_load_one")
int mlx4_probe(struct mlx4_priv *priv)
{
	struct mlx4_dev *dev = &priv->dev;
	struct mlx4_dev_persistent *persist;
	struct pci_dev *pdev;
	struct task_struct *t = bpf_get_current_task();

	BPF_CORE_READ_INTO(&persist, dev, persist);            /* module struct, module member */
	BPF_CORE_READ_INTO(&pdev, persist, pdev);              /* module member of vmlinux type */
	BPF_CORE_READ_INTO(&out[0], pdev, devfn);              /* vmlinux struct from a module's pointer */
	out[1] = FIELD(dev->caps.num_ports, 0);                /* nested module struct */
	out[2] = FIELD(pdev->pme_support, 4);                  /* vmlinux bitfield */
	out[3] = FIELD(pdev->pme_support, 5);
	out[4] = FIELD(priv->removed, 0);
	out[5] = FIELD(((struct mlx4_dev___new *)dev)->no_such_member, 2);   /* exists: no */
	out[6] = __builtin_preserve_type_info(*(struct mlx4_priv *)0, 1);    /* type_size */
	out[7] = __builtin_preserve_type_info(*(struct mlx4_dev *)0, 0);     /* type_exists */
	out[8] = __builtin_preserve_enum_value(*(enum mlx4_port_type *)MLX4_PORT_TYPE_ETH, 1);
	out[9] = __builtin_btf_type_id(*(struct mlx4_dev_persistent *)0, 1); /* target id */
	BPF_CORE_READ_INTO(&out[10], t, pid);                  /* vmlinux only */
	return 0;
}
