#ifndef __VMLINUX_H__
#define __VMLINUX_H__

#ifndef BPF_NO_PRESERVE_ACCESS_INDEX
#pragma clang attribute push (__attribute__((preserve_access_index)), apply_to = record)
#endif

typedef unsigned int __u32;

typedef unsigned long long __u64;

typedef unsigned short __u16;

struct iface_stats {
	__u64 packets;
	__u64 bytes;
	__u32 drops;
	__u16 min_len;
	__u16 max_len;
};

struct net_device {
	int ifindex;
	unsigned int mtu;
	char name[16];
};

struct xdp_md {
	__u32 data;
	__u32 data_end;
	__u32 data_meta;
	__u32 ingress_ifindex;
	__u32 rx_queue_index;
	__u32 egress_ifindex;
};

struct percpu_counter {
	long count;
	int __attribute__((btf_type_tag("percpu"))) *counters;
};

#ifndef BPF_NO_PRESERVE_ACCESS_INDEX
#pragma clang attribute pop
#endif

#endif /* __VMLINUX_H__ */
