/* The runtime's life as the legacy library sees it (life.c).
 *
 * The runtime starts on the first call that wants it, and only on GPUs unless
 * TESS_DEVICES names host devices (simulated devices are for testing: on a
 * machine without a GPU the host BLAS alone is faster).  A start expected to
 * take time (on GPUs, the driver and the devices' opens; host devices slowed
 * by TESS_HOST_OPEN_DELAY) runs on a thread of its own (through.c says what
 * calls do meanwhile).  It stops at exit; a child process of a fork uses the
 * host BLAS only. */
#ifndef LG_LIFE_H
#define LG_LIFE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

typedef enum { LG_RT_UNTRIED, LG_RT_STARTING, LG_RT_ON, LG_RT_OFF } lg_rt_state_t;

typedef struct {
    pthread_mutex_t lock;   /* the runtime: its start, one call, its stop */
    pthread_cond_t started; /* the state has left LG_RT_STARTING */
    lg_rt_state_t state;
    bool ours;                    /* started here, so stopped here */
    bool exit_before, exit_after; /* stop_at_exit registered before a start, after ours */
    pthread_t starter;            /* the start's thread ... */
    bool starter_joinable;        /* ... until joined */
    int64_t start_ns, on_host;    /* the start's beginning, the calls run on the host meanwhile */
    int64_t waiting, gave_up;     /* calls waiting for the start, and those that stopped */
    double start_expected_s;      /* how long from start_ns the start is expected to take */
    double host_rate;             /* flop/s of the host BLAS while the runtime starts */
    atomic_bool in_runtime;       /* a call is in the runtime (through.c) */
    bool in_child;                /* a fork's child: no runtime, no GPU */
} lg_life_t;

extern lg_life_t lg_life;

/* Once, at the library's first call: the fork handlers, and lg_life.started,
 * whose waits time out on CLOCK_MONOTONIC (tess_internal_now_ns's clock). */
void lg_life_init(void);

/* Under lg_life.lock, the state LG_RT_UNTRIED: starts the runtime, on the
 * start's thread when it is expected to take time, here for host devices
 * that open at once, the application's runtime (up already) or where no
 * thread can be made. */
void lg_begin_start(void);

#endif
