/* Tasks: one kernel call on tiles, with the blocks it reads and writes, or a
 * copy the runtime makes (write-back, flush).  The tile framework and the
 * algorithms make kernel tasks with these. */
#ifndef RT_TASK_H
#define RT_TASK_H

#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include "block.h"
#include "kern.h"

/* Blocks one task uses: a SYMV/HEMV off-diagonal tile reads A_ij, x_i and x_j and
 * updates y_i and y_j. */
#define RT_MAX_ACCESS 6
#define RT_ARGS_BYTES 96

typedef enum { RT_R = 1, RT_W = 2, RT_RW = 3 } rt_mode_t;

typedef enum { TASK_KERNEL, TASK_WRITEBACK, TASK_FLUSH_INVALIDATE } rt_task_kind_t;

/* Write-backs and flushes: ahead of every kernel task. */
#define RT_PRIO_FIRST INT_MAX

typedef struct rt_exec {
    const kern_table_t *kern; /* the device's table for the task's type */
    kern_ctx_t *ctx;
    const void *args;
    void *ptr[RT_MAX_ACCESS]; /* device copies, in access order */
    int64_t ld[RT_MAX_ACCESS];
} rt_exec_t;

typedef int (*rt_task_fn)(const rt_exec_t *x);

typedef struct rt_task {
    rt_task_kind_t kind;
    rt_task_fn fn;
    const char *name;
    kern_type_t type;
    int naccess;
    struct {
        rt_block_t *blk;
        rt_mode_t mode;
        int64_t row0; /* a write's first row */
    } acc[RT_MAX_ACCESS];
    _Alignas(16) unsigned char args[RT_ARGS_BYTES];
    atomic_int ndeps;
    atomic_int refs;
    pthread_mutex_t lock;
    atomic_bool done; /* set under lock; read unlocked to drop done tasks */
    struct rt_task **succ;
    size_t nsucc, capsucc;
    /* a ready queue runs higher first, in order of readiness among equals:
     * the critical path of a call ahead of its bulk work */
    int prio;
    /* on its call's critical path: its kernel runs on its device's urgent stream, and it may
     * be issued beyond the device's window (worker.c) */
    bool urgent;
    /* placed where its first block (a BLAS-2 task's matrix tile) is, when a device holds
     * it, rather than by the block it writes */
    bool place_by_first;
    /* a flush-invalidate it waited for failed: the host may hold stale data
     * for it, so a kernel task fails with this error instead of running */
    atomic_int poison;
    struct rt_scope *scope; /* whose errors its are (rt_scope_current when made) */
    /* its kernel's error known only once the device ran it (backend ctx) */
    int async_err;          /* read and written with __atomic builtins (a backend stores it) */
    bool too_many_accesses; /* a bug: task_submit refuses the task */
    struct rt_task *qnext, *qprev;
} rt_task_t;

rt_task_t *task_new(rt_task_kind_t kind, const char *name);
void task_set_kernel(rt_task_t *t, rt_task_fn fn, kern_type_t type, const void *args, size_t size);
/* task_set_kernel with the argument struct a, checked to fit when compiled. */
#define TASK_SET_ARGS(t, fn, type, a)                                                              \
    do {                                                                                           \
        _Static_assert(sizeof(a) <= RT_ARGS_BYTES, "task arguments exceed RT_ARGS_BYTES");         \
        task_set_kernel(t, fn, type, &(a), sizeof(a));                                             \
    } while (0)
/* Returns the access's slot in rt_exec_t: a block used twice is one slot.
 * Past RT_MAX_ACCESS blocks the task is marked and task_submit refuses it. */
int task_access(rt_task_t *t, rt_block_t *b, rt_mode_t mode);
/* task_access of a block the task writes from row row0 on only (rows above are
 * left as they are): it keeps their write-back (block_writeback_rows_async). */
int task_access_from(rt_task_t *t, rt_block_t *b, rt_mode_t mode, int64_t row0);
/* Between rt_submit_begin and rt_submit_end (call.h).  TESS_EINTERNAL, the task freed and nothing
 * submitted, when it has more accesses than RT_MAX_ACCESS. */
int task_submit(rt_task_t *t);
void task_complete(rt_task_t *t, int err);
void task_unref(rt_task_t *t);
void task_wait_all(void);

#endif
