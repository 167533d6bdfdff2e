/* The leaf's solve, v := T^-1 v for each vector v: a chain of dependent
 * steps, each a broadcast and a multiply-add, so that it keeps its vectors in
 * registers and has loops of its own rather than the multiply's panels.
 *
 * One warp owns V vectors, kept in registers: lane l holds elements l, l+32,
 * ...; each step broadcasts an element to the warp through shared memory
 * (warp_bcast) and updates the others.  On side right the rows of B pass
 * through shared memory RT at a time, so that B is read and written in
 * coalesced column segments rather than one element per row.
 *
 * A solve with few vectors (DTRSM m = 16384 with 1024 right-hand sides)
 * spends most of its time in cuBLAS's products; its leaves spend about two
 * fifths of theirs staging T and the rest on the vectors, bound by the
 * multiprocessor's shared-memory reads and shuffles, not by the chain of
 * dependent steps.  Taking the steps four at a time (shorter chain, same
 * reads) and rolling the step loops (less code) changed nothing measurable
 * and were dropped.
 *
 * The recursion's leaf was a block of one tile (NBLK = 1), each warp
 * carrying two vectors through the chain of dependent steps at once.  It is
 * bound by shared-memory reads and shuffles, taking about eight times as long
 * as moving B.  A thread-per-vector leaf (T read as broadcasts, no shuffles)
 * lost everywhere but the side-right leaf, running below cuBLAS where this
 * one runs above it (BENCHMARKS.md). */
#ifndef KERN_CUDA_TRXM_LEAF_SOLVE_CUH
#define KERN_CUDA_TRXM_LEAF_SOLVE_CUH

#include "check.cuh"
#include "scalar.cuh"
#include "trxm_leaf_common.cuh"
#include "trxm_leaf_panels.cuh"
#include "trxm_leaf_tiles.cuh"

