/* In-place triangular solve and multiply on a diagonal block of at most 64.
 *
 * Side left works on the columns of B, side right on its rows: a row b of B
 * with b op(A) is the column op(A)^T b^T, so both sides become the same
 * problem, v := T^-1 v or v := T v for each vector v, with T = op(A) (left)
 * or op(A)^T (right).  The block stages T once in shared memory, already
 * transposed and conjugated as needed, with zeros outside the triangle, so
 * the inner loops read it down columns (no bank conflicts) and never branch
 * on the case.  One warp owns a vector, kept in registers: lane l holds
 * elements l, l+32, ...; each step broadcasts the element just finished with a
 * shuffle and updates the others.  The solve is a chain of dependent steps,
 * so each warp carries two vectors through it at once, and the grid holds
 * just as many blocks as fit on the device at one time, each looping over
 * its share of vectors (T is staged once per block, not once per vector).
 * On side right the rows of B pass through shared memory 16 at a time, so
 * that B is read and written in coalesced column segments rather than one
 * element per row.  A block of size k < NB is padded to NB with an identity
 * (solve) or zeros (multiply); padded elements are never read from or
 * written to B.
 *
 * The leaf is bound by shared-memory reads of T and shuffles (about 32 us for
 * 64 x 16384 on an H200, against 4 us to move B).  A thread-per-vector leaf
 * (each thread holding a whole vector, T read as broadcasts, no shuffles)
 * was measured against this one on an H200 and lost everywhere but the
 * side-right leaf: DTRSM m=16384, n=64/256/1024 at 0.63x/0.68x/0.74x cuBLAS
 * against 1.73x/1.55x/1.30x here, DTRMM 16384^2 1.05x against 1.19x
 * (BENCHMARKS.md, sweep of 2026-11-23); it was removed. */
#include "check.cuh"
#include "scalar.cuh"
#include "trxm_leaf.cuh"

