// btfload: hands a file's bytes to the running kernel's BTF loader, unchanged.
//
//   btfload FILE
//
// Calls bpf(BPF_BTF_LOAD) with the whole file as the BTF blob (no parsing, no rewriting: the
// kernel judges the header and section layout as written). Prints "ok" and exits 0 when the
// kernel accepts it; otherwise prints "errno N" and, on the next line, the last line of the
// kernel's verifier log (its reason), and exits 1. Exits 2 when the file cannot be read.
// Used by btfkit's tests (TestData.kernelVerdict); needs root or CAP_BPF.
#include <errno.h>
#include <linux/bpf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static int load(const void *blob, unsigned size, char *log, unsigned log_size)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.btf = (unsigned long)blob;
	attr.btf_size = size;
	if (log) {
		attr.btf_log_buf = (unsigned long)log;
		attr.btf_log_size = log_size;
		attr.btf_log_level = 1;
	}
	return syscall(__NR_bpf, BPF_BTF_LOAD, &attr, sizeof(attr));
}

int main(int argc, char **argv)
{
	unsigned log_size = 16u << 20;
	char *blob, *log, *line, *end;
	long size;
	FILE *f;
	int fd, err;

	if (argc != 2) {
		fprintf(stderr, "usage: btfload FILE\n");
		return 2;
	}
	f = fopen(argv[1], "rb");
	if (!f || fseek(f, 0, SEEK_END) || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
		perror(argv[1]);
		return 2;
	}
	blob = malloc(size ? size : 1);
	if (!blob || fread(blob, 1, size, f) != (size_t)size) {
		perror(argv[1]);
		return 2;
	}
	fclose(f);
	// without a log first: a log too small for a large BTF would fail with ENOSPC
	fd = load(blob, size, NULL, 0);
	if (fd >= 0) {
		printf("ok\n");
		close(fd);
		return 0;
	}
	err = errno;
	log = calloc(1, log_size);
	if (log && load(blob, size, log, log_size) < 0) {
		end = log + strlen(log);
		while (end > log && end[-1] == '\n')
			*--end = 0;
		line = strrchr(log, '\n');
		line = line ? line + 1 : log;
	} else {
		line = "";
	}
	printf("errno %d\n%s\n", err, line);
	return 1;
}