namespace
{

/* out[v] = x[v] of lane src, for every lane of the warp, through the
 * warp's 2 V elements of shared memory sbc, half of them in turn (parity,
 * alternating from one call to the next): src stores its V elements and
 * every lane reads them.  A shuffle moves 4 bytes a lane, so that V doubles
 * take 2 V of them; this way V / 2 16-byte stores and as many reads.  The
 * two-tile DTRSM leaf over 16384 vectors (4 a warp) ran about a tenth faster
 * this way than with shuffles on either side, and 8 vectors a warp gained
 * nothing more (BENCHMARKS.md).  The parity alternates safely because each
 * caller's loop runs an even number of steps (NB) from parity 0, so
 * consecutive calls never share a slot. */
template <class T, int V>
__device__ __forceinline__ void warp_bcast(const T (&x)[V], int src, int lane, T *sbc, int parity,
                                           T (&out)[V])
{
    T *const slot = sbc + parity * V;
    if (lane == src) {
#pragma unroll
        for (int v = 0; v < V; v++)
            slot[v] = x[v];
    }
    __syncwarp();
#pragma unroll
    for (int v = 0; v < V; v++)
        out[v] = slot[v];
}

/* x[v] := T^-1 x[v] for one diagonal tile staged in sT with its columns
 * divided by their diagonal element (store_tile), the inverted
 * diagonal in sdinv; lane holds element lane + 32 r of vector v in x[v][r].
 * With y_j the running value of x_j, x_j = y_j / T(j,j) and the rows below
 * (lower) or above (upper) j take y_i -= (T(i,j) / T(j,j)) y_j, so that the
 * chain of dependent steps is a broadcast and a multiply-add; the division
 * comes at the end, off the chain.  Groups of 32 rows with nothing left to
 * update are skipped at compile time. */
template <class T, int NB, int V, leaf_op OP>
__device__ __forceinline__ void tile_vectors(T (&x)[V][NB / 32], const T *sT, const T *sdinv,
                                             int lane, T *sbc)
{
    constexpr int LDS = NB + 1, R = NB / 32;
    constexpr bool LOWER = op_lower<OP>();
    static_assert(NB % 2 == 0, "warp_bcast's parity starts at 0 each call");
#pragma unroll
    for (int s = 0; s < NB; s++) {
        const int j = LOWER ? s : NB - 1 - s;
        T own[V], yj[V];
#pragma unroll
        for (int v = 0; v < V; v++)
            own[v] = x[v][j / 32];
        warp_bcast<T, V>(own, j % 32, lane, sbc, s & 1, yj);
#pragma unroll
        for (int r = 0; r < R; r++)
            if (LOWER ? 32 * r + 31 > j : 32 * r < j) {
                const T t = sT[lane + 32 * r + j * LDS];
#pragma unroll
                for (int v = 0; v < V; v++)
                    x[v][r] = kfms(t, yj[v], x[v][r]);
            }
    }
#pragma unroll
    for (int v = 0; v < V; v++)
#pragma unroll
        for (int r = 0; r < R; r++)
            x[v][r] = kmul(x[v][r], sdinv[lane + 32 * r]);
}

/* acc[v] += T(c,b) x_b[v] for the off-diagonal tile at tile, x_b final in
 * x: each lane writes its elements of x_b to the warp's slots in sbc (32 V,
 * bcast_slots), 32 columns at a time, and every step reads its column's V
 * elements there as broadcasts.  Unlike warp_bcast's, these reads wait on
 * no store of their own step, so they can be issued ahead of the
 * multiply-adds.  The two-tile DTRSM leaf over 16384 vectors ran about 7%
 * faster this way than with warp_bcast here, on either side, and DTRSM
 * 16384^2 slightly faster (BENCHMARKS.md). */
template <class T, int NB, int V>
__device__ __forceinline__ void offdiag_vectors(const T (&xb)[V][NB / 32], const T *tile, int lane,
                                                T *sbc, T (&acc)[V][NB / 32])
{
    constexpr int LDS = NB + 1, R = NB / 32;
#pragma unroll
    for (int h = 0; h < R; h++) {
        __syncwarp(); /* the warp is done reading sbc */
#pragma unroll
        for (int v = 0; v < V; v++)
            sbc[lane * V + v] = xb[v][h];
        __syncwarp();
#pragma unroll
        for (int jj = 0; jj < 32; jj++) {
            const int j = 32 * h + jj;
            T xj[V];
#pragma unroll
            for (int v = 0; v < V; v++)
                xj[v] = sbc[jj * V + v];
#pragma unroll
            for (int r = 0; r < R; r++) {
                const T t = tile[lane + 32 * r + j * LDS];
#pragma unroll
                for (int v = 0; v < V; v++)
                    acc[v][r] = kfma(t, xj[v], acc[v][r]);
            }
        }
    }
    __syncwarp(); /* before tile_vectors' broadcasts reuse sbc */
}

/* x[v] := T^-1 x[v] over the NBLK sub-blocks, their tiles in sT: a
 * lower T walks the sub-blocks forward, an upper one backward, so that
 * every x_b that sub-block c reads is final; x_c -= T(c,b) x_b for those,
 * then x_c := T(c,c)^-1 x_c. */
template <class T, int NB, int NBLK, leaf_op OP, int V>
__device__ __forceinline__ void block_vectors(T (&x)[V][NBLK * (NB / 32)], const T *sT,
                                              const T *sdinv, int lane, T *sbc)
{
    constexpr int LDS = NB + 1, R = NB / 32;
    constexpr bool LOWER = op_lower<OP>();
#pragma unroll
    for (int s = 0; s < NBLK; s++) {
        const int c = LOWER ? s : NBLK - 1 - s;
        T acc[V][R];
#pragma unroll
        for (int v = 0; v < V; v++)
#pragma unroll
            for (int r = 0; r < R; r++)
                acc[v][r] = kzero<T>();
#pragma unroll
        for (int b = 0; b < NBLK; b++) {
            if (b == c || !tile_in_block<LOWER>(c, b))
                continue;
            T xb[V][R];
#pragma unroll
            for (int v = 0; v < V; v++)
#pragma unroll
                for (int r = 0; r < R; r++)
                    xb[v][r] = x[v][b * R + r];
            offdiag_vectors<T, NB, V>(xb, sT + tile_slot<NBLK, LOWER>(c, b) * NB * LDS, lane, sbc,
                                      acc);
        }
        T xc[V][R];
#pragma unroll
        for (int v = 0; v < V; v++)
#pragma unroll
            for (int r = 0; r < R; r++)
                xc[v][r] =
                    NBLK == 1 ? x[v][c * R + r] : kfms(kone<T>(), acc[v][r], x[v][c * R + r]);
        tile_vectors<T, NB, V, OP>(xc, sT + tile_slot<NBLK, LOWER>(c, c) * NB * LDS, sdinv + c * NB,
                                   lane, sbc);
#pragma unroll
        for (int v = 0; v < V; v++)
#pragma unroll
            for (int r = 0; r < R; r++)
                x[v][c * R + r] = xc[v][r];
    }
}

/* Elements of shared memory a solve's warp broadcasts through: warp_bcast's
 * 2 V, or with two sub-blocks a column of 32 vectors' worth for
 * offdiag_vectors, which reuses warp_bcast's slots. */
template <int NBLK, int V>
__host__ __device__ constexpr int bcast_slots()
{
    return NBLK > 1 ? 32 * V : 2 * V;
}

/* ... and a block's solve. */
template <leaf_op OP, int NBLK, int V, int W>
__host__ __device__ constexpr int bcast_elems()
{
    return op_solve<OP>() ? bcast_slots<NBLK, V>() * W : 0;
}

/* Solve: one warp carries V vectors at a time in registers (element
 * lane + 32 r of vector v in x[v][r]), read and written in place on side
 * left; on side right rounds of RT rows of B pass through shared memory sB,
 * warp w taking rows w V..  Only the first W warps carry vectors, warp w
 * broadcasting through sbc + bcast_slots w. */
template <class T, int NB, int NBLK, leaf_op OP, bool LEFT, int V, int W>
__device__ __forceinline__ void solve_vectors(const leaf_args<T> &a, const T *sT, const T *sdinv,
                                              T *sbc, T *sB)
{
    constexpr int KB = NB * NBLK, XR = KB / 32, LDB = panel_ld<KB>(), RT = rows_per_round<V, W>();
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    T *const wbc = sbc + bcast_slots<NBLK, V>() * warp;
    T x[V][XR];
    if constexpr (LEFT) {
        if (warp >= W)
            return;
        const int64_t stride = (int64_t)gridDim.x * W * V;
        for (int64_t v0 = ((int64_t)blockIdx.x * W + warp) * V; v0 < a.nvec; v0 += stride) {
#pragma unroll
            for (int v = 0; v < V; v++) {
                const T *b = a.B + kern_min64(v0 + v, a.nvec - 1) * a.ldb;
#pragma unroll
                for (int r = 0; r < XR; r++) {
                    const int i = lane + 32 * r;
                    x[v][r] = i < a.k && v0 + v < a.nvec ? kmul(a.alpha, b[i]) : kzero<T>();
                }
            }
            block_vectors<T, NB, NBLK, OP, V>(x, sT, sdinv, lane, wbc);
#pragma unroll
            for (int v = 0; v < V; v++) {
                T *b = a.B + (v0 + v) * a.ldb;
#pragma unroll
                for (int r = 0; r < XR; r++) {
                    const int i = lane + 32 * r;
                    if (i < a.k && v0 + v < a.nvec)
                        b[i] = x[v][r];
                }
            }
        }
    } else {
        for (int64_t row0 = (int64_t)blockIdx.x * RT; row0 < a.nvec;
             row0 += (int64_t)gridDim.x * RT) {
            const int rows = (int)kern_min64(RT, a.nvec - row0);
            load_panel<T, KB, RT, false>(a, row0, rows, sB);
            __syncthreads();
            if (warp < W) {
#pragma unroll
                for (int v = 0; v < V; v++)
#pragma unroll
                    for (int r = 0; r < XR; r++) {
                        const int i = lane + 32 * r, rr = warp * V + v;
                        x[v][r] =
                            i < a.k && rr < rows ? kmul(a.alpha, sB[rr * LDB + i]) : kzero<T>();
                    }
                block_vectors<T, NB, NBLK, OP, V>(x, sT, sdinv, lane, wbc);
#pragma unroll
                for (int v = 0; v < V; v++)
#pragma unroll
                    for (int r = 0; r < XR; r++) {
                        const int i = lane + 32 * r, rr = warp * V + v;
                        if (i < a.k && rr < rows)
                            sB[rr * LDB + i] = x[v][r];
                    }
            }
            __syncthreads();
            store_panel<T, KB, RT, false>(a, row0, rows, sB);
            __syncthreads(); /* sB is refilled next round */
        }
    }
}

} // namespace

#endif
