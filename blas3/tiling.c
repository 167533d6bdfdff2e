#include <stdlib.h>
#include "tiling.h"

int tiling_make(tiling_t *g, const void *ptr, int64_t m, int64_t n, int64_t ld, size_t es)
{
    int64_t nb = rt.cfg.nb;
    g->mt = tiles_of(m);
    g->nt = tiles_of(n);
    g->blk = malloc((size_t)(g->mt * g->nt) * sizeof *g->blk + 1);
    if (!g->blk)
        return TESS_ENOMEM;
    for (int64_t j = 0; j < g->nt; j++) {
        for (int64_t i = 0; i < g->mt; i++) {
            int64_t r = i * nb, c = j * nb;
            char *p = (char *)ptr + ((size_t)r + (size_t)c * (size_t)ld) * es;
            rt_block_t *b =
                block_get(p, m - r < nb ? m - r : nb, n - c < nb ? n - c : nb, ld, es, i, j);
            if (!b) {
                tiling_free(g);
                return TESS_ENOMEM;
            }
            g->blk[i + j * g->mt] = b;
        }
    }
    if (m > 0 && n > 0)
        pin_request((void *)ptr, block_span_bytes(m, n, ld, es), false);
    return 0;
}

void tiling_free(tiling_t *g)
{
    free(g->blk);
    g->blk = NULL;
}
