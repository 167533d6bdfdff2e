/* The host backend's copy streams and its events, with CUDA's semantics.
 *
 * A stream runs its operations in order on a thread of its own.  An event
 * counts its recordings: a record takes the next generation and completes it
 * when its stream reaches it; a wait holds its stream back until the
 * generation current when the wait was queued has completed.  An event is
 * recorded again only once its last recording has completed (the runtime's
 * events return to their free list complete; anything else is refused with
 * TESS_EINTERNAL), so that a wait never ends early on a later recording.  An
 * event never recorded is complete.
 *
 * Failures inside a stream's thread stick to the stream: its later
 * operations return them, and so do the events it completes. */
#ifndef HOST_STREAM_H
#define HOST_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct hs_event hs_event_t;
typedef struct hs_stream hs_stream_t;

int hs_event_new(hs_event_t **e);
void hs_event_free(hs_event_t *e);
/* Records e and completes it at once: a stream whose work runs as queued. */
int hs_event_complete(hs_event_t *e);
int hs_event_done(hs_event_t *e, bool *done);
int hs_event_sync(hs_event_t *e);     /* blocks until its latest recording completes */
int64_t hs_event_time(hs_event_t *e); /* rt_now_ns() when that completed */

/* ns_per_byte > 0: each copy lasts at least that long per byte, a slow link. */
int hs_stream_start(hs_stream_t **s, double ns_per_byte);
int hs_stream_drain(hs_stream_t *s); /* blocks until everything queued has run */
/* Runs what is queued, ends the thread and frees s; returns the thread's
 * failure, if any (s is left alone when it cannot be stopped). */
int hs_stream_stop(hs_stream_t *s);
int hs_record(hs_stream_t *s, hs_event_t *e);
int hs_wait(hs_stream_t *s, hs_event_t *e);
/* height columns of width bytes, dpitch and spitch bytes apart */
int hs_copy(hs_stream_t *s, void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
            size_t height);

#endif
