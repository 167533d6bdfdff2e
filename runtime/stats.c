/* The runtime's counters: tess_get_stats's view of them and the summary
 * TESS_VERBOSE prints at finalize. */
#include <stdio.h>
#include <string.h>
#include "rt.h"

void rt_stats(tess_stats_t *s)
{
    memset(s, 0, sizeof *s);
    s->ndevices = rt.ndev;
    s->nb = rt.cfg.nb_max;
    s->bytes_h2d = atomic_load(&rt.bytes_h2d);
    s->bytes_d2h = atomic_load(&rt.bytes_d2h);
    s->bytes_d2d = atomic_load(&rt.bytes_d2d);
    s->cache_hits = atomic_load(&rt.hits);
    s->cache_misses = atomic_load(&rt.misses);
    s->evictions = atomic_load(&rt.evictions);
    s->writebacks = atomic_load(&rt.writebacks);
    for (int i = 0; i < rt.ndev; i++) {
        s->tasks[i] = atomic_load(&rt.dev[i]->ntasks);
        s->steals[i] = atomic_load(&rt.dev[i]->nsteals);
        s->busy_s[i] = (double)atomic_load(&rt.dev[i]->busy_ns) * 1e-9;
    }
}

void stats_print(void)
{
    tess_stats_t s;
    rt_stats(&s);
    fprintf(stderr, "tessera: %d %s device(s), tiles up to %lld%s\n", s.ndevices,
            rt.dev[0]->be->name, (long long)s.nb, rt.cfg.nb_fixed ? " (fixed)" : "");
    fprintf(stderr, "tessera: bytes h2d %llu d2h %llu d2d %llu\n", (unsigned long long)s.bytes_h2d,
            (unsigned long long)s.bytes_d2h, (unsigned long long)s.bytes_d2d);
    fprintf(stderr, "tessera: cache hits %llu misses %llu evictions %llu writebacks %llu\n",
            (unsigned long long)s.cache_hits, (unsigned long long)s.cache_misses,
            (unsigned long long)s.evictions, (unsigned long long)s.writebacks);
    for (int i = 0; i < s.ndevices; i++)
        fprintf(stderr, "tessera: device %d tasks %llu steals %llu busy %.3f s\n", i,
                (unsigned long long)s.tasks[i], (unsigned long long)s.steals[i], s.busy_s[i]);
}
