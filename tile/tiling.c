#include <stdlib.h>
#include "dtype.h"
#include "tiling.h"

/* Each call picks its tile size.  TESS_NB fixes it.  Otherwise an operand
 * that earlier calls have tiled keeps their tiles (the output first), so
 * that a chain of calls on the same data goes on with no flush.  Otherwise
 * the size comes from the output's shape: the largest of nb, nb/2 and nb/4
 * (nb/8 for complex types, whose tile task does four times the flops of a
 * real one of the same size) that gives the output at least
 * TILES_PER_DEVICE tiles per device, so that every device has work from the
 * start, and an operand whose diagonal the call follows step by step at
 * least CHAIN_PER_DEVICE tiles along it per device, so that the devices
 * overlap the steps of that chain rather than wait on each one; the
 * smallest of them when none does.  Tiles of nb/4 still run near the
 * device's rate, smaller ones do not.  A call with a narrow operand starts
 * the ladder at nb/2: a Householder panel's own factorization, the QR's
 * critical path, costs m nb^2 flops at well under GEMM's rate, so halving the
 * panels halves it, while the updates still run at GEMM's rate.  Its ladder
 * goes on down to NARROW_MIN: a tall-skinny matrix would otherwise be one or
 * two panels, each copied in whole, factored and copied out with nothing to
 * overlap, where narrower panels' copies run beside the other panels' steps. */
#define TILES_PER_DEVICE 4
#define CHAIN_PER_DEVICE 2
#define NARROW_MIN 128
#define MAX_RUNGS 8

static int ladder(kern_type_t t, bool narrow, int64_t nb_max, int64_t *sizes)
{
    int n = kern_dtypes[t].is_complex ? 4 : 3;
    while (narrow && n < MAX_RUNGS && nb_max >> n >= NARROW_MIN)
        n++;
    for (int i = 0; i < n; i++)
        sizes[i] = nb_max >> i > 0 ? nb_max >> i : 1;
    return n;
}

static int64_t tiles_of(const blas_operand_t *o, int64_t nb)
{
    int64_t mt = o->panels ? 1 : (o->m + nb - 1) / nb, nt = o->rows ? 1 : (o->n + nb - 1) / nb;
    return o->tri ? mt * (mt + 1) / 2 : mt * nt;
}

static bool used(const blas_operand_t *o)
{
    return o->ptr && o->m > 0 && o->n > 0;
}

static bool chains_fit(int nops, const blas_operand_t *ops, int64_t nb, int ndev)
{
    for (int i = 0; i < nops; i++)
        if (used(&ops[i]) && ops[i].chain &&
            (ops[i].m + nb - 1) / nb < (int64_t)CHAIN_PER_DEVICE * ndev)
            return false;
    return true;
}

int64_t tiling_pick_nb(kern_type_t t, int nops, const blas_operand_t *ops)
{
    rt_geometry_t geo;
    rt_geometry(&geo);
    if (geo.nb_fixed)
        return geo.nb_max;
    bool narrow = false;
    for (int i = 0; i < nops; i++)
        narrow = narrow || (used(&ops[i]) && ops[i].narrow);
    int64_t sizes[MAX_RUNGS];
    int ns = ladder(t, narrow, geo.nb_max, sizes);
    size_t es = kern_dtypes[t].size;
    for (int i = nops - 1; i >= 0; i--) {
        const blas_operand_t *o = &ops[i];
        for (int s = 0; s < ns && used(o); s++) {
            int64_t nb = sizes[s];
            int64_t bm = o->panels || o->m < nb ? o->m : nb, bn = o->rows || o->n < nb ? o->n : nb;
            if (block_find(o->ptr, bm, bn, o->ld, es))
                return nb;
        }
    }
    const blas_operand_t *out = NULL;
    for (int i = nops - 1; i >= 0 && !out; i--)
        if (used(&ops[i]))
            out = &ops[i];
    int first = narrow && ns > 1 ? 1 : 0;
    for (int s = first; s < ns && out; s++)
        if (tiles_of(out, sizes[s]) >= (int64_t)TILES_PER_DEVICE * geo.ndev &&
            chains_fit(nops, ops, sizes[s], geo.ndev))
            return sizes[s];
    return sizes[ns - 1];
}

void tiling_order_at(const tiling_t *C, int64_t x, int64_t *i, int64_t *j)
{
    int64_t p = C->p, q = C->q;
    tiling_fold_t fold = tiling_fold(C->mt, C->nt, p, q);
    if (fold != TILING_PLAIN) {
        /* dealt: consecutive tiles go to the devices in turn */
        bool t = fold == TILING_TALL;
        *i = t ? x / C->nt : x % C->mt;
        *j = t ? x % C->nt : x / C->mt;
        return;
    }
    for (int64_t p0 = 0; p0 < p; p0++) {
        for (int64_t q0 = 0; q0 < q; q0++) {
            int64_t ma = tiles_homed(C->mt, p0, p), na = tiles_homed(C->nt, q0, q);
            if (x >= ma * na) {
                x -= ma * na;
                continue;
            }
            int64_t a = (x % ma + q0 * ma / q) % ma, b = (x / ma + p0 * na / p) % na;
            *i = p0 + a * p;
            *j = q0 + b * q;
            return;
        }
    }
}

int tiling_make(tiling_t *g, int64_t mb, int64_t nb, const void *ptr, int64_t m, int64_t n,
                int64_t ld, size_t es)
{
    rt_geometry_t geo;
    rt_geometry(&geo);
    g->mb = mb;
    g->p = geo.grid_p;
    g->q = geo.grid_q;
    g->mt = (m + mb - 1) / mb;
    g->nt = (n + nb - 1) / nb;
    g->blk = malloc((size_t)(g->mt * g->nt) * sizeof *g->blk + 1);
    if (!g->blk)
        return TESS_ENOMEM;
    for (int64_t j = 0; j < g->nt; j++) {
        for (int64_t i = 0; i < g->mt; i++) {
            int64_t r = i * mb, c = j * nb;
            char *p = (char *)ptr + ((size_t)r + (size_t)c * (size_t)ld) * es;
            int64_t ti, tj;
            tiling_home(i, j, g->mt, g->nt, g->p, g->q, &ti, &tj);
            rt_block_t *b =
                block_get(p, m - r < mb ? m - r : mb, n - c < nb ? n - c : nb, ld, es, ti, tj);
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
