/* The runtime's configuration, from tess_config_t and the TESS_*
 * variables (config.c, config_env.c), and fault injection. */
#ifndef RT_CONFIG_H
#define RT_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "tessera.h"

typedef struct {
    int ndev;
    bool cuda;
    bool host_fallback; /* auto: host devices when no GPU is found */
    int cuda_ids[TESS_MAX_DEVICES];
    int gpu_share;      /* cuda:local: processes on each of its GPUs (0: one) */
    int64_t nb_max;     /* the largest tile; each call picks its own (tile/tiling.c) */
    bool nb_fixed;      /* TESS_NB or tess_config_t.nb: every call takes nb */
    int64_t nb_default; /* the devices' default tile: a window counts tiles of this size */
    int window;         /* work in flight per device, in tiles of nb_default */
    double cache_fraction;
    size_t cache_bytes; /* 0: cache_fraction of the free memory */
    size_t host_device_mem;
    double host_link_gbps;    /* host devices' copy rate; 0: as fast as memcpy */
    double host_open_delay_s; /* TESS_HOST_OPEN_DELAY: how long each host device's open takes */
    char *trace;
    int verbose;
    int fault_op;    /* TESS_FAULT: rt_fault_t, RT_FAULT_NONE when unset */
    int64_t fault_n; /* ... failing its fault_n-th operation (from 1) */
} rt_config_t;
int config_resolve(const tess_config_t *user, rt_config_t *out); /* nb 0: not set */
void config_device_defaults(rt_config_t *c);
/* A whole decimal number, nothing else: 0, or TESS_ECONFIG. */
int config_parse_int(const char *s, int64_t *v);
/* A variable's value; NULL when it is unset or empty, which counts as unset. */
const char *config_env(const char *name);
/* TESS_DEVICES=cuda:local: this process's share of the count GPUs it sees,
 * from the launcher's local rank (config_env.c gives the rule). */
int config_local_gpus(int count, rt_config_t *c);

/* Fault injection, a testing aid: TESS_FAULT=op:n makes the n-th operation of
 * that kind fail as the device would fail it.  Checked by the runtime just
 * before it asks the backend, so every backend fails the same way. */
typedef enum {
    RT_FAULT_NONE,
    RT_FAULT_H2D,    /* a fetch from the host: TESS_EDEVICE */
    RT_FAULT_D2H,    /* a write-back, eviction or flush: TESS_EDEVICE */
    RT_FAULT_D2D,    /* a fetch from another device: TESS_EDEVICE */
    RT_FAULT_KERNEL, /* a task's kernel: TESS_EDEVICE */
    RT_FAULT_ALLOC,  /* a tile's device memory: TESS_ENOMEM, not retried */
    RT_NFAULTS
} rt_fault_t;

#endif
