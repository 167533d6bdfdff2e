/* The leaf kernel of every precision: T's tiles staged once a block, then the
 * solve's or the multiply's loop over the block's vectors.  Its shared memory
 * and the register cap that follows from it are here too, since the kernel's
 * launch bounds need them. */
#ifndef KERN_CUDA_TRXM_LEAF_KERNEL_CUH
#define KERN_CUDA_TRXM_LEAF_KERNEL_CUH

#include "trxm_leaf_common.cuh"
#include "trxm_leaf_mul.cuh"
#include "trxm_leaf_panels.cuh"
#include "trxm_leaf_solve.cuh"
#include "trxm_leaf_tiles.cuh"

namespace
{

/* Bytes of shared memory: the block's tiles, their inverted diagonals, the
 * solve's broadcast slots, and a panel of vectors (multiply) or on side
 * right a round of rows of B (solve). */
template <class T, int NB, int NBLK, leaf_op OP, bool LEFT, int V, int W>
constexpr size_t leaf_smem()
{
    constexpr size_t staged = op_solve<OP>() && LEFT ? 0 : rows_per_round<V, W>();
    return sizeof(T) * ((size_t)block_tiles<NBLK>() * NB * (NB + 1) + NBLK * NB +
                        bcast_elems<OP, NBLK, V, W>() + staged * panel_ld<NB * NBLK>());
}

/* Blocks a multiprocessor that a kernel's registers are capped for: two
 * where shared memory holds two (128 registers a thread), else one.  Holding
 * every element being staged took the two-tile kernels 130-136 registers,
 * one block a multiprocessor, until capped at 128 (a few bytes spilled):
 * the cap took the single leaf of DTRSM m = 64, n = 16384 about an eighth
 * further ahead of cuBLAS, the rest unchanged (BENCHMARKS.md).  The two-tile
 * multiply with 8 vectors a warp and the two-tile solves on side right (in
 * double and complex float) have the shared memory of one block only, so
 * the cap would buy nothing: the multiply takes the registers it needs to
 * hold its next panel.  The figures are Hopper's (228 KB a multiprocessor,
 * 1 KB of it reserved a block), the machine the kernels are built for. */
template <class T, int NB, int NBLK, leaf_op OP, bool LEFT, int V, int W>
constexpr int leaf_min_blocks()
{
    return 2 * (leaf_smem<T, NB, NBLK, OP, LEFT, V, W>() + 1024) <= 228 * 1024 ? 2 : 1;
}

/* Element i of vector vec: B(i, vec) on side left, B(vec, i) on side right.
 * T's tiles are staged once per thread block, which then loops over its
 * share of vectors, V a warp at a time (in W warps when solving). */
template <class T, int NB, int NBLK, leaf_op OP, bool LEFT, int V, int W>
__global__ void __launch_bounds__(THREADS, (leaf_min_blocks<T, NB, NBLK, OP, LEFT, V, W>()))
    trxm_leaf_kernel(leaf_args<T> a)
{
    static_assert(op_solve<OP>() || W == LEAF_WARPS, "a multiply uses every warp");
    constexpr int LDS = NB + 1; /* keeps the transposed stores conflict-free */
    constexpr bool LOWER = op_lower<OP>();
    extern __shared__ __align__(16) unsigned char smem_raw[];
    T *const sT = reinterpret_cast<T *>(smem_raw);
    T *const sdinv = sT + block_tiles<NBLK>() * NB * LDS;
    T *const sbc = sdinv + NBLK * NB;
    T *const staged = sbc + bcast_elems<OP, NBLK, V, W>();

    /* every read of A is issued before the first store, so that staging
     * waits for memory once: staging tile by tile and then dividing the
     * diagonal tiles' columns in a pass of their own took about 45% longer
     * (BENCHMARKS.md) */
    T av[block_tiles<NBLK>()][tile_map<T, NB>::STAGE];
    load_tiles<T, NB, NBLK, OP>(a, av);
    if constexpr (op_solve<OP>()) {
        load_diagonal<T, NB, NBLK>(a, sdinv);
        __syncthreads();
        stage_tiles<T, NB, NBLK, OP>(a, av, sT, sdinv);
        /* Launched to overlap the kernel before it (programmatic dependent
         * launch), which may still be writing B, though never A; otherwise
         * a no-op. */
        cudaGridDependencySynchronize();
        __syncthreads();
        solve_vectors<T, NB, NBLK, OP, LEFT, V, W>(a, sT, sdinv, sbc, staged);
    } else {
        /* the first panel is read while the tiles are stored */
        cudaGridDependencySynchronize();
        constexpr int KB = NB * NBLK, PV = rows_per_round<V>();
        T pf[panel_share<KB, PV>()];
        fetch_panel<T, KB, PV, LEFT>(a, (int64_t)blockIdx.x * PV, pf);
        stage_tiles<T, NB, NBLK, OP>(a, av, sT, sdinv);
        mul_vectors<T, NB, NBLK, LOWER, LEFT, V>(a, sT, staged, pf);
    }
}

} // namespace

#endif
