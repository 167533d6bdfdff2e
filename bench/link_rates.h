/* The host links' rates with several GPUs copying at once: GPUs of one host
 * share its links (on four H200s 150 GB/s in all against 55 for one GPU
 * alone), so a roofline for g GPUs takes the rates of g GPUs copying
 * together, measured in the same run as the cases. */
#ifndef LINK_RATES_H
#define LINK_RATES_H

#include <stddef.h>

typedef struct {
    double h2d, d2h, both; /* GB/s summed over the GPUs; both: each way at once, in all */
} link_rates_t;

/* GPUs 0 to g-1 each copy its own slice of bytes: from src to the device,
 * from the device to dst, then both at once.  src and dst are page-locked,
 * g * bytes each; dst gets src's contents.  The best of reps runs. */
link_rates_t link_rates_measure(int g, const double *src, double *dst, size_t bytes, int reps);

#endif
