/* Blocks: the tiles of the host's matrices that tasks read and write, each
 * with a copy per device (cache.c owns the copy fields). */
#ifndef RT_BLOCK_H
#define RT_BLOCK_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "tessera.h"

/* MOSI, per memory space.  The host is memory space 0, kept as host_valid. */
typedef enum { COPY_I, COPY_S, COPY_O, COPY_M } copy_state_t;

typedef struct rt_copy {
    void *ptr; /* packed, leading dimension = block m */
    size_t bytes;
    _Atomic uint8_t state;    /* copy_state_t; read unlocked by the stealer */
    int pins;                 /* tasks using it: never evicted while > 0 */
    uint64_t lru_tick;        /* last use, for eviction order */
    int slot;                 /* index in its device's resident set, when ptr */
    struct rt_event *arrival; /* while its transfer may still run: its end */
} rt_copy_t;

typedef struct rt_block {
    /* the view: an m x n tile of column-major memory */
    char *ptr;
    int64_t m, n, ld;
    size_t elsize;
    int64_t ti, tj; /* tile coordinates, for the block-cyclic map */
    /* submission side, under rt.submit_lock */
    struct rt_task *last_writer;
    struct rt_task *flush; /* its last flush-invalidate, which overlapping uses wait for */
    struct rt_task **readers;
    size_t nreaders, capreaders;
    bool ovl_touched, ovl_dirty; /* since the last flush-invalidate */
    bool coh_dirty;              /* written since the last coherent request */
    /* once every task submitted so far has run, its host copy's rows above
     * this one are its newest: writers lower it to the first row they write,
     * write-backs raise it */
    int64_t host_rows;
    struct rt_block **overlaps; /* other blocks sharing memory with this one */
    size_t noverlaps, capoverlaps;
    struct rt_block *hnext;
    /* cache side, under rt.cache_lock */
    bool host_valid;
    /* a write-back of it failed since its last one that succeeded: the host
     * copy may be stale although no write is pending (read unlocked when
     * submitting, to write it back again) */
    atomic_bool wb_failed;
    /* its last flush-invalidate's error: copies may be left on devices, so the
     * next use of an overlapping block flushes it again (read unlocked when
     * submitting, after waiting for that flush) */
    atomic_int flush_err;
    /* the write-back clock's value when its host copy was last written (rt_writeback_tick) */
    uint64_t wb_tick;
    rt_copy_t copies[]; /* one per device */
} rt_block_t;

/* The block of exactly this view, or NULL: none has been made. */
rt_block_t *block_find(const char *ptr, int64_t m, int64_t n, int64_t ld, size_t elsize);
rt_block_t *block_get(char *ptr, int64_t m, int64_t n, int64_t ld, size_t elsize, int64_t ti,
                      int64_t tj);
/* Bytes from a view's first element to one past its last (m, n > 0). */
size_t block_span_bytes(int64_t m, int64_t n, int64_t ld, size_t es);
/* Whether the view at p (ld >= m) lies within the address space, its span
 * representable: false for sizes whose arithmetic would overflow. */
bool block_view_fits(const void *p, int64_t m, int64_t n, int64_t ld, size_t es);
/* Calls fn on every block sharing memory with the region (and, for a triangular
 * part, with that triangle of it); inside says the block lies wholly in it.
 * Returns TESS_ENOMEM, having called fn on none, when it cannot list them. */
int block_foreach_in(tess_part_t part, const char *p, int64_t m, int64_t n, int64_t ld,
                     size_t elsize, void (*fn)(rt_block_t *, bool inside, void *), void *arg);
void block_remove(rt_block_t *b);
/* Under the submit lock: the block's host copy valid after the next tess_sync, as
 * tess_memory_coherent_async makes it (a write-back task after its last writer, when it
 * was written since the last such request).  0 or TESS_ENOMEM. */
int block_coherent_async(rt_block_t *b);
/* Write-behind: an algorithm's request for the host copy of a tile it has
 * finished, so that the copy overlaps its later steps.  block_coherent_async,
 * unless the submitting thread holds host writes (rt_hold_host_writes). */
int block_write_behind_async(rt_block_t *b);
/* Write-behind of rows: rows 0 to r1 - 1 of the block are final, every later
 * task writing it naming a first row at or below r1 (task_access_from).  Their
 * write-back is queued behind the last writer, leaving the block dirty; its
 * next coherent request then copies only the rows below.  Nothing when the
 * thread holds host writes.  0 or TESS_ENOMEM. */
int block_writeback_rows_async(rt_block_t *b, int64_t r1);
int block_dir_init(void);
void block_dir_clear(void); /* every block removed, the table kept */
void block_dir_free(void);

#endif
