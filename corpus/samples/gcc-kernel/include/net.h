/* net.h - sockets: the sk_buff's anonymous union of an anonymous struct, bitfields, a
 * zero-length marker array and a flexible array; a negative enum value. */
#ifndef KL_NET_H
#define KL_NET_H
#include "types.h"

struct net_device;
struct sock;

enum sock_type {
	SOCK_STREAM = 1,
	SOCK_DGRAM = 2,
	SOCK_RAW = 3,
	SOCK_INVALID = -1,
};

struct sk_buff {
	union {
		struct {
			struct sk_buff *next;
			struct sk_buff *prev;
			struct net_device *dev;
		};
		struct rb_node rbnode;
	};
	struct sock *sk;
	unsigned int len, data_len;
	u16 mac_len, hdr_len;
	u8 __pkt_type_offset[0];
	u8 pkt_type:3;
	u8 ignore_df:1;
	u8 nf_trace:1;
	u8 ip_summed:2;
	u8 ooo_okay:1;
	__le32 hash;
	unsigned char *head, *data;
};

struct sk_buff_head {
	struct sk_buff *next;
	struct sk_buff *prev;
	u32 qlen;
	spinlock_t lock;
};

struct sock {
	enum sock_type sk_type;
	int sk_rcvbuf;
	struct sk_buff_head sk_receive_queue;
	atomic_t sk_refcnt;
	void (*sk_data_ready)(struct sock *sk);
};

struct msghdr {
	void *msg_name;
	int msg_namelen;
	unsigned int msg_flags;
	size_t len;
	u8 payload[];
};

#endif
