/* net_stats.c - BPF sample with a bpf-to-bpf call (a .text subprogram), decl/type tags,
 * a ring buffer map and CO-RE relocations on a locally defined kernel struct.
 * Build: clang -target bpf -g -O2 -c net_stats.c -o net_stats.bpf.o */
#include "bpf_defs.h"

#define __tag_user __attribute__((btf_decl_tag("user")))
#define __percpu __attribute__((btf_type_tag("percpu")))

struct xdp_md {
	__u32 data;
	__u32 data_end;
	__u32 data_meta;
	__u32 ingress_ifindex;
	__u32 rx_queue_index;
	__u32 egress_ifindex;
};

enum xdp_action {
	XDP_ABORTED = 0,
	XDP_DROP,
	XDP_PASS,
	XDP_TX,
	XDP_REDIRECT,
};

struct net_device {
	int ifindex;
	unsigned int mtu;
	char name[16];
} __attribute__((preserve_access_index));

struct iface_stats {
	__u64 packets;
	__u64 bytes;
	__u32 drops __tag_user;
	__u16 min_len;
	__u16 max_len;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 64);
	__type(key, __u32);
	__type(value, struct iface_stats);
} stats SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} samples SEC(".maps");

struct percpu_counter {
	long count;
	int __percpu *counters;
};

struct percpu_counter *global_counter;
__u32 sample_rate = 64;
static volatile const __u16 min_mtu = 68;

static __attribute__((noinline)) int account(struct iface_stats *s, __u32 len)
{
	s->packets++;
	s->bytes += len;
	if (!s->min_len || len < s->min_len)
		s->min_len = len;
	if (len > s->max_len)
		s->max_len = len;
	return len < min_mtu ? XDP_DROP : XDP_PASS;
}

__attribute__((btf_decl_tag("hot")))
int mtu_of(struct net_device *dev)
{
	if (__builtin_preserve_field_info(dev->mtu, 2 /* FIELD_EXISTS */))
		return dev->mtu;
	return 1500;
}

SEC("xdp")
int count_packets(struct xdp_md *ctx)
{
	__u32 key = ctx->ingress_ifindex & 63;
	__u32 len = ctx->data_end - ctx->data;
	struct iface_stats *s = bpf_map_lookup_elem(&stats, &key);

	if (!s)
		return XDP_ABORTED;
	if ((len & (sample_rate - 1)) == 0)
		s->drops += 0;
	return account(s, len);
}
