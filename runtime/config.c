/* Configuration: tess_config_t fields first, then TESS_* variables, then
 * defaults.  Anything unparsable is TESS_ECONFIG, never silently replaced. */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "rt.h"

#define DEFAULT_NB_HOST 768
#define DEFAULT_NB_CUDA 4096
#define DEFAULT_HOST_MEM ((size_t)1 << 30)
#define DEFAULT_WINDOW 8
/* What a start on GPUs takes, every GPU opening at once: the driver's
 * initialisation, then one GPU's open (BENCHMARKS.md, the legacy library's
 * section). */
#define START_EXPECTED_GPU_S 0.5
/* TESS_HOST_OPEN_DELAY's largest value: a test's start, not a hang. */
#define MAX_OPEN_DELAY_S 60.0

bool rt_env_flag(const char *name)
{
    const char *s = config_env(name);
    return s && strcmp(s, "0");
}

static int parse_double(const char *s, double *v)
{
    char *end;
    errno = 0;
    double x = strtod(s, &end);
    if (errno || end == s || *end)
        return TESS_ECONFIG;
    *v = x;
    return 0;
}

/* Bytes, with an optional K, M or G suffix (powers of 1024). */
static int parse_bytes(const char *s, size_t *v)
{
    char *end;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 10);
    if (errno || end == s || strchr(s, '-'))
        return TESS_ECONFIG;
    int shift = 0;
    if (*end == 'K' || *end == 'k')
        shift = 10;
    else if (*end == 'M' || *end == 'm')
        shift = 20;
    else if (*end == 'G' || *end == 'g')
        shift = 30;
    if (shift)
        end++;
    /* a value whose shift would wrap is refused, not replaced by the wrapped one */
    if (*end || x > SIZE_MAX >> shift)
        return TESS_ECONFIG;
    *v = (size_t)x << shift;
    return 0;
}

/* "auto", "cuda", "cuda:local", "cuda:0,2" or "host:N". */
static int parse_devices(const char *s, rt_config_t *c)
{
    if (!strcmp(s, "auto")) {
#ifdef TESS_CUDA_BACKEND
        c->cuda = true;
        c->host_fallback = true;
        c->ndev = 0; /* all GPUs; none found means host:2 */
#else
        c->ndev = 2;
#endif
        return 0;
    }
    if (!strncmp(s, "host:", 5)) {
        int64_t n;
        if (config_parse_int(s + 5, &n) || n < 1 || n > TESS_MAX_DEVICES)
            return TESS_ECONFIG;
        c->ndev = (int)n;
        return 0;
    }
    if (!strcmp(s, "cuda:local")) {
#ifndef TESS_CUDA_BACKEND
        return TESS_ENODEV;
#else
        return config_local_gpus(cuda_device_count(), c);
#endif
    }
    if (!strcmp(s, "cuda") || !strncmp(s, "cuda:", 5)) {
#ifndef TESS_CUDA_BACKEND
        return TESS_ENODEV;
#else
        c->cuda = true;
        c->ndev = 0;
        if (!s[4])
            return 0; /* every GPU */
        /* a list of distinct ids, nothing empty in it */
        const char *p = s + 5;
        do {
            char *end;
            long id = strtol(p, &end, 10);
            if (end == p || id < 0 || id > INT_MAX || c->ndev == TESS_MAX_DEVICES ||
                (*end && *end != ','))
                return TESS_ECONFIG;
            for (int i = 0; i < c->ndev; i++)
                if (c->cuda_ids[i] == id)
                    return TESS_ECONFIG;
            c->cuda_ids[c->ndev++] = (int)id;
            p = end;
        } while (*p++ == ',');
        return 0;
#endif
    }
    return TESS_ECONFIG;
}

/* TESS_HOST_OPEN_DELAY, seconds from 0 to MAX_OPEN_DELAY_S; 0 when unset. */
static int host_open_delay(double *s)
{
    const char *v = config_env("TESS_HOST_OPEN_DELAY");
    *s = 0;
    if (!v)
        return 0;
    int err = parse_double(v, s);
    return err || !(*s >= 0 && *s <= MAX_OPEN_DELAY_S) ? TESS_ECONFIG : 0;
}

double rt_start_expected_s(void)
{
    const char *s = config_env("TESS_DEVICES");
    double delay;
    if (s && !strncmp(s, "host:", 5))
        return host_open_delay(&delay) ? 0 : delay;
    return START_EXPECTED_GPU_S;
}

static const char *const fault_names[RT_NFAULTS] = {
    [RT_FAULT_H2D] = "h2d",       [RT_FAULT_D2H] = "d2h",     [RT_FAULT_D2D] = "d2d",
    [RT_FAULT_KERNEL] = "kernel", [RT_FAULT_ALLOC] = "alloc",
};

