/* SPDX-License-Identifier: (GPL-2.0 WITH Linux-syscall-note) OR MIT */
/*
 * The ABI between the copyperf module (/dev/copyperf) and the copyperf
 * command: the one header both compile.  Fixed-width types only, every
 * structure padded to the same layout on 32- and 64-bit, user addresses
 * carried as __u64, and nothing the kernel returns is a kernel address.
 */
#ifndef _UAPI_COPYPERF_IOCTL_H
#define _UAPI_COPYPERF_IOCTL_H

#include <linux/const.h>
#include <linux/ioctl.h>
#include <linux/types.h>

/* Raised on any change of the structures or of their meaning. */
#define COPYPERF_ABI_VERSION 2

#define COPYPERF_DEVICE "/dev/copyperf"

#define COPYPERF_NAME_LEN 32
#define COPYPERF_DESCRIPTION_LEN 96

/* Bytes checked on each side of a destination: they must keep their old value. */
#define COPYPERF_CANARY 64
/* Largest alignment offset from a page-aligned base. */
#define COPYPERF_MAX_ALIGN 4095
/* Bytes per measurement above which a request is refused (the command's own limit). */
#define COPYPERF_MAX_TOTAL _BITULL(40)

/*
 * The data (src/measure/engine/pattern.h): byte i of a source is
 * pattern_byte(COPYPERF_PATTERN_BIAS + i), i counted from the start of the walked
 * buffer (negative: the bytes in front); a destination starts as the complement.
 */
#define COPYPERF_PATTERN_BIAS 0x10000

/* Version handshake: the first ioctl a client makes. */
struct copyperf_version {
	__u32 abi;        /* COPYPERF_ABI_VERSION of the module */
	__u32 n_routines; /* routines numbered 0 .. n_routines - 1 */
	__u32 flags;      /* COPYPERF_CAN_FLUSH ... */
	__u32 page_size;  /* the base of every buffer is aligned to it */
	__u64 max_buffer; /* largest buffer a measurement may walk, in bytes */
};

/* The module can flush its buffers from the data cache (cache modes flush, flush-timed). */
#define COPYPERF_CAN_FLUSH 0x1u

/* Which side of the copy is the command's memory. */
enum copyperf_direction {
	COPYPERF_KERNEL_TO_KERNEL = 0, /* both buffers from the kernel allocator */
	COPYPERF_KERNEL_TO_USER = 1,   /* destination: the command's buffer */
	COPYPERF_USER_TO_KERNEL = 2,   /* source: the command's buffer */
};

/* A deliberately wrong copy (modules built with COPYPERF_SELFTEST=y): measured only by name. */
#define COPYPERF_ROUTINE_SELFTEST 0x1u

/* One of the module's routines, by number. */
struct copyperf_routine_info {
	__u32 index;     /* in: 0 .. n_routines - 1 */
	__u32 direction; /* out: enum copyperf_direction */
	__u32 flags;     /* out: COPYPERF_ROUTINE_SELFTEST */
	__u32 reserved;
	char name[COPYPERF_NAME_LEN];               /* out: NUL-terminated */
	char description[COPYPERF_DESCRIPTION_LEN]; /* out: NUL-terminated, one line */
};

enum copyperf_cache {
	COPYPERF_CACHE_FLUSH = 0,       /* flush both buffers at each wrap, timer paused */
	COPYPERF_CACHE_FLUSH_TIMED = 1, /* the same, the flush timed too (the 2008 method) */
	COPYPERF_CACHE_HOT = 2,         /* never flush */
};

enum copyperf_result {
	COPYPERF_RESULT_OK = 0,
	COPYPERF_RESULT_WRONG_BYTE = 1,   /* offset, value, expected: the first wrong byte */
	COPYPERF_RESULT_WROTE_BEFORE = 2, /* value: bytes overwritten in front of the range */
	COPYPERF_RESULT_WROTE_PAST = 3,   /* offset: first canary byte after the range */
	COPYPERF_RESULT_BAD_RETURN = 4,   /* a memcpy-like routine did not return dst */
	COPYPERF_RESULT_NOT_COPIED = 5,   /* value: bytes a user copy left; offset: chunk */
	COPYPERF_RESULT_SOURCE_CHANGED = 6, /* offset: the walked source's first changed byte */
};

/*
 * One measurement, the 2008 way: total / chunk chunks copied in turn through
 * two buffers of `buffer` bytes, starting over at the front (and flushing,
 * by cache mode) whenever the next chunk would not fit.  A signal that
 * reaches the process (caught or fatal) ends the walk early: EINTR.
 */
struct copyperf_measure {
	/* in */
	__u32 routine;   /* index */
	__u32 cache;     /* enum copyperf_cache */
	__u64 chunk;     /* bytes per call, 1 .. buffer */
	__u64 total;     /* bytes per measurement: whole chunks, chunk .. COPYPERF_MAX_TOTAL */
	__u64 buffer;    /* bytes walked in each buffer, at most max_buffer */
	__u32 align_src; /* offset of the walked source from a page-aligned base */
	__u32 align_dst; /* offset of the walked destination from a page-aligned base */
	/*
	 * For user routines: the command's buffer, private anonymous memory it
	 * owns, page aligned, laid out as one page, then the alignment offset,
	 * then the walked buffer and COPYPERF_CANARY bytes.  0 for kernel routines.
	 */
	__u64 user_addr;
	__u64 user_len;
	__u64 reserved_in; /* must be 0 */
	/* out */
	/* ns and copied are 0 where a copy failed (result not OK) */
	__u64 ns;       /* time of the walk, flushes excluded unless flush-timed */
	__u64 copied;   /* bytes copied: whole chunks of total */
	__u32 result;   /* enum copyperf_result; a wrong copy is a result, not an error */
	__u32 value;    /* the wrong byte, or the bytes a user copy left */
	__u64 offset;   /* where, from the start of the walked destination */
	__u32 expected; /* the byte that belonged there */
	__u32 reserved_out;
};

#define COPYPERF_IOC_MAGIC 0xCF
#define COPYPERF_IOC_VERSION _IOR(COPYPERF_IOC_MAGIC, 0, struct copyperf_version)
#define COPYPERF_IOC_ROUTINE _IOWR(COPYPERF_IOC_MAGIC, 1, struct copyperf_routine_info)
#define COPYPERF_IOC_MEASURE _IOWR(COPYPERF_IOC_MAGIC, 2, struct copyperf_measure)

#endif /* _UAPI_COPYPERF_IOCTL_H */
