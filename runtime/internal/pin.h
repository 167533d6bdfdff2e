/* Page-locking in the background (pinning.c); pin_request is in call.h. */
#ifndef RT_PIN_H
#define RT_PIN_H

#include <stddef.h>

int pin_init(void);
void pin_wait_idle(void);
int pin_unregister(void *p);
void pin_release_inside(const void *p, size_t bytes);
void pin_fini(void);

#endif