/* "op:n", op one of fault_names, n >= 1. */
static int parse_fault(const char *s, rt_config_t *c)
{
    const char *colon = strchr(s, ':');
    if (!colon)
        return TESS_ECONFIG;
    for (int k = RT_FAULT_NONE + 1; k < RT_NFAULTS; k++) {
        size_t len = strlen(fault_names[k]);
        if ((size_t)(colon - s) == len && !strncmp(s, fault_names[k], len)) {
            if (config_parse_int(colon + 1, &c->fault_n) || c->fault_n < 1)
                return TESS_ECONFIG;
            c->fault_op = k;
            return 0;
        }
    }
    return TESS_ECONFIG;
}

static const char *pick(const char *field, const char *name)
{
    return field ? field : config_env(name);
}

/* Defaults that depend on the devices, once they are chosen. */
void config_device_defaults(rt_config_t *c)
{
    c->nb_default = c->cuda ? DEFAULT_NB_CUDA : DEFAULT_NB_HOST;
    if (!c->nb_max)
        c->nb_max = c->nb_default;
}

int config_resolve(const tess_config_t *u, rt_config_t *c)
{
    tess_config_t none = { 0 };
    if (!u)
        u = &none;
    memset(c, 0, sizeof *c);
    const char *s;
    int err = parse_devices((s = pick(u->devices, "TESS_DEVICES")) ? s : "auto", c);
    if (err)
        return err;

    /* a variable that is set holds a value: 0 there is no "unset" */
    c->nb_max = u->nb;
    if (!c->nb_max && (s = config_env("TESS_NB")) &&
        ((err = config_parse_int(s, &c->nb_max)) || !c->nb_max))
        return err ? err : TESS_ECONFIG;
    if (c->nb_max < 0 || c->nb_max > RT_MAX_NB)
        return TESS_ECONFIG;
    c->nb_fixed = c->nb_max > 0;

    c->window = u->window;
    int64_t w = 0;
    if (!c->window && (s = config_env("TESS_WINDOW"))) {
        if ((err = config_parse_int(s, &w)))
            return err;
        if (w < 1 || w > RT_MAX_WINDOW)
            return TESS_ECONFIG;
        c->window = (int)w;
    }
    if (!c->window)
        c->window = DEFAULT_WINDOW;
    if (c->window < 1 || c->window > RT_MAX_WINDOW)
        return TESS_ECONFIG;

    c->cache_fraction = u->cache_fraction;
    if (!c->cache_fraction && (s = config_env("TESS_CACHE_FRACTION")) &&
        ((err = parse_double(s, &c->cache_fraction)) || !c->cache_fraction))
        return err ? err : TESS_ECONFIG;
    if (!c->cache_fraction)
        c->cache_fraction = 0.9;
    if (!(c->cache_fraction > 0 && c->cache_fraction <= 1))
        return TESS_ECONFIG;

    c->cache_bytes = u->cache_bytes;
    if (!c->cache_bytes && (s = config_env("TESS_CACHE_BYTES")) &&
        ((err = parse_bytes(s, &c->cache_bytes)) || !c->cache_bytes))
        return err ? err : TESS_ECONFIG;

    c->host_device_mem = u->host_device_mem;
    if (!c->host_device_mem && (s = config_env("TESS_HOST_DEVICE_MEM")) &&
        ((err = parse_bytes(s, &c->host_device_mem)) || !c->host_device_mem))
        return err ? err : TESS_ECONFIG;
    if (!c->host_device_mem)
        c->host_device_mem = DEFAULT_HOST_MEM;

    /* a variable only: a testing aid, which tess_config_t does not carry;
     * 0 (off) or at least 100 kB/s, so that a copy's time stays finite */
    if ((s = config_env("TESS_HOST_LINK_GBPS")) &&
        ((err = parse_double(s, &c->host_link_gbps)) ||
         !(c->host_link_gbps == 0 || c->host_link_gbps >= 0.0001)))
        return err ? err : TESS_ECONFIG;

    /* a variable only, a testing aid: the legacy library's calls during a
     * start, and the devices' opens at once, are tested with slow opens */
    if ((err = host_open_delay(&c->host_open_delay_s)))
        return err;

    if ((s = pick(u->trace, "TESS_TRACE")) && *s && !(c->trace = strdup(s)))
        return TESS_ENOMEM;

    /* a variable only, a testing aid like TESS_HOST_LINK_GBPS */
    if ((s = config_env("TESS_FAULT")) && (err = parse_fault(s, c)))
        return err;

    c->verbose = u->verbose || rt_env_flag("TESS_VERBOSE");
    return 0;
}
