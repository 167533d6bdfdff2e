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
#ifdef __cplusplus
}
#endif
#endif
