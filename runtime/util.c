/* Small utilities the whole runtime uses: growing arrays and the clock. */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "rt.h"

bool rt_grow(void *arr, size_t *cap, size_t n, size_t size, size_t first)
{
    if (n < *cap)
        return true;
    size_t nc = *cap ? 2 * *cap : first;
    void *old, *p;
    memcpy(&old, arr, sizeof old);
    if (!(p = realloc(old, nc * size)))
        return false;
    memcpy(arr, &p, sizeof p);
    *cap = nc;
    return true;
}

int64_t rt_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}
