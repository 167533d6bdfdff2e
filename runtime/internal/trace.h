/* Traces and statistics (trace.c, stats.c). */
#ifndef RT_TRACE_H
#define RT_TRACE_H

#include <stdint.h>
#include "device.h"
#include "tessera.h"

/* A device's trace tracks: its streams (RT_S_*), then its worker's, where
 * each issue of a task (from its first transfer queued to its kernel's, a
 * slice "issue" with the task's name in its args) and each wait of the
 * worker for its oldest flight ("wait") is a slice, so that a trace shows
 * what held a task back when its device was idle. */
#define TRACE_WORKER RT_NSTREAMS
#define TRACE_TRACKS (RT_NSTREAMS + 1)

void trace_start(void);
void trace_event(rt_device_t *d, int track, const char *name, int64_t t0);
void trace_span(rt_device_t *d, int track, const char *name, int64_t t0, int64_t t1);
void trace_issue(rt_device_t *d, const char *task, int64_t t0); /* until now */
int trace_write(const char *path);
void rt_stats(tess_stats_t *s); /* tess_get_stats, for callers inside the runtime */
void stats_print(void);

#endif
