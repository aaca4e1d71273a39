/* read_write.c - reads files; another `struct buffer` than mm/memory.c's. */
#include "../include/fs.h"

struct buffer {
	char *data;
	size_t len;
	loff_t pos;
};

static struct buffer read_buffer;

ssize_t kernel_read(struct file *file, void *buf, size_t count, loff_t *pos)
{
	if (!file->f_op || !file->f_op->read)
		return -22;
	read_buffer.data = buf;
	read_buffer.len = count;
	read_buffer.pos = *pos;
	return file->f_op->read(file, read_buffer.data, read_buffer.len, &read_buffer.pos);
}

loff_t vfs_llseek(struct file *file, loff_t offset, int whence)
{
	return file->f_op->llseek ? file->f_op->llseek(file, offset, whence) : -29;
}
