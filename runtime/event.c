/* Each device's events, kept on a free list: a task in flight takes a few
 * and gives them back when it retires, so the backend creates them once. */
#include <stdlib.h>
#include "rt.h"

rt_event_t *event_get(rt_device_t *d)
{
    pthread_mutex_lock(&d->ev_lock);
    rt_event_t *ev = d->free_events;
    if (ev) {
        d->free_events = ev->next;
        pthread_mutex_unlock(&d->ev_lock);
        return ev;
    }
    if (!rt_grow(&d->all_events, &d->capevents, d->nevents, sizeof *d->all_events, 64) ||
        !(ev = calloc(1, sizeof *ev))) {
        pthread_mutex_unlock(&d->ev_lock);
        return NULL;
    }
    ev->dev = d;
    if (d->be->event_init(d, ev)) {
        free(ev);
        pthread_mutex_unlock(&d->ev_lock);
        return NULL;
    }
    d->all_events[d->nevents++] = ev;
    pthread_mutex_unlock(&d->ev_lock);
    return ev;
}

void event_put(rt_event_t *ev)
{
    if (!ev)
        return;
    rt_device_t *d = ev->dev;
    pthread_mutex_lock(&d->ev_lock);
    ev->next = d->free_events;
    d->free_events = ev;
    pthread_mutex_unlock(&d->ev_lock);
}

void event_pool_free(rt_device_t *d)
{
    for (size_t i = 0; i < d->nevents; i++) {
        d->be->event_fini(d->all_events[i]);
        free(d->all_events[i]);
    }
    free(d->all_events);
    d->all_events = NULL;
    d->free_events = NULL;
    d->nevents = d->capevents = 0;
}
