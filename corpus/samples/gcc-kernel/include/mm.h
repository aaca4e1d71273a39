/* mm.h - the memory map, defined for the units that include it; `struct vm_area_struct`
 * points back to its mm_struct (a cycle broken by structs, as in C). */
#ifndef KL_MM_H
#define KL_MM_H
#include "types.h"

enum zone_type {
	ZONE_DMA,
	ZONE_DMA32,
	ZONE_NORMAL,
	ZONE_MOVABLE,
	__MAX_NR_ZONES
};

enum pageflags {
	PG_locked,
	PG_referenced,
	PG_uptodate,
	PG_dirty,
	PG_huge = 1ull << 40,	/* gcc 12 drops what does not fit 32 bits */
};

struct vm_area_struct {
	unsigned long vm_start;
	unsigned long vm_end;
	struct mm_struct *vm_mm;
	struct vm_area_struct *vm_next, *vm_prev;
	unsigned long vm_flags;
	const struct vm_operations_struct *vm_ops;
};

struct vm_fault;
struct vm_operations_struct {
	void (*open)(struct vm_area_struct *area);
	void (*close)(struct vm_area_struct *area);
	int (*fault)(struct vm_fault *vmf);
};

struct mm_struct {
	struct vm_area_struct *mmap;
	struct rb_node *mm_rb;
	unsigned long task_size;
	atomic_t mm_users;
	atomic_t mm_count;
	atomic64_t pgtables_bytes;
	int map_count;
	spinlock_t page_table_lock;
	struct list_head mmlist;
	unsigned long start_code, end_code, start_data, end_data;
	unsigned long flags;
	struct task_struct *owner;
};

struct page {
	unsigned long flags;
	union {
		struct {
			struct list_head lru;
			void *mapping;
			unsigned long index;
		};
		struct {
			struct callback_head callback_head;
		};
	};
	atomic_t _refcount;
};

struct mm_struct *mm_alloc(void);
void mmput(struct mm_struct *mm);
struct page *alloc_pages(gfp_t gfp, unsigned int order);

#endif
