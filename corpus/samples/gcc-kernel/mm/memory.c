/* memory.c - pages and the memory map; a `struct buffer` of its own. */
#include "../include/mm.h"
#include "../include/sched.h"

struct buffer {
	struct page *pages[8];
	unsigned int nr;
};

static struct buffer page_buffer;
static struct mm_struct mm_slot;
unsigned long totalram_pages;

struct page *alloc_pages(gfp_t gfp, unsigned int order)
{
	struct page *p;

	if (page_buffer.nr == 0)
		return 0;
	p = page_buffer.pages[--page_buffer.nr];
	p->flags = gfp | ((unsigned long)order << 24) | PG_locked;
	atomic_inc_return(&p->_refcount);
	return p;
}

struct mm_struct *mm_alloc(void)
{
	INIT_LIST_HEAD(&mm_slot.mmlist);
	atomic_inc_return(&mm_slot.mm_users);
	mm_slot.task_size = totalram_pages << 12;
	return &mm_slot;
}

void mmput(struct mm_struct *mm)
{
	if (atomic_inc_return(&mm->mm_users) == 1)
		mm->owner = 0;
}

int handle_mm_fault(struct vm_area_struct *vma, unsigned long address, enum zone_type zone)
{
	if (address < vma->vm_start || address >= vma->vm_end)
		return -14;
	return vma->vm_ops && vma->vm_ops->fault ? vma->vm_ops->fault(0) : (int)zone;
}
