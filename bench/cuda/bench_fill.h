/* Random device data for the kernel benchmark (bench_fill.cu). */
#ifndef BENCH_FILL_H
#define BENCH_FILL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif
/* reals numbers (2 per complex element), uniform in [-scale, scale]; 0 or -1 */
int bench_fill(void *p, size_t reals, uint64_t seed, double scale, int is_float);
/* adds v to the real part of the n diagonal elements of the matrix at p */
int bench_add_diag(void *p, int64_t n, int64_t ld, double v, int reals_per_elem, int is_float);
/* queues a read of the bytes at p (16-byte aligned; rounded down to a
 * multiple of 16) on stream s, at the best rate the benchmark knows for a
 * read; 0 or -1 */
int bench_read_async(const void *p, size_t bytes, void *stream);
/* reads the bytes at p (a multiple of 16) on stream s and waits for it: what
 * stood in the L2 cache is evicted, and no write-back is left pending */
int bench_evict_l2(const void *p, size_t bytes, void *stream);
#ifdef __cplusplus
}
#endif
#endif
