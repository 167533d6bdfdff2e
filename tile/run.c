/* What every routine's call goes through: its operands tiled while it
 * submits, inside the runtime (rt_enter, so that tess_finalize waits for the
 * call). */
#include <stdint.h>
#include "call.h"
#include "tile.h"

/* The largest tile side: the device libraries (cuSOLVER's and the host LAPACK's 32-bit
 * interfaces, cuBLAS's) take a tile's rows, columns and leading dimension as an int, which
 * only an operand cut into whole-height or whole-width panels can exceed. */
#define TILE_MAX_SIDE INT32_MAX

static bool sides_fit(const blas_operand_t *o)
{
    return (!o->panels || o->m <= TILE_MAX_SIDE) && (!o->rows || o->n <= TILE_MAX_SIDE);
}

int blas_run(kern_type_t t, int nops, const blas_operand_t *ops,
             int (*submit)(kern_type_t t, const tiling_t *g, const void *call), const void *call)
{
    size_t es = kern_dtypes[t].size;
    tiling_t g[BLAS_MAX_OPERANDS] = { { 0 } };
    if (nops > BLAS_MAX_OPERANDS)
        return TESS_EINTERNAL;
    /* an operand beyond the address space would overflow its tiling */
    for (int i = 0; i < nops; i++)
        if (ops[i].ptr && (!block_view_fits(ops[i].ptr, ops[i].m, ops[i].n, ops[i].ld, es) ||
                           !sides_fit(&ops[i])))
            return TESS_ENOMEM;
    int err = rt_enter();
    if (err)
        return err;
    rt_submit_begin();
    int64_t nb = tiling_pick_nb(t, nops, ops);
    for (int i = 0; i < nops; i++)
        g[i].nb = g[i].mb = nb;
    for (int i = 0; i < nops && !err; i++)
        if (ops[i].ptr && ops[i].m > 0 && ops[i].n > 0)
            err = tiling_make(&g[i], ops[i].panels ? ops[i].m : nb, ops[i].rows ? ops[i].n : nb,
                              ops[i].ptr, ops[i].m, ops[i].n, ops[i].ld, es);
    if (!err)
        err = submit(t, g, call);
    rt_submit_end();
    for (int i = 0; i < nops; i++)
        tiling_free(&g[i]);
    rt_leave();
    return err;
}
