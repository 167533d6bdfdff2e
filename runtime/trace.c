/* Timing, the Chrome trace (TESS_TRACE) and the verbose statistics. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "rt.h"

static int64_t t_origin;

int64_t rt_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void trace_start(void)
{
    t_origin = rt_now_ns();
}

/* A device's tracks are its streams (RT_S_*).  Only the device's own worker
 * records into its buffer, so no lock is needed; an event that finds no
 * memory is dropped from the trace, never from the run. */
void trace_span(rt_device_t *d, int track, const char *name, int64_t t0, int64_t t1)
{
    if (!rt.cfg.trace)
        return;
    if (!rt_grow(&d->trace, &d->captrace, d->ntrace, sizeof *d->trace, 4096))
        return;
    d->trace[d->ntrace++] = (rt_trace_ev_t){ t0 - t_origin, t1 - t0, name, track };
}

void trace_event(rt_device_t *d, int track, const char *name, int64_t t0)
{
    trace_span(d, track, name, t0, rt_now_ns());
}

int trace_write(const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return TESS_ECONFIG;
    fprintf(f, "{\"traceEvents\":[\n");
    const char *sep = "";
    for (int i = 0; i < rt.ndev; i++) {
        rt_device_t *d = rt.dev[i];
        for (int track = 0; track < RT_NSTREAMS; track++) {
            static const char *copy_names[RT_S_COMPUTE] = { "h2d", "d2h", "peer" };
            fprintf(f,
                    "%s{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":0,\"tid\":%d,"
                    "\"args\":{\"name\":\"%s%d %s",
                    sep, RT_NSTREAMS * i + track, d->be->name, i,
                    track < RT_S_COMPUTE ? copy_names[track] : "compute ");
            if (track >= RT_S_COMPUTE)
                fprintf(f, "%d", track - RT_S_COMPUTE);
            fprintf(f, "\"}}");
            sep = ",\n";
        }
        for (size_t k = 0; k < d->ntrace; k++) {
            const rt_trace_ev_t *e = &d->trace[k];
            fprintf(
                f,
                ",\n{\"name\":\"%s\",\"ph\":\"X\",\"pid\":0,\"tid\":%d,\"ts\":%.3f,\"dur\":%.3f}",
                e->name, RT_NSTREAMS * i + e->track, e->ts_ns / 1e3, e->dur_ns / 1e3);
        }
    }
    fprintf(f, "\n]}\n");
    return fclose(f) ? TESS_ECONFIG : 0;
}

void stats_print(void)
{
    tess_stats_t s;
    rt_stats(&s);
    fprintf(stderr, "tessera: %d %s device(s), nb %lld\n", s.ndevices, rt.dev[0]->be->name,
            (long long)rt.cfg.nb);
    fprintf(stderr, "tessera: bytes h2d %llu d2h %llu d2d %llu\n", (unsigned long long)s.bytes_h2d,
            (unsigned long long)s.bytes_d2h, (unsigned long long)s.bytes_d2d);
    fprintf(stderr, "tessera: cache hits %llu misses %llu evictions %llu writebacks %llu\n",
            (unsigned long long)s.cache_hits, (unsigned long long)s.cache_misses,
            (unsigned long long)s.evictions, (unsigned long long)s.writebacks);
    for (int i = 0; i < s.ndevices; i++)
        fprintf(stderr, "tessera: device %d tasks %llu steals %llu busy %.3f s\n", i,
                (unsigned long long)s.tasks[i], (unsigned long long)s.steals[i], s.busy_s[i]);
}
