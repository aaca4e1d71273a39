/* bpf_defs.h - the few libbpf/kernel definitions the sample needs, written out so the
 * sample builds without kernel or libbpf headers installed. */
#ifndef BPF_DEFS_H
#define BPF_DEFS_H

typedef unsigned char __u8;
typedef unsigned short __u16;
typedef unsigned int __u32;
typedef unsigned long long __u64;
typedef int __s32;
typedef long long __s64;

#define SEC(name) __attribute__((section(name), used))
#define __uint(name, val) int (*name)[val]
#define __type(name, val) typeof(val) *name
#define __always_inline inline __attribute__((always_inline))

enum bpf_map_type_sample {
	BPF_MAP_TYPE_HASH = 1,
	BPF_MAP_TYPE_ARRAY = 2,
	BPF_MAP_TYPE_RINGBUF = 27,
};

/* BPF helpers are called through fixed "addresses" (helper ids). */
static void *(*bpf_map_lookup_elem)(void *map, const void *key) = (void *)1;
static long (*bpf_map_update_elem)(void *map, const void *key, const void *value, __u64 flags) = (void *)2;
static __u64 (*bpf_ktime_get_ns)(void) = (void *)5;
static __u64 (*bpf_get_current_pid_tgid)(void) = (void *)14;
static void *(*bpf_get_current_task)(void) = (void *)35;
static long (*bpf_probe_read_kernel)(void *dst, __u32 size, const void *src) = (void *)113;

#define BPF_CORE_READ_INTO(dst, src, field) \
	bpf_probe_read_kernel((dst), sizeof(*(dst)), __builtin_preserve_access_index(&(src)->field))

#endif
