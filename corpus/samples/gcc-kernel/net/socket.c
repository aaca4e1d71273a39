/* socket.c - sockets and their queues. */
#include "../include/net.h"
#include "../include/fs.h"

struct socket {
	short state;
	enum sock_type type;
	unsigned long flags;
	struct file *file;
	struct sock *sk;
	const struct proto_ops *ops;
};

struct proto_ops {
	int family;
	int (*release)(struct socket *sock);
	int (*sendmsg)(struct socket *sock, struct msghdr *m, size_t total_len);
};

static struct sk_buff_head backlog;

static void sock_def_readable(struct sock *sk)
{
	sk->sk_rcvbuf++;
}

void skb_queue_tail(struct sk_buff_head *list, struct sk_buff *newsk)
{
	newsk->next = (struct sk_buff *)list;
	newsk->prev = list->prev;
	list->prev->next = newsk;
	list->prev = newsk;
	list->qlen++;
}

int sock_sendmsg(struct socket *sock, struct msghdr *msg)
{
	sock->sk->sk_data_ready = sock_def_readable;
	skb_queue_tail(&backlog, (struct sk_buff *)msg->payload);
	return sock->ops->sendmsg(sock, msg, msg->len);
}

int sock_close(struct socket *sock)
{
	int r = sock->ops->release(sock);

	return r ?: filp_close(sock->file);
}
