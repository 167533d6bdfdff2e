/* Traces and statistics (trace.c, stats.c). */
#ifndef RT_TRACE_H
#define RT_TRACE_H

#include <stdint.h>
#include "device.h"
#include "tessera.h"

void trace_start(void);
void trace_event(rt_device_t *d, int track, const char *name, int64_t t0);
void trace_span(rt_device_t *d, int track, const char *name, int64_t t0, int64_t t1);
int trace_write(const char *path);
void rt_stats(tess_stats_t *s); /* tess_get_stats, for callers inside the runtime */
void stats_print(void);

#endif
