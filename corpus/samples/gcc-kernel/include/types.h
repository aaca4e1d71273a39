/* types.h - the kernel's basic types, as many units include them: fixed-width integers,
 * typedef chains, atomics, lists, a lock and an RCU head with a callback. */
#ifndef KL_TYPES_H
#define KL_TYPES_H

typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;
typedef signed int s32;
typedef long long s64;
typedef _Bool bool;
typedef unsigned long size_t;
typedef long ssize_t;
typedef long long loff_t;
typedef int pid_t;
typedef unsigned int gfp_t;
typedef u32 __le32;

typedef struct {
	int counter;
} atomic_t;

typedef struct {
	s64 counter;
} atomic64_t;

struct list_head {
	struct list_head *next, *prev;
};

struct hlist_node {
	struct hlist_node *next, **pprev;
};

struct hlist_head {
	struct hlist_node *first;
};

struct raw_spinlock {
	volatile unsigned int slock;
};

typedef struct spinlock {
	union {
		struct raw_spinlock rlock;
		struct {
			u8 __padding[4];
			u32 owner_cpu;
		};
	};
} spinlock_t;

struct callback_head {
	struct callback_head *next;
	void (*func)(struct callback_head *head);
} __attribute__((aligned(sizeof(void *))));
#define rcu_head callback_head

struct rb_node {
	unsigned long __rb_parent_color;
	struct rb_node *rb_right;
	struct rb_node *rb_left;
} __attribute__((aligned(sizeof(long))));

/* per-cpu variables live in their own section, as the kernel's DEFINE_PER_CPU puts them */
#define DEFINE_PER_CPU(type, name) __attribute__((section(".data..percpu"))) type name

static inline void INIT_LIST_HEAD(struct list_head *list)
{
	list->next = list;
	list->prev = list;
}

static inline void list_add(struct list_head *new, struct list_head *head)
{
	new->next = head->next;
	new->prev = head;
	head->next->prev = new;
	head->next = new;
}

static inline int atomic_inc_return(atomic_t *v)
{
	return __atomic_add_fetch(&v->counter, 1, __ATOMIC_SEQ_CST);
}

#endif
