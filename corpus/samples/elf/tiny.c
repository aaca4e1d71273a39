/* tiny.c - a freestanding static executable with BTF, standing in for vmlinux
 * (ET_EXEC with program headers) in ELF rewriting tests. */
struct point {
	int x, y;
};

struct shape {
	const char *name;
	struct point corners[4];
	struct shape *next;
};

static struct shape square = { "square", { { 0, 0 }, { 1, 0 }, { 1, 1 }, { 0, 1 } }, 0 };
volatile int sink;

int area(const struct shape *s)
{
	return (s->corners[2].x - s->corners[0].x) * (s->corners[2].y - s->corners[0].y);
}

void _start(void)
{
	sink = area(&square);
	for (;;)
		;
}
