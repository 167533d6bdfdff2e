/* The largest value the pivots of a GETRF or GESV may hold: its rows.  LASWP on pivots an
 * earlier call is still computing cannot read them to see which rows they name, and LAPACK's
 * A of lda x n may be more than the application has (a view lower down the last columns of
 * its parent): so each factorization's pivot range is remembered with its rows, and LASWP takes
 * no more rows than those.  A table of the latest ranges; a new one replaces those it meets. */
#include <pthread.h>
#include "lapack.h"

#define RANGES 64

static struct {
    const int64_t *p; /* count entries */
    int64_t count, rows;
} ranges[RANGES];
static unsigned next;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static bool meets(int i, const int64_t *p, int64_t count)
{
    return ranges[i].p && ranges[i].p < p + count && p < ranges[i].p + ranges[i].count;
}

void lapack_pivots_submitted(const int64_t *ipiv, int64_t count, int64_t rows)
{
    pthread_mutex_lock(&lock);
    int slot = -1;
    for (int i = 0; i < RANGES; i++)
        if (meets(i, ipiv, count)) {
            ranges[i].p = NULL;
            slot = i;
        }
    if (slot < 0)
        slot = (int)(next++ % RANGES);
    ranges[slot].p = ipiv;
    ranges[slot].count = count;
    ranges[slot].rows = rows;
    pthread_mutex_unlock(&lock);
}

/* Under lock: the rows of the range holding p to last, 0 when none holds both. */
static int64_t rows_of(const int64_t *p, const int64_t *last)
{
    for (int i = 0; i < RANGES; i++)
        if (meets(i, p, 1) && meets(i, last, 1))
            return ranges[i].rows;
    return 0;
}

int64_t lapack_pivots_bound(const int64_t *p, int64_t count, int64_t stride)
{
    pthread_mutex_lock(&lock);
    int64_t bound = rows_of(p, p + (count - 1) * stride);
    if (!bound) /* pivots of several factorizations: each in a range of its own */
        for (int64_t q = 0; q < count; q++) {
            int64_t rows = rows_of(p + q * stride, p + q * stride);
            if (rows == 0) {
                bound = 0;
                break;
            }
            bound = rows > bound ? rows : bound;
        }
    pthread_mutex_unlock(&lock);
    return bound;
}