namespace {

constexpr int LEAF_WARPS = 8;
constexpr int V = 2;                  /* vectors per warp at a time */
constexpr int RT = LEAF_WARPS * V;    /* rows of B per round, side right */

/* Which loop runs: forward or backward solve, lower or upper product. */
enum leaf_op { SOLVE_LOWER, SOLVE_UPPER, MUL_LOWER, MUL_UPPER };

template <class T> struct leaf_args {
    const T *A;
    T *B;
    int64_t lda, ldb, nvec;
    T alpha;
    int k;
    bool tr;     /* T(i,j) = A(j,i) (else A(i,j)) */
    bool cj;     /* conjugate A's elements */
    bool unit;   /* unit diagonal: A's diagonal is not read */
};

/* x[v] := T^-1 x[v] (solve) or T x[v] for the V vectors of this warp; lane
 * holds element lane + 32 r of vector v in x[v][r]. */
template <class T, int NB, leaf_op OP>
__device__ __forceinline__ void leaf_vectors(T (&x)[V][NB / 32], const T *sT, const T *sdinv,
                                             int lane)
{
    constexpr int LDS = NB + 1, R = NB / 32;
    constexpr bool LOWER = OP == SOLVE_LOWER || OP == MUL_LOWER;
    if (OP == SOLVE_LOWER || OP == SOLVE_UPPER) {
        /* x_j = x_j / T(j,j), then x_i -= T(i,j) x_j below (lower) or above
         * (upper) j; groups of 32 rows with nothing left to update are
         * skipped at compile time. */
#pragma unroll
        for (int s = 0; s < NB; s++) {
            const int j = LOWER ? s : NB - 1 - s;
            const T d = sdinv[j];
#pragma unroll
            for (int v = 0; v < V; v++) {
                const T xj = kmul(kshfl(x[v][j / 32], j % 32), d);
                if (lane == j % 32)
                    x[v][j / 32] = xj;
#pragma unroll
                for (int r = 0; r < R; r++)
                    if (LOWER ? 32 * r + 31 > j : 32 * r < j)
                        x[v][r] = kfms(sT[lane + 32 * r + j * LDS], xj, x[v][r]);
            }
        }
    } else {
        T y[V][R];
#pragma unroll
        for (int v = 0; v < V; v++)
#pragma unroll
            for (int r = 0; r < R; r++)
                y[v][r] = kzero<T>();
#pragma unroll
        for (int j = 0; j < NB; j++)
#pragma unroll
            for (int v = 0; v < V; v++) {
                const T xj = kshfl(x[v][j / 32], j % 32);
#pragma unroll
                for (int r = 0; r < R; r++)
                    if (LOWER ? 32 * r + 31 >= j : 32 * r <= j)
                        y[v][r] = kfma(sT[lane + 32 * r + j * LDS], xj, y[v][r]);
            }
#pragma unroll
        for (int v = 0; v < V; v++)
#pragma unroll
            for (int r = 0; r < R; r++)
                x[v][r] = y[v][r];
    }
}

/* Element i of vector vec: B(i, vec) on side left, B(vec, i) on side right. */
template <class T, int NB, leaf_op OP, bool LEFT>
__global__ void __launch_bounds__(LEAF_WARPS * 32) trxm_leaf_kernel(leaf_args<T> a)
{
    constexpr int LDS = NB + 1; /* keeps the transposed stores conflict-free */
    constexpr int R = NB / 32;  /* elements of a vector per lane */
    constexpr bool LOWER = OP == SOLVE_LOWER || OP == MUL_LOWER;
    constexpr bool SOLVE = OP == SOLVE_LOWER || OP == SOLVE_UPPER;
    constexpr int STAGE = NB * NB / (LEAF_WARPS * 32); /* elements of A per thread */
    __shared__ T sT[NB * LDS];
    __shared__ T sdinv[NB];
    __shared__ T sB[LEFT ? 1 : RT * LDS];

    /* Stage T: all of this thread's reads of A are issued before the first
     * store; A is read down its columns, T(i,j) stored at sT[i + j*LDS]. */
    T av[STAGE];
#pragma unroll
    for (int e = 0; e < STAGE; e++) {
        const int idx = threadIdx.x + e * LEAF_WARPS * 32, p = idx % NB, q = idx / NB;
        const int i = a.tr ? q : p, j = a.tr ? p : q;
        const bool want = p < a.k && q < a.k && (i == j ? !a.unit : LOWER ? i > j : i < j);
        av[e] = want ? a.A[p + (int64_t)q * a.lda] : kzero<T>();
    }
#pragma unroll
    for (int e = 0; e < STAGE; e++) {
        const int idx = threadIdx.x + e * LEAF_WARPS * 32, p = idx % NB, q = idx / NB;
        const int i = a.tr ? q : p, j = a.tr ? p : q;
        const T v = a.cj ? kconj(av[e]) : av[e];
        if (i == j) {
            /* unit or padding: 1; the diagonal of T stays 0 in sT when solving */
            const T d = (p < a.k && !a.unit) ? v : kone<T>();
            if (SOLVE)
                sdinv[i] = kinv(d);
            sT[i + j * LDS] = SOLVE || p >= a.k ? kzero<T>() : d;
        } else {
            sT[i + j * LDS] = v;
        }
    }
    __syncthreads();

    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    T x[V][R];
    if constexpr (LEFT) {
        /* warps take V columns of B at a time, read and written in place */
        const int64_t stride = (int64_t)gridDim.x * LEAF_WARPS * V;
        for (int64_t v0 = ((int64_t)blockIdx.x * LEAF_WARPS + warp) * V; v0 < a.nvec;
             v0 += stride) {
#pragma unroll
            for (int v = 0; v < V; v++) {
                const T *b = a.B + kern_min64(v0 + v, a.nvec - 1) * a.ldb;
#pragma unroll
                for (int r = 0; r < R; r++) {
                    const int i = lane + 32 * r;
                    x[v][r] = i < a.k && v0 + v < a.nvec ? b[i] : kzero<T>();
                    if (SOLVE)
                        x[v][r] = kmul(a.alpha, x[v][r]);
                }
            }
            leaf_vectors<T, NB, OP>(x, sT, sdinv, lane);
#pragma unroll
            for (int v = 0; v < V; v++) {
                T *b = a.B + (v0 + v) * a.ldb;
#pragma unroll
                for (int r = 0; r < R; r++) {
                    const int i = lane + 32 * r;
                    if (i < a.k && v0 + v < a.nvec)
                        b[i] = SOLVE ? x[v][r] : kmul(a.alpha, x[v][r]);
                }
            }
        }
    } else {
        /* rounds of RT rows through shared memory; warp w takes rows wV.. */
        for (int64_t row0 = (int64_t)blockIdx.x * RT; row0 < a.nvec;
             row0 += (int64_t)gridDim.x * RT) {
            const int rows = (int)kern_min64(RT, a.nvec - row0);
            for (int idx = threadIdx.x; idx < RT * a.k; idx += blockDim.x) {
                const int rr = idx % RT, c = idx / RT;
                if (rr < rows)
                    sB[rr * LDS + c] = a.B[row0 + rr + (int64_t)c * a.ldb];
            }
            __syncthreads();
#pragma unroll
            for (int v = 0; v < V; v++)
#pragma unroll
                for (int r = 0; r < R; r++) {
                    const int i = lane + 32 * r, rr = warp * V + v;
                    x[v][r] = i < a.k && rr < rows ? sB[rr * LDS + i] : kzero<T>();
                    if (SOLVE)
                        x[v][r] = kmul(a.alpha, x[v][r]);
                }
            leaf_vectors<T, NB, OP>(x, sT, sdinv, lane);
#pragma unroll
            for (int v = 0; v < V; v++)
#pragma unroll
                for (int r = 0; r < R; r++) {
                    const int i = lane + 32 * r, rr = warp * V + v;
                    if (i < a.k && rr < rows)
                        sB[rr * LDS + i] = SOLVE ? x[v][r] : kmul(a.alpha, x[v][r]);
                }
            __syncthreads();
            for (int idx = threadIdx.x; idx < RT * a.k; idx += blockDim.x) {
                const int rr = idx % RT, c = idx / RT;
                if (rr < rows)
                    a.B[row0 + rr + (int64_t)c * a.ldb] = sB[rr * LDS + c];
            }
            __syncthreads(); /* sB is refilled next round */
        }
    }
}

/* As many blocks as the device holds at once (never more than there is
 * work for); the occupancy is asked once per kernel. */
template <class T, int NB, leaf_op OP, bool LEFT>
int leaf_launch(cudaStream_t s, const leaf_args<T> &a)
{
    static const int per_sm = [] {
        int o = 0;
        const bool ok = cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                            &o, trxm_leaf_kernel<T, NB, OP, LEFT>, LEAF_WARPS * 32, 0) ==
                        cudaSuccess;
        return ok && o > 0 ? o : 1;
    }();
    int nsm;
    int err = kern_sm_count(&nsm);
    if (err)
        return err;
    const int64_t blocks = kern_min64((int64_t)per_sm * nsm, kern_cdiv64(a.nvec, RT));
    trxm_leaf_kernel<T, NB, OP, LEFT><<<(unsigned)blocks, LEAF_WARPS * 32, 0, s>>>(a);
    KERN_LAUNCH_CHECK();
    return 0;
}

