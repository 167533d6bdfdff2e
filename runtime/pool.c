/* A device's memory pool: one region carved out at start-up, handed out in
 * 256-byte-aligned extents, first fit, coalesced on free.  Tiles come in few
 * sizes, so the free list stays short. */
#include <stdlib.h>
#include "pool.h"

#define ALIGN 256

typedef struct extent {
    size_t off, len;
    struct extent *next;
} extent_t;

struct pool {
    extent_t *free; /* sorted by offset */
};

pool_t *pool_new(size_t size)
{
    pool_t *p = calloc(1, sizeof *p);
    extent_t *e = calloc(1, sizeof *e);
    if (!p || !e) {
        free(p);
        free(e);
        return NULL;
    }
    e->len = size - size % ALIGN;
    p->free = e;
    return p;
}

void pool_delete(pool_t *p)
{
    if (!p)
        return;
    for (extent_t *e = p->free, *n; e; e = n) {
        n = e->next;
        free(e);
    }
    free(p);
}

static size_t rounded(size_t bytes)
{
    return (bytes + ALIGN - 1) / ALIGN * ALIGN;
}

bool pool_alloc(pool_t *p, size_t bytes, size_t *off)
{
    size_t len = rounded(bytes);
    for (extent_t **pe = &p->free; *pe; pe = &(*pe)->next) {
        extent_t *e = *pe;
        if (e->len < len)
            continue;
        *off = e->off;
        e->off += len;
        e->len -= len;
        if (!e->len) {
            *pe = e->next;
            free(e);
        }
        return true;
    }
    return false;
}

/* Returns false only if the bookkeeping itself could not be allocated; the
 * extent is then lost to the pool, never handed out twice. */
bool pool_free(pool_t *p, size_t off, size_t bytes)
{
    size_t len = rounded(bytes);
    extent_t **pe = &p->free, *prev = NULL;
    while (*pe && (*pe)->off < off) {
        prev = *pe;
        pe = &(*pe)->next;
    }
    extent_t *next = *pe;
    if (prev && prev->off + prev->len == off) {
        prev->len += len;
        if (next && prev->off + prev->len == next->off) {
            prev->len += next->len;
            prev->next = next->next;
            free(next);
        }
        return true;
    }
    if (next && off + len == next->off) {
        next->off = off;
        next->len += len;
        return true;
    }
    extent_t *e = malloc(sizeof *e);
    if (!e)
        return false;
    *e = (extent_t){ .off = off, .len = len, .next = next };
    *pe = e;
    return true;
}
