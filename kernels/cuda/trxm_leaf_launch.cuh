/* The leaf's launch policy: which kernel takes a case, how many vectors its
 * warps carry and how many blocks run, and kern_trxm_leaf on top, which each
 * precision's translation unit (trxm_leaf_{s,d,c,z}.cu) instantiates. */
#ifndef KERN_CUDA_TRXM_LEAF_LAUNCH_CUH
#define KERN_CUDA_TRXM_LEAF_LAUNCH_CUH

#include <atomic>
#include <type_traits>

#include "check.cuh"
#include "trxm_leaf.cuh"
#include "trxm_leaf_common.cuh"
#include "trxm_leaf_dmma.cuh"
#include "trxm_leaf_kernel.cuh"

namespace
{

/* Kernel on as many blocks as the device holds at once, never more than there
 * is work for (per_block vectors a block), with smem bytes of shared memory;
 * the shared-memory limit, a device's, is set and the occupancy asked once
 * per kernel and device. */
template <auto Kernel, class T>
int leaf_launch(cudaStream_t s, const leaf_args<T> &a, const kern_device &dev, size_t smem,
                int64_t per_block, bool overlap)
{
    static std::atomic<int> per_sm_of[TESS_MAX_DEVICES];
    int per_sm;
    const int err = kern_blocks_per_sm(Kernel, THREADS, smem, dev.id, per_sm_of, &per_sm);
    if (err)
        return err;
    const int64_t blocks = kern_min64((int64_t)per_sm * dev.nsm, kern_cdiv64(a.nvec, per_block));
    return kern_launch(Kernel, dim3((unsigned)blocks), dim3(THREADS), smem, s,
                       overlap ? KERN_LAUNCH_OVERLAP : KERN_LAUNCH_PLAIN, a);
}

/* trxm_leaf_kernel with V vectors a warp in W warps. */
template <class T, int NB, int NBLK, leaf_op OP, bool LEFT, int V, int W>
int leaf_launch_vw(cudaStream_t s, const leaf_args<T> &a, const kern_device &dev, bool overlap)
{
    return leaf_launch<trxm_leaf_kernel<T, NB, NBLK, OP, LEFT, V, W>>(
        s, a, dev, leaf_smem<T, NB, NBLK, OP, LEFT, V, W>(), rows_per_round<V, W>(), overlap);
}

/* Vectors a warp and warps that carry them (rows_per_round): fewer when
 * the most would leave multiprocessors without a block.
 *
 * A multiply takes 8 vectors a warp, in double on the tensor cores
 * (trxm_leaf_dmma.cuh), or 1 when 8 would leave multiprocessors without a
 * block: with few vectors it wants the blocks more than the reuse of T
 * (DTRMM m = 16384 with 64 to 1024 vectors took up to a third less time,
 * 16384^2 the same; BENCHMARKS.md).
 *
 * A solve takes 4 vectors a warp in every warp when that leaves no
 * multiprocessor without a block, else 2, or 2 in half of the warps, so that
 * there are as many blocks as with one vector a warp.  A block is bound by
 * its multiprocessor's shared-memory traffic (each warp reads the whole
 * triangle of T for its vectors, and broadcasts each element as it is
 * solved), and more vectors a warp share the reads: with shuffles for the
 * broadcasts, the two-tile leaf over 16384 vectors ran faster with 4 a warp
 * than with 2 or 3, but over 1024 vectors slower when 4 a warp left blocks
 * out (BENCHMARKS.md). */
template <class T, int NB, int NBLK, leaf_op OP, bool LEFT>
int leaf_launch_v(cudaStream_t s, const leaf_args<T> &a, const kern_device &dev, bool overlap)
{
    if constexpr (op_solve<OP>()) {
        if (a.nvec >= (int64_t)rows_per_round<4>() * dev.nsm)
            return leaf_launch_vw<T, NB, NBLK, OP, LEFT, 4, LEAF_WARPS>(s, a, dev, overlap);
        if (a.nvec >= (int64_t)rows_per_round<2>() * dev.nsm)
            return leaf_launch_vw<T, NB, NBLK, OP, LEFT, 2, LEAF_WARPS>(s, a, dev, overlap);
        return leaf_launch_vw<T, NB, NBLK, OP, LEFT, 2, LEAF_WARPS / 2>(s, a, dev, overlap);
    } else {
        if (a.nvec >= (int64_t)rows_per_round<8>() * dev.nsm) {
            if constexpr (std::is_same<T, double>::value) {
                using L = dmma_leaf<NB * NBLK>;
                return leaf_launch<trxm_leaf_dmma_kernel<NB, NBLK, OP, LEFT>>(s, a, dev, L::smem(),
                                                                              L::PV, overlap);
            } else {
                return leaf_launch_vw<T, NB, NBLK, OP, LEFT, 8, LEAF_WARPS>(s, a, dev, overlap);
            }
        }
        return leaf_launch_vw<T, NB, NBLK, OP, LEFT, 1, LEAF_WARPS>(s, a, dev, overlap);
    }
}

/* The one-tile kernels for k <= NB, else the two-tile ones. */
template <class T, leaf_op OP>
int leaf_launch_case(bool left, bool one_tile, cudaStream_t s, const leaf_args<T> &a, bool overlap)
{
    constexpr int NB = kern_leaf_nb<T>(), NBLK = kern_leaf_max<T>() / NB;
    kern_device dev;
    const int err = kern_current_device(&dev);
    if (err)
        return err;
    if (one_tile)
        return left ? leaf_launch_v<T, NB, 1, OP, true>(s, a, dev, overlap)
                    : leaf_launch_v<T, NB, 1, OP, false>(s, a, dev, overlap);
    return left ? leaf_launch_v<T, NB, NBLK, OP, true>(s, a, dev, overlap)
                : leaf_launch_v<T, NB, NBLK, OP, false>(s, a, dev, overlap);
}

} // namespace

