/* The Chrome trace (TESS_TRACE): spans per device and stream, written at
 * finalize. */
#include <stdio.h>
#include <stdlib.h>
#include "rt.h"

static int64_t t_origin;

void trace_start(void)
{
    t_origin = rt_now_ns();
}

/* A device's tracks are its streams and its worker's (trace.h).  Only the
 * device's own worker records into its buffer, so no lock is needed; an event that finds no
 * memory is dropped from the trace, never from the run. */
static void record(rt_device_t *d, int track, const char *name, const char *task, int64_t t0,
                   int64_t t1)
{
    if (!rt.cfg.trace)
        return;
    if (!rt_grow(&d->trace, &d->captrace, d->ntrace, sizeof *d->trace, 4096))
        return;
    d->trace[d->ntrace++] = (rt_trace_ev_t){ t0 - t_origin, t1 - t0, name, task, track };
}

void trace_span(rt_device_t *d, int track, const char *name, int64_t t0, int64_t t1)
{
    record(d, track, name, NULL, t0, t1);
}

void trace_issue(rt_device_t *d, const char *task, int64_t t0)
{
    record(d, TRACE_WORKER, "issue", task, t0, rt_now_ns());
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
        for (int track = 0; track < TRACE_TRACKS; track++) {
            static const char *copy_names[RT_S_COMPUTE] = { "h2d", "d2h", "peer" };
            bool compute = track >= RT_S_COMPUTE && track < TRACE_WORKER;
            fprintf(f,
                    "%s{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":0,\"tid\":%d,"
                    "\"args\":{\"name\":\"%s%d %s",
                    sep, TRACE_TRACKS * i + track, d->be->name, i,
                    track < RT_S_COMPUTE ? copy_names[track]
                    : compute            ? "compute "
                                         : "worker");
            if (compute)
                fprintf(f, "%d", track - RT_S_COMPUTE);
            fprintf(f, "\"}}");
            sep = ",\n";
        }
        for (size_t k = 0; k < d->ntrace; k++) {
            const rt_trace_ev_t *e = &d->trace[k];
            fprintf(
                f, ",\n{\"name\":\"%s\",\"ph\":\"X\",\"pid\":0,\"tid\":%d,\"ts\":%.3f,\"dur\":%.3f",
                e->name, TRACE_TRACKS * i + e->track, e->ts_ns / 1e3, e->dur_ns / 1e3);
            if (e->task)
                fprintf(f, ",\"args\":{\"task\":\"%s\"}", e->task);
            fprintf(f, "}");
        }
    }
    fprintf(f, "\n]}\n");
    return fclose(f) ? TESS_ECONFIG : 0;
}
