/* The leaf's multiply, v := T v for each vector v, in every precision on the
 * floating-point units: it has no chain of dependent steps, so it is a small
 * product rather than a copy of the solve.
 *
 * Panels of vectors pass through shared memory, each warp computes T x for
 * VM (8, or 1 with few vectors) of them, lane l rows l, l+32, ..., reading
 * each element of T once for its VM vectors and the elements of x as
 * broadcasts.  The leaves of DTRMM 16384^2 took about 30% less time this way
 * than with the solve's shuffles, and the whole call less too
 * (BENCHMARKS.md).  In double with many vectors, the tensor cores take it
 * (trxm_leaf_dmma.cuh). */
#ifndef KERN_CUDA_TRXM_LEAF_MUL_CUH
#define KERN_CUDA_TRXM_LEAF_MUL_CUH

#include "check.cuh"
#include "scalar.cuh"
#include "trxm_leaf_common.cuh"
#include "trxm_leaf_panels.cuh"
#include "trxm_leaf_tiles.cuh"

namespace
{

/* Multiply: acc[v][r] = (T x_v)(lane + 32 r) for this warp's VM vectors,
 * x_v at sx + v panel_ld.  Each T(i, j) is read from shared memory once for
 * the VM vectors and x_v(j) is a broadcast, so that the loop is bound by
 * the multiply-adds rather than, as the broadcasts of the solve, by moving
 * operands.  T's columns are taken 32 at a time, each with only the groups
 * of 32 rows on the nonzero side of the diagonal, known at compile time, so
 * that the loop has no branch per row group and column (it had, and ncu
 * sampled about a third of its stalls as fixed-latency waits). */
template <class T, int NB, int NBLK, bool LOWER, int VM>
__device__ __forceinline__ void mul_panel(const T *sT, const T *sx, int lane,
                                          T (&acc)[VM][NBLK * (NB / 32)])
{
    constexpr int LDS = NB + 1, KB = NB * NBLK, XR = KB / 32, LDX = panel_ld<KB>(), RPT = NB / 32;
#pragma unroll
    for (int v = 0; v < VM; v++)
#pragma unroll
        for (int r = 0; r < XR; r++)
            acc[v][r] = kzero<T>();
#pragma unroll
    for (int jc = 0; jc < XR; jc++) {
        const int b = jc / RPT; /* T's tile column */
#pragma unroll 4
        for (int jj = 0; jj < 32; jj++) {
            const int j = 32 * jc + jj;
            T xj[VM];
#pragma unroll
            for (int v = 0; v < VM; v++)
                xj[v] = sx[v * LDX + j];
#pragma unroll
            for (int r = 0; r < XR; r++) {
                if (LOWER ? r < jc : r > jc)
                    continue;
                const int c = r / RPT;
                const T t = sT[tile_slot<NBLK, LOWER>(c, b) * NB * LDS + 32 * (r - c * RPT) + lane +
                               (j - b * NB) * LDS];
#pragma unroll
                for (int v = 0; v < VM; v++)
                    acc[v][r] = kfma(t, xj[v], acc[v][r]);
            }
        }
    }
}

/* Multiply: the block's vectors in panels of PV = LEAF_WARPS VM, each
 * multiplied from shared memory (element i of vector v at sx[v panel_ld +
 * i], zeros past k and past the last vector) and written back over itself.
 * The block's next panel is read into registers, pf, while this one is
 * multiplied (pf comes in holding the first); on side left each warp writes
 * its vectors straight from its registers, down B's columns, and on side
 * right they pass through sx to be written along B's rows.  The former
 * kernel read, multiplied and wrote each panel in turn, the reads and writes
 * over a quarter of a panel's time; this one, with mul_panel's loop, takes
 * DTRMM 16384^2's leaf in about a quarter less time, results bit for bit the
 * same, and the whole call a few percent faster (BENCHMARKS.md). */
template <class T, int NB, int NBLK, bool LOWER, bool LEFT, int VM>
__device__ __forceinline__ void mul_vectors(const leaf_args<T> &a, const T *sT, T *sx,
                                            T (&pf)[panel_share<NB * NBLK, rows_per_round<VM>()>()])
{
    constexpr int PV = rows_per_round<VM>();
    constexpr int KB = NB * NBLK, XR = KB / 32, LDX = panel_ld<KB>();
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const int64_t stride = (int64_t)gridDim.x * PV;
    for (int64_t v0 = (int64_t)blockIdx.x * PV; v0 < a.nvec; v0 += stride) {
        __syncthreads(); /* the last panel is done with sx; first, sT is complete */
        put_panel<T, KB, PV, LEFT>(pf, sx);
        __syncthreads();
        if (v0 + stride < a.nvec)
            fetch_panel<T, KB, PV, LEFT>(a, v0 + stride, pf);
        T acc[VM][XR];
        mul_panel<T, NB, NBLK, LOWER, VM>(sT, sx + warp * VM * LDX, lane, acc);
        const int nv = (int)kern_min64(PV, a.nvec - v0);
        if constexpr (LEFT) {
#pragma unroll
            for (int v = 0; v < VM; v++)
#pragma unroll
                for (int r = 0; r < XR; r++) {
                    const int i = 32 * r + lane, vec = warp * VM + v;
                    if (vec < nv && i < a.k)
                        a.B[(v0 + vec) * a.ldb + i] = kmul(a.alpha, acc[v][r]);
                }
        } else {
            __syncwarp(); /* the warp's vectors are read by it alone, and now done */
#pragma unroll
            for (int v = 0; v < VM; v++)
#pragma unroll
                for (int r = 0; r < XR; r++)
                    sx[(warp * VM + v) * LDX + 32 * r + lane] = kmul(a.alpha, acc[v][r]);
            __syncthreads();
            store_panel<T, KB, PV, LEFT>(a, v0, nv, sx);
        }
    }
}

} // namespace

#endif
