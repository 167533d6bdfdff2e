/* What the environment says of this process's place: integers of the
 * TESS_* variables, and for TESS_DEVICES=cuda:local the launcher's local
 * rank and the GPUs it gives this process.  Apart from config.c, which needs
 * the CUDA backend, so that the rule is testable anywhere
 * (tests/scalapack/test_local_devices.c). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "rt.h"

const char *config_env(const char *name)
{
    const char *s = getenv(name);
    return s && *s ? s : NULL;
}

int config_parse_int(const char *s, int64_t *v)
{
    char *end;
    errno = 0;
    long long x = strtoll(s, &end, 10);
    if (errno || end == s || *end)
        return TESS_ECONFIG;
    *v = x;
    return 0;
}

/* A non-negative integer variable; -1 when unset, TESS_ECONFIG in *err when
 * unparsable. */
static int64_t env_count(const char *name, int *err)
{
    const char *s = config_env(name);
    int64_t v;
    if (!s)
        return -1;
    if (config_parse_int(s, &v) || v < 0) {
        *err = TESS_ECONFIG;
        return -1;
    }
    return v;
}

/* Slurm's tasks per node ("2(x3),1": two tasks on each of three nodes, then
 * one) on the node of index node; the whole list must parse. */
static int slurm_tasks_on(const char *s, int64_t node, int64_t *n)
{
    *n = -1;
    while (*s) {
        char *end;
        errno = 0;
        long long tasks = strtoll(s, &end, 10), reps = 1;
        if (errno || end == s || tasks < 1)
            return TESS_ECONFIG;
        if (!strncmp(end, "(x", 2)) {
            const char *r = end + 2;
            reps = strtoll(r, &end, 10);
            if (errno || end == r || reps < 1 || *end++ != ')')
                return TESS_ECONFIG;
        }
        if (node >= 0 && node < reps)
            *n = tasks;
        if (node >= 0)
            node -= reps;
        if (*end && (*end++ != ',' || !*end))
            return TESS_ECONFIG;
        s = end;
    }
    return *n > 0 ? 0 : TESS_ECONFIG;
}

/* Local ranks above this are taken for a mistake. */
#define MAX_LOCAL_RANKS ((int64_t)1 << 20)

/* This process's rank among those a launcher started on this node, and their
 * number (-1 when the launcher gives none): Open MPI's, MPICH's and Intel
 * MPI's (Hydra), or Slurm's.  Rank 0 of 1 when no launcher says. */
static int local_rank(int64_t *rank, int64_t *size)
{
    static const char *const vars[][2] = {
        { "OMPI_COMM_WORLD_LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_SIZE" },
        { "MPI_LOCALRANKID", "MPI_LOCALNRANKS" },
        { "SLURM_LOCALID", NULL },
    };
    int err = 0;
    *rank = 0;
    *size = 1;
    for (size_t i = 0; i < sizeof vars / sizeof *vars; i++) {
        int64_t r = env_count(vars[i][0], &err), n = -1;
        if (err)
            return err;
        if (r < 0)
            continue;
        if (vars[i][1]) {
            n = env_count(vars[i][1], &err);
        } else {
            const char *tpn = getenv("SLURM_STEP_TASKS_PER_NODE");
            if (!tpn || !*tpn)
                tpn = getenv("SLURM_TASKS_PER_NODE");
            int64_t node = env_count("SLURM_NODEID", &err);
            if (tpn && *tpn && !err)
                err = slurm_tasks_on(tpn, node < 0 ? 0 : node, &n);
        }
        if (err || r >= MAX_LOCAL_RANKS || n > MAX_LOCAL_RANKS || (n >= 0 && r >= n))
            return TESS_ECONFIG;
        *rank = r;
        *size = n;
        return 0;
    }
    return 0;
}

/* With l ranks on this node and count GPUs visible, rank r takes GPUs
 * [r count / l, (r + 1) count / l) when there are at least as many GPUs as
 * ranks, and GPU r count / l otherwise, which it shares with the ranks that
 * map there (gpu_share, for each one's part of its memory).  A launcher that
 * set CUDA_VISIBLE_DEVICES per rank shows each rank fewer GPUs than there are
 * ranks: the rank then takes every GPU it sees, as its own. */
int config_local_gpus(int count, rt_config_t *c)
{
    int64_t r, l;
    int err = local_rank(&r, &l);
    if (err)
        return err;
    if (count <= 0)
        return TESS_ENODEV;
    const char *cvd = getenv("CUDA_VISIBLE_DEVICES");
    if (cvd && *cvd && l >= 0 && count < l)
        r = 0, l = 1; /* the launcher chose this rank's GPUs */
    c->cuda = true;
    c->gpu_share = 1;
    c->ndev = 0;
    if (l < 0) { /* ranks unknown: one GPU each, in turn */
        c->cuda_ids[c->ndev++] = (int)(r % count);
    } else if (count >= l) {
        for (int64_t g = r * count / l; g < (r + 1) * count / l && c->ndev < TESS_MAX_DEVICES; g++)
            c->cuda_ids[c->ndev++] = (int)g;
    } else {
        /* ranks i with i count / l == g: from ceil(g l / count) up to ceil((g + 1) l / count) */
        int64_t g = r * count / l;
        c->cuda_ids[c->ndev++] = (int)g;
        c->gpu_share = (int)(((g + 1) * l + count - 1) / count - (g * l + count - 1) / count);
    }
    return 0;
}
