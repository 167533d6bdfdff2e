/* Extent allocator over one pre-allocated device region (offsets only). */
#ifndef POOL_H
#define POOL_H

#include <stdbool.h>
#include <stddef.h>

typedef struct pool pool_t;

pool_t *pool_new(size_t size);
void pool_delete(pool_t *p);
bool pool_alloc(pool_t *p, size_t bytes, size_t *off);
bool pool_free(pool_t *p, size_t off, size_t bytes);

#endif
