/* Small utilities the whole runtime uses: growing arrays. */
#include <stdlib.h>
#include <string.h>
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