template <class T>
int kern_trxm_leaf(cudaStream_t s, bool solve, tess_side_t side, tess_uplo_t uplo,
                   tess_trans_t trans, tess_diag_t diag, int64_t k, int64_t nvec, T alpha,
                   const T *A, int64_t lda, T *B, int64_t ldb, bool overlap)
{
    if (k <= 0 || nvec <= 0)
        return 0;
    if (k > kern_leaf_max<T>())
        return TESS_EINTERNAL;
    const bool left = side == TessLeft, one_tile = k <= kern_leaf_nb<T>();
    leaf_args<T> a;
    a.A = A;
    a.B = B;
    a.lda = lda;
    a.ldb = ldb;
    a.nvec = nvec;
    a.alpha = alpha;
    a.k = (int)k;
    a.tr = left ? trans != TessNoTrans : trans == TessNoTrans;
    a.cj = trans == TessConjTrans;
    a.unit = diag == TessUnit;
    const bool lower = (uplo == TessLower) != a.tr; /* is T lower triangular */
    if (solve)
        return lower ? leaf_launch_case<T, SOLVE_LOWER>(left, one_tile, s, a, overlap)
                     : leaf_launch_case<T, SOLVE_UPPER>(left, one_tile, s, a, overlap);
    return lower ? leaf_launch_case<T, MUL_LOWER>(left, one_tile, s, a, overlap)
                 : leaf_launch_case<T, MUL_UPPER>(left, one_tile, s, a, overlap);
}

/* One translation unit per precision (trxm_leaf_{s,d,c,z}.cu), so that the
 * four compile in parallel. */
#define KERN_LEAF_INSTANCE(T)                                                                      \
    template int kern_trxm_leaf<T>(cudaStream_t, bool, tess_side_t, tess_uplo_t, tess_trans_t,     \
                                   tess_diag_t, int64_t, int64_t, T, const T *, int64_t, T *,      \
                                   int64_t, bool);

#endif