template <class T, int NB, leaf_op OP>
int leaf_launch_side(bool left, cudaStream_t s, const leaf_args<T> &a)
{
    return left ? leaf_launch<T, NB, OP, true>(s, a) : leaf_launch<T, NB, OP, false>(s, a);
}

} // namespace

template <class T>
int kern_trxm_leaf(cudaStream_t s, bool solve, tess_side_t side, tess_uplo_t uplo,
                   tess_trans_t trans, tess_diag_t diag, int64_t k, int64_t nvec, T alpha,
                   const T *A, int64_t lda, T *B, int64_t ldb)
{
    constexpr int NB = kern_leaf_nb<T>();
    if (k <= 0 || nvec <= 0)
        return 0;
    const bool left = side == TessLeft;
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
        return lower ? leaf_launch_side<T, NB, SOLVE_LOWER>(left, s, a)
                     : leaf_launch_side<T, NB, SOLVE_UPPER>(left, s, a);
    return lower ? leaf_launch_side<T, NB, MUL_LOWER>(left, s, a)
                 : leaf_launch_side<T, NB, MUL_UPPER>(left, s, a);
}

#define KERN_LEAF_INSTANCE(T)                                                                      \
    template int kern_trxm_leaf<T>(cudaStream_t, bool, tess_side_t, tess_uplo_t, tess_trans_t,     \
                                   tess_diag_t, int64_t, int64_t, T, const T *, int64_t, T *,     \
                                   int64_t);
KERN_LEAF_INSTANCE(float)
KERN_LEAF_INSTANCE(double)
KERN_LEAF_INSTANCE(cuComplex)
KERN_LEAF_INSTANCE(cuDoubleComplex)
