/* What the layers above the runtime call it for: entering and leaving it,
 * one call's submission, the geometry its tiles take, and what the legacy
 * bridge asks of it. */
#ifndef RT_CALL_H
#define RT_CALL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include "build_config.h"
#include "tessera.h"

/* The monotonic clock in ns. */
static inline int64_t rt_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* 0 when the runtime can take calls, else TESS_ENOTINIT: an early answer,
 * taken without the guard below. */
int rt_check_ready(void);
/* Every public call that uses the runtime runs between rt_enter (0, or
 * TESS_ENOTINIT with nothing held) and rt_leave: tess_finalize waits for the
 * calls inside, and calls after it get TESS_ENOTINIT. */
int rt_enter(void);
void rt_leave(void);

/* The submission of one call: between these, under the runtime's submit
 * lock, its tasks enter the graph at once and after every earlier call's. */
void rt_submit_begin(void);
void rt_submit_end(void);

/* What a call's tiling takes from the runtime: the devices, their grid and
 * the tile sizes allowed (read between rt_enter and rt_leave). */
typedef struct {
    int ndev;
    int grid_p, grid_q; /* the devices' block-cyclic grid, p * q = ndev */
    int64_t nb_max;     /* the largest tile */
    bool nb_fixed;      /* TESS_NB or tess_config_t.nb: every call takes nb_max */
} rt_geometry_t;
void rt_geometry(rt_geometry_t *g);

/* Whether a copy of the region's tiles to the host has been written since the write-back
 * clock read tick (rt_writeback_tick): what a caller that redoes a failed call on the host
 * must know of its outputs.  True too when the blocks cannot be listed. */
uint64_t rt_writeback_tick(void);
bool rt_region_written_since(tess_part_t part, const void *A, int64_t m, int64_t n, int64_t lda,
                             size_t elsize, uint64_t tick);

/* Whether the host holds the newest data of the region: no block sharing memory with it
 * has a write still to run or a newer copy on a device (what a call that must read an
 * operand's values when it is made, not when its tasks run, asks).  False too when the
 * blocks cannot be listed. */
bool rt_region_host_current(const void *A, int64_t m, int64_t n, int64_t lda, size_t elsize);

int pin_request(void *p, size_t bytes, bool user); /* user: tess_memory_register_async */
/* transient: the operands of the calls this thread submits until it says
 * otherwise are given back to their caller when the call returns, so that
 * page-locking them on first use would be undone by the call that paid for
 * it; where copies are staged through pinned buffers they are not
 * page-locked. */
void rt_transient_operands(bool transient);
/* hold: the calls this thread submits until it says otherwise write nothing to
 * their operands' host memory but what a coherent request asks for (no
 * write-behind, block.h), so that a call that fails on a device can be redone
 * on the host from its operands as they were. */
void rt_hold_host_writes(bool hold);

/* Whether the calling thread is a device's worker, where host kernels run:
 * a host BLAS whose CBLAS calls its own Fortran routines (netlib's) reaches
 * the legacy library's entry points from there. */
bool rt_on_worker(void);

/* Whether the environment variable is set to anything but "" or "0": the one
 * rule for on/off switches (TESS_VERBOSE), in the runtime and the legacy
 * library alike. */
bool rt_env_flag(const char *name);

/* How long a start of the runtime on the devices TESS_DEVICES names is
 * expected to take, in seconds: 0 for host devices that open at once
 * (config.c). */
double rt_start_expected_s(void);

#ifdef TESS_CUDA_BACKEND
int cuda_device_count(void);
#endif

#endif
