/* What every part of the in-place TRSM/TRMM leaf shares: the block's shape,
 * which loop a kernel runs, and the call's arguments, so that the staging,
 * solve, multiply and launch headers agree on them.
 *
 * The leaf works on a diagonal block of at most kern_leaf_max<T>() rows, in
 * sub-blocks of NB = kern_leaf_nb<T>() (trxm_leaf.cuh).  Side left works on
 * the columns of B, side right on its rows: a row b of B with b op(A) is the
 * column op(A)^T b^T, so both sides become the same problem, v := T^-1 v or
 * v := T v for each vector v, with T = op(A) (left) or op(A)^T (right).  T's
 * NB x NB tiles pass through shared memory already transposed and conjugated
 * as needed, with zeros outside the triangle, so the inner loops read them
 * down columns (no bank conflicts) and never branch on the case.  The grid
 * holds just as many blocks as fit on the device at one time, each looping
 * over its share of vectors.  Elements past k are padding (an identity when
 * solving, zeros when multiplying) and are never read from or written to B. */
#ifndef KERN_CUDA_TRXM_LEAF_COMMON_CUH
#define KERN_CUDA_TRXM_LEAF_COMMON_CUH

#include <stdint.h>

namespace
{

constexpr int LEAF_WARPS = 8;
constexpr int THREADS = LEAF_WARPS * 32;

/* Which loop runs: forward or backward solve, lower or upper product. */
enum leaf_op { SOLVE_LOWER, SOLVE_UPPER, MUL_LOWER, MUL_UPPER };

template <leaf_op OP>
__host__ __device__ constexpr bool op_lower()
{
    return OP == SOLVE_LOWER || OP == MUL_LOWER;
}

template <leaf_op OP>
__host__ __device__ constexpr bool op_solve()
{
    return OP == SOLVE_LOWER || OP == SOLVE_UPPER;
}

/* V vectors a warp at a time in W of the block's warps, rows_per_round a
 * block (leaf_launch_v chooses V and W).  Side right passes the rows of B
 * through shared memory rows_per_round at a time. */
template <int V, int W = LEAF_WARPS>
__host__ __device__ constexpr int rows_per_round()
{
    return W * V;
}

template <class T>
struct leaf_args {
    const T *A;
    T *B;
    int64_t lda, ldb, nvec;
    T alpha;
    int k;
    bool tr;   /* T(i,j) = A(j,i) (else A(i,j)) */
    bool cj;   /* conjugate A's elements */
    bool unit; /* unit diagonal: A's diagonal is not read */
};

} // namespace

#endif
