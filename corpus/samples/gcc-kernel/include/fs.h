/* fs.h - files: a table of operations (function pointers, so gcc's anonymous FUNCs), inodes
 * and files that point at each other, the superblock only declared. */
#ifndef KL_FS_H
#define KL_FS_H
#include "types.h"

struct super_block;
struct inode;
struct file;

struct file_operations {
	loff_t (*llseek)(struct file *, loff_t, int);
	ssize_t (*read)(struct file *, char *, size_t, loff_t *);
	ssize_t (*write)(struct file *, const char *, size_t, loff_t *);
	int (*open)(struct inode *, struct file *);
	int (*release)(struct inode *, struct file *);
};

struct inode {
	unsigned short i_mode;
	unsigned int i_flags;
	unsigned long i_ino;
	loff_t i_size;
	struct super_block *i_sb;
	const struct file_operations *i_fop;
	struct hlist_node i_hash;
	spinlock_t i_lock;
	atomic_t i_count;
};

struct file {
	struct inode *f_inode;
	const struct file_operations *f_op;
	spinlock_t f_lock;
	unsigned int f_flags;
	loff_t f_pos;
	void *private_data;
};

struct files_struct {
	atomic_t count;
	spinlock_t file_lock;
	unsigned int next_fd;
	struct file *fd_array[64];
};

ssize_t kernel_read(struct file *file, void *buf, size_t count, loff_t *pos);
int filp_close(struct file *filp);

#endif
